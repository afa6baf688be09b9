// What the runtime's undo keeping costs (UNDO-1, UNDO-4): the same execute with and without an undo
// step, called alternately through the runtime's pipeline (session.call) on one page, and one
// undo's own time (no later change, so no dialog) with the log full (200 rows, LOG-7).
export const name = 'undo keeper: a call with a step vs without, and one undo (UNDO-1, UNDO-4)';

export async function run({ demo, browser }) {
  const page = await browser.context.newPage();
  await page.goto(`${demo.origin}/sample/`);
  const stats = await page.evaluate(async () => {
    const { createAiOps, defineOperation, succeed } = await import('/ai-ops/ai-ops.js');
    // `consent: 'click'`: this rig measures the undo keeper, not the user's verification (UV-2's
    // explicit opt-out for one's own test rigs); the verified approval has its own section (75).
    const aiOps = createAiOps({ relayPort: 9, autoReconnect: false, storage: null, consent: 'click' });
    const values = new Map();
    const schema = { type: 'object', properties: { key: { type: 'string' }, text: { type: 'string' } }, required: ['key', 'text'], additionalProperties: false };
    const set = (key, text) => {
      const had = values.has(key);
      const before = values.get(key);
      values.set(key, text);
      return { had, before };
    };
    const session = aiOps.provideOperations('bench', [
      defineOperation({
        name: 'bench_set_plain', description: 'set, no step', inputSchema: schema,
        execute: async ({ key, text }) => { set(key, text); return succeed({ key }); },
      }),
      defineOperation({
        name: 'bench_set', description: 'set, with a step', inputSchema: schema,
        execute: async ({ key, text }) => {
          const { had, before } = set(key, text);
          return {
            result: succeed({ key }),
            undo: {
              targets: [`bench:${key}`], bytes: (before ?? '').length * 2,
              undo: async () => void (had ? values.set(key, before) : values.delete(key)),
            },
          };
        },
      }),
    ]);
    await session.turnOn();
    while (session.getState().status !== 'on') {
      if (session.getState().error) throw new Error(`the switch did not turn on: ${session.getState().error}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const text = 'x'.repeat(1024);
    // performance.now() is coarsened to 0.1 ms here, so calls are timed in batches, interleaved.
    const BATCH = 500;
    const BATCHES = 30;
    let n = 0;
    const batch = async (name) => {
      const start = performance.now();
      for (let i = 0; i < BATCH; i++) await session.call(name, { key: `k${n++}`, text });
      return (performance.now() - start) / BATCH;
    };
    const times = { plain: [], step: [] };
    await batch('bench_set_plain');
    await batch('bench_set');
    for (let i = 0; i < BATCHES; i++) {
      if (i % 2) { times.plain.push(await batch('bench_set_plain')); times.step.push(await batch('bench_set')); }
      else { times.step.push(await batch('bench_set')); times.plain.push(await batch('bench_set_plain')); }
    }
    // The newest available rows (the log is full: 200 rows, LOG-7), undone one at a time; timed in
    // batches of 20 for the same coarse clock, and the slowest batch's mean reported as the max.
    const rows = aiOps.log.getState().entries.filter((e) => e.undo === 'available').slice(-100);
    const undos = [];
    for (let b = 0; b + 20 <= rows.length; b += 20) {
      const start = performance.now();
      for (const row of rows.slice(b, b + 20)) {
        const answer = await aiOps.undo(row.id);
        if (answer.status !== 'undone') throw new Error(`undo answered ${JSON.stringify(answer)}`);
      }
      undos.push((performance.now() - start) / 20);
    }
    session.turnOff();
    const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) * p)]; };
    return {
      n: times.plain.length * BATCH, logRows: aiOps.log.getState().entries.length,
      plain50: pct(times.plain, 0.5), step50: pct(times.step, 0.5), step95: pct(times.step, 0.95),
      undos: undos.length * 20, undo50: pct(undos, 0.5), undoMax: Math.max(...undos),
    };
  });
  await page.close();
  const ms = (x) => `${x.toFixed(4)} ms`;
  const added = stats.step50 - stats.plain50;
  return [
    { label: `call without a step, session.call p50 of batch means (n=${stats.n})`, value: ms(stats.plain50) },
    { label: `call with a 1 KB step, p50 / p95 (n=${stats.n})`, value: `${ms(stats.step50)} / ${ms(stats.step95)}` },
    { label: 'added by the keeping at p50 (with − without)', value: `${ms(added)} (${(stats.step50 / stats.plain50).toFixed(2)}x)` },
    { label: `one undo, no dialog, log of ${stats.logRows} rows: p50 / max of batch means (n=${stats.undos})`, value: `${ms(stats.undo50)} / ${ms(stats.undoMax)}`, budget: '≤ 1 s', ok: stats.undoMax <= 1000 },
  ];
}
