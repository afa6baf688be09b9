// A web-test-runner plugin that resolves `ai-ops` and `ai-ops/<entry>` to this repository's
// sources through package.json `exports`, the way the playground's build does
// (scripts/package-entries.mjs), so browser tests can import playground modules written as a
// consumer writes them.
import { PACKAGE_SPECIFIER, entrySource } from '../scripts/package-entries.mjs';

/** @returns {import('@web/dev-server-core').Plugin} */
export function aiOpsEntriesPlugin(root = process.cwd()) {
  return {
    name: 'ai-ops-entries',
    resolveImport({ source }) {
      if (!PACKAGE_SPECIFIER.test(source)) return undefined;
      const found = entrySource(root, source);
      return 'file' in found ? `/${found.file}` : undefined;
    },
  };
}
