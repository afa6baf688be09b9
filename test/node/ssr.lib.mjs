// Helpers of the SSR tests (REACT-2): dist/lib, what `import 'ai-ops/react'` gives a Node consumer,
// built when missing or stale. The tree they render is in ssr-page.lib.mjs (it imports the package,
// so it loads only once dist/lib exists).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Newest modification time of the .ts files under `dir` (recursively). */
function newest(dir) {
  let time = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) time = Math.max(time, newest(path));
    else if (entry.name.endsWith('.ts')) time = Math.max(time, statSync(path).mtimeMs);
  }
  return time;
}

/** Builds dist/lib (`npm run build:lib`) when it is missing or older than the sources. */
export function ensureLibBuilt(root) {
  const marker = join(root, 'dist/lib/elements/react.js');
  const sources = Math.max(...['src', 'elements', 'tools'].map((dir) => newest(join(root, dir))));
  if (existsSync(marker) && statSync(marker).mtimeMs >= sources) return;
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
}
