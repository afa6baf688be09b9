// `consent: 'verified'` in every engine that has WebAuthn (issue 36): Chromium with a CDP virtual
// authenticator and Firefox with its own over Marionette (test/wtr-webauthn-plugin.mjs). The page
// author chose verification explicitly, so nothing here depends on what `auto` means. WebKitGTK has
// no WebAuthn: what the switch says there is no-webauthn.webkit.test.ts.
import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand, resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsConfirm } from '../../elements/confirm/ai-ops-confirm.js';
import type { AiOpsSwitch } from '../../elements/switch/ai-ops-switch.js';
import { createMemoryConsentStore } from '../../src/consent-store.js';
import { centerOf, cleanupRuntimes, createTestRuntime, MemoryStorage, testOperations, textOf, until, userDevice as device } from './helpers.js';

await loadAiOpsElements();


const part = (el: Element, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);

/**
 * A page whose author chose `consent: 'verified'`, its switch turned on by a real click with the
 * device answering, and its dialog. The absent user's verification gives up after 3 s
 * (`verificationTimeoutMs`; where the platform refuses at once, as Firefox does, sooner).
 */
async function switchedOn() {
  // Its own enrolment store: each test's device is a new one, as a page's first visit has.
  const aiOps = createTestRuntime({ consent: 'verified', storage: new MemoryStorage(), consentStore: createMemoryConsentStore(), verificationTimeoutMs: 3000 });
  const session = aiOps.provideOperations('go', testOperations('go'));
  const sw = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="go" .aiOps=${aiOps}></ai-ops-switch>`);
  const input = sw.shadowRoot!.querySelector<HTMLInputElement>('input[role="switch"]')!;
  await sendMouse({ type: 'click', position: centerOf(input) });
  await resetMouse();
  await until(() => session.getState().status === 'on' || !!part(sw, 'alert'), 'the switch on, or its alert saying why not', 15_000);
  await sw.updateComplete;
  expect(textOf(part(sw, 'alert')), 'no refusal under the switch').to.equal('');
  const el = await fixture<AiOpsConfirm>(html`<ai-ops-confirm .aiOps=${aiOps}></ai-ops-confirm>`);
  el.pointerGuardMs = 0;
  await el.updateComplete;
  return { aiOps, session, sw, input, el };
}

/** Approves with the keyboard as a person does, once the dialog is open: Tab from やめる to the action, Enter. */
async function approve(el: AiOpsConfirm) {
  await until(() => el.shadowRoot!.querySelector('dialog')!.open, 'the dialog');
  await el.updateComplete;
  await sendKeys({ press: 'Tab' });
  expect(el.shadowRoot!.activeElement?.classList.contains('action')).to.equal(true);
  await sendKeys({ press: 'Enter' });
}

describe(`verified consent in this engine (${navigator.userAgent.includes('Firefox') ? 'Firefox' : 'Chromium'})`, () => {
  afterEach(async () => {
    cleanupRuntimes();
    await device.remove();
  });

  it('[UV-1] consent verified: a click turns the switch on only through the user\'s device, which now holds the page\'s key', async () => {
    await device.add(true);
    expect(await device.credentials()).to.deep.equal([]);
    const { sw, input } = await switchedOn();
    expect(sw.on).to.equal(true);
    expect(input.checked).to.equal(true);
    expect(part(sw, 'alert')).to.equal(null);
    const credentials = await device.credentials();
    expect(credentials.length, 'the switch-on enrolled one key on the device').to.equal(1);
    expect(credentials[0].signCount, 'and signed the switch-on with it').to.be.greaterThan(0);
  });

  it('[UV-1] [UV-5] an approval is the press plus the device: the call runs and its row keeps the receipt', async () => {
    await device.add(true);
    const { aiOps, session, el } = await switchedOn();
    const before = (await device.credentials())[0].signCount;
    const call = session.call('go_delete_file', { path: 'a.go' });
    await until(() => el.shadowRoot!.querySelector('dialog')!.open, 'the dialog');
    await el.updateComplete;
    expect(textOf(part(el, 'verification-notice'))).to.contain('本人確認');
    await approve(el);
    expect(JSON.parse(await call)).to.deep.equal({ ok: true, path: 'a.go' });
    const row = aiOps.log.getState().entries.at(-1)!;
    expect(row.receipt?.description).to.include({ kind: 'call', operation: 'go_delete_file', tool: 'go' });
    expect((await device.credentials())[0].signCount, 'the device signed the approval').to.be.greaterThan(before);
  });

  it('[UV-4] the user absent: the press is not verified, the call answers declined and does not run', async () => {
    await device.add(true);
    const { aiOps, session, el } = await switchedOn();
    await device.present(false); // the user walked away from the device
    const call = session.call('go_delete_file', { path: 'b.go' });
    await approve(el);
    const envelope = JSON.parse(await call);
    expect(envelope.ok).to.equal(false);
    expect(envelope.error.code).to.equal('declined');
    expect(envelope.error.message).to.match(/verification/);
    const row = aiOps.log.getState().entries.at(-1)!;
    expect(row.receipt).to.equal(null);
    expect(row.status, 'the operation never ran').to.not.equal('success');
  });
});
