import { expect } from '@open-wc/testing';
import * as React from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { AiOpsConfirm, AiOpsLog, AiOpsSwitch, useAiOpsStore } from '../../elements/react.js';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsSwitch as AiOpsSwitchElement } from '../../elements/ai-ops-switch.js';
import type { AiOpsLog as AiOpsLogElement } from '../../elements/ai-ops-log.js';
import type { AiOpsConfirm as AiOpsConfirmElement } from '../../elements/ai-ops-confirm.js';
import type { AiOpsSwitchChangeEvent, AiOpsLogVisibilityChangeEvent } from '../../elements/events.js';
import type { ToolSession } from '../../src/tool-session.js';
import { cleanupRuntimes, createTestRuntime, statusReached, testOperations, textOf, until } from './helpers.js';

describe('React wrappers', () => {
  let container: HTMLElement;
  let root: Root;

  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });

  afterEach(() => {
    root.unmount();
    container.remove();
    cleanupRuntimes();
  });

  it('[SHAPE-6] React 19 renders the switch with its runtime and forwards its event as onSwitchChange', async () => {
    const aiOps = createTestRuntime();
    const session = aiOps.provideOperations('slides', testOperations('slides'));
    const changes: AiOpsSwitchChangeEvent['detail'][] = [];
    const visibility: boolean[] = [];
    flushSync(() => {
      root.render(React.createElement(React.Fragment, null,
        React.createElement(AiOpsSwitch, { tool: 'slides', aiOps, onSwitchChange: (e: AiOpsSwitchChangeEvent) => changes.push(e.detail) }),
        React.createElement(AiOpsConfirm, { aiOps }),
        React.createElement(AiOpsLog, { aiOps, mode: 'tab', onVisibilityChange: (e: AiOpsLogVisibilityChangeEvent) => visibility.push(e.detail.visible) }),
      ));
    });
    const el = container.querySelector('ai-ops-switch') as AiOpsSwitchElement;
    expect(el).to.exist;
    expect(el.aiOps).to.equal(aiOps);
    await el.updateComplete;
    await expect(el).to.be.accessible();
    const input = el.shadowRoot!.querySelector('input')!;
    expect(textOf(el.shadowRoot!.querySelector('label'))).to.equal('AI からの操作');
    // REACT-1: while the switch is off the dialog and the log are bare tags, their code not loaded.
    // (Booleans: a failed assertion that prints an element class ends the whole browser run.)
    expect(customElements.get('ai-ops-confirm') === undefined, '<ai-ops-confirm> undefined while off').to.equal(true);
    expect(customElements.get('ai-ops-log') === undefined, '<ai-ops-log> undefined while off').to.equal(true);
    const loaded = performance.getEntriesByType('resource').map((e) => e.name).filter((url) => /ai-ops-(log|confirm)\.ts/.test(url));
    expect(loaded).to.deep.equal([]);

    input.click();
    await statusReached(session, 'on');
    expect(changes).to.deep.equal([{ tool: 'slides', on: true }]);
    await Promise.all([customElements.whenDefined('ai-ops-confirm'), customElements.whenDefined('ai-ops-log')]);
    const confirm = container.querySelector<AiOpsConfirmElement>('ai-ops-confirm')!;
    await confirm.updateComplete;
    expect(confirm.shadowRoot!.querySelector('dialog')).to.exist;
    expect(confirm.aiOps === aiOps, 'the dialog took over the aiOps React set before it upgraded').to.equal(true);
    await until(() => visibility.includes(true), 'the log to show');
    const log = container.querySelector<AiOpsLogElement>('ai-ops-log')!;
    expect(log.getAttribute('mode')).to.equal('tab');
    expect(log.aiOps === aiOps, 'the log took over the aiOps React set before it upgraded').to.equal(true);
  });

  it('[REACT-1] every public property of the dialog and the log set through the wrappers reaches the element, set before or after it upgrades', async () => {
    const aiOps = createTestRuntime();
    const clock = { now: () => 0, setTimeout: globalThis.setTimeout.bind(globalThis), clearTimeout: globalThis.clearTimeout.bind(globalThis) };
    const logProps = { aiOps, strings: { logTitle: 'Operations' }, tool: 'slides', mode: 'tab', open: true } as const;
    const confirmProps = { aiOps, strings: { confirmCancel: 'No' }, pointerGuardMs: 0, clock, automated: false };
    const render = (title: string) => flushSync(() => root.render(React.createElement(React.Fragment, null,
      React.createElement(AiOpsLog, { ...logProps, strings: { logTitle: title } }),
      React.createElement(AiOpsConfirm, confirmProps as React.ComponentProps<typeof AiOpsConfirm>),
    )));
    render('before');
    await loadAiOpsElements();
    const log = container.querySelector<AiOpsLogElement>('ai-ops-log')!;
    const confirm = container.querySelector<AiOpsConfirmElement>('ai-ops-confirm')!;
    await Promise.all([log.updateComplete, confirm.updateComplete]);
    // The classes' own list of public properties (Lit's declared ones, state left out).
    const declared = (tag: string) => [...(customElements.get(tag) as unknown as { elementProperties: Map<string, { state?: boolean }> }).elementProperties]
      .filter(([, options]) => !options.state).map(([name]) => name).sort();
    expect(declared('ai-ops-log')).to.deep.equal(Object.keys(logProps).sort());
    expect(declared('ai-ops-confirm')).to.deep.equal(Object.keys(confirmProps).sort());
    const own = (el: object, name: string) => (el as Record<string, unknown>)[name];
    for (const [name, value] of Object.entries(logProps)) {
      if (name !== 'strings') expect(own(log, name) === value, `log.${name} set before the upgrade`).to.equal(true);
    }
    expect(log.strings).to.deep.equal({ logTitle: 'before' });
    for (const [name, value] of Object.entries(confirmProps)) expect(own(confirm, name) === value, `confirm.${name}`).to.equal(true);
    render('after');
    expect(log.strings).to.deep.equal({ logTitle: 'after' });
    expect(log.hasAttribute('strings') || confirm.hasAttribute('clock'), 'objects are never attributes').to.equal(false);
  });

  it('[SHAPE-6] the stores work with useSyncExternalStore (useAiOpsStore)', async () => {
    const aiOps = createTestRuntime();
    const session: ToolSession = aiOps.provideOperations('slides', testOperations('slides'));
    function Status() {
      const { status } = useAiOpsStore(session);
      return React.createElement('output', null, status);
    }
    flushSync(() => root.render(React.createElement(Status)));
    expect(textOf(container)).to.equal('off');
    session.turnOn();
    await statusReached(session, 'on');
    await until(() => textOf(container) === 'on', 'React to render the new status');
  });
});
