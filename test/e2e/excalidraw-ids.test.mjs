// EXC-5 on the real Excalidraw page: an id an agent passes must not clash with any element of the
// scene, the bound text labels the operations fold into their shapes included. Build first:
// node esbuild.config.mjs excalidraw
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, launchBrowser, clickSwitch, waitFor, callInPage as call } from './harness.mjs';

let demo, browser, page;

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.goto(`${demo.origin}/excalidraw/`);
  await page.locator('ai-ops-switch[tool="excalidraw"] input[role="switch"]').waitFor();
  await clickSwitch(page, 'excalidraw');
  await waitFor(async () => (await call(page, 'excalidraw_read', {}).catch(() => ({ ok: false }))).ok, 20_000, 'excalidraw_read to succeed');
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

test('[EXC-5] an id that is a bound text label\'s is invalid_input, and the scene is unchanged', async () => {
  const made = await call(page, 'excalidraw_add_elements', { elements: [{ type: 'rectangle', id: 'labelled', x: 40, y: 400, width: 160, height: 60, text: 'ラベル' }] });
  assert.deepEqual(made.ids, ['labelled']);
  // Excalidraw keeps the label as an element of its own, bound to the shape; excalidraw_read folds it into `text`.
  const labelId = await waitFor(() => labelOf(page, 'labelled'), 5000, 'the saved label element');
  const before = await call(page, 'excalidraw_read', {});
  assert.ok(!before.elements.some((e) => e.id === labelId), 'the label is not listed as an element');
  const clash = await call(page, 'excalidraw_add_elements', { elements: [{ type: 'ellipse', id: labelId, x: 300, y: 400 }] });
  assert.equal(clash.isError, true);
  assert.equal(clash.error.code, 'invalid_input');
  assert.match(clash.error.message, new RegExp(labelId));
  const after = await call(page, 'excalidraw_read', {});
  assert.deepEqual(after.elements, before.elements);
  assert.equal((after.elements.find((e) => e.id === 'labelled') ?? {}).text, 'ラベル');
});

/** The id of the text element bound to `shapeId`, as the page saved the scene to IndexedDB. */
async function labelOf(target, shapeId) {
  return target.evaluate((id) => new Promise((resolve, reject) => {
    const open = indexedDB.open('ai-ops-excalidraw');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const get = open.result.transaction('drawings').objectStore('drawings').get('welcome');
      get.onsuccess = () => {
        open.result.close();
        const shape = get.result?.elements.find((e) => e.id === id);
        resolve(shape?.boundElements?.find((b) => b.type === 'text')?.id ?? null);
      };
      get.onerror = () => reject(get.error);
    };
  }), shapeId);
}
