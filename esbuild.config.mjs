// Build:
//   `node esbuild.config.mjs --lib` (part of `npm run build`, the library only):
//     dist/ai-ops.js (+ dist/ai-ops-chunks/)  one self-contained module (runtime + elements + Lit)
//                                  for pages without a bundler: <script type="module" src=".../ai-ops.js">;
//                                  what only shows while a switch is on is a chunk loaded then
//     dist/ai-ops.js.LEGAL.txt     the licence notices of what the bundle contains (Lit)
//     dist/vendor/                 polyfill and relay browser files, served from the page's origin
//                                  (so dist/ served at /ai-ops/ needs no assetsBase)
//   `node esbuild.config.mjs [page…]` (`npm start`, the tests): the above plus the demo playground
//     in dist/site/ (every page, or only the pages named), /ai-ops/ holding the same files
//   dist/lib/ (ES modules + .d.ts for bundler users) comes from tsc, see package.json.
// Each demo page folder may hold a build.mjs exporting `build({ esbuild, outdir, root, production })`.
import * as esbuild from 'esbuild';
import { cp, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { copyVendor } from './scripts/vendor.mjs';
import { cssLiteralsPlugin } from './scripts/css-literals.mjs';

const root = dirname(fileURLToPath(import.meta.url));
const site = join(root, 'dist/site');
const production = process.env.NODE_ENV !== 'development';

/** Shared esbuild options for browser bundles. */
export const browserOptions = {
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: production,
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
  plugins: production ? [cssLiteralsPlugin()] : [],
};

/**
 * Builds the bundle and the vendor files, then the playground pages unless `lib` is set.
 * @param {{ only?: string[], lib?: boolean }} [options] `only`: page folders to build (default all)
 */
export async function buildAll({ only, lib = false } = {}) {
  await rm(join(root, 'dist/ai-ops-chunks'), { recursive: true, force: true });
  // dist/ mirrors what a page serves at /ai-ops/: ai-ops.js, ai-ops-chunks/, vendor/.
  await copyVendor(join(root, 'dist/vendor'));
  await esbuild.build({
    ...browserOptions,
    entryPoints: { 'ai-ops': join(root, 'elements/bundle.ts') },
    outdir: join(root, 'dist'),
    // The call path (validator included) is a chunk loaded on the first switch-on.
    splitting: true,
    chunkNames: 'ai-ops-chunks/[name]-[hash]',
    metafile: true,
    // Lit is BSD-3-Clause: its notices ship beside the bundle instead of inside it.
    legalComments: 'external',
  });
  if (lib) return;
  await mkdir(site, { recursive: true });
  await copyVendor(join(site, 'ai-ops/vendor'));
  await rm(join(site, 'ai-ops/ai-ops-chunks'), { recursive: true, force: true });
  await cp(join(root, 'dist/ai-ops.js'), join(site, 'ai-ops/ai-ops.js'));
  await cp(join(root, 'dist/ai-ops-chunks'), join(site, 'ai-ops/ai-ops-chunks'), { recursive: true });
  await cp(join(root, 'demo/index.html'), join(site, 'index.html'));
  if (existsSync(join(root, 'demo/shared'))) await cp(join(root, 'demo/shared'), join(site, 'shared'), { recursive: true, filter: (p) => !p.endsWith('.ts') });
  for (const name of await readdir(join(root, 'demo'))) {
    if (only && !only.includes(name)) continue;
    const script = join(root, 'demo', name, 'build.mjs');
    if (!existsSync(script) || !(await stat(join(root, 'demo', name))).isDirectory()) continue;
    const mod = await import(pathToFileURL(script).href);
    await mod.build({ esbuild, browserOptions, outdir: join(site, name), root, production });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  if (process.argv.includes('--clean')) await rm(site, { recursive: true, force: true });
  await buildAll({ only: only.length ? only : undefined, lib: process.argv.includes('--lib') });
}
