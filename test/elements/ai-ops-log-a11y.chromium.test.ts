// SAFE-9 read in Chromium's accessibility tree (a11ySnapshot over CDP): Chromium only, a
// `*.chromium.test.ts` file (web-test-runner.engines.config.mjs). The live region's markup itself is
// checked in every engine by ai-ops-log.test.ts.
import { expect, fixture, html } from '@open-wc/testing';
import { a11ySnapshot } from '@web/test-runner-commands';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsLog } from '../../elements/log/ai-ops-log.js';
import { cleanupRuntimes, createTestRuntime, testOperations, textOf, turnOn, until } from './helpers.js';

await loadAiOpsElements();

const part = (root: ParentNode, name: string) => root.querySelector<HTMLElement>(`[part~="${name}"]`);

async function setup(mode: 'panel' | 'tab' = 'panel') {
  const aiOps = createTestRuntime();
  const session = aiOps.provideOperations('sql', testOperations('sql'));
  const el = await fixture<AiOpsLog>(html`<ai-ops-log mode=${mode} .aiOps=${aiOps}></ai-ops-log>`);
  return { aiOps, session, el };
}

/** A node of the accessibility tree as Chromium exposes it (puppeteer's snapshot). */
interface AXNode {
  role?: string;
  name?: string;
  children?: AXNode[];
}

/** Every node of the page's accessibility tree, depth first. */
async function axNodes(): Promise<AXNode[]> {
  const root = (await a11ySnapshot({})) as unknown as AXNode;
  const all: AXNode[] = [];
  const walk = (node: AXNode) => {
    all.push(node);
    node.children?.forEach(walk);
  };
  walk(root);
  return all;
}

/** The text inside an accessibility node (its own name and its descendants'). */
const axText = (node: AXNode): string => [node.name ?? '', ...(node.children ?? []).map(axText)].join(' ').replace(/\s+/g, ' ').trim();

describe('<ai-ops-log> for screen readers', () => {
  afterEach(() => cleanupRuntimes());

  it('[SAFE-9] collapsed, a live region the accessibility tree exposes announces each new row: 「<name>: 成功」', async () => {
    const { session, el } = await setup('panel');
    await turnOn(session);
    await el.updateComplete;
    const statusNodes = async () => (await axNodes()).filter((n) => n.role === 'status');
    // The region exists (empty) before the first row, so a screen reader is already listening.
    expect((await statusNodes()).length).to.equal(1);
    await session.call('sql_echo', { text: 'hello' });
    await el.updateComplete;
    await until(() => textOf(part(el.shadowRoot!, 'announcer')) !== '', 'the announcement');
    const nodes = await axNodes();
    expect(nodes.some((n) => n.role === 'log'), 'the rows sit in the closed panel').to.equal(false);
    const [status] = nodes.filter((n) => n.role === 'status');
    expect(axText(status)).to.equal('sql_echo: 成功');
    const region = part(el.shadowRoot!, 'announcer')!;
    expect(region.getAttribute('aria-live')).to.equal('polite');
    expect(region.closest('details')?.outerHTML ?? null, 'outside the <details>').to.equal(null);
    await session.call('sql_fail', {});
    await until(() => textOf(part(el.shadowRoot!, 'announcer')) === 'sql_fail: 失敗', 'the next announcement');
    await expect(el).to.be.accessible();
  });

  it('[SAFE-9] expanded, the role="log" rows announce and the live region stays quiet', async () => {
    const { session, el } = await setup('panel');
    el.open = true;
    await turnOn(session);
    await session.call('sql_echo', { text: 'hello' });
    // The render that shows the row is the one that decides what the region says.
    await until(() => el.shadowRoot!.querySelectorAll('[role="log"] > [part~="row"]').length === 1, 'the row');
    await el.updateComplete;
    expect(textOf(part(el.shadowRoot!, 'announcer'))).to.equal('');
    const nodes = await axNodes();
    expect(nodes.some((n) => n.role === 'log')).to.equal(true);
    await expect(el).to.be.accessible();
  });
});
