import { expect } from '@open-wc/testing';
import * as React from 'react';
import { flushSync } from 'react-dom';
import { AiOpsConfirm, AiOpsLog, AiOpsSwitch, useAiOpsStore } from '../../elements/react.js';
import type { AiOpsSwitch as AiOpsSwitchElement } from '../../elements/switch/ai-ops-switch.js';
import type { AiOpsLog as AiOpsLogElement } from '../../elements/log/ai-ops-log.js';
import type { AiOpsConfirm as AiOpsConfirmElement } from '../../elements/confirm/ai-ops-confirm.js';
import type { AiOpsSwitchChangeEvent, AiOpsLogVisibilityChangeEvent } from '../../elements/internal/events.js';
import type { ToolSession } from '../../src/tool-session.js';
import { cleanupRuntimes, createTestRuntime, statusReached, testOperations, textOf, until } from './helpers.js';
import { reactRootPerTest } from '../helpers/react-root.js';

describe('React wrappers', () => {
  const react = reactRootPerTest();

  afterEach(() => {
    cleanupRuntimes();
  });

  it('[SHAPE-6] React 19 renders the switch with its runtime and forwards its event as onSwitchChange', async () => {
    const aiOps = createTestRuntime();
    const session = aiOps.provideOperations('slides', testOperations('slides'));
    const changes: AiOpsSwitchChangeEvent['detail'][] = [];
    const visibility: boolean[] = [];
    flushSync(() => {
      react.root.render(React.createElement(React.Fragment, null,
        React.createElement(AiOpsSwitch, { tool: 'slides', aiOps, onSwitchChange: (e: AiOpsSwitchChangeEvent) => changes.push(e.detail) }),
        React.createElement(AiOpsConfirm, { aiOps }),
        React.createElement(AiOpsLog, { aiOps, mode: 'tab', onVisibilityChange: (e: AiOpsLogVisibilityChangeEvent) => visibility.push(e.detail.visible) }),
      ));
    });
    const el = react.container.querySelector('ai-ops-switch') as AiOpsSwitchElement;
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
    const confirm = react.container.querySelector<AiOpsConfirmElement>('ai-ops-confirm')!;
    await confirm.updateComplete;
    expect(confirm.shadowRoot!.querySelector('dialog')).to.exist;
    expect(confirm.aiOps === aiOps, 'the dialog took over the aiOps React set before it upgraded').to.equal(true);
    await until(() => visibility.includes(true), 'the log to show');
    const log = react.container.querySelector<AiOpsLogElement>('ai-ops-log')!;
    expect(log.getAttribute('mode')).to.equal('tab');
    expect(log.aiOps === aiOps, 'the log took over the aiOps React set before it upgraded').to.equal(true);
  });

  it('[SHAPE-6] the wrappers hand their element to a ref, take other HTML attributes, and drop an event listener removed from the props', async () => {
    const aiOps = createTestRuntime();
    aiOps.provideOperations('slides', testOperations('slides'));
    const ref = React.createRef<AiOpsSwitchElement>();
    const seen: (AiOpsLogElement | null)[] = [];
    const changes: boolean[] = [];
    const render = (listen: boolean) => flushSync(() => react.root.render(React.createElement(React.Fragment, null,
      React.createElement(AiOpsSwitch, { tool: 'slides', aiOps, ref, id: 'the-switch', onSwitchChange: listen ? (e: AiOpsSwitchChangeEvent) => changes.push(e.detail.on) : undefined }),
      React.createElement(AiOpsLog, { aiOps, tool: 'slides', ref: (el: AiOpsLogElement | null) => { seen.push(el); } }),
    )));
    render(true);
    const el = react.container.querySelector<AiOpsSwitchElement>('ai-ops-switch')!;
    expect(ref.current === el, 'the ref holds the switch').to.equal(true);
    expect(el.id).to.equal('the-switch');
    expect(seen[0] === react.container.querySelector('ai-ops-log'), 'the callback ref got the log').to.equal(true);
    await el.updateComplete;
    render(false);
    el.shadowRoot!.querySelector('input')!.click();
    await until(() => el.shadowRoot!.querySelector('input')!.checked, 'the switch to show on');
    expect(changes).to.deep.equal([]);
  });

  it('[SHAPE-6] the stores work with useSyncExternalStore (useAiOpsStore)', async () => {
    const aiOps = createTestRuntime();
    const session: ToolSession = aiOps.provideOperations('slides', testOperations('slides'));
    function Status() {
      const { status } = useAiOpsStore(session);
      return React.createElement('output', null, status);
    }
    flushSync(() => react.root.render(React.createElement(Status)));
    expect(textOf(react.container)).to.equal('off');
    await session.turnOn();
    await statusReached(session, 'on');
    await until(() => textOf(react.container) === 'on', 'React to render the new status');
  });
});
