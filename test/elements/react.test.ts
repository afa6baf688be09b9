import { expect } from '@open-wc/testing';
import * as React from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { AiOpsConfirm, AiOpsLog, AiOpsSwitch, useAiOpsStore } from '../../elements/react.js';
import type { AiOpsSwitch as AiOpsSwitchElement } from '../../elements/ai-ops-switch.js';
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
    // ai-ops/react defines the dialog and the log through define.js, which loads their code.
    await customElements.whenDefined('ai-ops-confirm');
    await (container.querySelector('ai-ops-confirm') as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(container.querySelector('ai-ops-confirm')!.shadowRoot!.querySelector('dialog')).to.exist;

    input.click();
    await statusReached(session, 'on');
    expect(changes).to.deep.equal([{ tool: 'slides', on: true }]);
    await until(() => visibility.includes(true), 'the log to show');
    expect(container.querySelector('ai-ops-log')!.getAttribute('mode')).to.equal('tab');
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
