// `npm test`'s total (scripts/test-totals.mjs) run on stages that misbehave as real ones do: a
// node:test that hits its timeout, a runner that crashes after its progress line, a stage whose
// coverage falls short, and an lcov report left by an earlier run. Issue 18: the total must not
// read "0 failed" while something failed.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  assert.deepEqual(countTap('1..3\n# tests 3\n# pass 1\n# fail 1\n# cancelled 1\n# skipped 0\n'), { passed: 1, failed: 2 });
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
