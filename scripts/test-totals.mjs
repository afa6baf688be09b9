// The counting behind `npm test` (scripts/test.mjs), apart from its stage list so that
// test/scripts/test-totals.test.mjs can run it on stages that hang, break or leave stale files.
// The rule the total keeps: whatever did not pass is a failure. A node:test cancelled by its
// timeout is reported by TAP as `# cancelled`, not `# fail`; a skipped or todo test did not pass
// either (unless ALLOWED_SKIPS names it with its reason); a stage that exits non-zero without a
// failing test (a file that does not load, a crashed runner, coverage under its floor), that ran no
// test at all, or that outlived its time limit (then killed with every process it started) counts
// as at least one failure; coverage is read only from the report this run wrote, and a folder it
// must cover that the report does not list is a failure.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

/**
 * The skipped or todo tests that do not count as failed: each entry names its stage (as in
 * scripts/test.mjs), the test (its title as TAP prints it, `ok 3 - <title> # SKIP`) and why it may
 * be skipped; an entry without a reason excuses nothing. Empty: every test must run and pass. For
 * web-test-runner, whose output gives only how many were skipped, each entry of its stage excuses
 * one skip, whichever it is, so `test` there documents which one is meant.
 * @type {ReadonlyArray<{stage: string, test: string, reason: string}>}
 * @example [{ stage: 'node', test: 'prints through the office printer', reason: 'no printer on CI' }]
 */
export const ALLOWED_SKIPS = Object.freeze([]);

/** The allow-list entries that excuse skips in `stage`: those with a reason. */
const excusesFor = (stage, allowed) => allowed.filter((entry) => entry.stage === stage && entry.reason?.trim());

const strip = (text) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

/**
 * Counts a `node --test --test-reporter=tap` run from its closing summary. Cancelled tests (a
 * timeout, or a test still pending when its file ended) are failures, and so are skipped and todo
 * tests that `allowed` does not excuse for `stage`.
 * @param {string} output
 * @param {{stage?: string, allowed?: ReadonlyArray<{stage: string, test: string, reason: string}>}} [options]
 * @returns {{passed: number, failed: number, ran: number, unexcused: number, notRun: string[]} | null}
 *   null when the output holds no summary; `ran` counts every test reported, `unexcused` the skipped
 *   and todo ones counted as failed (in `failed`), `notRun` their titles.
 * @example countTap('ok 1 - a # SKIP\n# pass 0\n# fail 0\n# skipped 1\n') // { passed: 0, failed: 1, ran: 1, unexcused: 1, notRun: ['a'] }
 */
export function countTap(output, { stage = 'node', allowed = ALLOWED_SKIPS } = {}) {
  const text = strip(output);
  const read = (key) => {
    const all = [...text.matchAll(new RegExp(`^# ${key} (\\d+)$`, 'gm'))];
    return all.length ? Number(all.at(-1)[1]) : null;
  };
  const pass = read('pass');
  const fail = read('fail');
  const cancelled = read('cancelled');
  if (pass === null && fail === null) return null;
  // The TAP reporter escapes `#` and `\` in titles, so ` # SKIP` / ` # TODO` is always the directive.
  const skippedTitles = [...text.matchAll(/^\s*(?:not )?ok \d+ - (.*?) # (?:SKIP|TODO)\b/gm)]
    .map((match) => match[1].replace(/\\([#\\])/g, '$1'));
  const excused = new Set(excusesFor(stage, allowed).map((entry) => entry.test));
  const notRun = skippedTitles.filter((title) => !excused.has(title));
  // The summary is the count to trust; the lines only tell which were excused.
  const skipped = Math.max((read('skipped') ?? 0) + (read('todo') ?? 0), skippedTitles.length);
  const unexcused = skipped - (skippedTitles.length - notRun.length);
  return {
    passed: pass ?? 0,
    failed: (fail ?? 0) + (cancelled ?? 0) + unexcused,
    ran: (pass ?? 0) + (fail ?? 0) + (cancelled ?? 0) + skipped,
    unexcused,
    notRun,
  };
}

/**
 * Counts a web-test-runner run from its last progress line (`N passed, M failed[, K skipped]`).
 * Skipped tests are failures but for as many as `allowed` lists for `stage` (the output does not
 * say which tests were skipped).
 * @param {string} output
 * @param {{stage?: string, allowed?: ReadonlyArray<{stage: string, test: string, reason: string}>}} [options]
 * @returns {{passed: number, failed: number, ran: number, unexcused: number, notRun: string[]} | null}
 *   null when no progress line was printed; `notRun` is always empty (no titles in the output).
 * @example countWtr('Chromium: |███| 3/3 test files | 5 passed, 0 failed, 2 skipped') // { passed: 5, failed: 2, ran: 7, unexcused: 2, notRun: [] }
 */
export function countWtr(output, { stage = 'browser', allowed = ALLOWED_SKIPS } = {}) {
  const last = [...strip(output).matchAll(/(\d+) passed, (\d+) failed(?:, (\d+) skipped)?/g)].at(-1);
  if (!last) return null;
  const [passed, failed, skipped] = [last[1], last[2], last[3] ?? 0].map(Number);
  const unexcused = Math.max(0, skipped - excusesFor(stage, allowed).length);
  return { passed, failed: failed + unexcused, ran: passed + failed + skipped, unexcused, notRun: [] };
}

const counters = { tap: countTap, wtr: countWtr };

/** A time limit as people read it: `1.5 s`, `45 min`. */
const duration = (ms) => (ms < 60_000 ? `${+(ms / 1000).toFixed(1)} s` : `${+(ms / 60_000).toFixed(1)} min`);

/**
 * One stage's share of the total. A stage that exits non-zero, prints no count, runs no test or
 * outlives its time limit is broken, and a broken stage counts as at least one failure, whatever
 * its output says; skipped tests not in the allow list are failures and are named.
 * @param {{name: string, count?: 'tap' | 'wtr'}} stage
 * @param {{code: number, output: string, timedOut?: number, hung?: string}} run `timedOut` is the
 *   limit (ms) the stage outlived; `hung` what was still running then.
 * @param {{allowed?: ReadonlyArray<{stage: string, test: string, reason: string}>}} [options]
 * @returns {{passed: number, failed: number, broken: string | null}}
 * @example stageTotal({ name: 'node', count: 'tap' }, { code: 0, output: '# pass 0\n# fail 0' }) // { passed: 0, failed: 1, broken: 'node (ran no tests)' }
 */
export function stageTotal(stage, { code, output, timedOut, hung }, { allowed = ALLOWED_SKIPS } = {}) {
  const counted = stage.count ? counters[stage.count](output, { stage: stage.name, allowed }) : null;
  const passed = counted?.passed ?? 0;
  let failed = counted?.failed ?? 0;
  let reason = null;
  if (timedOut) reason = `over its time limit of ${duration(timedOut)}, killed${hung ? `; ${hung}` : ''}`;
  else if (code !== 0) reason = `exit ${code}`;
  // A runner that exits 0 but printed no count ran nothing we can vouch for.
  else if (stage.count && !counted) reason = 'no test count in its output';
  // A runner that found no test file (a wrong path, an empty glob) passes with nothing tested.
  else if (counted && counted.ran === 0) reason = 'ran no tests';
  if (reason) failed = Math.max(failed, 1);
  const reasons = reason ? [reason] : [];
  if (counted?.unexcused) {
    const names = counted.notRun.map((title) => JSON.stringify(title)).join(', ');
    reasons.push(`${counted.unexcused} skipped or todo not in the allow list${names ? `: ${names}` : ''}`);
  }
  return { passed, failed, broken: reasons.length ? `${stage.name} (${reasons.join('; ')})` : null };
}

/**
 * Line coverage per top-level folder from an lcov report written at or after `notBefore`
 * (milliseconds since the epoch); a missing or older report is a failure, never read, and so is
 * each of `folders` that the report does not list (a folder no test loaded is not covered).
 * @param {{path: string, notBefore: number, min?: number, cwd?: string, folders?: string[]}} options
 * @returns {{lines: string[], broken: string[]}} `lines` to print; `broken` one entry per failure.
 * @example checkCoverage({ path: 'coverage/lcov.info', notBefore: startedAt, folders: ['src', 'elements'] })
 */
export function checkCoverage({ path, notBefore, min = 90, cwd = process.cwd(), folders = [] }) {
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
  for (const name of folders) if (!byFolder[name]) broken.push(`coverage report lists nothing in ${name}/`);
  if (!lines.length && !folders.length) broken.push('coverage report lists no files');
  return { lines, broken };
}

/**
 * A stage's time limit in milliseconds: its `timeLimitMs` times `AI_OPS_TEST_TIME_SCALE` (a
 * positive number; `2` gives a slow machine twice as long), or undefined for a stage without one.
 * @param {{timeLimitMs?: number}} stage
 * @param {Record<string, string | undefined>} [env]
 * @returns {number | undefined}
 * @example stageTimeLimitMs({ timeLimitMs: 60_000 }, { AI_OPS_TEST_TIME_SCALE: '1.5' }) // 90000
 */
export function stageTimeLimitMs(stage, env = process.env) {
  const scale = Number(env.AI_OPS_TEST_TIME_SCALE);
  return stage.timeLimitMs && stage.timeLimitMs * (Number.isFinite(scale) && scale > 0 ? scale : 1);
}

/**
 * What a node:test stage was running when it was stopped, from its progress lines
 * (scripts/test-progress.mjs): the last file started and, within it, the tests that started and
 * never ended, outermost first. Without progress lines, the last test TAP reported.
 * @param {string} progress the progress file's text, '' when there is none
 * @param {string} output the stage's output
 * @param {string} cwd paths are shown relative to it
 * @returns {string}
 */
export function hungTap(progress, output, cwd) {
  const open = [];
  for (const line of progress.split('\n')) {
    let event;
    try { event = JSON.parse(line); } catch { continue; }
    const [kind, ...test] = event;
    const key = JSON.stringify(test);
    if (kind === 'start') open.push({ key, file: test[0], name: test[2] });
    else {
      // The latest start of that test is the one that ended (a title may repeat in a file).
      const at = open.findLastIndex((entry) => entry.key === key);
      if (at >= 0) open.splice(at, 1);
    }
  }
  if (open.length) {
    const { file } = open.at(-1);
    const tests = open.filter((entry) => entry.file === file && entry.name !== file).map((entry) => entry.name);
    const shown = file ? relative(cwd, file) : '(no file)';
    return `still running: ${[shown, ...tests].join(' › ')}${tests.length ? '' : ' (its tests ended; the file did not exit)'}`;
  }
  const last = [...strip(output).matchAll(/^\s*(?:not )?ok \d+ - (.*)$/gm)].at(-1);
  return last ? `last test reported: ${last[1]}` : 'no test reported';
}

/**
 * What a web-test-runner stage was running when it was stopped, as far as its output tells: how
 * many files had finished, and the last file it named (it names a file once that file has finished
 * with logs or errors, never when one starts).
 * @param {string} output
 * @returns {string}
 */
export function hungWtr(output) {
  const text = strip(output);
  const files = [...text.matchAll(/(\d+)\/(\d+) test files/g)].at(-1);
  const named = [...text.matchAll(/^\s*(\S+\.[cm]?[jt]sx?):\s*$/gm)].at(-1);
  const parts = [];
  if (files) parts.push(`${files[1]}/${files[2]} test files finished`);
  parts.push(named ? `last file named: ${named[1]}` : 'no file named in its output');
  return parts.join('; ');
}

/**
 * Writes `text` through `write` with `[label] ` before each line (the lines of stages running side
 * by side stay apart); keeps a partial line until its end arrives. `flush` writes what is left.
 */
function prefixed(write, label) {
  let partial = '';
  const put = (text) => {
    partial += text;
    const lines = partial.split('\n');
    partial = lines.pop();
    if (lines.length) write(lines.map((line) => `[${label}] ${line}\n`).join(''));
  };
  put.flush = () => {
    if (partial) write(`[${label}] ${partial}\n`);
    partial = '';
  };
  return put;
}

/**
 * Runs the stages and prints the total alone on the last line as `N passed, M failed`, after one
 * line per engine (`per engine: Chromium 5 passed, 0 failed; Firefox ESR …`) counting the stages
 * that name their `engine`.
 *
 * Order: stages run one after another, except a run of consecutive stages that name a `lane`: those
 * lanes run side by side (a suite that mostly waits beside one that computes), the stages of one
 * lane in order; their printed lines start with `[stage name] `. Each stage keeps its own time limit.
 *
 * A stage without `count` (a build) stops the run when it fails: nothing can be tested without it.
 * A stage with `coverage` (an lcov path) has that report removed before it starts and read after
 * it ends, each folder under `min` % and each of `coverageFolders` missing from it counting as one
 * failure. A stage with `timeLimitMs` (see stageTimeLimitMs) is killed with every process it started
 * when it runs longer; what it was running is named from `progress` (a file written by
 * scripts/test-progress.mjs, removed before the stage starts) or from its output. Ctrl-C (SIGINT)
 * or SIGTERM stops the stages running and the run, and the total still prints.
 * @param {Array<{name: string, cmd: string[], env?: object, count?: 'tap' | 'wtr', coverage?: string, coverageFolders?: string[], timeLimitMs?: number, progress?: string, engine?: string, lane?: string}>} stages
 * @param {{cwd?: string, min?: number, allowed?: ReadonlyArray<object>, env?: object, killGraceMs?: number, out?: (text: string) => void, err?: (text: string) => void}} [options]
 *   `env` is where AI_OPS_TEST_TIME_SCALE is read (process.env); `killGraceMs` how long a stage
 *   has between SIGTERM and SIGKILL.
 * @returns {Promise<{passed: number, failed: number, broken: string[], last: string, engines: Record<string, {passed: number, failed: number}>}>}
 * @example const { last } = await runStages([{ name: 'node', cmd: ['node', '--test', '--test-reporter=tap'], count: 'tap', timeLimitMs: 60_000 }]);
 */
export async function runStages(stages, {
  cwd = process.cwd(), min = 90, allowed = ALLOWED_SKIPS, env = process.env, killGraceMs = 10_000,
  out = (t) => process.stdout.write(t), err = (t) => process.stderr.write(t),
} = {}) {
  let passed = 0;
  let failed = 0;
  const broken = [];
  /** @type {Record<string, {passed: number, failed: number}>} */
  const engines = {};
  const running = new Set();
  let interrupted = null;
  // The stages run in their own process group (so that a hung one can be killed whole), which
  // takes them out of the terminal's: Ctrl-C reaches only this process and is passed on here.
  const onSignal = (signal) => {
    interrupted = signal;
    for (const each of running) each.stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  /** Runs one stage and adds it to the totals; resolves true when the run must stop. */
  async function runOne(stage, { sideBySide }) {
    const stageOut = sideBySide ? prefixed(out, stage.name) : out;
    const stageErr = sideBySide ? prefixed(err, stage.name) : err;
    const engineNote = stage.engine ? ` [${stage.engine}]` : '';
    out(`\n== ${stage.name}${engineNote}: ${stage.cmd.join(' ')}\n`);
    const reportPath = stage.coverage ? resolve(cwd, stage.coverage) : null;
    if (reportPath) rmSync(reportPath, { force: true });
    const progressPath = stage.progress ? resolve(cwd, stage.progress) : null;
    if (progressPath) {
      rmSync(progressPath, { force: true });
      mkdirSync(dirname(progressPath), { recursive: true });
    }
    const startedAt = Date.now();
    const current = run(stage.cmd, { cwd, env: stage.env, out: stageOut, err: stageErr, limitMs: stageTimeLimitMs(stage, env), killGraceMs });
    running.add(current);
    const result = await current.done;
    running.delete(current);
    stageOut.flush?.();
    stageErr.flush?.();
    if (result.timedOut) {
      const progress = progressPath ? readText(progressPath) : '';
      result.hung = stage.count === 'wtr' ? hungWtr(result.output) : stage.count === 'tap' ? hungTap(progress, result.output, cwd) : '';
    }
    const total = stageTotal(stage, result, { allowed });
    let stageFailed = total.failed;
    if (total.broken) broken.push(total.broken);
    if (reportPath && !interrupted) {
      const coverage = checkCoverage({ path: reportPath, notBefore: startedAt, min, cwd, folders: stage.coverageFolders });
      for (const line of coverage.lines) out(`${line}\n`);
      broken.push(...coverage.broken);
      stageFailed += coverage.broken.length;
    }
    passed += total.passed;
    failed += stageFailed;
    if (stage.engine) {
      const each = (engines[stage.engine] ??= { passed: 0, failed: 0 });
      each.passed += total.passed;
      each.failed += stageFailed;
    }
    // How long each stage takes is what its time limit is set from (scripts/test.mjs); which
    // engine it ran in and what it counted, so that each engine's share can be read.
    const counted = stage.count ? `: ${total.passed} passed, ${stageFailed} failed` : '';
    out(`== ${stage.name}${engineNote} took ${duration(Date.now() - startedAt)}${counted}\n`);
    if (interrupted) {
      broken.push(`interrupted (${interrupted}) in ${stage.name}`);
      failed = Math.max(failed, 1);
      return true;
    }
    return Boolean(total.broken && !stage.count);
  }

  try {
    for (let i = 0; i < stages.length && !interrupted;) {
      if (!stages[i].lane) {
        if (await runOne(stages[i++], { sideBySide: false })) break;
        continue;
      }
      const lanes = new Map();
      for (; i < stages.length && stages[i].lane; i++) lanes.set(stages[i].lane, [...(lanes.get(stages[i].lane) ?? []), stages[i]]);
      const stops = await Promise.all([...lanes.values()].map(async (lane) => {
        for (const stage of lane) {
          if (interrupted) return true;
          if (await runOne(stage, { sideBySide: lanes.size > 1 })) return true;
        }
        return false;
      }));
      if (stops.some(Boolean)) break;
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (broken.length) out(`\nfailed stages: ${broken.join(', ')}\n`);
  const perEngine = Object.entries(engines).map(([name, each]) => `${name} ${each.passed} passed, ${each.failed} failed`);
  if (perEngine.length) out(`\nper engine: ${perEngine.join('; ')}\n`);
  const last = `${passed} passed, ${failed} failed`;
  out(`\n${last}\n`);
  return { passed, failed, broken, last, engines };
}

const readText = (path) => { try { return readFileSync(path, 'utf8'); } catch { return ''; } };

/**
 * Every process descended from `root`, from /proc (Linux); [] where /proc cannot be read. A
 * browser is started in a process group of its own (Puppeteer, Playwright), so killing the
 * stage's group alone would leave it running.
 */
function descendants(root) {
  const children = new Map();
  let names = [];
  try { names = readdirSync('/proc'); } catch { return []; }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readText(`/proc/${name}/stat`);
    // `pid (comm) state ppid …`; comm may hold spaces and parentheses, so read after the last `)`.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid) children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
  }
  const found = [];
  for (let queue = [root]; queue.length;) {
    const kids = children.get(queue.shift()) ?? [];
    found.push(...kids);
    queue.push(...kids);
  }
  return found;
}

/** Sends `signal` to the stage's process group and to every process it started. */
function killTree(pid, known, signal) {
  for (const each of descendants(pid)) known.add(each);
  for (const target of [-pid, ...known]) {
    try { process.kill(target, signal); } catch { /* already gone */ }
  }
}

function run([cmd, ...args], { cwd, env = {}, out, err, limitMs, killGraceMs }) {
  let stop = () => {};
  const done = new Promise((finish) => {
    // An `undefined` in `env` removes that variable for the stage.
    const merged = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, value]) => value !== undefined));
    // Its own process group, so that the whole stage can be killed at once.
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: merged, detached: true });
    let output = '';
    let timedOut;
    let settled = false;
    const timers = [];
    const known = new Set();
    let stopping = false;
    const end = (code) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      // The stage is gone; what it started and that outlived SIGTERM (its parent gone, nothing
      // left to tidy up for) goes now.
      if (stopping) killTree(child.pid, known, 'SIGKILL');
      finish({ code, output, timedOut });
    };
    stop = () => {
      if (settled || stopping || !child.pid) return;
      stopping = true;
      killTree(child.pid, known, 'SIGTERM');
      timers.push(setTimeout(() => {
        killTree(child.pid, known, 'SIGKILL');
        // A process that escaped the kill may still hold the pipes open: stop waiting for them.
        timers.push(setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          end(child.exitCode ?? 1);
        }, killGraceMs));
      }, killGraceMs));
    };
    if (limitMs) timers.push(setTimeout(() => { timedOut = limitMs; stop(); }, limitMs));
    child.stdout.on('data', (chunk) => { output += chunk; out(String(chunk)); });
    child.stderr.on('data', (chunk) => { output += chunk; err(String(chunk)); });
    // A command that cannot start (ENOENT) is a broken stage like one that exits non-zero.
    child.on('error', (error) => { output += String(error); end(127); });
    child.on('close', (code) => end(code ?? 1));
  });
  return { done, stop: () => stop() };
}
