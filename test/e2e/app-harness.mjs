// Helpers for the routed playground's end-to-end files (test/e2e/app-*.test.mjs): what a page
// requested, which sources each requested chunk of the app holds (the build's metafile), axe.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { root } from './harness.mjs';

/** The six tools, in the nav's order (playground/shared/tools.ts). */
export const TOOLS = ['sql', 'slides', 'excalidraw', 'drawio', 'node', 'go'];

/**
 * Each tool's engine as the build's inputs name it (the node page's engine is the server's runner): a chunk holding one of these sources, or a
 * request under the tool's own folder (its engine workers and wasm), loads that engine.
 */
export const ENGINE_INPUTS = {
  sql: /node_modules\/@electric-sql\/pglite\//,
  go: /yaegi|playground\/go\/engine\//,
  slides: /node_modules\/@marp-team\//,
  excalidraw: /node_modules\/@excalidraw\//,
  drawio: /node_modules\/@maxgraph\//,
};

/** The app build's metafile (written by esbuild.config.mjs beside dist/site). */
export function readAppMetafile() {
  return JSON.parse(readFileSync(join(root, 'dist/app-metafile.json'), 'utf8'));
}

/** The metafile's outputs by their URL path under dist/site (`/app/chunks/x.js`). */
export function outputsByUrlPath(metafile = readAppMetafile()) {
  const byPath = new Map();
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (file.startsWith('dist/site/')) byPath.set(file.slice('dist/site'.length), output);
  }
  return byPath;
}

/**
 * Records every request `page` makes from now on: `urls()` gives their paths (origin's own) and
 * full URLs (others).
 */
export function recordRequests(page, origin) {
  const seen = [];
  const onRequest = (request) => seen.push(request.url());
  page.on('request', onRequest);
  return {
    /** Same-origin paths requested so far (query strings dropped). */
    paths: () => seen.filter((u) => u.startsWith(`${origin}/`)).map((u) => new URL(u).pathname),
    all: () => [...seen],
    clear: () => void seen.splice(0),
    stop: () => page.off('request', onRequest),
  };
}

/**
 * Which engines the requested paths loaded: by the tool folder requested (engine files, except the
 * page's own stylesheet and document) and by the sources of the app chunks requested.
 */
export function enginesLoaded(paths, outputs = outputsByUrlPath()) {
  const loaded = new Set();
  for (const path of paths) {
    const folder = /^\/([a-z]+)\/(.+)$/.exec(path);
    if (folder && TOOLS.includes(folder[1]) && !/^(index\.html|[a-z-]+\.css)$/.test(folder[2])) loaded.add(folder[1]);
    const output = outputs.get(path);
    if (!output) continue;
    for (const input of Object.keys(output.inputs)) {
      for (const [tool, pattern] of Object.entries(ENGINE_INPUTS)) if (pattern.test(input)) loaded.add(tool);
    }
  }
  return [...loaded].sort();
}

/** The tools the app routes itself: those whose playground/<tool>/page.tsx is in the app build. */
export function routedTools(metafile = readAppMetafile()) {
  return TOOLS.filter((tool) => Object.values(metafile.outputs).some((o) => `playground/${tool}/page.tsx` in o.inputs));
}

/** Which tools' page code (playground/<tool>/) the requested chunks hold. */
export function pagesLoaded(paths, outputs = outputsByUrlPath()) {
  const loaded = new Set();
  for (const path of paths) {
    for (const input of Object.keys(outputs.get(path)?.inputs ?? {})) {
      const tool = /^playground\/([a-z]+)\//.exec(input)?.[1];
      if (tool && TOOLS.includes(tool)) loaded.add(tool);
    }
  }
  return [...loaded].sort();
}

/**
 * The bytes of `paths`' app chunks that come from `belongs(input)`, min + gzip: each chunk's
 * gzipped size shared out by its inputs' minified bytes (a chunk mixing ai-ops and React is
 * counted by its share), with the chunks and sources they come from.
 */
export function attributedBytes(paths, belongs, { outputs = outputsByUrlPath(), site = join(root, 'dist/site') } = {}) {
  let total = 0;
  const files = [];
  for (const path of new Set(paths)) {
    const output = outputs.get(path);
    if (!output || !path.endsWith('.js')) continue;
    const inputs = Object.entries(output.inputs);
    const mine = inputs.filter(([name]) => belongs(name)).reduce((sum, [, i]) => sum + i.bytesInOutput, 0);
    if (!mine) continue;
    const gzip = gzipSync(readFileSync(join(site, path)), { level: 9 }).length;
    // As test/node/switch-off-bytes.lib.mjs shares a file's gzip bytes out over its sources.
    const share = Math.round((gzip * mine) / output.bytes);
    total += share;
    files.push({ path, share, inputs: inputs.filter(([name]) => belongs(name)).map(([name]) => name) });
  }
  return { total, files };
}

/** ai-ops's own sources and Lit's (what PKG-4's 12 KB counts). */
export const isAiOpsOrLit = (input) => /^(src|elements|tools)\//.test(input) || /node_modules\/(lit|lit-html|lit-element|@lit|@lit-labs)\//.test(input);

/** Runs axe on the page; returns its violations as `id: targets` lines. */
export async function axeViolations(page, { exclude = [] } = {}) {
  await page.addScriptTag({ path: join(root, 'node_modules/axe-core/axe.min.js') });
  const violations = await page.evaluate(async (excluded) => {
    const result = await globalThis.axe.run({ include: [document], exclude: excluded.map((s) => [s]) });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, exclude);
  return violations;
}

/**
 * The names in the browser's list of the page: the browser's own (`document.modelContext.getTools()`,
 * WebMCP mode) or the polyfill's (`navigator.modelContextTesting.listTools()`), duplicates kept;
 * [] before anything loaded.
 */
export async function browserListNames(page, mode) {
  return page.evaluate(async (webmcp) => {
    if (webmcp) return 'modelContext' in document ? (await document.modelContext.getTools()).map((t) => t.name) : [];
    return navigator.modelContextTesting?.listTools().map((t) => t.name) ?? [];
  }, mode === 'webmcp');
}

/** Clicks the header nav's link to `tool` (client-side navigation in the app). */
export async function clickNav(page, tool) {
  await page.getByRole('navigation', { name: 'ツール' }).getByRole('link', { name: tool, exact: true }).click();
}

/** The stored switch of `tool` (localStorage `fd-ai-operations:<tool>`), or null. */
export function storedSwitch(page, tool) {
  return page.evaluate((key) => localStorage.getItem(key), `fd-ai-operations:${tool}`);
}
