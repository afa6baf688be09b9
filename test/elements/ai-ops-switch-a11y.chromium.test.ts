// SAFE-3's notice as Chromium's accessibility tree exposes it (a11ySnapshot over CDP): Chromium
// only, a `*.chromium.test.ts` file (web-test-runner.engines.config.mjs). Every engine runs the
// same steps without the tree in ai-ops-switch.test.ts.
import { expect, fixture, html } from '@open-wc/testing';
import { a11ySnapshot, sendMouse, resetMouse } from '@web/test-runner-commands';
import '../../elements/define.js';
import type { AiOpsSwitch } from '../../elements/switch/ai-ops-switch.js';
import { permissionKey } from '../../src/permission-store.js';
import {
  centerOf, cleanupRuntimes, fakeModelContext, createTestRuntime, MemoryStorage, statusReached, testOperations, textOf, turnOn,
} from './helpers.js';

/** A storage that refuses every write while `refuse` is set, as a full quota or a blocked storage does. */
class RefusingStorage extends MemoryStorage {
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

/** The accessibility nodes of the page with `role`, as Chromium exposes them. */
async function axNodesWithRole(role: string): Promise<{ role?: string; name?: string }[]> {
  type AXNode = { role?: string; name?: string; children?: AXNode[] };
  const found: AXNode[] = [];
  const walk = (node: AXNode) => {
    if (node.role === role) found.push(node);
    node.children?.forEach(walk);
  };
  walk((await a11ySnapshot({})) as unknown as AXNode);
  return found;
}

const parts = (el: AiOpsSwitch) => {
  const root = el.shadowRoot!;
  return {
    input: root.querySelector<HTMLInputElement>('input'),
    label: root.querySelector('label'),
    alert: root.querySelector<HTMLElement>('[role="alert"]'),
  };
};

describe('<ai-ops-switch> in the accessibility tree', () => {
  afterEach(async () => {
    cleanupRuntimes();
    await resetMouse();
  });

  it('[SAFE-3] turning off while storage refuses every write: the switch is off, and a notice says and announces that a reload turns it back on', async () => {
    const storage = new RefusingStorage();
    const aiOps = createTestRuntime({ storage });
    const session = aiOps.provideOperations('sql', testOperations('sql'));
    const el = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="sql" .aiOps=${aiOps}></ai-ops-switch>`);
    await sendMouse({ type: 'click', position: centerOf(parts(el).input!) });
    await statusReached(session, 'on');
    await el.updateComplete;
    expect(parts(el).alert).to.equal(null);

    storage.refuse = true;
    await sendMouse({ type: 'click', position: centerOf(parts(el).input!) });
    await statusReached(session, 'off');
    await el.updateComplete;
    const { input, alert } = parts(el);
    expect(input!.checked).to.equal(false);
    expect(fakeModelContext.tools.size, 'nothing stays registered in this page').to.equal(0);
    expect(storage.getItem(permissionKey('sql')), 'the stored "on" is still there').to.be.a('string');
    expect(alert, 'a role=alert notice under the switch').to.exist;
    expect(alert!.checkVisibility()).to.equal(true);
    expect(textOf(alert!.querySelector('[part="alert-title"]'))).to.equal('許可を消せませんでした');
    expect(textOf(alert!.querySelector('[part="alert-body"]'))).to.equal('ページを開き直すと、AI からの操作がまた始まります。');
    const alerts = await axNodesWithRole('alert');
    expect(alerts.length, 'the accessibility tree has the alert (an assertive live region)').to.equal(1);
    await expect(el).to.be.accessible();
    // What a reload would do: the stored "on" is read and the tool starts again.
    expect(createTestRuntime({ storage }).provideOperations('sql', testOperations('sql')).permission.getState().enabled).to.equal(true);

    // Storage works again: the next turn-off removes it, and the notice goes.
    storage.refuse = false;
    await turnOn(session);
    await el.updateComplete;
    expect(parts(el).alert, 'no notice while on').to.equal(null);
    session.turnOff();
    await el.updateComplete;
    expect(parts(el).alert).to.equal(null);
    expect(storage.getItem(permissionKey('sql'))).to.equal(null);
  });
});
