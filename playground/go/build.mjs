// Builds the Go page's engine (called by esbuild.config.mjs, which builds the page itself as a
// chunk of the app and copies go.css) into <outdir>/engine/:
//   engine/worker.js     the module Web Worker (playground/go/engine/worker.ts + wasm_exec.js)
//   engine/yaegi.wasm    Yaegi for GOOS=js GOARCH=wasm (scripts/build-yaegi.mjs; ~40 s, cached)
//   engine/wasm_exec.js  the Go support file the worker bundles, for reference
// The page (state.ts) passes { workerUrl: '/go/engine/worker.js', wasmUrl: '/go/engine/yaegi.wasm' }:
// absolute, since the app's URL changes.
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { buildYaegi } from '../../scripts/build-yaegi.mjs';

/**
 * @param {{ esbuild: typeof import('esbuild'), browserOptions: import('esbuild').BuildOptions,
 *   outdir: string, root: string, production: boolean }} options
 */
export async function build({ esbuild, browserOptions, outdir, root }) {
  await mkdir(outdir, { recursive: true });
  const { wasm, wasmExec } = await buildYaegi({ root });
  const engineDir = join(outdir, 'engine');
  await mkdir(engineDir, { recursive: true });
  await esbuild.build({
    ...browserOptions,
    entryPoints: { worker: join(root, 'playground/go/engine/worker.ts') },
    outdir: engineDir,
    plugins: [
      {
        name: 'go-wasm-exec',
        setup(b) {
          // The worker's `import 'go-wasm-exec'` is the wasm_exec.js matching yaegi.wasm.
          b.onResolve({ filter: /^go-wasm-exec$/ }, () => ({ path: wasmExec }));
        },
      },
    ],
  });
  await copyIfChanged(wasm, join(engineDir, 'yaegi.wasm'));
  await copyIfChanged(wasmExec, join(engineDir, 'wasm_exec.js'));
}

/** Skips copying the 34 MB wasm when the copy is already newer and the same size. */
async function copyIfChanged(from, to) {
  const src = await stat(from);
  const dst = await stat(to).catch(() => undefined);
  if (dst && dst.size === src.size && dst.mtimeMs >= src.mtimeMs) return;
  await copyFile(from, to);
}

// `node playground/go/build.mjs`: this part alone, into dist/site/go (same options as the main build).
if (process.argv[1] && (await import('node:url')).fileURLToPath(import.meta.url) === process.argv[1]) {
  const { dirname, resolve } = await import('node:path');
  const { fileURLToPath, pathToFileURL } = await import('node:url');
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const esbuild = await import('esbuild');
  const { browserOptions } = await import(pathToFileURL(join(root, 'esbuild.config.mjs')).href);
  await build({ esbuild, browserOptions, outdir: join(root, 'dist/site/go'), root, production: process.env.NODE_ENV !== 'development' });
}
