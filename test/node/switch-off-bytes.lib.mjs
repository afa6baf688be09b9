// What a page loads while every switch is off (PKG-4), from the bundle's own build: the entry
// `dist/ai-ops.js` and every chunk it imports statically, each minified and gzipped (-9) on its
// own as a server would send it, and which source files the bytes come from.
import * as esbuild from 'esbuild';
import { gzipSync } from 'node:zlib';
import { join, relative } from 'node:path';
import { browserOptions } from '../../esbuild.config.mjs';

/** PKG-4's budget: ai-ops and Lit, min+gzip, every switch off. */
export const SWITCH_OFF_BUDGET = 12 * 1024;


/**
 * Builds `elements/bundle.ts` in memory with the build's options and measures its static closure.
 * @param {string} root the repository
 * @returns {Promise<{ total: number, files: {file: string, gzip: number}[], sources: {source: string, gzip: number}[] }>}
 *   `sources`: each file's gzip bytes shared out over the sources in it, by their minified bytes
 */
export async function measureSwitchOff(root) {
  const outdir = join(root, '.tmp-measure');
  const result = await esbuild.build({
    ...browserOptions, absWorkingDir: root, entryPoints: { 'ai-ops': join(root, 'elements/bundle.ts') }, outdir,
    splitting: true, chunkNames: 'ai-ops-chunks/[name]-[hash]', metafile: true, write: false, legalComments: 'external', logLevel: 'silent',
  });
  const contents = new Map(result.outputFiles.map((f) => [relative(root, f.path), f.contents]));
  const { outputs } = result.metafile;
  const closure = new Set();
  const visit = (out) => {
    if (closure.has(out)) return;
    closure.add(out);
    for (const imported of outputs[out].imports) if (imported.kind === 'import-statement') visit(imported.path);
  };
  visit(relative(root, join(outdir, 'ai-ops.js')));
  const files = [];
  const bySource = new Map();
  for (const out of closure) {
    const gzip = gzipSync(contents.get(out), { level: 9 }).length;
    files.push({ file: relative(outdir, join(root, out)), gzip });
    for (const [source, { bytesInOutput }] of Object.entries(outputs[out].inputs)) {
      bySource.set(source, (bySource.get(source) ?? 0) + (gzip * bytesInOutput) / outputs[out].bytes);
    }
  }
  const sources = [...bySource].map(([source, gzip]) => ({ source, gzip: Math.round(gzip) })).filter((s) => s.gzip > 0).sort((a, b) => b.gzip - a.gzip);
  return { total: files.reduce((sum, f) => sum + f.gzip, 0), files, sources };
}

/** The table of {@link measureSwitchOff}'s sources, one line each, grouped as ai-ops or Lit. */
export function sourceTable({ sources }) {
  const group = (s) => (s.startsWith('node_modules/') ? 'Lit' : 'ai-ops');
  const sums = {};
  for (const s of sources) sums[group(s.source)] = (sums[group(s.source)] ?? 0) + s.gzip;
  return [
    ...Object.entries(sums).map(([name, gzip]) => `${name.padEnd(44)} ${String(gzip).padStart(6)} B`),
    ...sources.map((s) => `  ${s.source.replace('node_modules/', '').padEnd(42)} ${String(s.gzip).padStart(6)} B`),
  ];
}
