// The page's one lazy moment (PKG-4): what a page whose switches are all off does not download
// loads when a runtime first loads its on-demand part, and not before. This file's page imports
// nothing else that could load it (web-test-runner gives each file its own page).
import { expect } from '@open-wc/testing';
import { createAiOps, whenOnDemand } from '../../src/runtime.js';
import { defineOperation } from '../../src/definition.js';
import { succeed } from '../../src/result.js';
import '../../elements/define.js';
import { FakeClock, FakeLoader, MemoryStorage } from '../runtime/helpers.js';

describe('the on-demand moment', () => {
  it('[PKG-4] the dialog and the log are defined when a runtime first loads its on-demand part, not while every switch is off; later listeners run at once', async () => {
    const heard: string[] = [];
    whenOnDemand(() => heard.push('first'));
    const clock = new FakeClock();
    const aiOps = createAiOps({ consent: 'click', clock, storage: new MemoryStorage(), loader: new FakeLoader(), embedded: false, browserModelContext: null, autoReconnect: false, assetsBase: '/vendor/' });
    const session = aiOps.provideOperations('moment', [
      defineOperation({ name: 'moment_ping', description: 'pong を返す', inputSchema: { type: 'object', additionalProperties: false }, execute: async () => succeed() }),
    ]);
    // The runtime's clock a minute on (past CONF-8's 50 s) and a task later: a load a timer of the
    // runtime, or a task, started while every switch is off has called `heard` by now.
    clock.advance(60_000);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect({ heard, confirm: customElements.get('ai-ops-confirm'), log: customElements.get('ai-ops-log') }, 'every switch off').to.deep.equal({ heard: [], confirm: undefined, log: undefined });
    await session.turnOn();
    expect(heard).to.deep.equal(['first']);
    await Promise.all([customElements.whenDefined('ai-ops-confirm'), customElements.whenDefined('ai-ops-log')]);
    whenOnDemand(() => heard.push('later'));
    expect(heard).to.deep.equal(['first', 'later']);
    session.turnOff();
    aiOps.dispose();
  });
});
