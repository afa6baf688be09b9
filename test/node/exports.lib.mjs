// The package's public surface, read from the sources with the TypeScript checker: for every entry
// of package.json `exports`, the names (values and types) a consumer can import.
import ts from 'typescript';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** The types file an `exports` entry names (its `types` condition, or the entry itself). */
const typesOf = (target) => (typeof target === 'string' ? target : target.types ?? target.default);

/**
 * Each exact (non-pattern) `exports` entry that has types, with the source file tsc compiles it
 * from: './dist/lib/src/index.d.ts' comes from 'src/index.ts'.
 * @returns {Record<string, string>}
 */
export function sourceEntries() {
  const entries = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const types = typesOf(target);
    if (subpath.includes('*') || !types?.startsWith('./dist/lib/') || !types.endsWith('.d.ts')) continue;
    entries[subpath] = types.slice('./dist/lib/'.length, -'.d.ts'.length) + '.ts';
  }
  return entries;
}

/**
 * The sorted export names of each entry.
 * @param {Record<string, string>} entries subpath -> source file (relative to the root)
 */
export function exportedNames(entries) {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const files = Object.values(entries).map((file) => join(root, file));
  const program = ts.createProgram(files, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const names = {};
  for (const [subpath, file] of Object.entries(entries)) {
    const source = program.getSourceFile(join(root, file));
    if (!source) throw new Error(`${subpath}: ${file} does not exist`);
    const symbol = checker.getSymbolAtLocation(source);
    names[subpath] = symbol ? checker.getExportsOfModule(symbol).map((s) => s.name).sort() : [];
  }
  return names;
}

/**
 * Whether `specifier` ('ai-ops', 'ai-ops/elements/define.js', …) resolves through `exports`, with
 * Node's rules for exact entries and one-`*` patterns.
 */
export function resolvesInExports(specifier) {
  if (specifier !== pkg.name && !specifier.startsWith(`${pkg.name}/`)) return false;
  const subpath = specifier === pkg.name ? '.' : `./${specifier.slice(pkg.name.length + 1)}`;
  if (subpath in pkg.exports) return true;
  return Object.keys(pkg.exports).some((key) => {
    const star = key.indexOf('*');
    if (star < 0) return false;
    const [before, after] = [key.slice(0, star), key.slice(star + 1)];
    return subpath.startsWith(before) && subpath.endsWith(after) && subpath.length > before.length + after.length;
  });
}

/**
 * The files whose `ai-ops…` imports are documentation: the README, docs/ and every source of src/,
 * elements/ and tools/ (their JSDoc examples), as paths relative to the root.
 * @returns {Promise<string[]>}
 */
async function documentedFiles() {
  const files = ['README.md', ...(await readdir(join(root, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const walk = async (dir) => {
    for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (/\.(ts|tsx)$/.test(entry.name)) files.push(path);
    }
  };
  for (const dir of ['src', 'elements', 'tools']) await walk(dir);
  return files;
}

/**
 * Every `ai-ops…` import specifier the README and the sources' JSDoc examples use.
 * @returns {Promise<Map<string, string>>} specifier -> the first file that uses it
 */
export async function documentedSpecifiers() {
  const files = await documentedFiles();
  const found = new Map();
  for (const file of files) {
    const text = await readFile(join(root, file), 'utf8');
    for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*['"](ai-ops(?:\/[^'"\s]*)?)['"]/g)) {
      if (!found.has(specifier)) found.set(specifier, file);
    }
  }
  return found;
}


/**
 * Every source file `file` reaches through relative imports (static, `export … from`, and dynamic),
 * itself included, as paths relative to the root (`.js` specifiers read as their `.ts`/`.tsx`).
 * @param {string} file e.g. 'elements/index.ts'
 * @returns {Promise<string[]>}
 */
export async function localImportGraph(file) {
  const seen = new Set();
  const visit = async (path) => {
    if (seen.has(path)) return;
    seen.add(path);
    const text = await readFile(join(root, path), 'utf8');
    const specifiers = [...text.matchAll(/(?:import|export)\s[^'";]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|import\s*['"](\.[^'"]+)['"]/g)]
      .map((m) => m[1] ?? m[2] ?? m[3]);
    for (const specifier of specifiers) {
      const target = relative(root, resolve(root, dirname(path), specifier));
      const source = [target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx'), target].find((p) => existsSync(join(root, p)));
      if (source && /\.(ts|tsx)$/.test(source)) await visit(source);
    }
  };
  await visit(file);
  return [...seen].sort();
}

/**
 * The import paths the "Import paths" table of docs/pages.md lists: every `ai-ops…` in code spans of its
 * rows' first column.
 * @returns {Promise<string[]>} sorted
 */
export async function readmeEntries() {
  const readme = await readFile(join(root, 'docs/pages.md'), 'utf8');
  const start = readme.indexOf('\n## Import paths\n');
  if (start < 0) throw new Error('docs/pages.md has no "## Import paths" section');
  const section = readme.slice(start + 1, readme.indexOf('\n## ', start + 1));
  const specifiers = [];
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const first = line.split('|')[1];
    for (const [, specifier] of first.matchAll(/`(ai-ops(?:\/[^`]*)?)`/g)) specifiers.push(specifier);
  }
  return specifiers.sort();
}

/**
 * Every named import from ai-ops the README and the sources' JSDoc examples show
 * (`import { a, type B } from 'ai-ops/…'`, and `'/ai-ops/ai-ops.js'`, the bundle a page without a
 * bundler loads), as the exports entry it names and the imported names.
 * @returns {Promise<{file: string, entry: string, names: string[]}[]>}
 */
export async function documentedImports() {
  const files = await documentedFiles();
  const found = [];
  for (const file of files) {
    const text = await readFile(join(root, file), 'utf8');
    for (const [, list, specifier] of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"](ai-ops(?:\/[^'"\s]*)?|\/ai-ops\/ai-ops\.js)['"]/g)) {
      const entry = specifier === '/ai-ops/ai-ops.js' ? './bundle' : specifier === pkg.name ? '.' : `./${specifier.slice(pkg.name.length + 1)}`;
      const names = list.split(',').map((part) => part.replace(/^\s*\*?\s*type\s+/, '').trim().split(/\s+as\s+/)[0].trim()).filter(Boolean);
      found.push({ file, entry, names });
    }
  }
  return found;
}
