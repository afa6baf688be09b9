// PKG-4: `elements/define.js` (what the bundle and the playground pages import) defines the switch
// at once and the log and the dialog only when a switch turns on. This file imports nothing else
// of elements/, and web-test-runner gives each test file its own page, so the registry starts empty.
import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/define.js';
import type { AiOpsLog } from '../../elements/log/ai-ops-log.js';
import type { AiOpsSwitch } from '../../elements/switch/ai-ops-switch.js';
import { aiOpsTagNames, loadAiOpsElements } from '../../elements/define.js';
import { whenOnDemand } from '../../src/runtime.js';
import { cleanupRuntimes, createFakeClock, createTestRuntime, testOperations, turnOn } from './helpers.js';

describe('elements/define.js: the log and the dialog load with the first switch-on', () => {
  afterEach(() => cleanupRuntimes());

  it('[PKG-4] [LOG-1] while every switch is off only <ai-ops-switch> is defined; switching on defines the log and the dialog, and the log shows', async () => {
    expect(aiOpsTagNames).to.deep.equal(['ai-ops-switch', 'ai-ops-confirm', 'ai-ops-log']);
    const clock = createFakeClock();
    const aiOps = createTestRuntime({ clock });
    const session = aiOps.provideOperations('notes', testOperations('notes'));
    const host = await fixture<HTMLDivElement>(html`<div>
      <ai-ops-switch tool="notes" .aiOps=${aiOps}></ai-ops-switch>
      <ai-ops-log tool="notes" .aiOps=${aiOps}></ai-ops-log>
      <ai-ops-confirm .aiOps=${aiOps}></ai-ops-confirm>
    </div>`);
    const sw = host.querySelector<AiOpsSwitch>('ai-ops-switch')!;
    await sw.updateComplete;
    const toggle = sw.shadowRoot!.querySelector('input[role="switch"]');
    expect(toggle, 'the switch renders while off').to.exist;
    // The log and the dialog load with the page's on-demand moment (define.js). The switch has
    // rendered, the runtime's clock is a minute on (past CONF-8's 50 s) and a task later: a load a
    // timer or a task started has begun by now, and then a listener added is called at once.
    clock.advance(60_000);
    await new Promise((r) => setTimeout(r, 0));
    let begun = false;
    whenOnDemand(() => (begun = true));
    expect(begun, 'no runtime of the page began to load its on-demand part while off').to.equal(false);
    // Booleans: a failed assertion that prints an element class ends the whole browser run.
    expect(customElements.get('ai-ops-log') === undefined, '<ai-ops-log> is not defined while off').to.equal(true);
    expect(customElements.get('ai-ops-confirm') === undefined, '<ai-ops-confirm> is not defined while off').to.equal(true);
    const scripts = performance.getEntriesByType('resource').map((e) => e.name);
    expect(scripts.filter((url) => /ai-ops-(log|confirm)\.ts/.test(url))).to.deep.equal([]);

    await turnOn(session);
    await Promise.all([customElements.whenDefined('ai-ops-log'), customElements.whenDefined('ai-ops-confirm')]);
    const log = host.querySelector<AiOpsLog>('ai-ops-log')!;
    await log.updateComplete;
    expect(log.shadowRoot!.querySelector('[role="log"]'), 'the log shows once on').to.exist;
  });

  it('[PKG-4] loadAiOpsElements defines both at once in another registry, once', async () => {
    // A registry of its own (scoped registries are not in Chromium 156): a fresh window's.
    const frame = await fixture<HTMLIFrameElement>(html`<iframe></iframe>`);
    const registry = frame.contentWindow!.customElements;
    const first = loadAiOpsElements(registry);
    expect(loadAiOpsElements(registry)).to.equal(first);
    await first;
    expect(registry.get('ai-ops-log') === customElements.get('ai-ops-log'), 'the same <ai-ops-log> class').to.equal(true);
    expect(registry.get('ai-ops-confirm') === customElements.get('ai-ops-confirm'), 'the same <ai-ops-confirm> class').to.equal(true);
  });
});
