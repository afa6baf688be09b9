// Builds the SQL page's engine (called by esbuild.config.mjs, which builds the page itself as a
// chunk of the app and copies sql.css) into <outdir>/engine/:
//   engine/worker.js       the module Web Worker running PGlite (playground/sql/engine/worker.ts)
//   engine/pglite.wasm     Postgres compiled to WebAssembly (from @electric-sql/pglite)
//   engine/pglite.data.gz  its file-system bundle (share/, lib/), gzipped: smaller, and a dev server
//                          that sniffs bodies (web-test-runner's isbinaryfile) takes the raw file,
//                          which starts with text, for UTF-8 and corrupts it
//   engine/initdb.wasm     not run (the dump below replaces initdb) but PGlite wants a module for it
//   engine/pgdata.tar.gz   dumpDataDir() of a freshly initialised PGlite, made here in Node: loading
//                          it skips initdb, which is most of PGlite's 8–10 s cold start
// The page (state.ts) passes { engineUrl: '/sql/engine/' }: absolute, since the app's URL changes.
import { copyFile, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** Files copied unchanged from the package's dist/ beside worker.js. */
export const PGLITE_FILES = ['pglite.wasm', 'initdb.wasm'];

/** Files gzipped from the package's dist/ to <name>.gz beside worker.js. */
export const PGLITE_GZIP_FILES = ['pglite.data'];

/** The data-dir dump's file name inside engine/. */
export const DUMP_FILE = 'pgdata.tar.gz';

/**
 * @param {{ esbuild: typeof import('esbuild'), browserOptions: import('esbuild').BuildOptions,
 *   outdir: string, root: string, production: boolean }} options
 */
export async function build({ esbuild, browserOptions, outdir, root }) {
  const engineDir = join(outdir, 'engine');
  await mkdir(engineDir, { recursive: true });
  const pgliteDir = packageDir(root);
  await esbuild.build({
    ...browserOptions,
    entryPoints: { worker: join(root, 'playground/sql/engine/worker.ts') },
    outdir: engineDir,
    format: 'esm',
    // PGlite's Emscripten glue imports node:module behind a Node check; its other Node-only
    // imports (fs, zlib, …) are mapped to empty modules by the package's "browser" field.
    external: ['node:*'],
  });
  for (const name of PGLITE_FILES) await copyIfChanged(join(pgliteDir, 'dist', name), join(engineDir, name));
  for (const name of PGLITE_GZIP_FILES) await gzipIfChanged(join(pgliteDir, 'dist', name), join(engineDir, `${name}.gz`));
  await writeDump({ pgliteDir, file: join(engineDir, DUMP_FILE) });
}

/** The installed @electric-sql/pglite folder. */
function packageDir(root) {
  const require = createRequire(join(root, 'package.json'));
  // The package exports no ./package.json; its main entry is <dir>/dist/index.cjs.
  return dirname(dirname(require.resolve('@electric-sql/pglite')));
}

/**
 * Writes the dump unless one newer than the installed package exists (making it takes 3–10 s).
 * @param {{ pgliteDir: string, file: string }} options
 */
export async function writeDump({ pgliteDir, file }) {
  const packageStat = await stat(join(pgliteDir, 'package.json'));
  const dumpStat = await stat(file).catch(() => undefined);
  if (dumpStat && dumpStat.size > 0 && dumpStat.mtimeMs > packageStat.mtimeMs) return;
  const { PGlite } = await import(pathToFileURL(join(pgliteDir, 'dist/index.js')).href);
  const db = await PGlite.create();
  try {
    const dump = await db.dumpDataDir('gzip');
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
    await rename(partial, file);
  } finally {
    await db.close();
  }
}

/** Skips the compression when the target is not older than the source. */
async function gzipIfChanged(from, to) {
  const src = await stat(from);
  const dst = await stat(to).catch(() => undefined);
  if (dst && dst.size > 0 && dst.mtimeMs >= src.mtimeMs) return;
  const partial = `${to}.${process.pid}.partial`;
  await writeFile(partial, gzipSync(await readFile(from), { level: 9 }));
  await rename(partial, to);
}

/** Skips the copy when the target is already the same size and not older. */
async function copyIfChanged(from, to) {
  const src = await stat(from);
  const dst = await stat(to).catch(() => undefined);
  if (dst && dst.size === src.size && dst.mtimeMs >= src.mtimeMs) return;
  await copyFile(from, to);
}
