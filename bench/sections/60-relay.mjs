// The relay round trip: sql_read_query (through ai-ops: validation, pipeline, envelope, log) against
// a bare tool registered on the same /sql/ page with document.modelContext.registerTool, both called
// by a real MCP client through the same relay (bin/ai-ops-relay.mjs), interleaved.
import { startRelay, freePort, waitFor, clickSwitch, relayedNames } from '../../test/e2e/harness.mjs';

export const name = 'relay round trip: sql_read_query vs a bare tool on the same page (≥ 200 interleaved calls each)';

const CALLS = 200;
const WARMUP = 20;

const percentile = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];
};

export async function run({ demo, browser }) {
  const relay = await startRelay({ origin: demo.origin, port: await freePort() });
  const page = await browser.context.newPage();
  try {
    // Off before the click whatever ran before: with a stored "on" the click would turn it off.
    await page.goto(`${demo.origin}/sql/?id=bench-relay`);
    await page.evaluate(() => localStorage.removeItem('fd-ai-operations:sql'));
    await page.reload();
    const editor = page.getByLabel('SQL', { exact: true });
    await waitFor(async () => (await editor.inputValue()).length > 0, 15_000, 'the saved SQL');
    await clickSwitch(page, 'sql');
    if (!(await page.locator('ai-ops-switch[tool="sql"] input[role="switch"]').isChecked())) throw new Error('the sql switch is not on after the click');
    await waitFor(async () => (await relayedNames(relay.client)).includes('sql_read_query'), 20_000, 'sql_read_query through the relay');
    // The same answer, built by hand: the editor's SQL in a CallToolResult.
    await page.evaluate(() => document.modelContext.registerTool({
      name: 'bare_read_query',
      description: 'The SQL in the editor (bench: no ai-ops).',
      inputSchema: { type: 'object', properties: {} },
      execute: async () => ({
        content: [{ type: 'text', text: JSON.stringify({ ok: true, sql: document.querySelector('#sql-editor')?.value ?? '' }) }],
      }),
    }));
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
    const stats = {
      ai50: percentile(times.aiOps, 0.5), ai95: percentile(times.aiOps, 0.95),
      bare50: percentile(times.bare, 0.5), bare95: percentile(times.bare, 0.95),
    };
    const ratio = stats.ai50 / stats.bare50;
    // Where the difference lies: the same two tools called inside the page (no relay), mean of 100.
    const inPage = await page.evaluate(async () => {
      const t = navigator.modelContextTesting;
      const mean = async (tool) => {
        const start = performance.now();
        for (let i = 0; i < 100; i++) await t.executeTool(tool, '{}');
        return (performance.now() - start) / 100;
      };
      return { aiOps: await mean('sql_read_query'), bare: await mean('bare_read_query') };
    });
    const ms = (x) => `${x.toFixed(2)} ms`;
    return [
      { label: `bare tool through the relay, p50 / p95 (n=${times.bare.length})`, value: `${ms(stats.bare50)} / ${ms(stats.bare95)}` },
      { label: `sql_read_query through the relay, p50 / p95 (n=${times.aiOps.length})`, value: `${ms(stats.ai50)} / ${ms(stats.ai95)}` },
      { label: 'in the page (executeTool, no relay): sql_read_query / bare, mean', value: `${ms(inPage.aiOps)} / ${ms(inPage.bare)}` },
      { label: 'ratio at p95 (sql_read_query / bare)', value: `${(stats.ai95 / stats.bare95).toFixed(2)}x` },
      { label: 'ratio at p50 (sql_read_query / bare)', value: `${ratio.toFixed(2)}x`, budget: '≤ 1.10', ok: ratio <= 1.1 },
    ];
  } finally {
    await page.close();
    await relay.close();
  }
}
