// No import circle in the runtime, the elements or the Node runner (issue 37): each module's
// relative imports — type-only ones too, which tie two files together as much for a reader — form
// a graph with no cycle. The same check as `npx madge --circular --extensions ts src elements`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const FOLDERS = ['src', 'elements', 'tools', 'playground/node/server'];

async function filesUnder(folder) {
  const out = [];
  for (const entry of await readdir(join(root, folder), { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(join(entry.parentPath ?? entry.path, entry.name));
  }
  return out;
}

/** The module a relative specifier names: `./a.js` is `a.ts` where the source is TypeScript. */
function target(from, specifier, known) {
  const path = resolve(dirname(from), specifier);
  for (const candidate of [path, path.replace(/\.js$/, '.ts'), `${path}.ts`, join(path, 'index.ts')]) if (known.has(candidate)) return candidate;
  return null;
}

test('[SHAPE-1] [SHAPE-2] no import circle in src/, elements/, tools/ or the Node runner', async () => {
  const files = (await Promise.all(FOLDERS.map(filesUnder))).flat();
  const known = new Set(files);
  const edges = new Map();
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s*['"](\.[^'"]+)['"]/g)].map((m) => m[1]);
    edges.set(file, [...new Set(specifiers.map((s) => target(file, s, known)).filter(Boolean))]);
  }
  assert.ok(files.length > 60 && [...edges.values()].some((e) => e.length > 3), `${files.length} modules read`);
  const cycles = [];
  const state = new Map(); // 1 visiting, 2 done
  const stack = [];
  const visit = (file) => {
    state.set(file, 1);
    stack.push(file);
    for (const next of edges.get(file)) {
      if (state.get(next) === 1) cycles.push([...stack.slice(stack.indexOf(next)), next].map((f) => relative(root, f)).join(' > '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 2);
  };
  for (const file of files) if (!state.has(file)) visit(file);
  assert.deepEqual(cycles, []);
});
