// NAT-3: the relay round trip where the browser has its own WebMCP (relay 2.2.0's embed then reads
// the navigator.modelContextTesting surface ai-ops installs over it): sql_read_query through ai-ops
// against a bare tool added to that same surface on the same /sql/ page, both called by a real MCP
// client through the same relay (bin/ai-ops-relay.mjs), interleaved. Its own Chromium with
// --enable-features=WebMCP.
import { launchBrowser, startRelay, freePort, waitFor, clickSwitch, relayedNames } from '../../test/e2e/harness.mjs';

export const name = 'relay round trip, browser\'s own WebMCP on: sql_read_query vs a bare tool (≥ 200 interleaved calls each)';

const CALLS = 200;
const WARMUP = 20;
const percentile = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];
};

export async function run({ demo }) {
  const browser = await launchBrowser({ mode: 'webmcp' });
  const relay = await startRelay({ origin: demo.origin, port: await freePort() });
  try {
    const page = await browser.context.newPage();
    await page.goto(`${demo.origin}/sql/?id=bench-relay-webmcp`);
    if (!(await page.evaluate(() => Object.prototype.toString.call(document.modelContext) === '[object ModelContext]'))) {
      throw new Error('this browser has no WebMCP of its own');
    }
    const editor = page.getByLabel('SQL', { exact: true });
    await waitFor(async () => (await editor.inputValue()).length > 0, 15_000, 'the saved SQL');
    await clickSwitch(page, 'sql');
    await waitFor(async () => (await relayedNames(relay.client)).includes('sql_read_query'), 20_000, 'sql_read_query through the relay');
    // The same answer built by hand, on the surface the relay reads (no ai-ops pipeline).
    await page.evaluate(() => navigator.modelContextTesting.add({
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
      if (i % 2) {
        times.bare.push(await time('bare_read_query'));
        times.aiOps.push(await time('sql_read_query'));
      } else {
        times.aiOps.push(await time('sql_read_query'));
        times.bare.push(await time('bare_read_query'));
      }
    }
    const ai50 = percentile(times.aiOps, 0.5);
    const bare50 = percentile(times.bare, 0.5);
    const ratio = ai50 / bare50;
    const ms = (x) => `${x.toFixed(2)} ms`;
    return [
      { label: `bare tool through the relay, p50 / p95 (n=${CALLS})`, value: `${ms(bare50)} / ${ms(percentile(times.bare, 0.95))}` },
      { label: `sql_read_query through the relay, p50 / p95 (n=${CALLS})`, value: `${ms(ai50)} / ${ms(percentile(times.aiOps, 0.95))}` },
      { label: 'ratio at p50 (sql_read_query / bare), WebMCP on', value: `${ratio.toFixed(2)}x`, budget: '≤ 1.10', ok: ratio <= 1.1 },
    ];
  } finally {
    await browser.close();
    await relay.close();
  }
}
