// FIRST-1: the README opens with what ai-ops is, the two commands and a quick start of at most ten
// lines; the reference material lives in docs/; every file the README or a doc links to exists,
// every path it names exists in the repository or in the package, and it names no requirement ID
// (the spec is not part of the repository).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { root, readmeRecipes, section } from './readme.lib.mjs';

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
const codeBlocks = (text) => [...text.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)].map((m) => m[1]);

test('[FIRST-1] the README opens with the two commands, then what ai-ops is, a picture of it and a quick start of at most 10 lines', async () => {
  const [first] = codeBlocks(readme);
  const commands = first.trim().split('\n');
  assert.deepEqual(commands.map((line) => line.replace(/\s+#.*/, '')), ['./scripts/setup.sh && npm start', './scripts/setup.sh && npm test']);
  assert.ok(readme.indexOf('```') < 20, 'the commands are the first lines');
  const intro = readme.slice(readme.indexOf('```', readme.indexOf('```') + 3), readme.indexOf('\n## '));
  assert.match(intro, /ai-ops lets your web app's tool pages hand their operations to the user's own AI agent/);
  const picture = /!\[[^\]]+\]\(([^)]+\.png)\)/.exec(intro);
  assert.ok(picture && existsSync(join(root, picture[1])), 'a screenshot of what the user sees, before the first section');
  const quick = await section('README.md', '## Quick start');
  const lines = codeBlocks(quick).flatMap((code) => code.trimEnd().split('\n'));
  assert.ok(lines.length <= 10, `the quick start's code is ${lines.length} lines`);
});

test('[FIRST-1] the README keeps to the product: the reference sections are in docs/, and no requirement ID appears', () => {
  const headings = readme.split('\n').filter((line) => /^##+ /.test(line));
  for (const moved of ['The audit line', 'What verified consent stops', 'Development', 'Import paths', 'Browser engines', 'The relay\'s door']) {
    assert.ok(!headings.some((h) => h.includes(moved)), `"${moved}" is reference material (docs/)`);
    assert.ok(docs.some((doc) => new RegExp(`^#+ ${moved}`, 'm').test(readFileSync(join(root, doc), 'utf8'))), `"${moved}" is in docs/`);
  }
  assert.deepEqual(readme.match(/\b(?!UTF-)[A-Z]{2,6}-\d+[a-z]?\b/g) ?? [], []);
});

test('[FIRST-1] every link of the README and docs/ reaches a file, and every path the README names is in the repository or the package', async () => {
  const missing = [];
  for (const file of ['README.md', ...docs]) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
      if (/^https?:/.test(target)) continue;
      if (!existsSync(join(root, dirname(file), target))) missing.push(`${file}: ${target}`);
    }
  }
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  // A recipe's own files, and the folder a recipe makes, are the reader's: not ours to ship.
  const recipes = await readmeRecipes();
  const own = new Set(Object.values(recipes).flatMap((files) => Object.keys(files)));
  const readerPath = (path) => own.has(path) || /^(public|src)\//.test(path) || /^\.(cursor|claude)\b|^\.mcp\.json$/.test(path);
  const prose = readme.replace(/^```[\s\S]*?^```$/gm, '');
  for (const [, path] of prose.matchAll(/`([\w.@-]+(?:\/[\w.@*<>-]*)+|[\w-]+\.(?:mjs|js|ts|tsx|json|md|html|svelte))`/g)) {
    // Import specifiers of ai-ops and of other packages (`svelte/compiler`) are not paths.
    if (readerPath(path) || path.startsWith('ai-ops/') || path.startsWith('@') || existsSync(join(root, 'node_modules', path.split('/')[0]))) continue;
    const inPackage = path.startsWith('node_modules/ai-ops/') ? path.slice('node_modules/ai-ops/'.length) : null;
    const target = inPackage ?? path;
    const shipped = inPackage === null || pkg.files.some((f) => target === f || target.startsWith(`${f}/`) || f.startsWith(target.replace(/\/$/, '')));
    if (!existsSync(join(root, target.replace(/\/$/, ''))) && !(inPackage !== null && shipped && target.startsWith('dist'))) missing.push(`README.md: \`${path}\``);
    else if (!shipped) missing.push(`README.md: \`${path}\` is not in the package's files`);
  }
  assert.deepEqual(missing, []);
});

test('[FIRST-1] each recipe is complete: the plain page declares its encoding and language, and every module a recipe imports is one of its files or a package', async () => {
  const recipes = await readmeRecipes();
  assert.deepEqual(Object.keys(recipes).sort(), ['plain', 'react', 'svelte', 'vue']);
  for (const [name, files] of Object.entries(recipes)) {
    for (const [path, text] of Object.entries(files)) {
      if (path.endsWith('.html')) {
        assert.match(text, /^<!doctype html>\n<html lang="ja">/, `${name}/${path}: doctype and language`);
        assert.match(text, /<meta charset="utf-8">/, `${name}/${path}: its encoding`);
      }
      for (const [, specifier] of text.matchAll(/from '(\.[^']+)'|import '(\.[^']+)'/g)) {
        if (!specifier) continue;
        const base = join(dirname(path), specifier).replace(/\\/g, '/');
        assert.ok(['', '.ts', '.tsx', '.js', '.svelte'].some((ext) => `${base}${ext}` in files), `${name}/${path} imports ${specifier}, which the recipe shows`);
      }
    }
  }
});
