// The dialog and the switch with verified consent (UV-1, UV-2, UV-4, UV-9, UV-10), through the
// real WebAuthn stack: the user's device is a virtual authenticator (test/wtr-webauthn-plugin.mjs: CDP
// in Chromium, Marionette in Firefox), present or absent. The enrolment and the receipts are kept in
// the runtime's consent store (memory here, UV-8). The prompt left waiting by an absent user (UV-7)
// is Chromium's alone: ai-ops-confirm-uv-prompt.chromium.test.ts.
import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand, resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import { loadAiOpsElements } from '../../elements/define.js';
import { POINTER_GUARD_MS } from '../../elements/confirm/ai-ops-confirm.js';
import type { AiOpsSwitch } from '../../elements/switch/ai-ops-switch.js';
import type { AiOpsLog } from '../../elements/log/ai-ops-log.js';
import { aiOpsStringsEn } from '../../elements/strings-en.js';
import { setAiOpsStrings } from '../../elements/internal/strings.js';
import { permissionKey } from '../../src/permission-store.js';
import { ENROLMENT_KEY } from '../../src/consent-store.js';
import { receiptsKey } from '../../src/consent-gate.js';
import { defaultAiOpsStrings } from '../../elements/internal/strings.js';
import { failureText } from '../../elements/internal/strings.js';
import { centerOf, cleanupRuntimes, createFakeClock, createTestRuntime, MemoryStorage, testOperations, textOf, until, userDevice as device } from './helpers.js';
import { approveByKeyboard, dialogFor, part, setup } from './confirm-uv-setup.js';

await loadAiOpsElements();


/**
 * What an absent user's prompt ends as, per engine: Chromium's virtual authenticator leaves it
 * waiting, so the page's own deadline ends it (`timeout`); Firefox's refuses at once, before any
 * deadline (NotAllowedError, measured: 2 ms), which the page reads as cancelled.
 */
const ABSENT_ENDS_BY_TIMEOUT = !navigator.userAgent.includes('Firefox');

/** The switch element of `tool`, and a press on it with the keyboard (Space), as a person's. */
async function switchFor(aiOps: ReturnType<typeof createTestRuntime>, tool: string) {
  const sw = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool=${tool} .aiOps=${aiOps}></ai-ops-switch>`);
  const input = sw.shadowRoot!.querySelector<HTMLInputElement>('input[role="switch"]')!;
  return {
    sw, input,
    async press() {
      input.focus();
      await sendKeys({ press: ' ' }); // Space, by its key value: puppeteer's BiDi keyboard (Firefox) has no 'Space' name
    },
  };
}

describe('verified consent in the elements (UV)', () => {
  afterEach(async () => {
    cleanupRuntimes();
    await device.remove();
    await resetMouse();
  });

  it('[UV-1] [UV-5] the present user approves with the click plus the device: the call runs and its row keeps the receipt', async () => {
    await device.add(true);
    const { aiOps, session, el, storage, consentStore } = await setup();
    expect(await consentStore.get(ENROLMENT_KEY)).to.have.keys(['v', 'credentialId', 'alg', 'spki']);
    // UV-8: localStorage keeps PERM-1's switch value and nothing of the consent.
    expect(storage.length).to.equal(1);
    expect(storage.getItem(permissionKey('go'))).to.not.equal(null);
    const call = session.call('go_delete_file', { path: 'a.go' });
    await dialogFor(el);
    // The dialog says approving needs the device, not the AGENT-3 sentence of a click-only dialog.
    expect(textOf(part(el, 'verification-notice'))).to.contain('本人確認');
    expect(part(el, 'automation-notice')).to.equal(null);
    await approveByKeyboard(el);
    expect(JSON.parse(await call)).to.deep.equal({ ok: true, path: 'a.go' });
    const row = aiOps.log.getState().entries.at(-1)!;
    expect(row.receipt?.description).to.include({ kind: 'call', operation: 'go_delete_file', tool: 'go' });
  });

  it('[UV-2] in a person\'s browser (automated false) the switch-on enrols, verified, and the dialog asks the device too: no offer, no click fallback', async () => {
    await device.add(true);
    const { aiOps, session, el, consentStore } = await setup({ automated: false });
    // The switch-on itself enrolled (a click alone turns nothing on, whoever drives the browser).
    expect(await consentStore.get(ENROLMENT_KEY)).to.have.keys(['v', 'credentialId', 'alg', 'spki']);
    expect(((await consentStore.get(receiptsKey('go'))) as { on: { description: unknown } }).on.description).to.include({ kind: 'switch', tool: 'go' });
    const call = session.call('go_delete_file', { path: 'c.go' });
    await dialogFor(el);
    expect(aiOps.confirmations.getState().current!.verification).to.equal('required');
    expect(part(el, 'protect')).to.equal(null);
    expect(textOf(el.shadowRoot!.querySelector('[part="body"]'))).to.not.contain('承認を本人確認で守る');
    expect(textOf(part(el, 'verification-notice'))).to.contain('本人確認');
    expect(part(el, 'automation-notice')).to.equal(null);
    await approveByKeyboard(el);
    expect(JSON.parse(await call).ok).to.equal(true);
    expect(aiOps.log.getState().entries.at(-1)!.receipt!.description).to.include({ kind: 'call', operation: 'go_delete_file' });
    // And with the user away, the same keyboard approval gives nothing.
    await device.present(false);
    const away = createTestRuntime({ consent: 'auto', automated: false, consentStore, verificationTimeoutMs: 1000 });
    const next = away.provideOperations('go', testOperations('go'));
    const { input, press } = await switchFor(away, 'go');
    await press();
    await until(() => next.getState().status === 'off' && next.getState().error !== null, 'the switch-on refused', 5000);
    expect(input.checked).to.equal(false);
    expect(next.getState().reason?.code).to.equal(ABSENT_ENDS_BY_TIMEOUT ? 'consentTimeout' : 'consentCancelled');
    expect(failureText(defaultAiOpsStrings, next.getState())).to.equal(ABSENT_ENDS_BY_TIMEOUT ? '本人確認に時間内に答えがなかったため、AI からの操作を始めませんでした。' : '本人確認が取り消されたため、AI からの操作を始めませんでした。');
  });

  it('[UV-5] [UV-2] the log shows the enrolled key\'s fingerprint, and removing the enrolment is itself verified', async () => {
    await device.add(true);
    const { aiOps, consentStore } = await setup();
    const verification = aiOps.capabilities.getState()!.verification!;
    const log = await fixture<AiOpsLog>(html`<ai-ops-log .aiOps=${aiOps}></ai-ops-log>`);
    await log.updateComplete;
    await sendMouse({ type: 'click', position: centerOf(part(log, 'panel-summary')!) });
    await until(() => !!part(log, 'verification-key'), 'the key line');
    await log.updateComplete;
    expect(textOf(part(log, 'verification-key'))).to.equal(`本人確認の鍵: ${await verification.fingerprint()}`);
    // A script's click does nothing; the user's click asks the device, then removes the record.
    part(log, 'unenrol-button')!.click();
    expect(await consentStore.get(ENROLMENT_KEY)).to.not.equal(undefined);
    const before = (await executeServerCommand('webauthn', { action: 'credentials', authenticatorId: device.id })) as { credentials: { signCount: number }[] };
    await sendMouse({ type: 'click', position: centerOf(part(log, 'unenrol-button')!) });
    await until(async () => (await consentStore.get(ENROLMENT_KEY)) === undefined, 'the enrolment removed', 5000);
    const after = (await executeServerCommand('webauthn', { action: 'credentials', authenticatorId: device.id })) as { credentials: { signCount: number }[] };
    expect(after.credentials[0].signCount).to.be.greaterThan(before.credentials[0].signCount); // it signed for the removal
    await until(() => !part(log, 'verification-key'), 'the key line gone');
    expect(textOf(log.shadowRoot!.querySelector('.actions [role="status"]'))).to.equal('本人確認の登録を解除しました。');
  });

  it('[UV-4] under automation with no way to verify, the switch stays off and says why and what to do in an alert, after AGENT-3\'s sentence; nothing is stored', async () => {
    // No authenticator on this page at all.
    const storage = new MemoryStorage();
    const aiOps = createTestRuntime({ consent: 'auto', automated: true, storage });
    aiOps.provideOperations('go', testOperations('go'));
    const { sw, input, press } = await switchFor(aiOps, 'go');
    await press();
    await until(() => !!part(sw, 'alert'), 'the alert');
    await sw.updateComplete;
    const alert = part(sw, 'alert')!;
    expect(alert.getAttribute('role')).to.equal('alert');
    expect(textOf(part(sw, 'alert-body'))).to.equal(
      `${defaultAiOpsStrings.consentAutomated} このブラウザーとこの端末では本人確認 (パスキー、指紋、PIN) を使えません。セキュリティキーをつなぐか、スマートフォンのパスキーを使ってください。`);
    expect(input.checked).to.equal(false);
    expect(input.getAttribute('aria-checked') ?? String(input.checked)).to.equal('false');
    expect(storage.getItem(permissionKey('go'))).to.equal(null);
    expect(await aiOps.consentStore.get(receiptsKey('go'))).to.equal(undefined);
    expect(aiOps.getSession('go')!.getState().status).to.equal('off');
  });

  it('[UV-4] with ai-ops/strings-en the switch\'s refusal reads English throughout, AGENT-3\'s sentence included; with the defaults, the same refusal reads Japanese', async () => {
    // No authenticator on this page at all: the switch-on is refused (unavailable), under automation.
    setAiOpsStrings(aiOpsStringsEn);
    try {
      const aiOps = createTestRuntime({ consent: 'auto', automated: true, storage: new MemoryStorage() });
      aiOps.provideOperations('go', testOperations('go'));
      const { sw, press } = await switchFor(aiOps, 'go');
      await press();
      await until(() => !!part(sw, 'alert'), 'the alert');
      await sw.updateComplete;
      const japanese = /[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]/;
      expect(textOf(part(sw, 'alert-title'))).to.equal(aiOpsStringsEn.startFailedTitle);
      expect(textOf(part(sw, 'alert-body'))).to.equal(`${aiOpsStringsEn.consentAutomated} ${aiOpsStringsEn.consentUnavailable}`);
      expect(textOf(part(sw, 'alert-body'))).to.not.match(japanese);
      // The runtime handed a code and values; the words are the page's (a developer's message beside them, in English).
      expect(aiOps.getSession('go')!.getState().reason).to.deep.include({ code: 'consentUnavailable', automated: true });
      expect(aiOps.getSession('go')!.getState().error).to.not.match(japanese);
      // Back to the defaults: the same notice in Japanese, with no new refusal.
      setAiOpsStrings({});
      await until(() => japanese.test(textOf(part(sw, 'alert-body'))), 'the Japanese notice');
      expect(textOf(part(sw, 'alert-body'))).to.equal(`${defaultAiOpsStrings.consentAutomated} ${defaultAiOpsStrings.consentUnavailable}`);
      expect(defaultAiOpsStrings.consentUnavailable).to.match(japanese);
    } finally {
      setAiOpsStrings({});
    }
  });

  it('[UV-4] in a person\'s browser with no way to verify, a click turns nothing on either: the alert says what to do, with no AGENT-3 sentence', async () => {
    const storage = new MemoryStorage();
    const aiOps = createTestRuntime({ consent: 'auto', automated: false, storage });
    aiOps.provideOperations('go', testOperations('go'));
    const { sw, input } = await switchFor(aiOps, 'go');
    await sendMouse({ type: 'click', position: centerOf(input) });
    await until(() => !!part(sw, 'alert'), 'the alert');
    await sw.updateComplete;
    const body = textOf(part(sw, 'alert-body'));
    expect(body).to.equal('このブラウザーとこの端末では本人確認 (パスキー、指紋、PIN) を使えません。セキュリティキーをつなぐか、スマートフォンのパスキーを使ってください。');
    expect(body).to.not.contain('プログラム');
    expect(input.checked).to.equal(false);
    expect(storage.length).to.equal(0);
    expect(aiOps.getSession('go')!.getState().status).to.equal('off');
    await expect(sw).to.be.accessible();
  });

  it('[UV-9] [UV-18] the skip is its own action, held back by SAFE-7\'s guard: after it, the present user\'s press on it is verified as a skip (the receipt says skipFuture until the period\'s end) and the next call runs with no dialog; the plain action\'s receipt grants none', async () => {
    await device.add(true);
    const clock = createFakeClock(Date.UTC(2025, 6, 1));
    const { aiOps, session, el } = await setup({ clock });
    el.clock = clock;
    el.pointerGuardMs = POINTER_GUARD_MS;
    const click = (target: Element) => sendMouse({ type: 'click', position: centerOf(target) });
    // The plain action: the receipt grants no skip, and the next call asks again.
    const plain = session.call('go_delete_file', { path: 'd.go' });
    await dialogFor(el);
    clock.advance(POINTER_GUARD_MS);
    await el.updateComplete;
    await click(part(el, 'action-button')!);
    expect(JSON.parse(await plain).ok).to.equal(true);
    expect(aiOps.log.getState().entries.at(-1)!.receipt!.description).to.include({ kind: 'call', skipFuture: false, skipUntil: null });
    const answer = session.call('go_delete_file', { path: 'e.go' });
    await dialogFor(el);
    const skip = part(el, 'skip-button')!;
    expect(textOf(skip)).to.equal('このページでは今後尋ねない');
    expect(textOf(part(el, 'skip-choice'))).to.equal('「このページでは今後尋ねない」は、この操作を実行し、スイッチを切るまで（最長 7 日）このツールの操作を確認なしで実行します。');
    expect(skip.getAttribute('aria-disabled')).to.equal('true');
    await expect(el).to.be.accessible();
    // Inside the guard the press does nothing.
    await click(skip);
    await el.updateComplete;
    expect(aiOps.confirmations.getState().current?.status).to.equal('waiting');
    clock.advance(POINTER_GUARD_MS);
    await el.updateComplete;
    expect(skip.hasAttribute('aria-disabled')).to.equal(false);
    await click(skip);
    expect(JSON.parse(await answer).ok).to.equal(true);
    const receipt = aiOps.log.getState().entries.at(-1)!.receipt!;
    expect(receipt.description).to.include({ kind: 'call', skipFuture: true, skipUntil: session.permission.getState().enabledUntil });
    // The verified skip: the next call runs with no dialog.
    expect(JSON.parse(await session.call('go_delete_file', { path: 'f.go' })).ok).to.equal(true);
    expect(el.shadowRoot!.querySelector('dialog')!.open).to.equal(false);
    // English strings too.
    expect(aiOpsStringsEn.confirmSkipChosen).to.equal('“Do not ask again on this page” runs this operation, and this tool\'s operations then run without asking until the switch is turned off (7 days at most).');
  });

  it('[UV-10] with the user away, two approvals give nothing (the verifier\'s own timeout; Firefox refuses at once): the third call gets no dialog and is declined saying so; the switch-on rests; 60 s later it asks again', async () => {
    await device.add(true);
    const clock = createFakeClock(Date.UTC(2025, 7, 1));
    const { aiOps, session, el } = await setup({ clock, verificationTimeoutMs: 800 });
    el.clock = clock;
    await device.present(false);
    for (const path of ['g.go', 'h.go']) {
      const call = session.call('go_delete_file', { path });
      await dialogFor(el);
      await approveByKeyboard(el);
      const envelope = JSON.parse(await call);
      expect(envelope.error.code, path).to.equal('declined');
      expect(envelope.error.message, path).to.contain(ABSENT_ENDS_BY_TIMEOUT ? 'nobody answered the platform\'s user verification in time' : 'the platform\'s user verification was cancelled or failed');
      await until(() => !el.shadowRoot!.querySelector('dialog')!.open, 'the dialog closed');
    }
    let opened = 0;
    el.shadowRoot!.querySelector('dialog')!.addEventListener('toggle', () => opened++);
    const third = JSON.parse(await session.call('go_delete_file', { path: 'i.go' }));
    expect(third.error.code).to.equal('declined');
    expect(third.error.message).to.contain('did not complete twice in a row').and.contain('60 s');
    expect(third.retryAfterMs).to.equal(60_000);
    await el.updateComplete;
    expect(opened).to.equal(0);
    // The switch, turned off and on again by the user's key, says it rests and stays off.
    const { sw, input, press } = await switchFor(aiOps, 'go');
    session.turnOff();
    await sw.updateComplete;
    await device.present(true);
    await press();
    await until(() => !!part(sw, 'alert'), 'the alert');
    await sw.updateComplete;
    expect(textOf(part(sw, 'alert-body'))).to.contain('本人確認が続けて完了しなかったため、60 秒のあいだ本人確認を求めません。その後でもう一度始めてください。');
    expect(input.checked).to.equal(false);
    clock.advance(60_000);
    await press();
    await until(() => session.getState().status === 'on', 'on again', 5000);
    const fourth = session.call('go_delete_file', { path: 'j.go' });
    await dialogFor(el);
    await approveByKeyboard(el);
    expect(JSON.parse(await fourth).ok).to.equal(true);
  });
});
