// Build:
//   `node esbuild.config.mjs --lib` (part of `npm run build`, the library only):
//     dist/ai-ops.js (+ dist/ai-ops-chunks/)  one self-contained module (runtime + elements + Lit)
//                                  for pages without a bundler: <script type="module" src=".../ai-ops.js">;
//                                  what only shows while a switch is on is a chunk loaded then
//     dist/ai-ops-chunks/*.LEGAL.txt  the licence notices of what the bundle contains (Lit), beside
//                                  the chunk that holds it (esbuild writes one per output with notices)
//     dist/vendor/                 polyfill and relay browser files, served from the page's origin
//                                  (so dist/ served at /ai-ops/ needs no assetsBase)
//   `node esbuild.config.mjs [page…]` (`npm start`, the tests): the above plus the playground in
//     dist/site/ (every tool's assets, or only the tools named), /ai-ops/ holding the same files:
//       index.html, <tool>/index.html   the one React app's document, for / and each tool path
//       app/main.js (+ app/chunks/)     the app (playground/app/main.tsx), one chunk per page
//       <tool>/                         each tool's static assets (its CSS, engine workers, wasm)
//   dist/lib/ (ES modules + .d.ts for bundler users) comes from tsc, see package.json.
//       sample/                         the plain-HTML sample page (playground/sample/, no bundler)
//   dist/app-metafile.json (not served): which sources each app chunk holds (tests, bench).
// Each playground folder may hold a build.mjs exporting
// `build({ esbuild, browserOptions, outdir, root, production })` for its static assets (engines),
// and `appPlugins()` for esbuild plugins its page's code needs in the app build.
import * as esbuild from 'esbuild';
import { cp, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { copyVendor } from './scripts/vendor.mjs';
import { PACKAGE_SPECIFIER, entrySource } from './scripts/package-entries.mjs';
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
  await buildPlayground({ only });
}

/** The app build's esbuild metafile (outputs by path relative to the repo, with their inputs). */
export const APP_METAFILE = join(root, 'dist/app-metafile.json');

/** The six tool folders of the playground. */
export const TOOL_NAMES = ['sql', 'slides', 'excalidraw', 'drawio', 'node', 'go'];

/**
 * The playground: the React app (one document for every route, each page its own chunk), each
 * tool's static assets, and the pages that are their own documents (/sample/).
 * @param {{ only?: string[] }} options
 */
async function buildPlayground({ only }) {
  const app = join(root, 'playground');
  const appDocument = join(app, 'index.html');
  const { metafile } = await buildApp({ outdir: join(site, 'app') });
  // Which sources each chunk holds, beside the site rather than in it (not served): the tests and
  // the bench attribute a page's requested bytes to ai-ops, Lit, React or an engine with it.
  await writeFile(APP_METAFILE, JSON.stringify(metafile));
  await cp(appDocument, join(site, 'index.html'));
  // Every route loads directly, also after a build of only some tools: the app document is copied
  // to each tool path the app renders itself.
  for (const name of TOOL_NAMES) {
    if (!existsSync(join(app, name, 'page.tsx'))) continue;
    await mkdir(join(site, name), { recursive: true });
    await cp(appDocument, join(site, name, 'index.html'));
  }
  await mkdir(join(site, 'shared'), { recursive: true });
  for (const name of await readdir(join(app, 'shared'))) {
    if (name.endsWith('.css')) await cp(join(app, 'shared', name), join(site, 'shared', name));
  }
  for (const name of await readdir(app)) {
    if (only && !only.includes(name)) continue;
    const outdir = join(site, name);
    const folder = join(app, name);
    if (!(await stat(folder).catch(() => undefined))?.isDirectory()) continue;
    if (TOOL_NAMES.includes(name) && existsSync(join(folder, 'page.tsx'))) {
      for (const file of await readdir(folder)) {
        if (file.endsWith('.css')) await cp(join(folder, file), join(outdir, file));
      }
    }
    const script = join(folder, 'build.mjs');
    if (!existsSync(script)) continue;
    const mod = await import(pathToFileURL(script).href);
    await mod.build({ esbuild, browserOptions, outdir, root, production });
  }
}

/**
 * The React app's code alone (playground/app/main.tsx, a chunk per page) into `outdir`, replacing
 * its chunks. `production: false` gives React's development build, where `<StrictMode>` mounts,
 * unmounts and mounts every effect again (the APP-2 test runs the app that way). `entry` bundles
 * another React page the same way (REACT-1's minimal page in test/e2e/fixtures/react-minimal).
 * @param {{ outdir: string, production?: boolean, entry?: string }} options
 * @returns {Promise<import('esbuild').BuildResult>} with its metafile
 */
export async function buildApp({ outdir, production: forProduction = production, entry }) {
  const app = join(root, 'playground');
  await rm(join(outdir, 'chunks'), { recursive: true, force: true });
  // A page's build.mjs may add esbuild plugins for its code in the app (`export function appPlugins()`).
  const pagePlugins = [];
  for (const name of entry ? [] : TOOL_NAMES) {
    const script = join(app, name, 'build.mjs');
    if (!existsSync(join(app, name, 'page.tsx')) || !existsSync(script)) continue;
    const mod = await import(pathToFileURL(script).href);
    if (mod.appPlugins) pagePlugins.push(...mod.appPlugins());
  }
  return esbuild.build({
    ...browserOptions,
    minify: forProduction,
    define: { 'process.env.NODE_ENV': JSON.stringify(forProduction ? 'production' : 'development') },
    entryPoints: { main: entry ?? join(app, 'app/main.tsx') },
    outdir,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    jsx: 'automatic',
    metafile: true,
    plugins: [...(forProduction ? browserOptions.plugins : []), packageEntries(), ...pagePlugins],
  });
}

/**
 * Resolves `ai-ops` and `ai-ops/<entry>` to this repository's sources through package.json's
 * `exports` (`./dist/lib/src/index.js` → `src/index.ts`), so the playground imports exactly what a
 * consumer imports, and an entry missing from `exports` fails its build.
 */
export function packageEntries() {
  return {
    name: 'ai-ops-package-entries',
    setup(build) {
      build.onResolve({ filter: PACKAGE_SPECIFIER }, (args) => {
        const found = entrySource(root, args.path);
        return 'file' in found ? { path: join(root, found.file) } : { errors: [{ text: found.error }] };
      });
    },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  if (process.argv.includes('--clean')) await rm(site, { recursive: true, force: true });
  await buildAll({ only: only.length ? only : undefined, lib: process.argv.includes('--lib') });
}
