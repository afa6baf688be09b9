// BATCH-1's cost: rendering the confirmation dialog with 20 calls waiting behind it (the labelled
// list, each item's disclosure and time left), side by side with the dialog alone (1 waiting
// call), in the bench's browser page. One run: the queue's state changes to a new request (the
// dialog renders it fresh, keyed by id) and the element's update completes. Budget: one frame.
import * as esbuild from 'esbuild';

export const name = 'batch dialog: rendering with 20 waiting calls vs 1 (BATCH-1)';

const RUNS = 200;
const BUDGET_MS = 16;

const ENTRY = `
import { createStore } from './src/store.ts';
import { loadAiOpsElements } from './elements/define.ts';

window.benchBatch = async (runs) => {
  await loadAiOpsElements();
  const store = createStore({ current: null, queued: [] });
  const el = document.createElement('ai-ops-confirm');
  el.pointerGuardMs = 0;
  // Only the queue's state is read while rendering; the rest of the runtime is never reached here.
  el.aiOps = { confirmations: store, log: createStore({ entries: [] }), sessions: createStore([]) };
  document.body.append(el);
  await el.updateComplete;
  let id = 1;
  const request = (i) => ({
    id: id++, tool: 'node', name: 'node_delete_file', arrivedAt: Date.now(), expiresAt: Date.now() + 50000, status: 'waiting',
    content: { title: 'ファイル「src/file-' + i + '.ts」を削除する', summary: 'src/file-' + i + '.ts を削除します。', actionLabel: '削除する', detail: 'x'.repeat(400) },
  });
  const time = async (behind) => {
    const queued = Array.from({ length: behind }, (_, i) => request(i));
    const start = performance.now();
    store.setState({ current: request(-1), queued });
    await el.updateComplete;
    const end = performance.now();
    store.setState({ current: null, queued: [] });
    await el.updateComplete;
    return end - start;
  };
  const one = [], twenty = [];
  for (let i = 0; i < runs + 20; i++) {
    // Interleaved, so both see the same machine; the first 20 warm the JIT up.
    const a = await time(0);
    const b = await time(20);
    if (i >= 20) { one.push(a); twenty.push(b); }
  }
  const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) * p)]; };
  return { n: one.length, one50: pct(one, 0.5), twenty50: pct(twenty, 0.5), twenty95: pct(twenty, 0.95) };
};
`;

/**
 * The bench page's script, bundled in memory. test/node/bench-sections.test.mjs builds it too, with
 * `overrides` of its own (the project's modules only: no dependency, no plugin).
 */
export async function bundle(root, overrides = {}) {
  const result = await esbuild.build({
    stdin: { contents: ENTRY, resolveDir: root, sourcefile: 'bench-batch.js', loader: 'js' },
    bundle: true, format: 'esm', target: 'es2022', write: false, logLevel: 'error',
    conditions: ['production', 'browser'],
    ...overrides,
  });
  return result.outputFiles[0].contents;
}

export async function run({ root, demo, browser }) {
  const script = await bundle(root);
  const page = await browser.context.newPage();
  const base = `${demo.origin}/bench-batch/`;
  await page.route(`${base}**`, (route) => {
    if (new URL(route.request().url()).pathname.endsWith('/main.js')) {
      return route.fulfill({ contentType: 'text/javascript', body: Buffer.from(script) });
    }
    return route.fulfill({ contentType: 'text/html', body: '<!doctype html><meta charset="utf-8"><title>bench</title><script type="module" src="./main.js"></script>' });
  });
  await page.goto(`${base}index.html`);
  await page.waitForFunction(() => typeof window.benchBatch === 'function');
  const stats = await page.evaluate((runs) => window.benchBatch(runs), RUNS);
  await page.close();
  const ms = (x) => `${x.toFixed(1)} ms`;
  return [
    { label: 'baseline: the dialog with 1 waiting call, p50', value: ms(stats.one50) },
    { label: `the dialog with 20 more waiting behind it, p50 / p95 (n=${stats.n})`, value: `${ms(stats.twenty50)} / ${ms(stats.twenty95)}`, budget: `≤ ${BUDGET_MS} ms p50`, ok: stats.twenty50 <= BUDGET_MS },
  ];
}
