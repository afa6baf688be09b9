// The undo of the document operations (UNDO-1): what keeping the document as it was adds to a
// change, and how long the log's 「元に戻す」 takes to put it back (budget ≤ 1 s).
//   - The pages' own state and adapters (playground/{slides,drawio,excalidraw}/state.ts: IndexedDB
//     saving, Marp's slide count, the diagram check, a mounted Excalidraw), bundled into one bench
//     page served on the demo's origin (routed by Playwright, nothing written to dist/), the
//     operations run through the runtime's own call path (compileOperation + runCall).
//   - With a step: the operations as they are. Without: slides and drawio through their definition
//     with `execute` as it was before undo steps (write, answer); excalidraw through an adapter
//     without `saveScene`/`restoreScene` (the operations' own no-step path). Both alternate call by
//     call (interleaved, each pair in turned order), each call changing the document; p50 of each
//     and their ratio, from one run.
//   - The undo: a change, then its step's `undo()`, timed to its settling (the page's saving
//     included; the preview's redraw after it is the page's, not measured).
import * as esbuild from 'esbuild';
import { join } from 'node:path';
import { browserOptions, packageEntries } from '../../esbuild.config.mjs';
import { appPlugins as excalidrawPlugins } from '../../playground/excalidraw/build.mjs';

export const name = 'undo of the document operations: a before-state\'s cost per change, and the undo (slides, drawio, excalidraw)';

/** Calls per variant; each pair of calls alternates its order. */
const ROUNDS = 30;
/** Undos timed per kind. */
const UNDOS = 10;

// The bench page's code: the playground's state modules, not the pages' React components (the
// Excalidraw canvas is mounted bare, as Canvas in playground/excalidraw/page.tsx mounts it).
const ENTRY = `
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { Excalidraw } from '@excalidraw/excalidraw';
import { compileOperation, runCall } from './src/pipeline.ts';
import { succeed } from './src/result.ts';
import { createSlidesOperations } from './tools/slides/operations.ts';
import { createDrawioOperations } from './tools/drawio/operations.ts';
import { createExcalidrawOperations } from './tools/excalidraw/operations.ts';
import { slides, slidesAdapter } from './playground/slides/state.ts';
import { drawio, drawioAdapter } from './playground/drawio/state.ts';
import {
  attachExcalidrawApi, excalidrawAdapter, initialScene, openDrawing, sceneChanged,
} from './playground/excalidraw/state.ts';
import { setLocalExcalidrawAssetPath } from './playground/excalidraw/asset-path.ts';

const hooks = { isEnabled: () => true, skipsConfirmation: () => true, confirm: async () => () => {} };
const byName = (definitions) => new Map(definitions.map((d) => [d.name, compileOperation(d)]));
/** One call through the runtime's call path: its time in ms and its undo step. */
async function timed(operation, input) {
  const start = performance.now();
  const { result, undo } = await runCall(operation, input, hooks);
  const ms = performance.now() - start;
  if (!result.ok) throw new Error(operation.definition.name + ': ' + JSON.stringify(result));
  return { ms, undo };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const max = (xs) => Math.max(...xs);

/** With and without a step, interleaved; each call gets the next input. */
async function compare(withStep, without, inputs, rounds) {
  const times = { withStep: [], without: [] };
  let n = 0;
  const one = async (key, operation) => {
    const { ms, undo } = await timed(operation, inputs(n++));
    if ((key === 'withStep') !== (undo !== null)) throw new Error(key + ': a step was ' + (undo ? '' : 'not ') + 'handed');
    times[key].push(ms);
  };
  await one('withStep', withStep);
  await one('without', without);
  times.withStep.length = times.without.length = 0;
  for (let i = 0; i < rounds; i++) {
    if (i % 2) { await one('withStep', withStep); await one('without', without); }
    else { await one('without', without); await one('withStep', withStep); }
  }
  return { withStep: median(times.withStep), without: median(times.without) };
}

/** A change, then its undo, \`count\` times: the undo's time and the step's bytes. */
async function undos(operation, inputs, serialize, count) {
  const times = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const before = serialize();
    const { undo } = await timed(operation, inputs(i));
    bytes = undo.bytes;
    const start = performance.now();
    const answer = await undo.undo();
    times.push(performance.now() - start);
    if (!answer.ok) throw new Error('undo failed: ' + JSON.stringify(answer));
    if (serialize() !== before) throw new Error(operation.definition.name + ': the undo did not restore the document');
  }
  return { p50: median(times), max: max(times), bytes };
}

/** The definition with \`execute\` as it was before undo steps: the same write, no before-state. */
function withoutStep(definition, execute) {
  return compileOperation({ ...definition, execute });
}

async function benchSlides(rounds, count) {
  await slides.open('bench-undo-deck');
  const deck = (tag) => Array.from({ length: 150 }, (_, i) => '# ' + tag + ' ' + (i + 1) + '\\n\\n' + 'スライドの本文。'.repeat(20) + '\\n').join('\\n---\\n\\n');
  const texts = [deck('A'), deck('B')];
  await slidesAdapter.setMarkdown(texts[1]);
  const definitions = createSlidesOperations(slidesAdapter);
  const ops = byName(definitions);
  const write = definitions.find((d) => d.name === 'slides_write');
  const old = withoutStep(write, async (input) => {
    await slidesAdapter.setMarkdown(input.markdown);
    return succeed({ slideCount: await slidesAdapter.getSlideCount() });
  });
  const inputs = (n) => ({ markdown: texts[n % 2] });
  const cost = await compare(ops.get('slides_write'), old, inputs, rounds);
  // Each undo's change differs from whatever the deck holds, so each hands a step.
  const undo = await undos(ops.get('slides_write'), (n) => ({ markdown: texts[0] + '\\n<!-- ' + n + ' -->\\n' }), () => slides.document.markdown, count);
  return { what: 'slides_write, ' + Math.round(texts[0].length / 1024) + ' K chars', ...cost, undo };
}

async function benchDrawio(rounds, count) {
  await drawio.open('bench-undo-diagram');
  const cells = Array.from({ length: 3000 }, (_, i) =>
    '<mxCell id="c' + i + '" value="箱 ' + i + '" style="rounded=1;whiteSpace=wrap;" vertex="1" parent="1"><mxGeometry x="' + (i % 50) * 130 + '" y="' + Math.floor(i / 50) * 80 + '" width="120" height="60" as="geometry"/></mxCell>').join('');
  const diagram = (extra) => '<mxfile><diagram id="p1" name="Page-1"><mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>' + cells + extra + '</root></mxGraphModel></diagram></mxfile>';
  const texts = [diagram('<mxCell id="x" vertex="1" parent="1"/>'), diagram('')];
  await drawioAdapter.setXml(texts[1]);
  const definitions = createDrawioOperations(drawioAdapter);
  const ops = byName(definitions);
  const write = definitions.find((d) => d.name === 'drawio_write');
  const old = withoutStep(write, async (_input, { xml }) => {
    await drawioAdapter.setXml(xml);
    return succeed();
  });
  const inputs = (n) => ({ xml: texts[n % 2] });
  const cost = await compare(ops.get('drawio_write'), old, inputs, rounds);
  const undo = await undos(ops.get('drawio_write'), (n) => ({ xml: diagram('<mxCell id="u' + n + '" vertex="1" parent="1"/>') }), () => drawio.document.xml, count);
  return { what: 'drawio_write, ' + Math.round(texts[0].length / 1024) + ' K chars', ...cost, undo };
}

async function benchExcalidraw(rounds, count) {
  setLocalExcalidrawAssetPath();
  await openDrawing('bench-undo-drawing');
  const host = document.createElement('div');
  host.style.cssText = 'position:fixed;inset:0;width:1000px;height:700px';
  document.body.append(host);
  const { elements, files } = initialScene();
  createRoot(host).render(createElement(Excalidraw, { initialData: { elements, files }, excalidrawAPI: (api) => attachExcalidrawApi(api), onChange: sceneChanged }));
  while (!excalidrawAdapter.getOpenDocument()) await new Promise((resolve) => setTimeout(resolve, 20));
  // 1,000 labelled rectangles: 2,000 elements in the scene.
  for (let batch = 0; batch < 5; batch++) {
    await excalidrawAdapter.addElements(Array.from({ length: 200 }, (_, i) => {
      const n = batch * 200 + i;
      return { id: 'r' + n, type: 'rectangle', x: (n % 40) * 130, y: Math.floor(n / 40) * 90, width: 120, height: 60, text: '箱 ' + n };
    }));
  }
  const plain = { ...excalidrawAdapter, saveScene: undefined, restoreScene: undefined, getRevision: undefined };
  const ops = byName(createExcalidrawOperations(excalidrawAdapter));
  const old = byName(createExcalidrawOperations(plain));
  const inputs = (n) => ({ id: 'r500', x: 10 + (n % 2) * 10 });
  const cost = await compare(ops.get('excalidraw_update_element'), old.get('excalidraw_update_element'), inputs, rounds);
  // The scene serialized whole (deleted elements included) before the change and after its undo.
  const undo = await undos(ops.get('excalidraw_update_element'), (n) => ({ id: 'r500', x: 100 + n }), excalidrawAdapter.saveScene, count);
  return { what: 'excalidraw_update_element, 2,000 elements', ...cost, undo };
}

window.benchUndoDocs = async ({ rounds, count }) => [
  await benchSlides(rounds, count),
  await benchDrawio(rounds, count),
  await benchExcalidraw(rounds, count),
];
`;

/**
 * The bench page's script, bundled in memory. test/node/bench-sections.test.mjs builds it too, with
 * `overrides` of its own (the project's modules only: no dependency, no plugin).
 */
export async function bundle(root, overrides = {}) {
  const result = await esbuild.build({
    ...browserOptions,
    stdin: { contents: ENTRY, resolveDir: root, sourcefile: 'bench-undo-docs.js', loader: 'js' },
    jsx: 'automatic',
    write: false,
    splitting: false,
    logLevel: 'error',
    plugins: [...browserOptions.plugins, packageEntries(), ...excalidrawPlugins()],
    ...overrides,
  });
  return result.outputFiles[0].contents;
}

export async function run({ root, demo, browser }) {
  const script = await bundle(root);
  const page = await browser.context.newPage();
  const base = `${demo.origin}/bench-undo-docs/`;
  await page.route(`${base}**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path.endsWith('/main.js')) return route.fulfill({ contentType: 'text/javascript', body: Buffer.from(script) });
    return route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><meta charset="utf-8"><link rel="stylesheet" href="/excalidraw/excalidraw.css"><title>bench</title><script type="module" src="./main.js"></script>',
    });
  });
  await page.goto(`${base}index.html`);
  await page.waitForFunction(() => typeof window.benchUndoDocs === 'function');
  const kinds = await page.evaluate((options) => window.benchUndoDocs(options), { rounds: ROUNDS, count: UNDOS });
  await page.close();
  const ms = (x) => `${x.toFixed(1)} ms`;
  const rows = [];
  for (const kind of kinds) {
    rows.push(
      { label: `${kind.what}: p50 with a step / without (n=${ROUNDS})`, value: `${ms(kind.withStep)} / ${ms(kind.without)}` },
      { label: '  ratio with / without, and the difference at p50', value: `${(kind.withStep / kind.without).toFixed(2)}x, ${ms(kind.withStep - kind.without)}` },
      { label: `  its undo, p50 / max (n=${UNDOS}); the step holds`, value: `${ms(kind.undo.p50)} / ${ms(kind.undo.max)}; ${(kind.undo.bytes / 1024).toFixed(0)} KB`, budget: '≤ 1000 ms', ok: kind.undo.max <= 1000 },
    );
  }
  return rows;
}
