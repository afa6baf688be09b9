// SUITE-1: the stress lane. `scripts/test-stress.sh -n N FILE...` runs each file N times with a CPU
// hog beside it and ends with the runs' `N passed, M failed`. The probe files are written to a
// folder of their own (a `*.test.mjs` under test/ would be run by `npm test` without the hog).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/test-stress.sh', import.meta.url));

/** Runs the script; resolves its exit code and output once it ends. */
function stress(args, env = {}) {
  return new Promise((resolve) => {
    // Without NODE_TEST_CONTEXT: a node --test started under this one would otherwise report to it
    // instead of running its file and exiting with the file's verdict.
    const { NODE_TEST_CONTEXT, ...outer } = process.env;
    const child = spawn('bash', [script, ...args], { env: { ...outer, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// The probe passes only while every hog the script names is running: its CPU time grows.
const PROBE = `
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
const cpu = (pid) => { const f = readFileSync('/proc/' + pid + '/stat', 'utf8').split(') ')[1].split(' '); return Number(f[11]) + Number(f[12]); };
test('a hog runs beside this file', async () => {
  const pids = (process.env.AI_OPS_STRESS_HOGS || '').split(' ').filter(Boolean);
  assert.equal(pids.length, Number(process.env.EXPECT_HOGS));
  for (const pid of pids) {
    const first = cpu(pid);
    const deadline = Date.now() + 10_000;
    while (cpu(pid) === first) {
      assert.ok(Date.now() < deadline, 'hog ' + pid + ' used no CPU in 10 s');
      await new Promise((r) => setImmediate(r));
    }
  }
});
`;

test('[SUITE-1] test-stress.sh -n 2 FILE runs the file twice with a CPU hog beside it and counts the runs', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ai-ops-stress-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const probe = join(dir, 'probe.test.mjs');
  writeFileSync(probe, PROBE);
  const { code, stdout, stderr } = await stress(['-n', '2', probe], { EXPECT_HOGS: '1' });
  assert.match(stderr, /1 CPU hog\(s\) running/);
  assert.equal(stdout.trim().split('\n').at(-1), '2 passed, 0 failed', stdout);
  assert.equal(code, 0);
});

test('[SUITE-1] HOGS=2 keeps both cores busy; a failing file is counted as failed and the script fails', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ai-ops-stress-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const probe = join(dir, 'probe.test.mjs');
  writeFileSync(probe, PROBE);
  const both = await stress(['-n', '1', probe], { HOGS: '2', EXPECT_HOGS: '2' });
  assert.equal(both.stdout.trim().split('\n').at(-1), '1 passed, 0 failed', both.stdout);
  // The same probe told to expect a hog the script did not start fails, and the total says so.
  const none = await stress(['-n', '2', probe], { HOGS: '0', EXPECT_HOGS: '1' });
  assert.equal(none.stdout.trim().split('\n').at(-1), '0 passed, 2 failed', none.stdout);
  assert.notEqual(none.code, 0);
});
