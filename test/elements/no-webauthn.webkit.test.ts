// WebKitGTK (MiniBrowser through WebKitWebDriver) has no WebAuthn at all (PLATFORM-NOTES "Firefox
// and WebKit"): where the user cannot be verified, a switch that needs verification stays off and
// says why (UV-4), and a page whose author chose `consent: 'click'` works end to end. Runs only in
// WebKitGTK (`*.webkit.test.ts`: web-test-runner.engines.config.mjs); web-test-runner.config.mjs
// leaves it out, since Chromium and Firefox have WebAuthn.
import { expect, fixture, html } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsConfirm } from '../../elements/confirm/ai-ops-confirm.js';
import type { AiOpsLog } from '../../elements/log/ai-ops-log.js';
import type { AiOpsSwitch } from '../../elements/switch/ai-ops-switch.js';
import { permissionKey } from '../../src/permission-store.js';
import type { AiOpsOptions } from '../../src/runtime.js';
import { createMemoryConsentStore } from '../../src/consent-store.js';
import { centerOf, cleanupRuntimes, createTestRuntime, MemoryStorage, statusReached, testOperations, textOf, until } from './helpers.js';

await loadAiOpsElements();

const part = (el: Element, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);

/** UV-4's sentence for a browser and device that cannot verify the user (consentUnavailable, elements/internal/strings.ts). */
const UNAVAILABLE = 'このブラウザーとこの端末では本人確認 (パスキー、指紋、PIN) を使えません。';

/** A page with `consent` and its switch, clicked once like a person. */
async function clickSwitch(consent: AiOpsOptions['consent']) {
  const storage = new MemoryStorage();
  const aiOps = createTestRuntime({ consent, storage, consentStore: createMemoryConsentStore() });
  const session = aiOps.provideOperations('go', testOperations('go'));
  const sw = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="go" .aiOps=${aiOps}></ai-ops-switch>`);
  const input = sw.shadowRoot!.querySelector<HTMLInputElement>('input[role="switch"]')!;
  await sendMouse({ type: 'click', position: centerOf(input) });
  await resetMouse();
  return { aiOps, session, sw, input, storage };
}

describe('WebKitGTK: no WebAuthn', () => {
  afterEach(() => cleanupRuntimes());

  it('[UV-4] this engine has no WebAuthn (what the tests below stand on)', () => {
    expect(navigator.userAgent).to.contain('AppleWebKit');
    expect(navigator.userAgent).to.not.contain('Chrome');
    expect(typeof (window as { PublicKeyCredential?: unknown }).PublicKeyCredential).to.equal('undefined');
  });

  for (const consent of ['auto', 'verified'] as const) {
    it(`[UV-4] consent '${consent}': a click leaves the switch off, and an alert says why; nothing is stored`, async () => {
      const { aiOps, sw, input, storage } = await clickSwitch(consent);
      await until(() => !!part(sw, 'alert'), 'the alert', 10_000);
      await sw.updateComplete;
      const alert = part(sw, 'alert')!;
      expect(alert.getAttribute('role')).to.equal('alert');
      expect(textOf(alert)).to.contain(UNAVAILABLE);
      expect(input.checked).to.equal(false);
      expect(sw.on).to.equal(false);
      expect(storage.getItem(permissionKey('go'))).to.equal(null);
      expect(aiOps.getSession('go')!.getState().status).to.equal('off');
      expect(aiOps.loader.loads, 'no script was loaded').to.deep.equal([]);
      await expect(sw).to.be.accessible();
    });
  }

  it('[SW-2] [CONF-1] [LOG-3] consent \'click\': a click turns it on, the dialog\'s click approves one call and やめる declines another, the log has both rows', async () => {
    const { aiOps, session, sw, input } = await clickSwitch('click');
    await statusReached(session, 'on');
    await sw.updateComplete;
    expect(input.checked).to.equal(true);
    expect(part(sw, 'alert')).to.equal(null);
    const el = await fixture<AiOpsConfirm>(html`<ai-ops-confirm .aiOps=${aiOps}></ai-ops-confirm>`);
    el.pointerGuardMs = 0;
    const log = await fixture<AiOpsLog>(html`<ai-ops-log tool="go" .aiOps=${aiOps}></ai-ops-log>`);
    const dialogOpen = async () => {
      await until(() => el.shadowRoot!.querySelector('dialog')!.open, 'the dialog');
      await el.updateComplete;
    };

    const approved = session.call('go_delete_file', { path: 'a.go' });
    await dialogOpen();
    expect(part(el, 'verification-notice'), 'no verification is asked for').to.equal(null);
    await sendMouse({ type: 'click', position: centerOf(part(el, 'action-button')!) });
    await resetMouse();
    expect(JSON.parse(await approved)).to.deep.equal({ ok: true, path: 'a.go' });

    const declined = session.call('go_delete_file', { path: 'b.go' });
    await dialogOpen();
    await sendMouse({ type: 'click', position: centerOf(part(el, 'cancel-button')!) });
    await resetMouse();
    expect(JSON.parse(await declined).error.code).to.equal('declined');

    const entries = aiOps.log.getState().entries;
    expect(entries.map((e) => [e.name, e.status])).to.deep.equal([['go_delete_file', 'success'], ['go_delete_file', 'declined']]);
    await until(() => log.shadowRoot!.querySelectorAll('[role="log"] > [part~="row"]').length === 2, 'two rows in the log');
    expect(textOf(log.shadowRoot!.querySelector('[role="log"]'))).to.match(/go_delete_file.*成功.*go_delete_file.*中止/);
  });
});
