// Copies the polyfill and the relay's browser files into the build, patching the relay widget's
// two timeouts that relay 2.2.0 hard-codes (PLATFORM-NOTES): the 10 s host response limit, which
// would cut every confirmation and long run, and the 1.2 s per-candidate connect limit, which keeps
// a relay started after the page unfound. A patch that does not match exactly once fails the build,
// so an upgrade of the relay cannot silently ship an unpatched widget.
import { mkdir, readFile, writeFile, copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** Widget timeout patches: [what relay 2.2.0 ships, what we serve]. */
export const WIDGET_PATCHES = [
  // host response timeout for webmcp.tools.invoke: 10 s -> 300 s
  ['},1e4)', '},3e5)'],
  // per-candidate WebSocket connect limit: 1.2 s -> 6 s
  ['a(null)},1200)', 'a(null)},6e3)'],
];

/**
 * Replaces `from` with `to`, failing unless `from` occurs exactly once.
 * @param {string} text
 * @param {string} from
 * @param {string} to
 * @param {string} file for the error message
 */
export function patchOnce(text, from, to, file) {
  const count = text.split(from).length - 1;
  if (count !== 1) {
    throw new Error(`${file}: expected the pattern ${JSON.stringify(from)} exactly once, found ${count}`);
  }
  return text.replace(from, to);
}

export function vendorPaths() {
  // Both packages export only their main module, which sits in dist/ beside the browser files.
  const globalDist = dirname(require.resolve('@mcp-b/global'));
  const relayDist = dirname(require.resolve('@mcp-b/webmcp-local-relay'));
  return {
    polyfill: join(globalDist, 'index.iife.js'),
    relayBrowser: join(relayDist, 'browser'),
  };
}

/** Writes `<outdir>/mcp-b-global.js` and `<outdir>/relay/{embed.js,widget.html,widget.js}`. */
export async function copyVendor(outdir) {
  const { polyfill, relayBrowser } = vendorPaths();
  await mkdir(join(outdir, 'relay'), { recursive: true });
  await copyFile(polyfill, join(outdir, 'mcp-b-global.js'));
  await copyFile(join(relayBrowser, 'embed.js'), join(outdir, 'relay/embed.js'));
  for (const file of ['widget.js', 'widget.html']) {
    let text = await readFile(join(relayBrowser, file), 'utf8');
    for (const [from, to] of WIDGET_PATCHES) text = patchOnce(text, from, to, file);
    await writeFile(join(outdir, 'relay', file), text);
  }
}
