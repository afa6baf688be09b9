// Builds the slide editor page into <outdir> (called by esbuild.config.mjs):
//   main.js     the page (demo/slides/main.ts): Marp, the runtime, the elements, the operations
//   index.html  the page shell; slides.css its layout
import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * @param {{ esbuild: typeof import('esbuild'), browserOptions: import('esbuild').BuildOptions,
 *   outdir: string, root: string, production: boolean }} options
 */
export async function build({ esbuild, browserOptions, outdir, root }) {
  await mkdir(outdir, { recursive: true });
  await esbuild.build({
    ...browserOptions,
    entryPoints: { main: join(root, 'demo/slides/main.ts') },
    outdir,
  });
  for (const file of ['index.html', 'slides.css']) await cp(join(root, 'demo/slides', file), join(outdir, file));
}
