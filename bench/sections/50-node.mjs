// The /node/ page: the round trip of node_run_command `node -e "1"` — the call through ai-ops, the
// runner's spawn of a real Node process inside its bubblewrap sandbox (permission model flags
// included), its output stream and exit, the file-tree refresh after it. Real Chromium, real demo
// server and runner, calls through navigator.modelContextTesting.executeTool (the path the relay
// widget uses). Then the sandbox's start-up cost: the same `node -e 1` started by the runner's
// process manager with and without the sandbox, interleaved (the unconfined mode exists for this
// measurement only; the runner's HTTP API cannot reach it).
//
// Issue 24: what the undo of a command adds. `node -e 1` on a page as served (undo on: the runner
// notes the kept files before and tells the changes after) against the same page with `?undo=off`,
// and a command that changes one file in a workspace of 2,000 files / 20 MB against the same
// command in one of 10 files (two demo servers, each with its own workspace), every pair called
// alternately, the order swapped each round, so the machine's noise falls on both sides.
import { chown, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startDemo } from '../../test/e2e/harness.mjs';
import { createKeptFiles } from '../../playground/node/server/kept.mjs';
import { createProcessManager } from '../../playground/node/server/processes.mjs';
import { sandboxOwner } from '../../playground/node/server/sandbox.mjs';
import { createWorkspace, removeWorkspace } from '../../playground/node/server/workspace.mjs';

export const name = 'node page: node_run_command round trip';

const RUNS = 20;
const SIZE_RUNS = 20;
const SIZE_BUDGET = 1.2;
const BIG_FILES = 2000;
const FILE_BYTES = 10_000;
const SPAWNS = 20;
const BUDGET_MS = 100;
const TIMEOUT_RUNS = 5;
const TIMEOUT_LATE_BUDGET_MS = 2000;

/** Milliseconds from start to the exit being seen, for one `node -e 1`. */
async function spawnOnce(manager) {
  const started = performance.now();
  const info = await manager.start('node', ['-e', '1']);
  await new Promise((resolve) => {
    manager.subscribe(info.id, 0, { output: () => {}, exit: resolve });
  });
  const exited = manager.get(info.id);
  if (exited.exitCode !== 0) throw new Error(`node -e 1 exited ${exited.exitCode}`);
  return performance.now() - started;
}

async function sandboxCost() {
  const owner = sandboxOwner();
  const { base, workspace, home, etcDir } = await createWorkspace({ owner });
  try {
    const confined = createProcessManager({ workspace, home, etcDir });
    const unconfined = createProcessManager({ workspace, home, etcDir, confine: false });
    await spawnOnce(confined); // the one-time sandbox check and warm caches
    await spawnOnce(unconfined);
    const times = { confined: [], unconfined: [] };
    for (let i = 0; i < SPAWNS; i++) {
      times.confined.push(await spawnOnce(confined));
      times.unconfined.push(await spawnOnce(unconfined));
    }
    return times;
  } finally {
    await removeWorkspace(base);
  }
}

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)];
const ms = (x) => `${Math.round(x).toLocaleString('en-US')} ms`;
const walkMs = (x) => `${x.toFixed(1)} ms`;

/** Opens the node page at `origin` + `query` with its switch on, `node_run_command` registered and the runtime booted. */
async function openNode(browser, origin, query) {
  const page = await browser.context.newPage();
  await page.goto(`${origin}/node/${query}`);
  const input = page.locator('ai-ops-switch[tool="node"] input[role="switch"]');
  if (!(await input.isChecked())) await input.click();
  await page.waitForFunction(() => navigator.modelContextTesting?.listTools().some((tool) => tool.name === 'node_run_command'), null, { timeout: 30_000 });
  // The runtime boots at page load: not_ready until it has.
  await timedRun(page, ['-e', '1']);
  return page;
}

/** One node_run_command `node <args>` in the page, in ms; not_ready is called again (not counted). */
const timedRun = (page, args) =>
  page.evaluate(async (a) => {
    const call = JSON.stringify({ command: 'node', args: a });
    for (;;) {
      const started = performance.now();
      const envelope = JSON.parse(JSON.parse(await navigator.modelContextTesting.executeTool('node_run_command', call)).content[0].text);
      const took = performance.now() - started;
      if (envelope.error?.code === 'not_ready') {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      if (envelope.exitCode !== 0) throw new Error(JSON.stringify(envelope));
      return took;
    }
  }, args);

/** `argsOf(i)` on page `a` and page `b` alternately, the order swapped each round; ms of each side. */
async function alternate(a, b, argsOf, runs) {
  const times = { a: [], b: [] };
  for (let i = -1; i < runs; i++) {
    // i = -1 warms both up (the runner's first look at every file) and is not counted.
    const order = i % 2 ? [['a', a], ['b', b]] : [['b', b], ['a', a]];
    for (const [side, page] of order) {
      const took = await timedRun(page, argsOf(i));
      if (i >= 0) times[side].push(took);
    }
  }
  return times;
}

/** Fills `workspace` with `count` files of FILE_BYTES text in 40 directories, owned by the sandbox user. */
async function fill(workspace, count) {
  const owner = sandboxOwner();
  for (let i = 0; i < count; i++) {
    const dir = join(workspace, `src${i % 40}`);
    await mkdir(dir, { recursive: true });
    const file = join(dir, `m${i}.js`);
    await writeFile(file, `// module ${i}\n`.padEnd(FILE_BYTES - 1, 'x') + '\n');
    if (owner) await chown(file, owner.uid, owner.gid);
    if (owner && i < 40) await chown(dir, owner.uid, owner.gid);
  }
}

export async function run({ demo, browser }) {
  // node -e 1 with undo on and off, on the same runner.
  const on = await openNode(browser, demo.origin, '?id=bench');
  const off = await openNode(browser, demo.origin, '?id=bench-off&undo=off');
  const undoTimes = await alternate(on, off, () => ['-e', '1'], RUNS);
  // NODE-4: a command that never ends, timeoutMs 1000 → how late after it the timeout answers.
  const timeoutLate = [];
  for (let i = 0; i < TIMEOUT_RUNS; i++) {
    timeoutLate.push(await on.evaluate(async () => {
      const started = performance.now();
      const call = JSON.stringify({ command: 'node', args: ['-e', 'while(true){}'], timeoutMs: 1000 });
      const envelope = JSON.parse(JSON.parse(await navigator.modelContextTesting.executeTool('node_run_command', call)).content[0].text);
      if (envelope.error?.code !== 'timeout') throw new Error(JSON.stringify(envelope));
      return performance.now() - started - 1000;
    }));
  }
  await on.close();
  await off.close();

  // One changed file in 2,000 files / 20 MB against 10 files: two servers, two workspaces.
  const small = await startDemo();
  const big = await startDemo();
  let sizeTimes;
  let walkTimes;
  try {
    // The sample project's 3 files are there already.
    await fill(small.workspace, 10 - 3);
    await fill(big.workspace, BIG_FILES - 3);
    const smallPage = await openNode(browser, small.origin, '?id=bench-small');
    const bigPage = await openNode(browser, big.origin, '?id=bench-big');
    const writeOne = (i) => ['-e', `require('fs').writeFileSync('src0/m0.js', '// changed ${i}\\n')`];
    sizeTimes = await alternate(bigPage, smallPage, writeOne, SIZE_RUNS);
    await smallPage.close();
    await bigPage.close();
    // What the big side pays in the runner after a command that changed one file: the look from
    // the change feed (the runner's way) against a full walk (stat of every entry), alternated.
    walkTimes = { feed: [], walk: [] };
    const fed = createKeptFiles(big.workspace, { watch: true });
    const walker = createKeptFiles(big.workspace);
    await fed.settle();
    fed.mark();
    walker.mark();
    try {
      for (let i = -1; i < SIZE_RUNS; i++) {
        await writeFile(join(big.workspace, 'src0/m0.js'), `// look ${i}\n`);
        for (const side of i % 2 ? ['feed', 'walk'] : ['walk', 'feed']) {
          const started = performance.now();
          if (side === 'feed') await fed.settle();
          (side === 'feed' ? fed : walker).mark();
          if (i >= 0) walkTimes[side].push(performance.now() - started);
        }
      }
    } finally {
      fed.close();
    }
  } finally {
    await small.close();
    await big.close();
  }

  const cost = await sandboxCost();
  const p50 = pct(undoTimes.a, 0.5);
  const p50Off = pct(undoTimes.b, 0.5);
  const bigP50 = pct(sizeTimes.a, 0.5);
  const smallP50 = pct(sizeTimes.b, 0.5);
  const ratio = bigP50 / smallP50;
  const confined = pct(cost.confined, 0.5);
  const unconfined = pct(cost.unconfined, 0.5);
  return [
    { label: `node_run_command \`node -e "1"\` (sandboxed, undo on), p50 (n=${RUNS})`, value: ms(p50), budget: `≤ ${BUDGET_MS} ms`, ok: p50 <= BUDGET_MS },
    { label: '  the same on the page with ?undo=off (the baseline), p50', value: `${ms(p50Off)} (undo adds ${ms(p50 - p50Off)}, ×${(p50 / p50Off).toFixed(2)})` },
    { label: `node_run_command \`node -e "1"\` undo on, p95 / max`, value: `${ms(pct(undoTimes.a, 0.95))} / ${ms(Math.max(...undoTimes.a))}` },
    { label: `\`while(true){}\` with timeoutMs 1000: timeout answered late by, worst of ${TIMEOUT_RUNS}`, value: ms(Math.max(...timeoutLate)), budget: `≤ ${ms(TIMEOUT_LATE_BUDGET_MS)}`, ok: Math.max(...timeoutLate) <= TIMEOUT_LATE_BUDGET_MS },
    { label: `a command changing 1 file, 10-file workspace, p50 (n=${SIZE_RUNS})`, value: ms(smallP50) },
    { label: `  the same in ${BIG_FILES.toLocaleString('en-US')} files / ${(BIG_FILES * FILE_BYTES / 1e6).toFixed(0)} MB, p50`, value: `${ms(bigP50)} (×${ratio.toFixed(2)})`, budget: `≤ ${SIZE_BUDGET}× the 10 files`, ok: ratio <= SIZE_BUDGET },
    { label: '  the runner\'s look after it: change feed / full walk, p50', value: `${walkMs(pct(walkTimes.feed, 0.5))} / ${walkMs(pct(walkTimes.walk, 0.5))} (2,000 files)` },
    { label: `runner spawn→exit \`node -e 1\` in the sandbox, p50 (n=${SPAWNS})`, value: ms(confined) },
    { label: `runner spawn→exit \`node -e 1\` unconfined (bench only), p50`, value: ms(unconfined) },
    { label: 'sandbox start-up cost (bwrap + prlimit), p50 difference', value: ms(confined - unconfined) },
  ];
}
