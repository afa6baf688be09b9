// The draw.io page's static files, in <outdir> (/drawio/; called by esbuild.config.mjs). The page's
// code (maxGraph included) is a chunk of the app; esbuild.config.mjs copies drawio.css.
//   maxgraph/          maxGraph's own stylesheet and images, served from this origin (the preview
//                      points Client.imageBasePath here, so nothing is fetched from elsewhere)
import { cp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * @param {{ outdir: string, root: string }} options
 */
export async function build({ outdir, root }) {
  const maxgraph = dirname(createRequire(join(root, 'package.json')).resolve('@maxgraph/core/package.json'));
  await cp(join(maxgraph, 'css/common.css'), join(outdir, 'maxgraph/common.css'));
  await cp(join(maxgraph, 'images'), join(outdir, 'maxgraph/images'), { recursive: true });
}
