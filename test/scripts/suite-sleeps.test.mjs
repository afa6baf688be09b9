// SUITE-2: no fixed sleep decides a verdict. The census below is issue 44's grep, run over test/:
// every hit must be listed here with the reason it decides nothing, and there are at most 30. A
// new sleep in front of a check fails this test until it is replaced by a wait on an event or a
// state (or, if it truly decides nothing, listed with its reason).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Issue 44's pattern, as `grep -E` reads it. */
const FIXED_SLEEP = /aTimeout\(\s*[1-9]|waitForTimeout\(\s*[1-9]|setTimeout\(\s*r(esolve)?\s*,\s*[1-9]|sleep\(\s*[1-9]/;

/** Every line of every file under `dir` that the pattern finds, as `path: trimmed line`. */
export function fixedSleeps(dir) {
  const hits = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath ?? entry.path, entry.name);
    readFileSync(file, 'utf8').split('\n').forEach((line) => {
      if (FIXED_SLEEP.test(line)) hits.push(`${relative(root, file)}: ${line.trim()}`);
    });
  }
  return hits.sort();
}

/**
 * How many hits each file may hold, and why they decide no verdict. (Counts, not the lines: the
 * lines themselves would make this file a hit of the grep.)
 */
const ALLOWED = new Map([
  // SQL text the engine runs (the work under test), not a wait in the test.
  ['test/demo/sql-engine.test.ts', { count: 4, why: 'pg_sleep in SQL text' }],
  ['test/e2e/sql-page.test.mjs', { count: 5, why: 'pg_sleep in SQL text' }],
  // Poll intervals of waits on a state: they only decide how often the state is read.
  ['test/e2e/harness.mjs', { count: 1, why: "waitFor's poll interval" }],
  ['test/marionette.mjs', { count: 1, why: "the marionette port's retry interval while Firefox starts" }],
]);

test('[SUITE-2] the census finds each form of fixed sleep the issue\'s grep finds, and no wait on 0 ms', () => {
  // Each sample is split so that this file holds no hit of its own.
  const sleeps = ['await aTimeout', 'await page.waitForTimeout', 'new Promise((resolve) => setTimeout', 'setTimeout', 'await sleep'];
  const args = ['(20);', '(500)', '(resolve, 10))', '(r, 5)', '(100)'];
  sleeps.forEach((call, i) => assert.ok(FIXED_SLEEP.test(call + args[i]), call + args[i]));
  for (const line of ['await aTimeout(0);', 'setTimeout(r, 0)', 'await waitFor(() => x)', 'clock.advance(1000)']) assert.ok(!FIXED_SLEEP.test(line), line);
});

test('[SUITE-2] at most 30 fixed sleeps in test/, each listed with why it decides no verdict', () => {
  const hits = fixedSleeps(join(root, 'test'));
  assert.ok(hits.length <= 30, `${hits.length} fixed sleeps`);
  const over = hits.filter((hit, i) => {
    const file = hit.slice(0, hit.indexOf(': '));
    const before = hits.slice(0, i).filter((h) => h.startsWith(`${file}: `)).length;
    return before >= (ALLOWED.get(file)?.count ?? 0);
  });
  assert.deepEqual(over, [], 'a fixed sleep not listed here: wait on an event or a state instead');
});
