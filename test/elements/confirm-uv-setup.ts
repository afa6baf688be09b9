// What the verified-consent dialog tests share: ai-ops-confirm-uv.test.ts (every engine with
// WebAuthn) and ai-ops-confirm-uv-prompt.chromium.test.ts (the prompt left waiting, Chromium's
// alone). Not a test file itself (no `.test.ts`).
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { AiOpsConfirm } from '../../elements/confirm/ai-ops-confirm.js';
import type { AiOpsOptions } from '../../src/runtime.js';
import { createTestRuntime, MemoryStorage, testOperations, turnOn, until } from './helpers.js';

/** The element's part `name` in its shadow root. */
export const part = (el: Element, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);

/** A runtime whose consent is the default (`auto`), in a browser a program drives or not, switched on by the present user. */
export async function setup({ automated = true, ...options }: { automated?: boolean } & AiOpsOptions = {}) {
  const storage = new MemoryStorage();
  const aiOps = createTestRuntime({ consent: 'auto', automated, storage, ...options });
  const session = aiOps.provideOperations('go', testOperations('go'));
  await turnOn(session);
  const el = await fixture<AiOpsConfirm>(html`<ai-ops-confirm .aiOps=${aiOps}></ai-ops-confirm>`);
  el.pointerGuardMs = 0;
  el.automated = automated;
  await el.updateComplete;
  return { aiOps, session, el, storage, consentStore: aiOps.consentStore };
}

/** Resolves once the dialog is open and rendered. */
export async function dialogFor(el: AiOpsConfirm) {
  await until(() => el.shadowRoot!.querySelector('dialog')!.open, 'the dialog');
  await el.updateComplete;
}

/** Approves with the keyboard as a person does: Tab from やめる to the action, Enter. */
export async function approveByKeyboard(el: AiOpsConfirm) {
  await sendKeys({ press: 'Tab' });
  expect(el.shadowRoot!.activeElement?.classList.contains('action')).to.equal(true);
  await sendKeys({ press: 'Enter' });
}
