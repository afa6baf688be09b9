// SAFE-8: what the operation log retains. 200 calls each returning a 1 MB result go through a
// runtime whose log is rendered by an <ai-ops-log>; the JS heap is read after forced garbage
// collection (CDP HeapProfiler.collectGarbage, then Runtime.getHeapUsage), before and after, with
// the log already full of 200 small rows before, so the difference is what the big rows add.
export const name = 'log memory: heap retained by 200 logged calls with 1 MB results (SAFE-8)';

const MB = 1024 * 1024;

export async function run({ demo, browser }) {
  const page = await browser.context.newPage();
  await page.goto(`${demo.origin}/sample/`);
  // The page's switches are off, so the log's element is not defined yet (PKG-4): define it now.
  await page.evaluate(async () => (await import('/ai-ops/ai-ops.js')).loadAiOpsElements());
  const cdp = await browser.context.newCDPSession(page);
  const heapAfterGc = async () => {
    // Several passes: the first may only promote what the second frees.
    for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  };
  await page.evaluate(async () => {
    const { createAiOps, defineOperation, succeed } = await import('/ai-ops/ai-ops.js');
    const aiOps = createAiOps({ relayPort: 9, autoReconnect: false });
    const session = aiOps.provideOperations('bench', [defineOperation({
      name: 'bench_read', description: 'returns `size` characters, as a file read would',
      inputSchema: {
        type: 'object',
        properties: { size: { type: 'integer' }, seed: { type: 'integer' }, text: { type: 'string', maxBytes: 2097152 } },
        required: ['size', 'seed'], additionalProperties: false,
      },
      // A new string per call, as each read of a file gives.
      execute: async ({ size, seed }) => succeed({ contents: `${seed}:`.padEnd(size, 'x') }),
    })]);
    const log = document.createElement('ai-ops-log');
    log.aiOps = aiOps;
    log.tool = 'bench';
    log.mode = 'tab';
    document.body.append(log);
    session.turnOn();
    while (session.getState().status !== 'on') await new Promise((r) => setTimeout(r, 10));
    const calls = async (size, withArgs) => {
      for (let i = 0; i < 200; i++) {
        const args = withArgs ? { size, seed: i, text: `${i}`.padEnd(size, 'y') } : { size, seed: i };
        await session.call('bench_read', args);
      }
      await new Promise((r) => setTimeout(r, 100)); // the log renders a little after the calls
      return aiOps.log.getState().entries.length;
    };
    window.__logBench = { calls };
    await calls(100, false);
  });
  const before = await heapAfterGc();
  const rows = await page.evaluate((size) => window.__logBench.calls(size, false), MB);
  const afterResults = await heapAfterGc();
  await page.evaluate((size) => window.__logBench.calls(size, true), MB);
  const afterBoth = await heapAfterGc();
  await page.close();

  const mb = (bytes) => `${(bytes / MB).toFixed(2)} MB`;
  const results = afterResults - before;
  const both = afterBoth - before;
  return [
    { label: `rows kept after 200 calls (log limit)`, value: String(rows) },
    { label: 'JS heap before, 200 small rows logged (after GC)', value: mb(before) },
    { label: 'retained by 200 rows of 1 MB results', value: mb(results), budget: '≤ 10 MB', ok: results <= 10 * MB },
    { label: 'retained by 200 rows of 1 MB arguments and 1 MB results', value: mb(both), budget: '≤ 10 MB', ok: both <= 10 * MB },
  ];
}
