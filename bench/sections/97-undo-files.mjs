// Issue 19, the file tools' undo (UNDO-1): what keeping a before-state adds to node_write_file and
// go_write_file of 1 MB, and to node_run_command, and the undo's own time. Each write is measured
// on two real pages of the same tool, one as served and one with `?undo=off` (the same operations
// built with `undo: false`: no before-state read, no step), called alternately through
// navigator.modelContextTesting.executeTool, so both see the same machine at the same moment. The
// undo is the user's trusted click on the row's 「元に戻す」, timed in the page from the click to the
// row saying `undone` (the files are back by then).
import { logRows, showLog } from '../../test/e2e/harness.mjs';

export const name = 'file undo: before-state cost of a 1 MB write and a command, the undo\'s time';

const WRITES = 15;
const COMMANDS = 8;
const UNDOS = 5;
const UNDO_BUDGET_MS = 1000;
const MB = 1_000_000;

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)];
const ms = (x) => `${x.toFixed(1)} ms`;

/** Opens a tool page with its switch on (stored for the origin after the first click). */
async function openOn(browser, origin, tool, query, operation) {
  const page = await browser.context.newPage();
  await page.goto(`${origin}/${tool}/${query}`);
  const input = page.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`);
  await input.waitFor({ timeout: 30_000 });
  if (!(await input.isChecked())) await input.click();
  await page.waitForFunction((n) => navigator.modelContextTesting?.listTools().some((t) => t.name === n), operation, { timeout: 30_000 });
  return page;
}

/** One call in the page: its envelope and its ms; not_ready (a runtime still booting) is called again. */
const timedCall = (page, operation, args) =>
  page.evaluate(async ([n, a]) => {
    for (;;) {
      const started = performance.now();
      const envelope = JSON.parse(JSON.parse(await navigator.modelContextTesting.executeTool(n, JSON.stringify(a))).content[0].text);
      const took = performance.now() - started;
      if (envelope.error?.code !== 'not_ready') return { envelope, ms: took };
      await new Promise((r) => setTimeout(r, 20));
    }
  }, [operation, args]);

/** A text of `bytes` ASCII bytes, different per `i`, so every write changes the file (a same-text write keeps no step). */
const megabyte = (i) => `// ${i}\n`.padEnd(MB - 1, 'x') + '\n';

/** The same call on the page with undo and the one without, alternately; p50 of each and of their difference. */
async function interleaved(withUndo, withoutUndo, operation, argsOf, runs) {
  const on = [];
  const off = [];
  for (let i = -1; i < runs; i++) {
    // i = -1 warms both up (a first read of the runtime, the tree) and is not counted.
    const pair = i % 2 ? [[withUndo, on], [withoutUndo, off]] : [[withoutUndo, off], [withUndo, on]];
    for (const [page, times] of pair) {
      const { envelope, ms: took } = await timedCall(page, operation, argsOf(i, page === withUndo));
      if (!envelope.ok) throw new Error(`${operation}: ${JSON.stringify(envelope)}`);
      if (i >= 0) times.push(took);
    }
  }
  return { on: pct(on, 0.5), off: pct(off, 0.5), n: runs };
}

/**
 * `change` (an agent's call), then the user's click on its row's 「元に戻す」, timed in the page from
 * the trusted click to the row's `data-undo="undone"`.
 */
async function timedUndo(page, tool, change) {
  await page.bringToFront();
  await showLog(page, tool);
  const rows = logRows(page, tool);
  const before = await rows.count();
  await change();
  // The log renders a moment after the answer.
  const deadline = Date.now() + 10_000;
  while ((await rows.count()) <= before || (await rows.last().getAttribute('data-undo')) !== 'available') {
    if (Date.now() > deadline) throw new Error(`the newest ${tool} row has no undo: ${await rows.last().getAttribute('data-undo')}`);
    await page.waitForTimeout(20);
  }
  const row = rows.last();
  const id = await row.getAttribute('data-id');
  const button = row.getByRole('button', { name: /^元に戻す/ });
  await page.evaluate(([t, rowId]) => {
    const log = document.querySelector(`ai-ops-log[tool="${t}"]`);
    let clicked = null;
    addEventListener('click', () => { clicked ??= performance.now(); }, { capture: true });
    window.__undoTimed = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (clicked !== null && log.shadowRoot.querySelector(`[part="row"][data-id="${rowId}"]`)?.getAttribute('data-undo') === 'undone') {
          observer.disconnect();
          resolve(performance.now() - clicked);
        }
      });
      observer.observe(log.shadowRoot, { attributes: true, subtree: true, attributeFilter: ['data-undo'] });
    });
  }, [tool, id]);
  await button.click();
  return page.evaluate(() => window.__undoTimed);
}

export async function run({ demo, browser }) {
  const rows = [];
  const id = `bench-undo-${Date.now().toString(36)}`;

  // node: two pages on the same runner, each writing its own file.
  const nodeOn = await openOn(browser, demo.origin, 'node', `?id=${id}`, 'node_write_file');
  const nodeOff = await openOn(browser, demo.origin, 'node', `?id=${id}-off&undo=off`, 'node_write_file');
  const nodeWrite = await interleaved(nodeOn, nodeOff, 'node_write_file', (i, on) => ({ path: on ? 'bench-undo-on.txt' : 'bench-undo-off.txt', contents: megabyte(i) }), WRITES);
  rows.push({ label: `node_write_file 1 MB over 1 MB, p50 (n=${WRITES}), no step kept`, value: ms(nodeWrite.off) });
  rows.push({ label: '  with its before-state kept (the previous 1 MB)', value: `${ms(nodeWrite.on)} (+${ms(nodeWrite.on - nodeWrite.off)}, ×${(nodeWrite.on / nodeWrite.off).toFixed(2)})` });

  const command = (i) => ({ command: 'node', args: ['-e', `require('fs').writeFileSync('bench-undo-cmd.txt', '${i}')`] });
  const nodeRun = await interleaved(nodeOn, nodeOff, 'node_run_command', command, COMMANDS);
  rows.push({ label: `node_run_command writing one file, p50 (n=${COMMANDS}), no step kept`, value: ms(nodeRun.off) });
  rows.push({ label: '  with the runner\'s keep before and changes after (issue 24)', value: `${ms(nodeRun.on)} (+${ms(nodeRun.on - nodeRun.off)}, ×${(nodeRun.on / nodeRun.off).toFixed(2)})` });

  // go: two projects (their own IndexedDB records), one page each.
  const goOn = await openOn(browser, demo.origin, 'go', `?id=${id}`, 'go_write_file');
  const goOff = await openOn(browser, demo.origin, 'go', `?id=${id}-off&undo=off`, 'go_write_file');
  const goWrite = await interleaved(goOn, goOff, 'go_write_file', (i) => ({ path: 'bench/undo.go', contents: megabyte(i) }), WRITES);
  rows.push({ label: `go_write_file 1 MB over 1 MB, p50 (n=${WRITES}), no step kept`, value: ms(goWrite.off) });
  rows.push({ label: '  with its before-state kept (the previous 1 MB)', value: `${ms(goWrite.on)} (+${ms(goWrite.on - goWrite.off)}, ×${(goWrite.on / goWrite.off).toFixed(2)})` });
  await nodeOff.close();
  await goOff.close();

  // The undo's own time: a 1 MB write, then the user's click (the newest row each time).
  const undoTimes = { node: [], go: [], command: [] };
  for (let i = 0; i < UNDOS; i++) {
    undoTimes.node.push(await timedUndo(nodeOn, 'node', () => timedCall(nodeOn, 'node_write_file', { path: 'bench-undo-on.txt', contents: megabyte(100 + i) })));
    undoTimes.go.push(await timedUndo(goOn, 'go', () => timedCall(goOn, 'go_write_file', { path: 'bench/undo.go', contents: megabyte(100 + i) })));
    undoTimes.command.push(await timedUndo(nodeOn, 'node', () => timedCall(nodeOn, 'node_run_command', command(100 + i))));
  }
  for (const [label, times] of [
    ['undo of node_write_file 1 MB (click → undone)', undoTimes.node],
    ['undo of go_write_file 1 MB (click → undone)', undoTimes.go],
    ['undo of node_run_command (click → undone)', undoTimes.command],
  ]) {
    const worst = Math.max(...times);
    rows.push({ label: `${label}, p50 / max (n=${UNDOS})`, value: `${ms(pct(times, 0.5))} / ${ms(worst)}`, budget: `≤ ${UNDO_BUDGET_MS} ms`, ok: worst <= UNDO_BUDGET_MS });
  }
  await nodeOn.close();
  await goOn.close();
  return rows;
}
