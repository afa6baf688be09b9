// The Excalidraw page (issue 4), end to end: the built page from the demo server in Debian's Chromium,
// @excalidraw/excalidraw 0.18.1 under React 19, the switch turned on by a click, operations called
// through the polyfill's navigator.modelContextTesting like an agent's calls, confirmations answered
// by clicking, and a person drawing with the mouse and keyboard.
// Build first: node esbuild.config.mjs excalidraw
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, launchBrowser, clickSwitch, waitFor, callInPage as call, logRows, showLog, leaveAndComeBack } from './harness.mjs';

const TOOL_NAMES = ['excalidraw_add_elements', 'excalidraw_clear', 'excalidraw_read', 'excalidraw_update_element'];
const FIELDS = ['backgroundColor', 'height', 'id', 'strokeColor', 'text', 'type', 'width', 'x', 'y'];
const ARROW_FIELDS = [...FIELDS, 'from', 'to'].sort();

let demo, browser, page;
const requests = [];
const pageErrors = [];


/** The page's saved record of a drawing, read from IndexedDB like the page does. */
const saved = (target, id) =>
  target.evaluate(
    (docId) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('ai-ops-excalidraw');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('drawings').objectStore('drawings').get(docId);
          get.onsuccess = () => {
            resolve(get.result);
            open.result.close();
          };
          get.onerror = () => reject(get.error);
        };
      }),
    id,
  );

const byId = (elements) => new Map(elements.map((element) => [element.id, element]));

/** Turns the switch on by a click and waits until the page's operations are registered. */
async function switchOn(target) {
  await target.locator('ai-ops-switch[tool="excalidraw"] input[role="switch"]').waitFor();
  await clickSwitch(target, 'excalidraw');
  await waitForTools(target);
}

async function waitForTools(target) {
  await waitFor(
    () => target.evaluate(async (names) => {
      try {
        const listed = (await navigator.modelContextTesting.listTools()).map((tool) => tool.name);
        return names.every((name) => listed.includes(name));
      } catch {
        return false;
      }
    }, TOOL_NAMES),
    15_000,
    'the excalidraw operations to be registered',
  );
}

/** Calls excalidraw_read until the drawing is open (the page answers not_ready while Excalidraw loads). */
async function readWhenReady(target) {
  return waitFor(async () => {
    const result = await call(target, 'excalidraw_read', {});
    return result.ok ? result : null;
  }, 15_000, 'excalidraw_read to succeed');
}

/** The interactive canvas (Excalidraw draws the scene on one canvas and takes pointer input on another). */
const canvasBox = async () => page.locator('canvas.excalidraw__canvas.interactive').boundingBox();

/** Screen offset of scene coordinates (measured by the drawing test; the zoom stays at 100 %). */
let screenOffset = null;
const toScreen = ({ x, y }) => ({ x: x + screenOffset.x, y: y + screenOffset.y });

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
  page = await browser.context.newPage();
  browser.context.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${demo.origin}/excalidraw/`);
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

test('[SW-1] [SHAPE-6] [DOC-3] the page: title with the drawing name, the React-rendered switch at the header\'s right end, the log in the footer', async () => {
  await waitFor(async () => (await page.title()) === 'ようこそ — excalidraw — ai-ops', 15_000, 'the title');
  const header = page.locator('header.page-header');
  assert.equal(await header.locator('.doc-name').textContent(), 'ようこそ');
  // The wrapper from elements/react.ts rendered the element, last in the header (SW-1).
  assert.equal(await header.evaluate((h) => h.lastElementChild?.localName), 'ai-ops-switch');
  assert.equal(await page.locator('ai-ops-switch[tool="excalidraw"]').getAttribute('tool'), 'excalidraw');
  await page.getByRole('switch', { name: 'AI からの操作' }).waitFor();
  assert.equal(await page.locator('footer.page-footer ai-ops-log[tool="excalidraw"]').count(), 1);
  assert.equal(await page.locator('ai-ops-confirm').count(), 1);
  await page.locator('canvas.excalidraw__canvas.interactive').waitFor();
  assert.equal(await page.evaluate(() => 'modelContextTesting' in navigator), false, 'nothing loaded while the switch is off');
});

test('[SW-2] switch on by a click: the four excalidraw operations are registered', async () => {
  await switchOn(page);
  const names = await page.evaluate(async () => (await navigator.modelContextTesting.listTools()).map((tool) => tool.name));
  assert.deepEqual(names.filter((name) => name.startsWith('excalidraw_')).sort(), TOOL_NAMES);
});

test('[EXC-1] [DOC-2] excalidraw_read: document and elements with exactly the EXC-1 fields; the sample arrow joins its shapes', async () => {
  const result = await readWhenReady(page);
  assert.deepEqual(Object.keys(result).sort(), ['document', 'elements', 'isError', 'ok']);
  assert.deepEqual(result.document, { id: 'welcome', name: 'ようこそ' });
  const elements = byId(result.elements);
  assert.deepEqual([...elements.keys()], ['welcome-box', 'welcome-ellipse', 'welcome-arrow']);
  for (const element of result.elements) {
    assert.deepEqual(Object.keys(element).sort(), element.type === 'arrow' ? ARROW_FIELDS : FIELDS, element.id);
    for (const key of ['x', 'y', 'width', 'height']) assert.equal(typeof element[key], 'number');
  }
  assert.deepEqual(elements.get('welcome-box'), {
    id: 'welcome-box', type: 'rectangle', x: 100, y: 140, width: 220, height: 90,
    text: 'AI のエージェント', strokeColor: '#1e1e1e', backgroundColor: 'transparent',
  });
  assert.equal(elements.get('welcome-ellipse').text, 'この図');
  const arrow = elements.get('welcome-arrow');
  assert.equal(arrow.from, 'welcome-box');
  assert.equal(arrow.to, 'welcome-ellipse');
  assert.equal(arrow.text, null);
  // Its ends sit just outside the rectangle's right side and the ellipse's left side.
  assert.ok(arrow.x > 320 && arrow.x < 340, `arrow starts at ${arrow.x}`);
  assert.ok(arrow.x + arrow.width > 460 && arrow.x + arrow.width < 480, `arrow ends at ${arrow.x + arrow.width}`);
});

test('a person can draw: "r" and a drag on the canvas make a rectangle that excalidraw_read lists', async () => {
  const box = await canvasBox();
  const before = (await call(page, 'excalidraw_read', {})).elements.length;
  // An empty spot right of the sample, clear of the style panel that opens on the left with the tool;
  // a click first gives Excalidraw the keyboard.
  const start = { x: box.x + box.width - 300, y: box.y + box.height - 200 };
  await page.mouse.click(start.x, start.y);
  await page.keyboard.press('r');
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 80, start.y + 40, { steps: 4 });
  await page.mouse.move(start.x + 120, start.y + 70, { steps: 4 });
  await page.mouse.up();
  const after = await waitFor(async () => {
    const result = await call(page, 'excalidraw_read', {});
    return result.elements.length === before + 1 && result;
  }, 5000, 'the drawn rectangle');
  const drawn = after.elements.at(-1);
  assert.equal(drawn.type, 'rectangle');
  assert.ok(Math.abs(drawn.width - 120) <= 2 && Math.abs(drawn.height - 70) <= 2, `${drawn.width}×${drawn.height}`);
  assert.equal(drawn.text, null);
  screenOffset = { x: start.x - drawn.x, y: start.y - drawn.y };
});

test('[EXC-2] excalidraw_add_elements: two shapes and an arrow joining them in one call are bound both ways in Excalidraw\'s scene', async () => {
  const result = await call(page, 'excalidraw_add_elements', {
    elements: [
      { type: 'arrow', id: 'a-to-b', x: 0, y: 0, from: 'shape-a', to: 'shape-b', text: 'uses' },
      { type: 'rectangle', id: 'shape-a', x: 100, y: 320, width: 140, height: 70, text: 'A' },
      { type: 'ellipse', id: 'shape-b', x: 420, y: 310, width: 140, height: 90, text: 'B' },
      { type: 'text', x: 620, y: 330, text: 'note' },
    ],
  });
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.deepEqual(Object.keys(result).sort(), ['ids', 'isError', 'ok']);
  assert.equal(result.ids.length, 4);
  assert.deepEqual(result.ids.slice(0, 3), ['a-to-b', 'shape-a', 'shape-b']);
  const textId = result.ids[3];
  assert.match(textId, /^[\w-]{10,}$/);

  const read = byId((await call(page, 'excalidraw_read', {})).elements);
  const arrow = read.get('a-to-b');
  assert.equal(arrow.from, 'shape-a');
  assert.equal(arrow.to, 'shape-b');
  assert.equal(arrow.text, 'uses');
  assert.equal(read.get('shape-a').text, 'A');
  assert.deepEqual([read.get('shape-a').x, read.get('shape-a').y, read.get('shape-a').width, read.get('shape-a').height], [100, 320, 140, 70]);
  assert.equal(read.get('shape-b').type, 'ellipse');
  assert.equal(read.get(textId).type, 'text');
  assert.equal(read.get(textId).text, 'note');
  // The arrow runs from A's right side to B's left side, not from (0, 0).
  assert.ok(arrow.x > 240 && arrow.x < 255, `arrow starts at x ${arrow.x}`);
  assert.ok(arrow.x + arrow.width > 405 && arrow.x + arrow.width < 420, `arrow ends at x ${arrow.x + arrow.width}`);

  // Excalidraw's own elements, as the page saved them: bindings on the arrow and on both shapes.
  const scene = await waitFor(async () => {
    const record = await saved(page, 'welcome');
    return record?.elements.some((element) => element.id === textId) && byId(record.elements);
  }, 5000, 'the saved drawing');
  const savedArrow = scene.get('a-to-b');
  assert.equal(savedArrow.startBinding.elementId, 'shape-a');
  assert.equal(savedArrow.endBinding.elementId, 'shape-b');
  assert.equal(savedArrow.points.length, 2);
  for (const shape of ['shape-a', 'shape-b']) {
    const bound = scene.get(shape).boundElements;
    assert.ok(bound.some((b) => b.id === 'a-to-b' && b.type === 'arrow'), `${shape} lists the arrow: ${JSON.stringify(bound)}`);
    const label = bound.find((b) => b.type === 'text');
    assert.equal(scene.get(label.id).containerId, shape, `${shape}'s label is bound to it`);
  }
  const arrowLabel = scene.get(savedArrow.boundElements.find((b) => b.type === 'text').id);
  assert.equal(arrowLabel.containerId, 'a-to-b');
});

test('[EXC-2] Excalidraw itself treats the arrow as bound: dragging shape A with the mouse drags the arrow\'s start along', async () => {
  assert.ok(screenOffset, 'the drawing test measured the screen offset');
  const before = byId((await call(page, 'excalidraw_read', {})).elements);
  const a = before.get('shape-a');
  // Grab A by its label, in the middle (a transparent shape is hit on its outline and label only).
  const grab = toScreen({ x: a.x + a.width / 2, y: a.y + a.height / 2 });
  await page.mouse.move(grab.x, grab.y);
  await page.mouse.down();
  await page.mouse.move(grab.x, grab.y + 30, { steps: 5 });
  await page.mouse.move(grab.x, grab.y + 60, { steps: 5 });
  await page.mouse.up();
  const after = await waitFor(async () => {
    const elements = byId((await call(page, 'excalidraw_read', {})).elements);
    return Math.abs(elements.get('shape-a').y - (a.y + 60)) <= 1 && elements;
  }, 5000, 'shape A to move');
  const arrowBefore = before.get('a-to-b');
  const arrowAfter = after.get('a-to-b');
  assert.equal(arrowAfter.from, 'shape-a');
  assert.equal(arrowAfter.to, 'shape-b');
  assert.ok(arrowAfter.y > arrowBefore.y + 20, `the start followed A down: y ${arrowBefore.y} → ${arrowAfter.y}`);
  await page.keyboard.press('Escape');
});

test('[EXC-2] [IN-2] [RES-3] refusals: an id clash → invalid_input, a missing from/to → not_found, 201 elements → too_large; nothing added', async () => {
  const count = async () => (await call(page, 'excalidraw_read', {})).elements.length;
  const before = await count();
  const clashScene = await call(page, 'excalidraw_add_elements', { elements: [{ type: 'rectangle', id: 'shape-a', x: 0, y: 0 }] });
  assert.equal(clashScene.isError, true);
  assert.equal(clashScene.error.code, 'invalid_input');
  const clashCall = await call(page, 'excalidraw_add_elements', {
    elements: [{ type: 'rectangle', id: 'twice', x: 0, y: 0 }, { type: 'ellipse', id: 'twice', x: 50, y: 0 }],
  });
  assert.equal(clashCall.error.code, 'invalid_input');
  const missingFrom = await call(page, 'excalidraw_add_elements', { elements: [{ type: 'arrow', x: 0, y: 0, from: 'nowhere', to: 'shape-b' }] });
  assert.equal(missingFrom.error.code, 'not_found');
  const missingTo = await call(page, 'excalidraw_add_elements', {
    elements: [{ type: 'rectangle', id: 'c', x: 0, y: 0 }, { type: 'arrow', x: 0, y: 0, from: 'c', to: 'nowhere' }],
  });
  assert.equal(missingTo.error.code, 'not_found');
  const many = Array.from({ length: 201 }, (_, i) => ({ type: 'rectangle', x: i * 10, y: 0 }));
  const tooMany = await call(page, 'excalidraw_add_elements', { elements: many });
  assert.equal(tooMany.error.code, 'too_large');
  const unknownField = await call(page, 'excalidraw_add_elements', { elements: [{ type: 'rectangle', x: 0, y: 0, colour: 'red' }] });
  assert.equal(unknownField.error.code, 'invalid_input');
  assert.equal(await count(), before);
});

test('[EXC-3] excalidraw_update_element: unknown id → not_found; a known id moves, its label and its arrow follow', async () => {
  const missing = await call(page, 'excalidraw_update_element', { id: 'no-such-element', x: 1 });
  assert.equal(missing.isError, true);
  assert.equal(missing.error.code, 'not_found');

  const before = byId((await call(page, 'excalidraw_read', {})).elements);
  const b = before.get('shape-b');
  const result = await call(page, 'excalidraw_update_element', { id: 'shape-b', x: b.x + 100, y: b.y + 40, backgroundColor: '#a5d8ff', strokeColor: '#1971c2' });
  assert.deepEqual(result, { isError: false, ok: true, id: 'shape-b' });
  const after = byId((await call(page, 'excalidraw_read', {})).elements);
  const moved = after.get('shape-b');
  assert.deepEqual([moved.x, moved.y, moved.width, moved.height], [b.x + 100, b.y + 40, b.width, b.height]);
  assert.equal(moved.backgroundColor, '#a5d8ff');
  assert.equal(moved.strokeColor, '#1971c2');
  assert.equal(moved.text, 'B');
  const arrow = after.get('a-to-b');
  assert.equal(arrow.to, 'shape-b');
  const end = arrow.x + arrow.width;
  assert.ok(end > moved.x - 15 && end < moved.x + 5, `the arrow's end (${end}) is at B's left side (${moved.x})`);

  const scene = await waitFor(async () => {
    const elements = byId((await saved(page, 'welcome')).elements);
    return elements.get('shape-b').x === moved.x && elements;
  }, 5000, 'the saved move');
  const label = scene.get(scene.get('shape-b').boundElements.find((bound) => bound.type === 'text').id);
  assert.ok(label.x > moved.x && label.x + label.width < moved.x + moved.width, 'the label moved with B');
  assert.ok(label.y > moved.y && label.y + label.height < moved.y + moved.height, 'the label moved with B');
  assert.equal(label.strokeColor, '#1971c2');
});

let clearedCount = 0;

test('[EXC-4] [CONF-1] [CONF-2] excalidraw_clear asks first (title, 削除する, the count, 「元に戻す」) and, confirmed by a click, deletes everything', async () => {
  const listed = (await call(page, 'excalidraw_read', {})).elements.length;
  assert.ok(listed >= 7, `${listed} elements before clearing`);
  const pending = call(page, 'excalidraw_clear', {});
  const dialog = page.locator('ai-ops-confirm dialog');
  await dialog.getByRole('heading', { name: '図「ようこそ」の全ての要素を削除する' }).waitFor();
  const body = await dialog.locator('.body').textContent();
  assert.match(body, /excalidraw_clear/);
  assert.match(body, new RegExp(`${listed} 個の要素`));
  assert.match(body, /「元に戻す」で戻せます/);
  assert.doesNotMatch(body, /元に戻せません/);
  await page.locator('ai-ops-confirm').getByRole('button', { name: '削除する' }).click();
  const result = await pending;
  assert.deepEqual(result, { isError: false, ok: true, count: listed });
  assert.deepEqual((await call(page, 'excalidraw_read', {})).elements, []);
  clearedCount = listed;
});

test('[CONF-2] Ctrl+Z after excalidraw_clear: Excalidraw\'s own undo brings every element back (the page reports it undoable)', async () => {
  assert.ok(clearedCount > 0);
  const box = await canvasBox();
  // A click on the empty canvas gives Excalidraw the keyboard (the dialog had it).
  await page.mouse.click(box.x + box.width - 150, box.y + 150);
  await page.keyboard.press('Control+z');
  const back = await waitFor(async () => {
    const result = await call(page, 'excalidraw_read', {});
    return result.elements.length === clearedCount && result;
  }, 5000, 'the elements to come back');
  const elements = byId(back.elements);
  assert.equal(elements.get('a-to-b').from, 'shape-a');
  assert.equal(elements.get('a-to-b').to, 'shape-b');
  assert.equal(elements.get('shape-a').text, 'A');
});

test('[DOC-1] [DOC-2] [DOC-3] a second tab with ?doc=other: its own drawing, document and title', async () => {
  const other = await browser.context.newPage();
  try {
    await other.goto(`${demo.origin}/excalidraw/?doc=other`);
    // The switch is on for the tool (same profile), so the operations register at load.
    await waitForTools(other);
    const read = await readWhenReady(other);
    assert.deepEqual(read.document, { id: 'other', name: 'other' });
    assert.deepEqual(read.elements, []);
    assert.equal(await other.title(), 'other — excalidraw — ai-ops');
    const added = await call(other, 'excalidraw_add_elements', { elements: [{ type: 'diamond', id: 'only-here', x: 0, y: 0 }] });
    assert.equal(added.ok, true);
    const first = await call(page, 'excalidraw_read', {});
    assert.equal(first.document.id, 'welcome');
    assert.ok(!first.elements.some((element) => element.id === 'only-here'));
  } finally {
    await other.close();
  }
});

test('[DOC-1] while the drawing is still loading the operations answer not_ready, then work', async () => {
  const slow = await browser.context.newPage();
  try {
    // Hold the page's IndexedDB open until released, so the drawing stays "loading" meanwhile.
    await slow.addInitScript(() => {
      const realOpen = IDBFactory.prototype.open;
      let release;
      const gate = new Promise((resolve) => (release = resolve));
      window.__releaseIndexedDb = release;
      IDBFactory.prototype.open = function (...args) {
        // ai-ops's own consent store opens as usual (UV-8): the switch is not the drawing.
        if (args[0] === 'ai-ops-consent') return realOpen.apply(this, args);
        const factory = this;
        const request = { result: undefined, error: null, onsuccess: null, onerror: null, onupgradeneeded: null };
        gate.then(() => {
          const real = realOpen.apply(factory, args);
          for (const type of ['success', 'error', 'upgradeneeded']) {
            real[`on${type}`] = (event) => {
              request.result = real.readyState === 'done' || type === 'upgradeneeded' ? real.result : undefined;
              request.error = real.error;
              request[`on${type}`]?.(event);
            };
          }
        });
        return request;
      };
    });
    await slow.goto(`${demo.origin}/excalidraw/?doc=slow`);
    await waitForTools(slow);
    for (const [name, args] of [['excalidraw_read', {}], ['excalidraw_add_elements', { elements: [{ type: 'rectangle', x: 0, y: 0 }] }], ['excalidraw_update_element', { id: 'x' }], ['excalidraw_clear', {}]]) {
      const result = await call(slow, name, args);
      assert.equal(result.error?.code, 'not_ready', `${name}: ${JSON.stringify(result)}`);
    }
    await slow.evaluate(() => window.__releaseIndexedDb());
    const read = await readWhenReady(slow);
    assert.deepEqual(read.document, { id: 'slow', name: 'slow' });
  } finally {
    await slow.close();
  }
});

test('the drawing survives a reload (saved in IndexedDB)', async () => {
  const before = (await call(page, 'excalidraw_read', {})).elements;
  await waitFor(async () => (await saved(page, 'welcome')).elements.length === before.length + before.filter((e) => e.text !== null && e.type !== 'text').length, 5000, 'the save');
  await page.reload();
  await waitForTools(page);
  const after = await readWhenReady(page);
  assert.deepEqual(after.elements, before);
});

test('[APP-1] leaving the page by the app\'s home link and coming back (back button): the drawing (a change made just before leaving included) and the log rows are still there', async () => {
  await showLog(page, 'excalidraw');
  const added = await call(page, 'excalidraw_add_elements', { elements: [{ type: 'diamond', id: 'before-leaving', x: 700, y: 500 }] });
  assert.equal(added.ok, true);
  const before = (await call(page, 'excalidraw_read', {})).elements;
  const rows = await logRows(page, 'excalidraw').count();
  assert.ok(rows > 0);
  // Straight away, before the debounced save: unmounting the canvas saves the scene.
  await leaveAndComeBack(page, 'excalidraw');
  await page.locator('canvas.excalidraw__canvas.interactive').waitFor();
  await waitForTools(page);
  const after = await readWhenReady(page);
  assert.deepEqual(after.elements, before);
  assert.equal(await page.title(), 'ようこそ — excalidraw — ai-ops');
  await showLog(page, 'excalidraw');
  assert.ok((await logRows(page, 'excalidraw').count()) >= rows + 1, 'the rows logged before leaving are still shown');
});

test('[DOC-3] [APP-5] the shared document bar: 新しい図 opens a new drawing within the app, renaming shows in the title and to the agent, 開く goes back', async () => {
  const marker = await page.evaluate(() => (window.__sameDocument = Math.random()));
  const welcome = (await call(page, 'excalidraw_read', {})).elements;
  await page.getByRole('button', { name: '新しい図' }).click();
  await waitFor(async () => /^\?doc=drawing-[\w-]+$/.test(await page.evaluate(() => location.search)), 5000, 'the new drawing\'s ?doc=');
  const id = (await page.evaluate(() => location.search)).slice('?doc='.length);
  await waitFor(async () => (await page.title()) === '新しい図 — excalidraw — ai-ops', 5000, 'the new drawing\'s title');
  const fresh = await readWhenReady(page);
  assert.deepEqual(fresh.document, { id, name: '新しい図' });
  assert.deepEqual(fresh.elements, []);

  const name = page.getByLabel('名前');
  await name.fill('設計メモ');
  await name.press('Enter');
  await waitFor(async () => (await page.title()) === '設計メモ — excalidraw — ai-ops', 5000, 'the renamed title');
  assert.equal(await page.locator('header.page-header .doc-name').textContent(), '設計メモ');
  assert.deepEqual((await call(page, 'excalidraw_read', {})).document, { id, name: '設計メモ' });
  await waitFor(async () => (await saved(page, id))?.name === '設計メモ', 5000, 'the saved name');

  const open = page.getByLabel('開く');
  await waitFor(async () => (await open.locator('option').allTextContents()).includes('ようこそ'), 5000, 'ようこそ in 開く');
  await open.selectOption('welcome');
  await waitFor(async () => (await page.title()) === 'ようこそ — excalidraw — ai-ops', 5000, 'back to ようこそ');
  const back = await readWhenReady(page);
  assert.deepEqual(back.elements, welcome);
  assert.equal(await page.evaluate(() => window.__sameDocument), marker, 'all within one document');
});

test('every request went to the page\'s own origin (http://localhost; Excalidraw\'s fonts are served by the page) or loopback on 127.0.0.1, and no page error was thrown', async () => {
  assert.ok(requests.length > 10);
  const elsewhere = requests.filter((url) => !url.startsWith(`${demo.origin}/`) && !/^(https?|wss?):\/\/127\.0\.0\.1:\d+\//.test(url) && !url.startsWith('data:') && !url.startsWith('blob:'));
  assert.deepEqual(elsewhere, []);
  assert.ok(requests.some((url) => /\/excalidraw\/fonts\/Excalifont\/.+\.woff2$/.test(url)), 'Excalifont came from the page');
  assert.deepEqual(pageErrors, []);
});
