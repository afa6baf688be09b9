// Builds the node page's static assets (called by esbuild.config.mjs, which builds the page itself
// as a chunk of the app and copies node.css): xterm's stylesheet beside node.css, as
// /node/xterm.css. The runner token reaches the page through the app's document: the demo server
// fills the `%%AI_OPS_RUNNER_TOKEN%%` placeholder of its <meta name="ai-ops-runner-token">.
import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * @param {{ esbuild: typeof import('esbuild'), browserOptions: import('esbuild').BuildOptions,
 *   outdir: string, root: string, production: boolean }} options
 */
export async function build({ outdir, root }) {
  await mkdir(outdir, { recursive: true });
  const require = createRequire(join(root, 'package.json'));
  // The package's main entry is <dir>/lib/xterm.js; its stylesheet is <dir>/css/xterm.css.
  const xtermDir = dirname(dirname(require.resolve('@xterm/xterm')));
  await copyFile(join(xtermDir, 'css/xterm.css'), join(outdir, 'xterm.css'));
}
