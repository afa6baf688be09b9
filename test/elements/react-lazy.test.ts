// REACT-1: the wrappers of the dialog and the log work before those elements' code has loaded.
// This file gives them nothing else to load it (web-test-runner gives each file its own page), so
// the tags start bare and are defined by the test itself.
import { expect } from '@open-wc/testing';
import * as React from 'react';
import { flushSync } from 'react-dom';
import { AiOpsConfirm, AiOpsLog } from '../../elements/react.js';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsLog as AiOpsLogElement } from '../../elements/log/ai-ops-log.js';
import type { AiOpsConfirm as AiOpsConfirmElement } from '../../elements/confirm/ai-ops-confirm.js';
import { cleanupRuntimes, createTestRuntime } from './helpers.js';
import { reactRootPerTest } from '../helpers/react-root.js';

describe('React wrappers of the elements defined on demand', () => {
  const react = reactRootPerTest();

  afterEach(() => {
    cleanupRuntimes();
  });

  it('[REACT-1] every public property of the dialog and the log set through the wrappers reaches the element, set before or after it upgrades', async () => {
    const aiOps = createTestRuntime();
    const clock = { now: () => 0, setTimeout: globalThis.setTimeout.bind(globalThis), clearTimeout: globalThis.clearTimeout.bind(globalThis) };
    const logProps = { aiOps, strings: { logTitle: 'Operations' }, tool: 'slides', mode: 'tab', open: true, clock } as const;
    const confirmProps = { aiOps, strings: { confirmCancel: 'No' }, pointerGuardMs: 0, clock, automated: false };
    const render = (title: string) => flushSync(() => react.root.render(React.createElement(React.Fragment, null,
      React.createElement(AiOpsLog, { ...logProps, strings: { logTitle: title } }),
      React.createElement(AiOpsConfirm, confirmProps as React.ComponentProps<typeof AiOpsConfirm>),
    )));
    render('before');
    expect(customElements.get('ai-ops-log') === undefined && customElements.get('ai-ops-confirm') === undefined, 'bare tags at first').to.equal(true);
    // The bare log keeps the attributes React gave it, before any of its code loads.
    const bare = react.container.querySelector('ai-ops-log')!;
    expect([bare.getAttribute('tool'), bare.getAttribute('mode'), bare.hasAttribute('open'), bare.hasAttribute('aiOps')]).to.deep.equal(['slides', 'tab', true, false]);
    await loadAiOpsElements();
    const log = react.container.querySelector<AiOpsLogElement>('ai-ops-log')!;
    const confirm = react.container.querySelector<AiOpsConfirmElement>('ai-ops-confirm')!;
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

});
