// docs/architecture.md tells one call as numbered hand-offs, each naming a file and a function
// (issue 37): a newcomer follows it from the doc alone only while every name in it exists. Each
// numbered line's first `file` must be there, and every `name` after it on that line that looks
// like a function must be declared in that file (a function, a method, or a property holding one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;

test('[SHAPE-1] the architecture doc\'s hand-offs name files and functions that exist', async () => {
  const doc = await readFile(join(root, 'docs/architecture.md'), 'utf8');
  const start = doc.indexOf('## The path of one call, hand by hand');
  assert.ok(start >= 0, 'the doc tells the path of one call');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  const steps = [...section.matchAll(/^(\d+)\. (.*(?:\n {3}.*)*)/gm)].map(([, n, text]) => ({ n: Number(n), text }));
  assert.ok(steps.length >= 10, `${steps.length} hand-offs`);
  assert.deepEqual(steps.map((s) => s.n), steps.map((_, i) => i + 1), 'numbered 1, 2, 3, …');
  let named = 0;
  for (const { n, text } of steps) {
    // Each `path` on the line, with the `name`s that follow it up to the next path.
    const pieces = text.split(/`((?:src|elements)\/[\w./-]+\.ts)`/);
    assert.ok(pieces.length >= 3, `hand-off ${n} names a file: ${text}`);
    for (let i = 1; i < pieces.length; i += 2) {
      const file = pieces[i];
      assert.ok(existsSync(join(root, file)), `hand-off ${n}: ${file} exists`);
      const source = await readFile(join(root, file), 'utf8');
      const [first] = [...pieces[i + 1].matchAll(/^ `([A-Za-z_$][\w$]*)`/g)].map((m) => m[1]);
      assert.ok(first, `hand-off ${n}: a function named after ${file}`);
      const declared = new RegExp(`(function\\s+${first}\\b|\\b${first}\\s*[(:=]|\\b${first}\\(|#${first}\\b)`);
      assert.match(source, declared, `hand-off ${n}: ${first} in ${file}`);
      named++;
    }
  }
  assert.ok(named >= steps.length);
});
