// APP-5: the playground imports ai-ops only through the package's public entries (never a relative
// path into src/, elements/ or tools/), and the pieces every page shares exist once, in
// playground/shared/ (the header and its nav, the document bar, the IndexedDB helper, the embed id
// and ?doc= parsing) or playground/app/ (the one dialog).
// Run: node --test test/node/app-shape.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const playground = join(root, 'playground');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Every source file under playground/ (TS, TSX, JS, MJS), as [path from the repo, text]. */
function sources(dir = playground) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sources(path));
    else if (/\.(ts|tsx|js|mjs)$/.test(entry.name)) files.push([relative(root, path), readFileSync(path, 'utf8')]);
  }
  return files;
}

/** The text without comments (so a JSDoc example does not count as code). */
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** Module specifiers of static imports, re-exports and dynamic imports. */
function specifiers(text) {
  const found = [];
  const patterns = [/\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** True when `specifier` is an entry of the package's exports (`./x` or a `./x/*.js` pattern). */
function inExports(specifier) {
  const key = `.${specifier.slice('ai-ops'.length)}`;
  if (pkg.exports[key]) return true;
  return Object.keys(pkg.exports).some((pattern) => {
    const [before, after, extra] = pattern.split('*');
    return after !== undefined && extra === undefined && key.startsWith(before) && key.endsWith(after) && key.length > before.length + after.length;
  });
}

test('[APP-5] no import in playground/ reaches src/, elements/ or tools/ by a path; ai-ops is imported through its public entries only', () => {
  const files = sources();
  assert.ok(files.length > 20, `playground/ has its sources (${files.length} files)`);
  const reaching = [];
  const notEntries = [];
  let aiOpsImports = 0;
  for (const [file, text] of files) {
    for (const specifier of specifiers(code(text))) {
      if (specifier === 'ai-ops' || specifier.startsWith('ai-ops/')) {
        aiOpsImports++;
        if (!inExports(specifier)) notEntries.push(`${file}: ${specifier}`);
        continue;
      }
      if (!specifier.startsWith('.') && !specifier.startsWith('/')) continue;
      const target = relative(root, resolve(dirname(join(root, file)), specifier));
      if (/^(src|elements|tools)(\/|$)/.test(target)) reaching.push(`${file}: ${specifier}`);
    }
  }
  assert.deepEqual(reaching, []);
  assert.deepEqual(notEntries, []);
  assert.ok(aiOpsImports >= 5, `the pages import ai-ops through its entries (${aiOpsImports} imports)`);
});

test('[REACT-1] the playground imports no code from ai-ops/internals or ai-ops/call (types only): esbuild would give every page what those entries re-export', () => {
  const importsCode = [];
  for (const [file, text] of sources()) {
    const body = code(text).replace(/\b(import|export)\s+type\s[^;]*?from\s*['"][^'"]+['"]/g, '');
    for (const specifier of specifiers(body)) if (specifier === 'ai-ops/internals' || specifier === 'ai-ops/call') importsCode.push(`${file}: ${specifier}`);
  }
  assert.deepEqual(importsCode, []);
});

test('[APP-5] the check catches a relative import into src/ and a deep ai-ops path', () => {
  const text = "import { createStore } from '../../src/store.js';\nexport { x } from \"../../elements/log/ai-ops-log.js\";\nconst m = import('ai-ops/src/runtime.js');";
  assert.deepEqual(specifiers(text), ['../../src/store.js', '../../elements/log/ai-ops-log.js', 'ai-ops/src/runtime.js']);
  assert.equal(inExports('ai-ops/src/runtime.js'), false);
  assert.equal(inExports('ai-ops/tools/drawio'), true);
  assert.equal(inExports('ai-ops/elements/define.js'), true);
});

/** The files (from the repo) whose code (comments left out) matches `pattern`. */
function filesMatching(pattern) {
  return sources().filter(([, text]) => pattern.test(code(text))).map(([file]) => file).sort();
}

test('[APP-5] the shared page pieces exist once: header and nav, the switch, the dialog, the IndexedDB helper, ?id= and ?doc= parsing, the document bar', () => {
  assert.deepEqual(filesMatching(/aria-label="ツール"/), ['playground/shared/tool-header.tsx'], 'one nav between the tools');
  assert.deepEqual(filesMatching(/<AiOpsSwitch\b|<ai-ops-switch\b/), ['playground/shared/tool-header.tsx'], 'one place renders the switch');
  assert.deepEqual(filesMatching(/<AiOpsConfirm\b|<ai-ops-confirm\b/), ['playground/app/shell.tsx'], 'one dialog for the app');
  assert.deepEqual(filesMatching(/\.objectStore\(|['"]read(only|write)['"]|\bindexedDB\.open\(|\bfactory\.open\(/), ['playground/shared/idb.ts'], 'one IndexedDB helper opens and reads databases');
  for (const file of filesMatching(/\bindexedDB\b|\bIDBFactory\b/).filter((f) => f !== 'playground/shared/idb.ts')) {
    assert.match(readFileSync(join(root, file), 'utf8'), /from '(\.\.\/shared|\.)\/idb\.js'/, `${file} stores through shared/idb.ts`);
  }
  assert.deepEqual(filesMatching(/\.get\(\s*['"](id|doc)['"]\s*\)/), ['playground/shared/page-params.ts'], 'one place parses ?id= and ?doc=');
  assert.deepEqual(filesMatching(/^\s*(const|let|function)\s+\$\s*[=(]/m), [], 'no $ helper');
  assert.deepEqual(filesMatching(/<!doctype html/i), [], 'no HTML documents built in code');
  const documentPages = ['slides', 'drawio'].filter((tool) => existsSync(join(playground, tool, 'page.tsx')));
  assert.ok(documentPages.length > 0, 'a page with documents is in the app');
  for (const tool of documentPages) {
    assert.match(readFileSync(join(playground, tool, 'page.tsx'), 'utf8'), /from '\.\.\/shared\/document-bar\.js'/, `${tool} uses the shared document bar`);
  }
  // Every tool page uses the one header: itself, or through the document pages' shared layout.
  assert.match(readFileSync(join(playground, 'shared/document-bar.tsx'), 'utf8'), /<ToolHeader\b/);
  for (const tool of ['sql', 'slides', 'excalidraw', 'drawio', 'node', 'go'].filter((t) => existsSync(join(playground, t, 'page.tsx')))) {
    assert.match(readFileSync(join(playground, tool, 'page.tsx'), 'utf8'), /<(ToolHeader|DocumentPage)\b/, `${tool} renders <ToolHeader>`);
  }
});
