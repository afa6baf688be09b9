// SAFE-3's notice as Chromium's accessibility tree exposes it (a11ySnapshot over CDP): Chromium
// only, a `*.chromium.test.ts` file (web-test-runner.engines.config.mjs). Every engine runs the
// same steps without the tree in ai-ops-switch.test.ts.
import { expect } from '@open-wc/testing';
import { a11ySnapshot, resetMouse } from '@web/test-runner-commands';
import '../../elements/define.js';
import { cleanupRuntimes } from './helpers.js';
import { turnOffWhileStorageRefuses } from './switch-refused-off.js';

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

describe('<ai-ops-switch> in the accessibility tree', () => {
  afterEach(async () => {
    cleanupRuntimes();
    await resetMouse();
  });

  it('[SAFE-3] turning off while storage refuses every write: the switch is off, and a notice says and announces that a reload turns it back on', () => turnOffWhileStorageRefuses(async () => {
    const alerts = await axNodesWithRole('alert');
    expect(alerts.length, 'the accessibility tree has the alert (an assertive live region)').to.equal(1);
  }));
});
