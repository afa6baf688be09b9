// DRW-2 on the real draw.io page: a diagram saved the way draw.io saves it by default (each
// <diagram>'s model raw-deflated, URI-encoded and in base64) is rendered by the page and accepted by
// drawio_write; drawio_add_cells must work on it too. Build first: node esbuild.config.mjs drawio
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, launchBrowser, waitFor, clickSwitch, callInPage as call } from './harness.mjs';

let demo, browser, page;

const box = (id, value, x) =>
  `<mxCell id="${id}" value="${value}" vertex="1" parent="1"><mxGeometry x="${x}" y="40" width="120" height="50" as="geometry"/></mxCell>`;
const cellCount = () => page.locator('#preview').getAttribute('data-cell-count');

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.goto(`${demo.origin}/drawio/`);
  await page.locator('ai-ops-switch[tool="drawio"] input[role="switch"]').waitFor();
  await waitFor(async () => (await cellCount()) !== null, 15_000, 'the preview to draw');
  await clickSwitch(page, 'drawio');
  await waitFor(() => page.evaluate(() => navigator.modelContextTesting?.listTools().filter((t) => t.name.startsWith('drawio_')).length === 3), 15_000, 'the drawio operations');
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

test('[DRW-2] drawio_add_cells adds to a compressed diagram the page renders; the result is written uncompressed and rendered', async () => {
  const model = `<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>${box('packed', '圧縮の箱', 40)}</root></mxGraphModel>`;
  const packed = await page.evaluate(async (xml) => {
    const stream = new Blob([new TextEncoder().encode(encodeURIComponent(xml))]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    return btoa(String.fromCharCode(...new Uint8Array(await new Response(stream).arrayBuffer())));
  }, model);
  const file = `<mxfile host="app.diagrams.net"><diagram id="c1" name="ページ1">${packed}</diagram></mxfile>`;
  const writing = call(page, 'drawio_write', { xml: file });
  await page.locator('ai-ops-confirm').getByRole('button', { name: '置き換える' }).click();
  assert.deepEqual(await writing, { isError: false, ok: true });
  await waitFor(async () => (await cellCount()) === '1', 5000, 'the compressed diagram to be drawn');

  const added = await call(page, 'drawio_add_cells', { cells: box('added', '足した箱', 240) });
  assert.deepEqual(added, { isError: false, ok: true, count: 1 });
  await waitFor(async () => (await cellCount()) === '2', 5000, 'both cells to be drawn');
  const text = await page.locator('#preview').textContent();
  assert.match(text, /圧縮の箱/);
  assert.match(text, /足した箱/);
  const { xml } = await call(page, 'drawio_read', {});
  assert.match(xml, /<diagram id="c1" name="ページ1"><mxGraphModel>/);
  assert.match(xml, /<mxCell id="added" value="足した箱"/);
  assert.ok(!xml.includes(packed), 'written back uncompressed');
});
