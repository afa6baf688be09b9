// The sample page needs no bundler: it loads the self-contained /ai-ops/ai-ops.js.
import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

export async function build({ outdir, root }) {
  await mkdir(outdir, { recursive: true });
  for (const file of ['index.html', 'operations.js']) await cp(join(root, 'playground/sample', file), join(outdir, file));
}
