// UV-7's waiting prompt: the user's device is a CDP virtual authenticator whose presence simulation
// is turned off after the switch-on, so the OS prompt never completes. Chromium only (a
// `*.chromium.test.ts` file): Firefox's virtual authenticator fixes presence when it is made, and an
// absent user there is an immediate NotAllowedError (measured), never a waiting prompt; WebKitGTK
// has no WebAuthn. The decline of an absent user in every engine with WebAuthn:
// verified-engines.test.ts.
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { loadAiOpsElements } from '../../elements/define.js';
import { cleanupRuntimes, textOf, until, userDevice as device } from './helpers.js';
import { approveByKeyboard, dialogFor, part, setup } from './confirm-uv-setup.js';

await loadAiOpsElements();

describe('verified consent in the elements: the waiting prompt (UV-7)', () => {
  afterEach(async () => {
    cleanupRuntimes();
    await device.remove();
  });

  it('[UV-7] while the OS prompt is up the dialog says so in a live region, the action waits, やめる still declines, and axe passes', async () => {
    await device.add(true);
    const { aiOps, session, el } = await setup();
    await device.present(false); // the user walked away: the prompt never completes
    const call = session.call('go_delete_file', { path: 'b.go' });
    await dialogFor(el);
    await approveByKeyboard(el);
    await until(() => aiOps.confirmations.getState().current?.status === 'verifying', 'verifying');
    await el.updateComplete;
    const status = part(el, 'verification-status')!;
    expect(status.getAttribute('role')).to.equal('status');
    expect(textOf(status)).to.equal('本人確認を待っています');
    const action = part(el, 'action-button')!;
    expect(action.getAttribute('aria-busy')).to.equal('true');
    expect(action.getAttribute('aria-disabled')).to.equal('true');
    const cancel = part(el, 'cancel-button') as HTMLButtonElement;
    expect(cancel.disabled).to.equal(false);
    await expect(el).to.be.accessible();
    // Enter on the busy action does nothing; Shift+Tab back to やめる and Enter declines.
    await sendKeys({ press: 'Enter' });
    expect(aiOps.confirmations.getState().current?.status).to.equal('verifying');
    await sendKeys({ down: 'Shift' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ up: 'Shift' });
    expect(el.shadowRoot!.activeElement).to.equal(cancel);
    await sendKeys({ press: 'Enter' });
    const envelope = JSON.parse(await call);
    expect(envelope.error.code).to.equal('declined');
    expect(aiOps.log.getState().entries.at(-1)!.receipt).to.equal(null);
  });

  it('[UV-18] while the OS prompt for the skip action is up, the dialog says that the skip is being signed, on the skip button and in the live region; axe passes', async () => {
    await device.add(true);
    const { aiOps, session, el } = await setup();
    await device.present(false);
    const call = session.call('go_delete_file', { path: 'c.go' });
    await dialogFor(el);
    // The guard is off here (setup): Tab, Tab to the skip action, Enter.
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Tab' });
    expect(el.shadowRoot!.activeElement).to.equal(part(el, 'skip-button'));
    await sendKeys({ press: 'Enter' });
    await until(() => aiOps.confirmations.getState().current?.status === 'verifying', 'verifying');
    await el.updateComplete;
    expect(aiOps.confirmations.getState().current?.skipFuture).to.equal(true);
    expect(textOf(part(el, 'verification-status'))).to.equal('本人確認を待っています（この操作と、今後尋ねないことの承認）');
    expect(part(el, 'skip-button')!.getAttribute('aria-busy')).to.equal('true');
    expect(part(el, 'action-button')!.hasAttribute('aria-busy')).to.equal(false);
    expect(part(el, 'action-button')!.getAttribute('aria-disabled')).to.equal('true');
    await expect(el).to.be.accessible();
    (part(el, 'cancel-button') as HTMLButtonElement).focus();
    await sendKeys({ press: 'Enter' });
    expect(JSON.parse(await call).error.code).to.equal('declined');
  });
});
