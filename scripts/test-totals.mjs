// The counting behind `npm test` (scripts/test.mjs), apart from its stage list so that
// test/scripts/test-totals.test.mjs can run it on stages that hang, break or leave stale files.
// The rule the total keeps: whatever did not pass is a failure. A node:test cancelled by its
// timeout is reported by TAP as `# cancelled`, not `# fail`; a stage that exits non-zero without a
// failing test (a file that does not load, a crashed runner, coverage under its floor) counts as at
// least one failure; coverage is read only from the report this run wrote.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';

const strip = (text) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

/**
 * Counts a `node --test --test-reporter=tap` run from its closing summary. Cancelled tests (a
 * timeout, or a test still pending when its file ended) are failures.
 * @param {string} output
 * @returns {{passed: number, failed: number} | null} null when the output holds no summary.
 */
export function countTap(output) {
  const text = strip(output);
  const read = (key) => {
    const all = [...text.matchAll(new RegExp(`^# ${key} (\\d+)$`, 'gm'))];
    return all.length ? Number(all.at(-1)[1]) : null;
  };
  const pass = read('pass');
  const fail = read('fail');
  const cancelled = read('cancelled');
  if (pass === null && fail === null) return null;
  return { passed: pass ?? 0, failed: (fail ?? 0) + (cancelled ?? 0) };
}

/**
 * Counts a web-test-runner run from its last progress line (`N passed, M failed`).
 * @param {string} output
 * @returns {{passed: number, failed: number} | null} null when no progress line was printed.
 */
export function countWtr(output) {
  const last = [...strip(output).matchAll(/(\d+) passed, (\d+) failed/g)].at(-1);
  return last ? { passed: Number(last[1]), failed: Number(last[2]) } : null;
}

const counters = { tap: countTap, wtr: countWtr };

/**
 * One stage's share of the total. A stage that exits non-zero is broken, and a broken stage
 * counts as at least one failure, whatever its output says.
 * @param {{name: string, count?: 'tap' | 'wtr'}} stage
 * @param {{code: number, output: string}} run
 * @returns {{passed: number, failed: number, broken: string | null}}
 */
export function stageTotal(stage, { code, output }) {
  const counted = stage.count ? counters[stage.count](output) : null;
  const passed = counted?.passed ?? 0;
  let failed = counted?.failed ?? 0;
  let broken = null;
  if (code !== 0) {
    broken = `${stage.name} (exit ${code})`;
    failed = Math.max(failed, 1);
  } else if (stage.count && !counted) {
    // A runner that exits 0 but printed no count ran nothing we can vouch for.
    broken = `${stage.name} (no test count in its output)`;
    failed = 1;
  }
  return { passed, failed, broken };
}

/**
 * Line coverage per top-level folder from an lcov report written at or after `notBefore`
 * (milliseconds since the epoch); a missing or older report is a failure, never read.
 * @param {{path: string, notBefore: number, min?: number, cwd?: string}} options
 * @returns {{lines: string[], broken: string[]}} `lines` to print; `broken` one entry per failure.
 */
export function checkCoverage({ path, notBefore, min = 90, cwd = process.cwd() }) {
  let text;
  try {
    // Coarse file-system clocks may round the time down by up to a second.
    if (statSync(path).mtimeMs < notBefore - 1000) return { lines: [], broken: ['coverage report is older than this run'] };
    text = readFileSync(path, 'utf8');
  } catch {
    return { lines: [], broken: ['no coverage report from this run'] };
  }
  const byFolder = {};
  let folder = '';
  for (const line of text.split('\n')) {
    if (line.startsWith('SF:')) folder = relative(cwd, resolve(cwd, line.slice(3))).split(sep)[0];
    const [key, value] = line.split(':');
    if (key === 'LF' || key === 'LH') (byFolder[folder] ??= { LF: 0, LH: 0 })[key] += Number(value);
  }
  const lines = [];
  const broken = [];
  for (const [name, { LF, LH }] of Object.entries(byFolder)) {
    const percent = LF ? (100 * LH) / LF : 0;
    lines.push(`line coverage ${name}/: ${percent.toFixed(1)} % (${LH}/${LF})`);
    if (percent < min) broken.push(`coverage of ${name}/ under ${min} %`);
  }
  if (!lines.length) broken.push('coverage report lists no files');
  return { lines, broken };
}

/**
 * Runs the stages in order and prints the total alone on the last line as `N passed, M failed`.
 * A stage without `count` (a build) stops the run when it fails: nothing can be tested without it.
 * A stage with `coverage` (an lcov path) has that report removed before it starts and read after
 * it ends, each folder under `min` % counting as one failure.
 * @param {Array<{name: string, cmd: string[], env?: object, count?: 'tap' | 'wtr', coverage?: string}>} stages
 * @param {{cwd?: string, min?: number, out?: (text: string) => void, err?: (text: string) => void}} [options]
 * @returns {Promise<{passed: number, failed: number, broken: string[], last: string}>}
 */
export async function runStages(stages, { cwd = process.cwd(), min = 90, out = (t) => process.stdout.write(t), err = (t) => process.stderr.write(t) } = {}) {
  let passed = 0;
  let failed = 0;
  const broken = [];
  for (const stage of stages) {
    out(`\n== ${stage.name}: ${stage.cmd.join(' ')}\n`);
    const reportPath = stage.coverage ? resolve(cwd, stage.coverage) : null;
    if (reportPath) rmSync(reportPath, { force: true });
    const startedAt = Date.now();
    const result = await run(stage.cmd, { cwd, env: stage.env, out, err });
    const total = stageTotal(stage, result);
    passed += total.passed;
    failed += total.failed;
    if (total.broken) broken.push(total.broken);
    if (reportPath) {
      const coverage = checkCoverage({ path: reportPath, notBefore: startedAt, min, cwd });
      for (const line of coverage.lines) out(`${line}\n`);
      broken.push(...coverage.broken);
      failed += coverage.broken.length;
    }
    if (total.broken && !stage.count) break;
  }
  if (broken.length) out(`\nfailed stages: ${broken.join(', ')}\n`);
  const last = `${passed} passed, ${failed} failed`;
  out(`\n${last}\n`);
  return { passed, failed, broken, last };
}

function run([cmd, ...args], { cwd, env = {}, out, err }) {
  return new Promise((done) => {
    // An `undefined` in `env` removes that variable for the stage.
    const merged = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, value]) => value !== undefined));
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: merged });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; out(String(chunk)); });
    child.stderr.on('data', (chunk) => { output += chunk; err(String(chunk)); });
    // A command that cannot start (ENOENT) is a broken stage like one that exits non-zero.
    child.on('error', (error) => { output += String(error); done({ code: 127, output }); });
    child.on('close', (code) => done({ code: code ?? 1, output }));
  });
}
