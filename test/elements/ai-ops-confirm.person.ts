// Runs only in the `person` group of web-test-runner.config.mjs (`npx web-test-runner --group person`):
// Chromium launched with --disable-blink-features=AutomationControlled, so navigator.webdriver is false as in a browser a
// person opened. The automated path is tested in ai-ops-confirm.test.ts. Verified consent applies here
// as there (UV-2): the user's device is a CDP virtual authenticator (test/wtr-webauthn-plugin.mjs).
import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand, resetMouse, sendMouse } from '@web/test-runner-commands';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsConfirm } from '../../elements/confirm/ai-ops-confirm.js';
import type { AiOpsSwitch } from '../../elements/switch/ai-ops-switch.js';
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

describe('verified consent in a browser a person opened (UV-2: navigator.webdriver plays no part)', () => {
  const part = (el: Element, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
  let authenticatorId = '';
  afterEach(async () => {
    cleanupRuntimes();
    await resetMouse();
    if (authenticatorId) await executeServerCommand('webauthn', { action: 'remove', authenticatorId });
    authenticatorId = '';
  });

  it('[UV-2] [UV-4] with no device that can verify, a click on the switch turns nothing on; the alert says what to do, with no AGENT-3 sentence', async () => {
    expect(navigator.webdriver).to.equal(false);
    const aiOps = createTestRuntime({ consent: 'auto' });
    const session = aiOps.provideOperations('go', testOperations('go'));
    const sw = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="go" .aiOps=${aiOps}></ai-ops-switch>`);
    const input = sw.shadowRoot!.querySelector<HTMLInputElement>('input[role="switch"]')!;
    await sendMouse({ type: 'click', position: centerOf(input) });
    await until(() => !!part(sw, 'alert'), 'the alert');
    await sw.updateComplete;
    expect(textOf(part(sw, 'alert-body'))).to.equal('このブラウザーとこの端末では本人確認 (パスキー、指紋、PIN) を使えません。セキュリティキーをつなぐか、スマートフォンのパスキーを使ってください。');
    expect(input.checked).to.equal(false);
    expect(session.getState().status).to.equal('off');
    expect(aiOps.storage.length).to.equal(0);
  });

  it('[UV-1] [UV-2] the person present: the switch-on enrols and verifies, approving asks the device; the person away: the same click approves nothing', async () => {
    ({ authenticatorId } = (await executeServerCommand('webauthn', { action: 'add' })) as { authenticatorId: string });
    const aiOps = createTestRuntime({ consent: 'auto', verificationTimeoutMs: 1000 });
    const session = aiOps.provideOperations('go', testOperations('go'));
    await turnOn(session);
    expect(await aiOps.consentStore.get('enrolment')).to.have.keys(['v', 'credentialId', 'alg', 'spki']);
    const el = await fixture<AiOpsConfirm>(html`<ai-ops-confirm .aiOps=${aiOps}></ai-ops-confirm>`);
    el.pointerGuardMs = 0;
    const root = el.shadowRoot!;
    const approve = async (path: string) => {
      const answer = session.call('go_delete_file', { path });
      await until(() => root.querySelector('dialog')!.open, 'the dialog');
      await el.updateComplete;
      expect(root.querySelector('[part="automation-notice"]')).to.equal(null);
      expect(textOf(root.querySelector('[part="verification-notice"]'))).to.contain('本人確認');
      await sendMouse({ type: 'click', position: centerOf(root.querySelector('.action')!) });
      return JSON.parse(await answer);
    };
    expect(await approve('a.go')).to.deep.equal({ ok: true, path: 'a.go' });
    expect(aiOps.log.getState().entries.at(-1)!.receipt!.description).to.include({ kind: 'call', operation: 'go_delete_file' });
    await executeServerCommand('webauthn', { action: 'presence', authenticatorId, enabled: false });
    const away = await approve('b.go');
    expect(away.error.code).to.equal('declined');
    expect(away.error.message).to.contain('nobody answered the platform\'s user verification in time');
  });
});
