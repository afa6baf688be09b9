// SAFE-3's turn-off that storage refuses, as one scenario: ai-ops-switch.test.ts runs it in every
// engine, ai-ops-switch-a11y.chromium.test.ts again with Chromium's accessibility tree read while
// the notice is up. Not a test file itself (no `.test.ts`).
import { expect, fixture, html } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import type { AiOpsSwitch } from '../../elements/switch/ai-ops-switch.js';
import { permissionKey } from '../../src/permission-store.js';
import { centerOf, fakeModelContext, createTestRuntime, MemoryStorage, statusReached, testOperations, textOf, turnOn } from './helpers.js';

/** A storage that refuses every write while `refuse` is set, as a full quota or a blocked storage does. */
export class RefusingStorage extends MemoryStorage {
  refuse = false;
  override setItem(key: string, value: string): void {
    if (this.refuse) throw new DOMException('the quota has been exceeded', 'QuotaExceededError');
    super.setItem(key, value);
  }
  override removeItem(key: string): void {
    if (this.refuse) throw new DOMException('the storage is blocked', 'SecurityError');
    super.removeItem(key);
  }
}

/** The switch's checkbox, label and notice (null when not shown). */
export const switchParts = (el: AiOpsSwitch) => {
  const root = el.shadowRoot!;
  return {
    input: root.querySelector<HTMLInputElement>('input'),
    label: root.querySelector('label'),
    alert: root.querySelector<HTMLElement>('[role="alert"]'),
  };
};

/**
 * The user switches `sql` on with the mouse, then off while storage refuses every write: the switch
 * is off, nothing stays registered, the stored "on" stays, and a visible notice says a reload turns
 * it back on (`whileShown` adds what an engine can observe of it, e.g. its accessibility tree); a
 * reload would start the tool again. With storage working again, the next turn-off removes the
 * record and the notice.
 */
export async function turnOffWhileStorageRefuses(whileShown: (alert: HTMLElement) => Promise<void>): Promise<void> {
  const storage = new RefusingStorage();
  const aiOps = createTestRuntime({ storage });
  const session = aiOps.provideOperations('sql', testOperations('sql'));
  const el = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="sql" .aiOps=${aiOps}></ai-ops-switch>`);
  await sendMouse({ type: 'click', position: centerOf(switchParts(el).input!) });
  await statusReached(session, 'on');
  await el.updateComplete;
  expect(switchParts(el).alert).to.equal(null);

  storage.refuse = true;
  await sendMouse({ type: 'click', position: centerOf(switchParts(el).input!) });
  await statusReached(session, 'off');
  await el.updateComplete;
  const { input, alert } = switchParts(el);
  expect(input!.checked).to.equal(false);
  expect(fakeModelContext.tools.size, 'nothing stays registered in this page').to.equal(0);
  expect(storage.getItem(permissionKey('sql')), 'the stored "on" is still there').to.be.a('string');
  expect(alert, 'a role=alert notice under the switch').to.exist;
  expect(alert!.checkVisibility()).to.equal(true);
  expect(textOf(alert!.querySelector('[part="alert-title"]'))).to.equal('許可を消せませんでした');
  expect(textOf(alert!.querySelector('[part="alert-body"]'))).to.equal('ページを開き直すと、AI からの操作がまた始まります。');
  await whileShown(alert!);
  await expect(el).to.be.accessible();
  // What a reload would do: the stored "on" is read and the tool starts again.
  expect(createTestRuntime({ storage }).provideOperations('sql', testOperations('sql')).permission.getState().enabled).to.equal(true);

  // Storage works again: the next turn-off removes it, and the notice goes.
  storage.refuse = false;
  await turnOn(session);
  await el.updateComplete;
  expect(switchParts(el).alert, 'no notice while on').to.equal(null);
  session.turnOff();
  await el.updateComplete;
  expect(switchParts(el).alert).to.equal(null);
  expect(storage.getItem(permissionKey('sql'))).to.equal(null);
}
