// The Excalidraw page's static files, in <outdir> (/excalidraw/; called by esbuild.config.mjs). The
// page's code (React 19 + @excalidraw/excalidraw 0.18.1) is a chunk of the app, built with
// appPlugins() below; what Excalidraw loads on demand (its locales, the subset worker) are chunks too.
//   excalidraw.css      the page's layout and Excalidraw's own stylesheet (./excalidraw.css imports it)
//   assets/             the fonts Excalidraw's CSS names (Assistant, the UI font)
//   fonts/              the fonts Excalidraw loads for the canvas, found through
//                       window.EXCALIDRAW_ASSET_PATH (set to /excalidraw/ by asset-path.ts), all
//                       of them: Xiaolai (13 MB, CJK hand-drawn) too, since Excalidraw asks for it
//                       whenever Japanese text is drawn (a missing one is a 404 in the console);
//                       it is split by unicode-range, so a page fetches only the pieces it draws
// Nothing is fetched from another host: Excalidraw's last-resort font URL (esm.sh) is rewritten to the
// page's own asset path, and the app's build fails if that pattern is not found exactly once.
import { cp, mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';

/** Excalidraw's CDN fallback for fonts: a static class field holding a template literal. */
export const CDN_FALLBACK = /`https:\/\/esm\.sh\/\$\{(\w+)\.PKG_NAME\?`\$\{\1\.PKG_NAME\}@\$\{\1\.PKG_VERSION\}`:"@excalidraw\/excalidraw"\}\/dist\/prod\/`/g;

/** What replaces it: the asset path the page set (absolute), else /excalidraw/ on this origin. */
export const LOCAL_FALLBACK =
  '(typeof globalThis.EXCALIDRAW_ASSET_PATH=="string"?globalThis.EXCALIDRAW_ASSET_PATH:globalThis.location.origin+"/excalidraw/")';

/** The installed package's dist/prod folder. */
export function excalidrawDist(root) {
  const require = createRequire(join(root, 'package.json'));
  // The package maps "." by condition; the production file is <pkg>/dist/prod/index.js.
  return dirname(require.resolve('@excalidraw/excalidraw', { paths: [root] }));
}

/** An esbuild plugin that rewrites the CDN fallback and checks it happened exactly once. */
export function localFontFallback() {
  let replaced = 0;
  return {
    name: 'excalidraw-local-font-fallback',
    setup(build) {
      build.onStart(() => {
        replaced = 0;
      });
      build.onLoad({ filter: /[\\/]@excalidraw[\\/]excalidraw[\\/]dist[\\/]prod[\\/].*\.js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('https://esm.sh/')) return undefined;
        const contents = source.replace(CDN_FALLBACK, () => {
          replaced++;
          return LOCAL_FALLBACK;
        });
        return { contents, loader: 'js' };
      });
      build.onEnd((result) => {
        if (result.errors.length === 0 && replaced !== 1) {
          throw new Error(`excalidraw build: expected Excalidraw's esm.sh font fallback exactly once, found ${replaced}`);
        }
      });
    },
  };
}

/** esbuild plugins the app's build needs for this page's code (esbuild.config.mjs adds them). */
export function appPlugins() {
  return [localFontFallback()];
}

/**
 * @param {{ esbuild: typeof import('esbuild'), browserOptions: import('esbuild').BuildOptions,
 *   outdir: string, root: string, production: boolean }} options
 */
export async function build({ esbuild, browserOptions, outdir, root }) {
  const here = join(root, 'playground/excalidraw');
  await mkdir(outdir, { recursive: true });
  const result = await esbuild.build({
    ...browserOptions,
    entryPoints: { excalidraw: join(here, 'excalidraw.css') },
    outdir,
    assetNames: 'assets/[name]-[hash]',
    // Excalidraw's package maps its stylesheet to dist/dev or dist/prod by condition.
    conditions: ['production'],
    loader: { '.woff2': 'file', '.woff': 'file', '.ttf': 'file' },
    plugins: [],
    metafile: true,
    absWorkingDir: root, // metafile paths are relative to this
  });
  // Asset names carry content hashes: drop the previous builds' files, after the new ones exist
  // (a page loading meanwhile never misses a file).
  const written = new Set(Object.keys(result.metafile.outputs).map((file) => resolve(root, file)));
  for (const folder of ['chunks', 'assets']) {
    const dir = join(outdir, folder);
    for (const name of await readdir(dir).catch(() => [])) {
      if (!written.has(resolve(dir, name))) await rm(join(dir, name), { force: true });
    }
  }
  const fonts = join(excalidrawDist(root), 'fonts');
  await cp(fonts, join(outdir, 'fonts'), { recursive: true });
}
