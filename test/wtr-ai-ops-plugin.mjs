// A web-test-runner plugin that resolves `ai-ops` and `ai-ops/<entry>` to this repository's
// sources through package.json `exports` (`./dist/lib/src/index.js` → `/src/index.ts`), the way the
// playground's build does, so browser tests can import playground modules written as a consumer
// writes them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The `import` target of `key` in an `exports` map, `*` patterns included. */
function entryTarget(exports, key) {
  if (exports[key]) return exports[key].import;
  for (const [pattern, entry] of Object.entries(exports)) {
    const [before, after, extra] = pattern.split('*');
    if (after === undefined || extra !== undefined || !key.startsWith(before) || !key.endsWith(after)) continue;
    return entry.import?.replace('*', key.slice(before.length, key.length - after.length));
  }
  return undefined;
}

/** @returns {import('@web/dev-server-core').Plugin} */
export function aiOpsEntriesPlugin(root = process.cwd()) {
  const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return {
    name: 'ai-ops-entries',
    resolveImport({ source }) {
      if (!/^ai-ops(\/.*)?$/.test(source)) return undefined;
      const target = entryTarget(exports, `.${source.slice('ai-ops'.length)}`);
      if (typeof target !== 'string' || !target.startsWith('./dist/lib/')) return undefined;
      const base = target.slice('./dist/lib/'.length).replace(/\.js$/, '');
      const file = ['.ts', '.tsx'].map((ext) => base + ext).find((f) => existsSync(join(root, f)));
      return file ? `/${file}` : undefined;
    },
  };
}
