// `npm run bench` runs whole (issue 44): every section of bench/sections/ loads, and every bench page
// a section bundles in memory builds, with no measuring. A module moved or renamed under src/,
// elements/, tools/ or playground/ then fails the suite here instead of the next person's bench
// ("Could not resolve ./src/call.ts" ended the bench with `1 section(s) failed` unnoticed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const folder = join(root, 'bench/sections');
const files = readdirSync(folder).filter((f) => f.endsWith('.mjs')).sort();

test('[SUITE-3] every bench section loads and names itself', async () => {
  assert.ok(files.length >= 10, `bench sections found: ${files.length}`);
  for (const file of files) {
    const section = await import(pathToFileURL(join(folder, file)).href);
    assert.equal(typeof section.name, 'string', `${file}: name`);
    assert.equal(typeof section.run, 'function', `${file}: run`);
  }
});

for (const file of files) {
  // A section that bundles a page from source (esbuild's `stdin`) exports that build as `bundle`, so
  // it can be built here: a section that does not would slip past this check. Built with the
  // dependencies left out (seconds instead of a minute; what moves is the project's own modules).
  if (!readFileSync(join(folder, file), 'utf8').includes('stdin: {')) continue;
  test(`[SUITE-3] the bench page of ${file} builds`, { timeout: 120_000 }, async () => {
    const section = await import(pathToFileURL(join(folder, file)).href);
    assert.equal(typeof section.bundle, 'function', `${file} bundles a page: it exports bundle(root)`);
    const script = await section.bundle(root, { packages: 'external', plugins: [] });
    assert.ok(script.byteLength > 500, `${file}: ${script.byteLength} bytes`);
  });
}
