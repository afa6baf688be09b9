// Builds the draw.io page into <outdir> (called by esbuild.config.mjs):
//   main.js            the page (demo/drawio/main.ts): maxGraph, the runtime, the elements, the operations
//   index.html         the page shell; drawio.css its layout
//   maxgraph/          maxGraph's own stylesheet and images, served from this origin (the preview
//                      points Client.imageBasePath here, so nothing is fetched from elsewhere)
import { cp, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * @param {{ esbuild: typeof import('esbuild'), browserOptions: import('esbuild').BuildOptions,
 *   outdir: string, root: string, production: boolean }} options
 */
export async function build({ esbuild, browserOptions, outdir, root }) {
  await mkdir(outdir, { recursive: true });
  await esbuild.build({
    ...browserOptions,
    entryPoints: { main: join(root, 'demo/drawio/main.ts') },
    outdir,
  });
  for (const file of ['index.html', 'drawio.css']) await cp(join(root, 'demo/drawio', file), join(outdir, file));
  const maxgraph = dirname(createRequire(join(root, 'package.json')).resolve('@maxgraph/core/package.json'));
  await cp(join(maxgraph, 'css/common.css'), join(outdir, 'maxgraph/common.css'));
  await cp(join(maxgraph, 'images'), join(outdir, 'maxgraph/images'), { recursive: true });
}
