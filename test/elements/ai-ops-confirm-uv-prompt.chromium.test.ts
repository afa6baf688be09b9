// UV-7's waiting prompt: the user's device is a CDP virtual authenticator whose presence simulation
// is turned off after the switch-on, so the OS prompt never completes. Chromium only (a
// `*.chromium.test.ts` file): Firefox's virtual authenticator fixes presence when it is made, and an
// absent user there is an immediate NotAllowedError (measured), never a waiting prompt; WebKitGTK
// has no WebAuthn. The decline of an absent user in every engine with WebAuthn:
// verified-engines.test.ts.
import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand, sendKeys, sendMouse } from '@web/test-runner-commands';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsConfirm } from '../../elements/confirm/ai-ops-confirm.js';
import type { AiOpsSwitch } from '../../elements/switch/ai-ops-switch.js';
import type { AiOpsLog } from '../../elements/log/ai-ops-log.js';
import { permissionKey } from '../../src/permission-store.js';
import { centerOf, cleanupRuntimes, createTestRuntime, MemoryStorage, testOperations, textOf, turnOn, until, userDevice as device } from './helpers.js';

await loadAiOpsElements();


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
});
