// Builds the node page (called by esbuild.config.mjs): main.ts → main.js, index.html (which carries
// the runner-token placeholder the demo server fills for /node/index.html) and node.css.
import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * @param {{ esbuild: typeof import('esbuild'), browserOptions: import('esbuild').BuildOptions,
 *   outdir: string, root: string, production: boolean }} options
 */
export async function build({ esbuild, browserOptions, outdir, root }) {
  await mkdir(outdir, { recursive: true });
  await esbuild.build({ ...browserOptions, entryPoints: { main: join(root, 'demo/node/main.ts') }, outdir });
  for (const file of ['index.html', 'node.css']) await cp(join(root, 'demo/node', file), join(outdir, file));
}
