// The dialog and the switch with verified consent (UV-1, UV-2, UV-4), through the real WebAuthn
// stack: the user's device is a virtual authenticator (test/wtr-webauthn-plugin.mjs: CDP in
// Chromium, Marionette in Firefox), present. The prompt left waiting by an absent user (UV-7) is
// Chromium's alone: ai-ops-confirm-uv-prompt.chromium.test.ts.
import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand, sendKeys, sendMouse } from '@web/test-runner-commands';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsConfirm } from '../../elements/ai-ops-confirm.js';
import type { AiOpsSwitch } from '../../elements/ai-ops-switch.js';
import type { AiOpsLog } from '../../elements/ai-ops-log.js';
import { permissionKey } from '../../src/permission-store.js';
import { ENROLMENT_KEY } from '../../src/user-verifier.js';
import { centerOf, cleanupRuntimes, createTestRuntime, MemoryStorage, testOperations, textOf, turnOn, until } from './helpers.js';

await loadAiOpsElements();

const device = {
  id: '',
  async add(present = true) {
    ({ authenticatorId: this.id } = (await executeServerCommand('webauthn', { action: 'add', automaticPresenceSimulation: present })) as { authenticatorId: string });
  },
  async present(enabled: boolean) {
    await executeServerCommand('webauthn', { action: 'presence', authenticatorId: this.id, enabled });
  },
  async remove() {
    if (this.id) await executeServerCommand('webauthn', { action: 'remove', authenticatorId: this.id });
    this.id = '';
  },
};

const part = (el: Element, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);

/** A runtime whose consent is the default (`auto`) in a browser a program drives, switched on by the present user. */
async function setup({ automated = true } = {}) {
  const storage = new MemoryStorage();
  const aiOps = createTestRuntime({ consent: 'auto', automated, storage });
  const session = aiOps.provideOperations('go', testOperations('go'));
  await turnOn(session);
  const el = await fixture<AiOpsConfirm>(html`<ai-ops-confirm .aiOps=${aiOps}></ai-ops-confirm>`);
  el.pointerGuardMs = 0;
  el.automated = automated;
  await el.updateComplete;
  return { aiOps, session, el, storage };
}

async function dialogFor(el: AiOpsConfirm) {
  await until(() => el.shadowRoot!.querySelector('dialog')!.open, 'the dialog');
  await el.updateComplete;
}

/** Approves with the keyboard as a person does: Tab from やめる to the action, Enter. */
async function approveByKeyboard(el: AiOpsConfirm) {
  await sendKeys({ press: 'Tab' });
  expect(el.shadowRoot!.activeElement?.classList.contains('action')).to.equal(true);
  await sendKeys({ press: 'Enter' });
}

describe('verified consent in the elements (UV)', () => {
  afterEach(async () => {
    cleanupRuntimes();
    await device.remove();
  });

  it('[UV-1] [UV-5] the present user approves with the click plus the device: the call runs and its row keeps the receipt', async () => {
    await device.add(true);
    const { aiOps, session, el, storage } = await setup();
    expect(JSON.parse(storage.getItem(ENROLMENT_KEY)!)).to.have.keys(['v', 'credentialId', 'alg', 'spki']);
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

  it('[UV-2] in a person\'s browser without enrolment the dialog offers 「承認を本人確認で守る」; taking it enrols and verifies that approval', async () => {
    await device.add(true);
    const { aiOps, session, el, storage } = await setup({ automated: false });
    expect(storage.getItem(ENROLMENT_KEY)).to.equal(null); // a person's click-only switch-on enrolled nothing
    const call = session.call('go_delete_file', { path: 'c.go' });
    await dialogFor(el);
    const offer = part(el, 'protect')!;
    expect(textOf(offer)).to.equal('承認を本人確認で守る');
    offer.querySelector('input')!.click();
    await approveByKeyboard(el);
    expect(JSON.parse(await call).ok).to.equal(true);
    expect(aiOps.log.getState().entries.at(-1)!.receipt).to.not.equal(null);
    expect(storage.getItem(ENROLMENT_KEY)).to.not.equal(null);
    // From now on it applies on this origin (UV-2: the user opted in).
    const next = session.call('go_delete_file', { path: 'd.go' });
    await dialogFor(el);
    expect(part(el, 'protect')).to.equal(null);
    expect(textOf(part(el, 'verification-notice'))).to.contain('本人確認');
    await approveByKeyboard(el);
    expect(JSON.parse(await next).ok).to.equal(true);
  });

  it('[UV-5] [UV-2] the log shows the enrolled key\'s fingerprint, and removing the enrolment is itself verified', async () => {
    await device.add(true);
    const { aiOps, storage } = await setup();
    const verifier = (await aiOps.onDemand()).consent.verifier!;
    const log = await fixture<AiOpsLog>(html`<ai-ops-log .aiOps=${aiOps}></ai-ops-log>`);
    await log.updateComplete;
    await sendMouse({ type: 'click', position: centerOf(part(log, 'panel-summary')!) });
    await until(() => !!part(log, 'verification-key'), 'the key line');
    await log.updateComplete;
    expect(textOf(part(log, 'verification-key'))).to.equal(`本人確認の鍵: ${await verifier.fingerprint()}`);
    // A script's click does nothing; the user's click asks the device, then removes the record.
    part(log, 'unenrol-button')!.click();
    expect(storage.getItem(ENROLMENT_KEY)).to.not.equal(null);
    const before = (await executeServerCommand('webauthn', { action: 'credentials', authenticatorId: device.id })) as { credentials: { signCount: number }[] };
    await sendMouse({ type: 'click', position: centerOf(part(log, 'unenrol-button')!) });
    await until(() => storage.getItem(ENROLMENT_KEY) === null, 'the enrolment removed');
    const after = (await executeServerCommand('webauthn', { action: 'credentials', authenticatorId: device.id })) as { credentials: { signCount: number }[] };
    expect(after.credentials[0].signCount).to.be.greaterThan(before.credentials[0].signCount); // it signed for the removal
    await until(() => !part(log, 'verification-key'), 'the key line gone');
    expect(textOf(log.shadowRoot!.querySelector('.actions [role="status"]'))).to.equal('本人確認の登録を解除しました。');
  });

  it('[UV-4] under automation with no way to verify, the switch stays off and says why in an alert; nothing is stored', async () => {
    // No authenticator on this page at all.
    const storage = new MemoryStorage();
    const aiOps = createTestRuntime({ consent: 'auto', automated: true, storage });
    aiOps.provideOperations('go', testOperations('go'));
    const sw = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="go" .aiOps=${aiOps}></ai-ops-switch>`);
    const input = sw.shadowRoot!.querySelector<HTMLInputElement>('input[role="switch"]')!;
    input.focus();
    await sendKeys({ press: ' ' }); // Space, by its key value: puppeteer's BiDi keyboard (Firefox) has no 'Space' name
    await until(() => !!part(sw, 'alert'), 'the alert');
    await sw.updateComplete;
    const alert = part(sw, 'alert')!;
    expect(alert.getAttribute('role')).to.equal('alert');
    expect(textOf(alert)).to.contain('このブラウザーはプログラムから操作されています。オンにするには、指紋や PIN などの本人確認が必要です。');
    expect(input.checked).to.equal(false);
    expect(input.getAttribute('aria-checked') ?? String(input.checked)).to.equal('false');
    expect(storage.getItem(permissionKey('go'))).to.equal(null);
    expect(aiOps.getSession('go')!.getState().status).to.equal('off');
  });
});
