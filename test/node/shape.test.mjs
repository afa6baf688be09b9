// SHAPE-4: src/ never imports tools/, elements/, a page or an engine; tools/ imports nothing stateful
// of a page. Read from the import graph of the sources, so a violating import fails `npm test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, dirname, resolve, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ENGINES = /^(lit|@lit\/|react|react-dom|@electric-sql\/|@marp-team\/|@excalidraw\/|@maxgraph\/)/;

async function sources(dir) {
  const out = [];
  for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sources(path)));
    else if (/\.(ts|tsx|mjs|js)$/.test(entry.name)) out.push(path);
  }
  return out;
}

export async function importsOf(file) {
  const text = await readFile(join(root, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s*['"]([^'"]+)['"]/g)]
    .map((m) => m[1] ?? m[2] ?? m[3]);
  return specifiers.map((s) => (s.startsWith('.') ? { local: relative(root, resolve(root, dirname(file), s)) } : { pkg: s }));
}

test('[SHAPE-1] [SHAPE-4] src/ imports nothing from tools/, elements/, demo/ nor any UI framework or engine', async () => {
  const problems = [];
  for (const file of await sources('src')) {
    for (const target of await importsOf(file)) {
      if (target.local && !target.local.startsWith('src/')) problems.push(`${file} -> ${target.local}`);
      if (target.pkg && ENGINES.test(target.pkg)) problems.push(`${file} -> ${target.pkg}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('[SHAPE-3] tools/ imports only src/ and its own modules, never a page, an element or an engine', async () => {
  const problems = [];
  for (const file of await sources('tools')) {
    for (const target of await importsOf(file)) {
      if (target.local && !(target.local.startsWith('src/') || target.local.startsWith('tools/'))) problems.push(`${file} -> ${target.local}`);
      if (target.pkg && ENGINES.test(target.pkg)) problems.push(`${file} -> ${target.pkg}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('[SHAPE-2] elements/ never load scripts or register tools themselves', async () => {
  const problems = [];
  for (const file of await sources('elements')) {
    const text = await readFile(join(root, file), 'utf8');
    if (/registerTool\s*\(|createElement\(\s*['"]script['"]|\.load\(/.test(text)) problems.push(file);
  }
  assert.deepEqual(problems, []);
});

test('[SHAPE-4] the check itself catches a violating import', async () => {
  // importsOf resolves relative specifiers against the importing file
  const fake = [{ local: relative(root, resolve(root, 'src', '../tools/sql/operations.js')) }];
  assert.equal(fake[0].local.startsWith('src/'), false);
});
