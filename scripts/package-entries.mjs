// Resolves `ai-ops` and `ai-ops/<entry>` to this repository's sources through package.json's
// `exports` (`./dist/lib/src/index.js` → `src/index.ts`): the playground's build and the browser
// tests both import ai-ops exactly as a consumer does, and an entry missing from `exports` fails.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** True for `ai-ops` and `ai-ops/<entry>`. */
export const PACKAGE_SPECIFIER = /^ai-ops(\/.*)?$/;

/**
 * The source file (relative to `root`) behind `specifier`, or `{ error }` saying why there is none.
 * package.json is read on each call, so an edit of `exports` applies to a running watcher.
 * @param {string} root the repository
 * @param {string} specifier e.g. `ai-ops/tools/sql`
 * @returns {{ file: string } | { error: string }}
 */
export function entrySource(root, specifier) {
  const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const target = exports[`.${specifier.slice('ai-ops'.length)}`]?.import;
  if (typeof target !== 'string' || !target.startsWith('./dist/lib/')) {
    return { error: `"${specifier}" is not an entry of the package (package.json exports)` };
  }
  const base = target.slice('./dist/lib/'.length).replace(/\.js$/, '');
  const file = ['.ts', '.tsx'].map((ext) => base + ext).find((f) => existsSync(join(root, f)));
  return file ? { file } : { error: `no source for ${specifier} (${base}.ts)` };
}
