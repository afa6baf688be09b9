// The /node/ page: the round trip of node_run_command `node -e "1"` — the call through ai-ops, the
// runner's spawn of a real Node process inside its bubblewrap sandbox (permission model flags
// included), its output stream and exit, the file-tree refresh after it. Real Chromium, real demo
// server and runner, calls through navigator.modelContextTesting.executeTool (the path the relay
// widget uses). Then the sandbox's start-up cost: the same `node -e 1` started by the runner's
// process manager with and without the sandbox, interleaved (the unconfined mode exists for this
// measurement only; the runner's HTTP API cannot reach it).
import { createProcessManager } from '../../playground/node/server/processes.mjs';
import { sandboxOwner } from '../../playground/node/server/sandbox.mjs';
import { createWorkspace, removeWorkspace } from '../../playground/node/server/workspace.mjs';

export const name = 'node page: node_run_command round trip';

const RUNS = 10;
const SPAWNS = 20;
const BUDGET_MS = 100;

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

export async function run({ demo, browser }) {
  const page = await browser.context.newPage();
  await page.goto(`${demo.origin}/node/?id=bench`);
  const input = page.locator('ai-ops-switch[tool="node"] input[role="switch"]');
  if (!(await input.isChecked())) await input.click();
  await page.waitForFunction(() => navigator.modelContextTesting?.listTools().some((tool) => tool.name === 'node_run_command'), null, { timeout: 30_000 });
  const times = await page.evaluate(async (runs) => {
    const t = navigator.modelContextTesting;
    const args = JSON.stringify({ command: 'node', args: ['-e', '1'] });
    const call = async () => JSON.parse(JSON.parse(await t.executeTool('node_run_command', args)).content[0].text);
    // The runtime boots at page load: not_ready until it has.
    for (;;) {
      const first = await call();
      if (first.ok) break;
      if (first.error?.code !== 'not_ready') throw new Error(JSON.stringify(first));
      await new Promise((r) => setTimeout(r, 20));
    }
    const out = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const envelope = await call();
      if (envelope.exitCode !== 0) throw new Error(JSON.stringify(envelope));
      out.push(performance.now() - started);
    }
    return out;
  }, RUNS);
  await page.close();
  const cost = await sandboxCost();
  const p50 = pct(times, 0.5);
  const confined = pct(cost.confined, 0.5);
  const unconfined = pct(cost.unconfined, 0.5);
  return [
    { label: `node_run_command \`node -e "1"\` (sandboxed), p50 (n=${RUNS})`, value: ms(p50), budget: `≤ ${BUDGET_MS} ms`, ok: p50 <= BUDGET_MS },
    { label: `node_run_command \`node -e "1"\`, p95 / max`, value: `${ms(pct(times, 0.95))} / ${ms(Math.max(...times))}` },
    { label: `runner spawn→exit \`node -e 1\` in the sandbox, p50 (n=${SPAWNS})`, value: ms(confined) },
    { label: `runner spawn→exit \`node -e 1\` unconfined (bench only), p50`, value: ms(unconfined) },
    { label: 'sandbox start-up cost (bwrap + prlimit), p50 difference', value: ms(confined - unconfined) },
  ];
}
