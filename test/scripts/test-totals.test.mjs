// `npm test`'s total (scripts/test-totals.mjs) run on stages that misbehave as real ones do: a
// node:test that hits its timeout, a runner that crashes after its progress line, a stage whose
// coverage falls short, and an lcov report left by an earlier run. Issue 18: the total must not
// read "0 failed" while something failed. Issue 26: nor while a test was skipped, a stage ran no
// test, a stage hung, or a coverage folder is missing from the report.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile, utimes } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as totals from '../../scripts/test-totals.mjs';
import { checkCoverage, countTap, runStages } from '../../scripts/test-totals.mjs';
import { stages as npmTestStages } from '../../scripts/test.mjs';

const quiet = { out: () => {}, err: () => {} };

/** A scratch folder with the given files; removed after the test. */
async function scratch(t, files) {
  const dir = await mkdtemp(join(tmpdir(), 'ai-ops-totals-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

/** An lcov report of one file in `folder` with `hit` of 10 lines covered. */
const lcov = (folder, hit) => `TN:\nSF:${folder}/a.ts\nLF:10\nLH:${hit}\nend_of_record\n`;

/** A stage that runs `code` in Node (as a runner would print and exit). */
const nodeStage = (name, code, extra = {}) => ({ name, cmd: [process.execPath, '-e', code], ...extra });

test('[issue-18 totals] a node:test that hits its timeout counts as failed, not passed', async (t) => {
  const dir = await scratch(t, {
    'hang.test.mjs': [
      "import test from 'node:test';",
      "test('passes', () => {});",
      // The interval keeps the loop alive, so the test ends by its timeout as a hung e2e test does.
      "test('hangs', { timeout: 300 }, () => new Promise(() => { setInterval(() => {}, 1000); }));",
    ].join('\n'),
  });
  const result = await runStages([
    { name: 'node', cmd: [process.execPath, '--test', '--test-reporter=tap', '--test-force-exit', 'hang.test.mjs'], count: 'tap',
      // Run as `npm test` runs it, not as a child of this test run (which would report to its parent).
      env: { NODE_TEST_CONTEXT: undefined } },
  ], { cwd: dir, ...quiet });
  assert.equal(result.last, '1 passed, 1 failed');
});

test('[issue-18 totals] TAP\'s cancelled count adds to its failures', () => {
  const { passed, failed } = countTap('1..3\n# tests 3\n# pass 1\n# fail 1\n# cancelled 1\n# skipped 0\n');
  assert.deepEqual({ passed, failed }, { passed: 1, failed: 2 });
});

test('[issue-18 totals] a stage that exits non-zero counts as at least one failure, whatever its count says', async (t) => {
  const dir = await scratch(t, {});
  const result = await runStages([
    // web-test-runner printing its progress line and then crashing.
    nodeStage('browser', "console.log('12 passed, 0 failed'); process.exit(1)", { count: 'wtr' }),
    // A node:test run whose every test passed but whose process failed (an error after the
    // summary, a reporter that crashed).
    nodeStage('node', "console.log('# pass 3\\n# fail 0\\n# cancelled 0'); process.exit(1)", { count: 'tap' }),
  ], { cwd: dir, ...quiet });
  assert.equal(result.last, '15 passed, 2 failed');
  assert.deepEqual(result.broken, ['browser (exit 1)', 'node (exit 1)']);
});

test('[issue-18 totals] a counted stage that prints no count at all is a failure', async (t) => {
  const dir = await scratch(t, {});
  const result = await runStages([nodeStage('browser', "console.log('Error loading config')", { count: 'wtr' })], { cwd: dir, ...quiet });
  assert.equal(result.last, '0 passed, 1 failed');
});

test('[issue-18 totals] a failed build stops the run and is a failure', async (t) => {
  const dir = await scratch(t, {});
  const result = await runStages([
    nodeStage('build', 'process.exit(2)'),
    nodeStage('node', "console.log('# pass 5\\n# fail 0')", { count: 'tap' }),
  ], { cwd: dir, ...quiet });
  assert.equal(result.last, '0 passed, 1 failed');
});

test('[issue-18 totals] coverage under 90 % of a folder counts as a failure', async (t) => {
  const dir = await scratch(t, {});
  const write = `require('node:fs').mkdirSync('coverage', {recursive: true}); require('node:fs').writeFileSync('coverage/lcov.info', ${JSON.stringify(lcov('src', 9) + lcov('elements', 8))}); console.log('4 passed, 0 failed')`;
  const result = await runStages([nodeStage('browser', write, { count: 'wtr', coverage: 'coverage/lcov.info' })], { cwd: dir, ...quiet });
  assert.equal(result.last, '4 passed, 1 failed');
  assert.deepEqual(result.broken, ['coverage of elements/ under 90 %']);
});

test('[issue-18 totals] an lcov report left by an earlier run is not read', async (t) => {
  // A full-coverage report from yesterday; this run's browser stage writes none.
  const dir = await scratch(t, { 'coverage/lcov.info': lcov('src', 10) });
  const yesterday = new Date(Date.now() - 86_400_000);
  await utimes(join(dir, 'coverage/lcov.info'), yesterday, yesterday);
  const result = await runStages([nodeStage('browser', "console.log('4 passed, 0 failed')", { count: 'wtr', coverage: 'coverage/lcov.info' })], { cwd: dir, ...quiet });
  assert.equal(result.last, '4 passed, 1 failed');
  assert.deepEqual(result.broken, ['no coverage report from this run']);
});

test('[issue-18 totals] a report older than the run is refused even when it is still there', async (t) => {
  const dir = await scratch(t, { 'lcov.info': lcov('src', 10) });
  const yesterday = new Date(Date.now() - 86_400_000);
  await utimes(join(dir, 'lcov.info'), yesterday, yesterday);
  assert.deepEqual(checkCoverage({ path: join(dir, 'lcov.info'), notBefore: Date.now(), cwd: dir }).broken, ['coverage report is older than this run']);
  assert.deepEqual(checkCoverage({ path: join(dir, 'lcov.info'), notBefore: yesterday.getTime(), cwd: dir }), { lines: ['line coverage src/: 100.0 % (10/10)'], broken: [] });
});

test('[issue-18 totals] everything passing totals with 0 failed and no broken stage', async (t) => {
  const dir = await scratch(t, {});
  const result = await runStages([
    nodeStage('build', ''),
    nodeStage('node', "console.log('# pass 2\\n# fail 0\\n# cancelled 0')", { count: 'tap' }),
  ], { cwd: dir, ...quiet });
  assert.equal(result.last, '2 passed, 0 failed');
  assert.deepEqual(result.broken, []);
});

test('[issue-18 totals] npm test runs these tests, reads coverage from its browser stage and counts every test stage', () => {
  const node = npmTestStages.find((s) => s.name === 'node');
  assert.ok(node.cmd.includes('test/scripts/'));
  assert.equal(npmTestStages.find((s) => s.name === 'browser').coverage, 'coverage/lcov.info');
  for (const stage of npmTestStages.filter((s) => s.cmd.includes('web-test-runner') || s.cmd.includes('--test'))) {
    assert.ok(stage.count, `${stage.name} is counted`);
  }
});

// Issue 26 from here on.

/** `node --test` as `npm test` runs it: TAP on stdout, and not as a child of this test run. */
const nodeTest = (files, extra = {}, options = []) => ({
  name: 'node',
  cmd: [process.execPath, '--test', '--test-reporter=tap', '--test-reporter-destination=stdout', ...options, '--test-concurrency=1', ...files],
  env: { NODE_TEST_CONTEXT: undefined },
  count: 'tap',
  ...extra,
});

/** Whether a process is still alive (a zombie, dead but not yet reaped by its parent, is not). */
const alive = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

// A hung fixture gives up by itself after this long, so that a script without time limits fails the
// test below (the stage then ends with no count) instead of hanging this suite; the limits the tests
// inject are far shorter.
const GIVE_UP = 'setTimeout(() => process.exit(0), 30_000)';

/** Kills, after the test, the processes whose ids a fixture wrote (in case the script under test did not). */
function reap(t, dir, names) {
  t.after(async () => {
    for (const name of names) {
      const pid = Number(await readFile(join(dir, name), 'utf8').catch(() => ''));
      if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });
}

const skipFixture = [
  "import test from 'node:test';",
  "test('passes', () => {});",
  "test('skipped one', { skip: 'not on this machine' }, () => {});",
  "test('todo one', { todo: 'later' }, () => {});",
].join('\n');

test('[issue-18 totals] a skipped or todo node:test counts as failed', async (t) => {
  const dir = await scratch(t, { 'skip.test.mjs': skipFixture });
  const result = await runStages([nodeTest(['skip.test.mjs'])], { cwd: dir, allowed: [], ...quiet });
  assert.equal(result.last, '1 passed, 2 failed');
  assert.equal(result.broken.length, 1);
  assert.match(result.broken[0], /^node \(2 skipped or todo not in the allow list: "skipped one", "todo one"\)$/);
});

test('[issue-18 totals] a skipped test listed in the allow list with its reason is not a failure; without a reason it is', async (t) => {
  const dir = await scratch(t, { 'skip.test.mjs': skipFixture });
  const allowed = [
    { stage: 'node', test: 'skipped one', reason: 'needs a GPU this machine lacks' },
    { stage: 'node', test: 'todo one', reason: '' },
  ];
  const result = await runStages([nodeTest(['skip.test.mjs'])], { cwd: dir, allowed, ...quiet });
  assert.equal(result.last, '1 passed, 1 failed');
  // An entry for another stage excuses nothing here.
  assert.deepEqual(countTap('ok 1 - a # SKIP\n# pass 0\n# fail 0\n# skipped 1\n', { stage: 'e2e', allowed: [{ stage: 'node', test: 'a', reason: 'r' }] }).failed, 1);
});

test('[issue-18 totals] the allow list of skipped tests holds a stage, a test and a reason for each entry', () => {
  assert.ok(Array.isArray(totals.ALLOWED_SKIPS));
  for (const entry of totals.ALLOWED_SKIPS) {
    assert.equal(typeof entry.stage, 'string');
    assert.equal(typeof entry.test, 'string');
    assert.ok(entry.reason?.trim(), `${entry.test} has a reason`);
  }
});

test('[issue-18 totals] web-test-runner\'s skipped tests count as failed', async (t) => {
  const dir = await scratch(t, {});
  const result = await runStages([
    nodeStage('browser', "console.log('Chromium: |██████████| 3/3 test files | 5 passed, 0 failed, 2 skipped')", { count: 'wtr' }),
  ], { cwd: dir, allowed: [], ...quiet });
  assert.equal(result.last, '5 passed, 2 failed');
  // web-test-runner prints only how many were skipped, so an entry of that stage excuses one skip.
  const excused = await runStages([
    nodeStage('browser', "console.log('Chromium: |██████████| 3/3 test files | 5 passed, 0 failed, 2 skipped')", { count: 'wtr' }),
  ], { cwd: dir, allowed: [{ stage: 'browser', test: 'a.test.ts › waits for a device', reason: 'no device here' }], ...quiet });
  assert.equal(excused.last, '5 passed, 1 failed');
});

test('[issue-18 totals] a counted stage that ran zero tests is a failure', async (t) => {
  // A folder without test files (as a mistyped path in a stage would give): node:test exits 0.
  const dir = await scratch(t, { 'empty/README.md': 'no tests here\n' });
  const result = await runStages([
    nodeTest(['empty/']),
    nodeStage('browser', "console.log('Chromium: |          | 0/0 test files | 0 passed, 0 failed')", { count: 'wtr' }),
  ], { cwd: dir, ...quiet });
  assert.equal(result.last, '0 passed, 2 failed');
  assert.deepEqual(result.broken, ['node (ran no tests)', 'browser (ran no tests)']);
});

test('[issue-18 totals] a stage over its time limit is killed with its children, counts as failed, and the total still prints', async (t) => {
  const dir = await scratch(t, {
    // A runner that starts one child in a process group of its own (as web-test-runner starts
    // Chromium) and one in its own group, and then hangs.
    'hang.mjs': [
      "import { spawn } from 'node:child_process';",
      "import { writeFileSync } from 'node:fs';",
      `const browser = spawn(process.execPath, ['-e', ${JSON.stringify(GIVE_UP)}], { stdio: 'ignore', detached: true });`,
      `const helper = spawn(process.execPath, ['-e', ${JSON.stringify(GIVE_UP)}], { stdio: 'ignore' });`,
      "writeFileSync('helper.pid', String(helper.pid));",
      "writeFileSync('browser.pid', String(browser.pid));",
      "writeFileSync('runner.pid', String(process.pid));",
      GIVE_UP,
    ].join('\n'),
  });
  reap(t, dir, ['browser.pid', 'helper.pid', 'runner.pid']);
  const printed = [];
  const result = await runStages([
    { name: 'node', cmd: [process.execPath, 'hang.mjs'], count: 'tap', timeLimitMs: 3000 },
    nodeStage('after', "console.log('# pass 1\\n# fail 0')", { count: 'tap' }),
  ], { cwd: dir, killGraceMs: 200, out: (text) => printed.push(text), err: () => {} });
  assert.equal(result.last, '1 passed, 1 failed');
  assert.match(result.broken[0], /^node \(over its time limit of 3 s, killed; no test reported\)$/);
  assert.equal(printed.join('').trimEnd().split('\n').at(-1), '1 passed, 1 failed');
  for (const name of ['runner.pid', 'browser.pid', 'helper.pid']) {
    const pid = Number(await readFile(join(dir, name), 'utf8'));
    assert.equal(alive(pid), false, `${name} was killed`);
  }
});

test('[issue-18 totals] a node:test stage over its time limit names the file and subtest that started and never finished', async (t) => {
  const dir = await scratch(t, {
    'a.test.mjs': "import test from 'node:test';\ntest('a passes', () => {});\n",
    'b.test.mjs': [
      "import test from 'node:test';",
      "import { writeFileSync } from 'node:fs';",
      "test('b passes', () => {});",
      "test('b hangs', async (t) => {",
      `  await t.test('waits forever', () => { writeFileSync('hung', String(process.pid)); return new Promise(() => ${GIVE_UP}); });`,
      "});",
    ].join('\n'),
  });
  reap(t, dir, ['hung']);
  const reporter = fileURLToPath(new URL('../../scripts/test-progress.mjs', import.meta.url));
  const result = await runStages([
    nodeTest(['a.test.mjs', 'b.test.mjs'], { progress: 'progress.log', timeLimitMs: 8000 },
      [`--test-reporter=${reporter}`, '--test-reporter-destination=progress.log']),
  ], { cwd: dir, killGraceMs: 200, ...quiet });
  assert.equal(result.failed, 1);
  assert.match(result.broken[0], /^node \(over its time limit of 8 s, killed; still running: b\.test\.mjs › b hangs › waits forever\)$/);
});

test('[issue-18 totals] a web-test-runner stage over its time limit names the last file its output reported', async (t) => {
  const dir = await scratch(t, {
    // web-test-runner's output when its stdout is not a terminal: a file is named once it has
    // logs or errors, and a progress line comes every 10 s.
    'wtr.cjs': [
      "console.log('Running 3 test files...\\n');",
      "console.log('test/runtime/a.test.ts:\\n\\n  Browser logs:\\n    hello\\n');",
      "console.log('Chromium: |███░░░░░░░| 1/3 test files | 4 passed, 0 failed\\n\\nRunning tests...');",
      "require('node:fs').writeFileSync('runner.pid', String(process.pid));",
      GIVE_UP,
    ].join('\n'),
  });
  reap(t, dir, ['runner.pid']);
  const result = await runStages([{ name: 'browser', cmd: [process.execPath, 'wtr.cjs'], count: 'wtr', timeLimitMs: 1500 }], { cwd: dir, killGraceMs: 200, ...quiet });
  assert.equal(result.last, '4 passed, 1 failed');
  assert.equal(result.broken[0], 'browser (over its time limit of 1.5 s, killed; 1/3 test files finished; last file named: test/runtime/a.test.ts)');
});

test('[issue-18 totals] time limits: every npm test stage has one, and AI_OPS_TEST_TIME_SCALE stretches them for a slow machine', () => {
  for (const stage of npmTestStages) assert.ok(stage.timeLimitMs > 0, `${stage.name} has a time limit`);
  const node = npmTestStages.find((s) => s.name === 'node');
  assert.equal(totals.stageTimeLimitMs(node, {}), node.timeLimitMs);
  assert.equal(totals.stageTimeLimitMs(node, { AI_OPS_TEST_TIME_SCALE: '2' }), 2 * node.timeLimitMs);
  assert.equal(totals.stageTimeLimitMs(node, { AI_OPS_TEST_TIME_SCALE: 'slow' }), node.timeLimitMs);
  // The Node stages report which test is running, so a hung one can be named.
  for (const stage of npmTestStages.filter((s) => s.count === 'tap')) {
    assert.ok(stage.cmd.includes('--test-reporter=./scripts/test-progress.mjs') && stage.progress, `${stage.name} writes its progress`);
  }
});

test('[issue-18 totals] a coverage folder the report does not list is a failure', async (t) => {
  const dir = await scratch(t, {});
  const write = `require('node:fs').mkdirSync('coverage', {recursive: true}); require('node:fs').writeFileSync('coverage/lcov.info', ${JSON.stringify(lcov('src', 10))}); console.log('4 passed, 0 failed')`;
  const result = await runStages([nodeStage('browser', write, { count: 'wtr', coverage: 'coverage/lcov.info', coverageFolders: ['src', 'elements'] })], { cwd: dir, ...quiet });
  assert.equal(result.last, '4 passed, 1 failed');
  assert.deepEqual(result.broken, ['coverage report lists nothing in elements/']);
  assert.deepEqual(npmTestStages.find((s) => s.name === 'browser').coverageFolders, ['src', 'elements']);
});

test('[issue-18 totals] Ctrl-C stops the running stage (whose process group the terminal no longer reaches) and the run, and the total still prints', async (t) => {
  const dir = await scratch(t, {
    'hang.cjs': `require('node:fs').writeFileSync('runner.pid', String(process.pid)); console.log('started'); ${GIVE_UP};`,
  });
  reap(t, dir, ['runner.pid']);
  const printed = [];
  const out = (text) => {
    printed.push(text);
    // What the terminal's Ctrl-C delivers to `npm test`, once the stage is up.
    if (text.includes('started')) process.emit('SIGINT', 'SIGINT');
  };
  const result = await runStages([
    nodeStage('browser', "console.log('3 passed, 0 failed')", { count: 'wtr' }),
    { name: 'node', cmd: [process.execPath, 'hang.cjs'], count: 'tap', timeLimitMs: 60_000 },
    nodeStage('after', "console.log('# pass 1\\n# fail 0')", { count: 'tap' }),
  ], { cwd: dir, killGraceMs: 200, out, err: () => {} });
  assert.equal(result.last, '3 passed, 1 failed');
  assert.equal(result.broken.at(-1), 'interrupted (SIGINT) in node');
  assert.equal(printed.join('').trimEnd().split('\n').at(-1), '3 passed, 1 failed');
  assert.equal(alive(Number(await readFile(join(dir, 'runner.pid'), 'utf8'))), false);
});

// Issue 36 from here on: lanes side by side, and each engine's share of the total.

test('[issue-36 totals] stages in different lanes run side by side, each lane in order, and their lines are told apart', async (t) => {
  // Each side waits for the other's file: run one after the other, both would hit their time limit.
  const waitFor = (mine, theirs) => `require('fs').writeFileSync('${mine}', ''); const t0 = Date.now(); const tick = () => require('fs').existsSync('${theirs}') ? console.log('1 passed, 0 failed') : Date.now() - t0 > 8000 ? process.exit(3) : setTimeout(tick, 20); tick();`;
  const dir = await scratch(t, {});
  const lines = [];
  const result = await runStages([
    nodeStage('build', ''),
    nodeStage('a', waitFor('a', 'b'), { count: 'wtr', lane: 'one', engine: 'Firefox ESR', timeLimitMs: 10_000 }),
    nodeStage('a2', "console.log('2 passed, 0 failed')", { count: 'wtr', lane: 'one', engine: 'WebKitGTK' }),
    nodeStage('b', waitFor('b', 'a'), { count: 'wtr', lane: 'two', engine: 'Chromium', timeLimitMs: 10_000 }),
  ], { cwd: dir, out: (text) => lines.push(text), err: () => {} });
  assert.deepEqual(result.broken, []);
  assert.equal(result.last, '4 passed, 0 failed');
  const output = lines.join('');
  assert.match(output, /^\[a\] 1 passed, 0 failed$/m);
  assert.match(output, /^\[b\] 1 passed, 0 failed$/m);
  // a2 runs after a, in its lane.
  assert.ok(output.indexOf('== a2 [WebKitGTK]:') > output.indexOf('== a [Firefox ESR] took'));
});

test('[issue-36 totals] each stage line names its engine and count, and the total is split per engine before the last line', async (t) => {
  const dir = await scratch(t, {});
  const lines = [];
  const result = await runStages([
    nodeStage('browser', "console.log('5 passed, 1 failed')", { count: 'wtr', engine: 'Chromium' }),
    nodeStage('browser, Firefox', "console.log('3 passed, 0 failed')", { count: 'wtr', engine: 'Firefox ESR' }),
    nodeStage('e2e, Firefox', "console.log('# pass 2\\n# fail 0')", { count: 'tap', engine: 'Firefox ESR' }),
    nodeStage('browser, WebKit', "console.log('4 passed, 0 failed')", { count: 'wtr', engine: 'WebKitGTK' }),
  ], { cwd: dir, out: (text) => lines.push(text), err: () => {} });
  const output = lines.join('');
  assert.match(output, /^== browser, Firefox \[Firefox ESR\] took [\d.]+ s: 3 passed, 0 failed$/m);
  assert.match(output, /^== browser, WebKit \[WebKitGTK\] took [\d.]+ s: 4 passed, 0 failed$/m);
  assert.deepEqual(result.engines, { Chromium: { passed: 5, failed: 1 }, 'Firefox ESR': { passed: 5, failed: 0 }, WebKitGTK: { passed: 4, failed: 0 } });
  const tail = output.trimEnd().split('\n').slice(-3);
  assert.deepEqual(tail, ['per engine: Chromium 5 passed, 1 failed; Firefox ESR 5 passed, 0 failed; WebKitGTK 4 passed, 0 failed', '', '14 passed, 1 failed']);
});

test('[issue-36 totals] a browser that does not start fails its engine\'s stage: counted as a failure of that engine, never a skip', async (t) => {
  const dir = await scratch(t, {});
  const result = await runStages([
    nodeStage('browser, WebKit', "console.error('webkit: WebKitWebDriver could not start (apt: webkit2gtk-driver): spawn WebKitWebDriver ENOENT'); process.exit(1)", { count: 'wtr', engine: 'WebKitGTK' }),
  ], { cwd: dir, ...quiet });
  assert.equal(result.last, '0 passed, 1 failed');
  assert.deepEqual(result.engines, { WebKitGTK: { passed: 0, failed: 1 } });
  assert.match(result.broken[0], /^browser, WebKit \(exit 1/);
});

test('[issue-36 totals] npm test runs the element suites in Firefox ESR and WebKitGTK and the Firefox end to end, each stage naming its engine', () => {
  const byName = Object.fromEntries(npmTestStages.map((s) => [s.name, s]));
  assert.deepEqual(byName['browser, Firefox'].cmd, ['node', 'scripts/wtr-engine.mjs', 'firefox']);
  assert.equal(byName['browser, Firefox'].engine, 'Firefox ESR');
  assert.deepEqual(byName['browser, WebKit'].cmd, ['node', 'scripts/wtr-engine.mjs', 'webkit']);
  assert.equal(byName['browser, WebKit'].engine, 'WebKitGTK');
  const firefoxE2e = npmTestStages.filter((s) => s.name.startsWith('e2e, Firefox'));
  assert.ok(firefoxE2e.length > 0 && firefoxE2e.every((s) => s.cmd.some((c) => c.startsWith('test/e2e-firefox/')) && s.engine === 'Firefox ESR'));
  for (const stage of npmTestStages.filter((s) => s.count)) assert.ok(stage.engine, `${stage.name} names its engine`);
  for (const stage of npmTestStages.filter((s) => !s.count)) assert.equal(stage.lane, undefined, `${stage.name} (a build) runs before the lanes`);
});

test('[SUITE-4] each stage prints the time it took, lanes included, before the total', async (t) => {
  const dir = await scratch(t, {});
  let printed = '';
  await runStages([
    nodeStage('build', ''),
    nodeStage('lane a', "console.log('# pass 1\\n# fail 0\\n# cancelled 0')", { count: 'tap', lane: 'a' }),
    nodeStage('lane b', "console.log('# pass 1\\n# fail 0\\n# cancelled 0')", { count: 'tap', lane: 'b' }),
  ], { cwd: dir, out: (text) => { printed += text; }, err: () => {} });
  for (const name of ['build', 'lane a', 'lane b']) assert.match(printed, new RegExp(`== ${name}.* took \\d+(\\.\\d)? (s|min)`), printed);
  assert.match(printed.trim().split('\n').at(-1), /^2 passed, 0 failed$/);
});
