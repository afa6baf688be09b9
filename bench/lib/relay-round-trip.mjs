// The relay round trip, measured the same way in both kinds of browser: sql_read_query (through
// ai-ops: validation, pipeline, envelope, log) against a bare tool giving the same answer on the
// same /sql/ page, both called by a real MCP client through the same relay (bin/ai-ops-relay.mjs),
// interleaved. Only where the bare tool is registered differs (`registerBare`).
import { startRelay, freePort, waitFor, clickSwitch, relayedNames } from '../../test/e2e/harness.mjs';
import { editorText } from '../../test/e2e/editor.mjs';

const CALLS = 200;
const WARMUP = 20;

/** The p-th percentile (0–1) of `xs`, nearest rank. */
export const percentile = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];
};

/** The bare tool's definition, evaluated in the page: the editor's SQL in a CallToolResult. */
export const BARE_READ_QUERY = `({
  name: 'bare_read_query',
  description: 'The SQL in the editor (bench: no ai-ops).',
  inputSchema: { type: 'object', properties: {} },
  execute: async () => ({
    content: [{ type: 'text', text: JSON.stringify({ ok: true, sql: [...document.querySelectorAll('.sql-editor-pane .cm-line')].map((line) => line.textContent).join('\\n') }) }],
  }),
})`;

/**
 * Opens /sql/ in `browser`, runs `beforeClick(page)`, switches it on like a person, adds the bare
 * tool with `registerBare(page)` and times 200 interleaved calls of each through a fresh relay.
 * @returns {Promise<{times: {aiOps: number[], bare: number[]}, page: import('playwright-core').Page, close: () => Promise<void>}>}
 */
export async function measureRelayRoundTrip({ demo, browser, docId, registerBare, beforeClick = async () => {} }) {
  const relay = await startRelay({ origin: demo.origin, port: await freePort() });
  const page = await browser.context.newPage();
  const close = async () => {
    await page.close().catch(() => {});
    await relay.close();
  };
  try {
    // Off before the click whatever ran before: with a stored "on" the click would turn it off.
    await page.goto(`${demo.origin}/sql/?id=${docId}`);
    await page.evaluate(() => localStorage.removeItem('fd-ai-operations:sql'));
    await page.reload();
    const editor = page.getByLabel('SQL', { exact: true });
    await waitFor(async () => (await editorText(editor)).length > 0, 15_000, 'the saved SQL');
    await beforeClick(page);
    await clickSwitch(page, 'sql');
    if (!(await page.locator('ai-ops-switch[tool="sql"] input[role="switch"]').isChecked())) throw new Error('the sql switch is not on after the click');
    await waitFor(async () => (await relayedNames(relay.client)).includes('sql_read_query'), 20_000, 'sql_read_query through the relay');
    await registerBare(page);
    await waitFor(async () => (await relayedNames(relay.client)).includes('bare_read_query'), 10_000, 'the bare tool through the relay');

    const time = async (tool) => {
      const start = process.hrtime.bigint();
      const result = await relay.client.callTool({ name: tool, arguments: {} });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (result.isError || !JSON.parse(result.content[0].text).ok) throw new Error(`${tool} failed: ${result.content[0].text}`);
      return ms;
    };
    for (let i = 0; i < WARMUP; i++) {
      await time('sql_read_query');
      await time('bare_read_query');
    }
    const times = { aiOps: [], bare: [] };
    for (let i = 0; i < CALLS; i++) {
      // Alternate which goes first, so neither always follows the other.
      if (i % 2) {
        times.bare.push(await time('bare_read_query'));
        times.aiOps.push(await time('sql_read_query'));
      } else {
        times.aiOps.push(await time('sql_read_query'));
        times.bare.push(await time('bare_read_query'));
      }
    }
    return { times, page, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The rows both relay sections print; `suffix` names the browser kind on the budget row. */
export function roundTripRows(times, suffix = '') {
  const ai50 = percentile(times.aiOps, 0.5);
  const bare50 = percentile(times.bare, 0.5);
  const ratio = ai50 / bare50;
  const ms = (x) => `${x.toFixed(2)} ms`;
  return [
    { label: `bare tool through the relay, p50 / p95 (n=${times.bare.length})`, value: `${ms(bare50)} / ${ms(percentile(times.bare, 0.95))}` },
    { label: `sql_read_query through the relay, p50 / p95 (n=${times.aiOps.length})`, value: `${ms(ai50)} / ${ms(percentile(times.aiOps, 0.95))}` },
    { label: 'ratio at p95 (sql_read_query / bare)', value: `${(percentile(times.aiOps, 0.95) / percentile(times.bare, 0.95)).toFixed(2)}x` },
    { label: `ratio at p50 (sql_read_query / bare)${suffix}`, value: `${ratio.toFixed(2)}x`, budget: '≤ 1.10', ok: ratio <= 1.1 },
  ];
}
