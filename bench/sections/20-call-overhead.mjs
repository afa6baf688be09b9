// The runtime's added cost per call (validation, envelope, logging): the same execute registered
// bare and through ai-ops on one page, called alternately through modelContextTesting.executeTool.
export const name = 'per-call overhead: ai-ops vs a bare registered tool (≥ 1,000 calls each)';

export async function run({ demo, browser }) {
  const page = await browser.context.newPage();
  await page.goto(`${demo.origin}/sample/`);
  await page.locator('ai-ops-switch input[role="switch"]').click();
  await page.waitForFunction(() => 'modelContextTesting' in navigator);
  const stats = await page.evaluate(async () => {
    const { createAiOps, defineOperation, succeed } = await import('/ai-ops/ai-ops.js');
    const aiOps = createAiOps({ relayPort: 9, autoReconnect: false });
    const execute = async ({ text }) => succeed({ text });
    const session = aiOps.provideOperations('bench', [defineOperation({
      name: 'bench_echo', description: 'echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string', maxBytes: 1048576 } }, required: ['text'], additionalProperties: false },
      execute,
    })]);
    session.turnOn();
    while (session.getState().status !== 'on') await new Promise((r) => setTimeout(r, 10));
    await document.modelContext.registerTool({
      name: 'bare_echo', description: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      execute: async (args) => { const r = await execute(args); return { content: [{ type: 'text', text: JSON.stringify(r) }] }; },
    });
    const t = navigator.modelContextTesting;
    const args = JSON.stringify({ text: 'hello' });
    // performance.now() is coarsened to 0.1 ms on a page that is not cross-origin isolated, so
    // calls are timed in batches of 100 and the batches of both kinds interleaved.
    const BATCH = 100;
    const BATCHES = 40;
    const batch = async (name) => {
      const start = performance.now();
      for (let i = 0; i < BATCH; i++) await t.executeTool(name, args);
      return (performance.now() - start) / BATCH;
    };
    const times = { bare: [], aiOps: [] };
    await batch('bare_echo');
    await batch('bench_echo');
    for (let i = 0; i < BATCHES; i++) {
      if (i % 2) { times.bare.push(await batch('bare_echo')); times.aiOps.push(await batch('bench_echo')); }
      else { times.aiOps.push(await batch('bench_echo')); times.bare.push(await batch('bare_echo')); }
    }
    const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) * p)]; };
    // The runtime's own work alone, without the polyfill: validate + pipeline + envelope + log.
    const direct = [];
    for (let b = 0; b < BATCHES; b++) {
      const start = performance.now();
      for (let i = 0; i < BATCH; i++) await session.call('bench_echo', { text: 'hello' });
      direct.push((performance.now() - start) / BATCH);
    }
    session.turnOff();
    return {
      n: times.bare.length * BATCH,
      bare50: pct(times.bare, 0.5), bare95: pct(times.bare, 0.95),
      ai50: pct(times.aiOps, 0.5), ai95: pct(times.aiOps, 0.95),
      direct50: pct(direct, 0.5),
    };
  });
  await page.close();
  const overhead = stats.ai50 - stats.bare50;
  const ms = (x) => `${x.toFixed(4)} ms`;
  return [
    { label: `bare tool via executeTool, p50 / p95 of batch means (n=${stats.n})`, value: `${ms(stats.bare50)} / ${ms(stats.bare95)}` },
    { label: `ai-ops tool via executeTool, p50 / p95 of batch means (n=${stats.n})`, value: `${ms(stats.ai50)} / ${ms(stats.ai95)}` },
    { label: 'ratio ai-ops / bare at p50', value: `${(stats.ai50 / stats.bare50).toFixed(2)}x` },
    { label: 'added per call at p50 (ai-ops − bare)', value: ms(overhead), budget: '≤ 0.05 ms', ok: overhead <= 0.05 },
    { label: 'runtime pipeline alone (session.call), p50', value: ms(stats.direct50) },
  ];
}
