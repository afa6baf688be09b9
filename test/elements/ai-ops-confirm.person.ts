// Runs only in the `person` group of web-test-runner.config.mjs (`npx web-test-runner --group person`):
// Chromium launched with --disable-blink-features=AutomationControlled, so navigator.webdriver is false as in a browser a
// person opened. The automated path is tested in ai-ops-confirm.test.ts.
import { expect, fixture, html } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsConfirm } from '../../elements/ai-ops-confirm.js';
import { centerOf, cleanupRuntimes, createTestRuntime, testOperations, textOf, turnOn, until } from './helpers.js';

// All three tags now, as a page that has turned a switch on has them.
await loadAiOpsElements();

describe('<ai-ops-confirm> in a browser a person opened', () => {
  afterEach(async () => {
    cleanupRuntimes();
    await resetMouse();
  });

  it('[AGENT-3] with navigator.webdriver false the dialog shows no automation notice, and is otherwise the same', async () => {
    expect(navigator.webdriver, 'this group launches Chromium without the automation flag').to.equal(false);
    const aiOps = createTestRuntime();
    const session = aiOps.provideOperations('go', testOperations('go'));
    await turnOn(session);
    const el = await fixture<AiOpsConfirm>(html`<ai-ops-confirm .aiOps=${aiOps}></ai-ops-confirm>`);
    const answer = session.call('go_delete_file', { path: 'a.go' });
    const root = el.shadowRoot!;
    await until(() => root.querySelector('dialog')!.open, 'the dialog');
    await el.updateComplete;
    expect(textOf(root.querySelector('h2'))).to.equal('ファイル「a.go」を削除する');
    expect(root.querySelector('[part="automation-notice"]')?.outerHTML ?? null).to.equal(null);
    expect(textOf(root.querySelector('[part="body"]'))).to.not.contain('プログラム');
    expect(root.activeElement).to.equal(root.querySelector('.cancel'));
    await expect(el).to.be.accessible();
    await sendMouse({ type: 'click', position: centerOf(root.querySelector('.cancel')!) });
    expect(JSON.parse(await answer).error.code).to.equal('declined');
  });
});
