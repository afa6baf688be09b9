// The relay round trip with the browser's WebMCP off (the polyfill's registry): the bare tool is
// registered with document.modelContext.registerTool beside ai-ops's (bench/lib/relay-round-trip.mjs).
import { BARE_READ_QUERY, measureRelayRoundTrip, roundTripRows } from '../lib/relay-round-trip.mjs';

export const name = 'relay round trip: sql_read_query vs a bare tool on the same page (≥ 200 interleaved calls each)';

export async function run({ demo, browser }) {
  const { times, page, close } = await measureRelayRoundTrip({
    demo, browser, docId: 'bench-relay',
    registerBare: (p) => p.evaluate(`document.modelContext.registerTool(${BARE_READ_QUERY})`),
  });
  try {
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
    const rows = roundTripRows(times);
    rows.splice(2, 0, { label: 'in the page (executeTool, no relay): sql_read_query / bare, mean', value: `${ms(inPage.aiOps)} / ${ms(inPage.bare)}` });
    return rows;
  } finally {
    await close();
  }
}
