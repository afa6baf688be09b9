// Editing a diagram on the /drawio/ page's maxGraph canvas with a real mouse (Playwright's
// page.mouse, the events Chromium gives a person's pointer): each edit must reach the original XML,
// drawio_read, the editor and IndexedDB; an agent's write must show on the canvas at once. Build
// first: `node esbuild.config.mjs drawio`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, launchBrowser, waitFor, clickSwitch, callInPage as call } from './harness.mjs';
import { editorIsDisabled, editorText as textOf } from './editor.mjs';

let demo, browser, page;

const editor = (target) => target.getByRole('textbox', { name: 'draw.io の XML', exact: true });
const editorText = (target) => textOf(editor(target));
const cellCount = (target) => target.locator('#preview').getAttribute('data-cell-count');

async function operationsListed(target) {
  await waitFor(() => target.evaluate(() => navigator.modelContextTesting?.listTools().filter((t) => t.name.startsWith('drawio_')).length === 3), 15_000, 'the drawio operations to be listed');
}

async function loaded(target) {
  await waitFor(async () => (await editor(target).count()) === 1 && !(await editorIsDisabled(editor(target))) && (await editorText(target)).length > 0, 10_000, 'the diagram to load');
  await waitFor(async () => (await cellCount(target)) !== null, 10_000, 'the canvas to draw');
}

/** The cells of `xml` by id, read with the browser's XML parser: attributes, the label and the geometry's attributes. */
function cellsOf(xml) {
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    const out = {};
    for (const element of doc.querySelectorAll('mxCell, object, UserObject')) {
      const id = element.getAttribute('id');
      if (id === null) continue;
      const cell = element.localName === 'mxCell' ? element : element.querySelector('mxCell');
      const geometry = cell?.querySelector('mxGeometry');
      const attrs = Object.fromEntries([...cell.attributes].map((a) => [a.name, a.value]));
      out[id] = {
        attrs,
        label: element.localName === 'mxCell' ? element.getAttribute('value') : element.getAttribute('label'),
        geometry: geometry ? Object.fromEntries([...geometry.attributes].map((a) => [a.name, a.value])) : null,
      };
    }
    return out;
  }, xml);
}

const readCells = async () => cellsOf((await call(page, 'drawio_read', {})).xml);

/**
 * Where maxGraph drew the vertex labelled `label`, in page pixels: the smallest shape (rect,
 * ellipse or path) of the draw pane under the label's centre that is larger than the label.
 */
function cellBox(label) {
  return page.evaluate((text) => {
    const labels = [...document.querySelectorAll('#preview svg foreignObject div, #preview svg text')].filter((e) => e.textContent === text && e.children.length === 0);
    if (labels.length === 0) throw new Error(`no label ${text}`);
    const l = labels[0].getBoundingClientRect();
    const cx = l.x + l.width / 2;
    const cy = l.y + l.height / 2;
    const shapes = [...document.querySelectorAll('#preview svg > g > g:nth-child(2) :is(rect, ellipse, path)')]
      .map((s) => s.getBoundingClientRect())
      .filter((r) => r.width > l.width + 4 && r.height > l.height && r.x <= cx && cx <= r.x + r.width && r.y <= cy && cy <= r.y + r.height)
      .sort((a, b) => a.width * a.height - b.width * b.height);
    if (shapes.length === 0) throw new Error(`no shape under ${text}`);
    const { x, y, width, height } = shapes[0];
    return { x, y, width, height };
  }, label);
}

/** Presses at `from`, moves in steps and lets go at `to`: a person's drag. */
async function drag(from, to) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
}

/** Writes `xml` as the agent would (drawio_write, confirmed) and waits until it is drawn. */
async function agentWrites(xml) {
  const pending = call(page, 'drawio_write', { xml });
  await page.locator('ai-ops-confirm').getByRole('button', { name: '置き換える' }).click();
  assert.deepEqual(await pending, { isError: false, ok: true });
}

const box = (id, value, x, y, style = 'rounded=0;whiteSpace=wrap;html=1;') =>
  `<mxCell id="${id}" value="${value}" style="${style}" vertex="1" parent="1"><mxGeometry x="${x}" y="${y}" width="120" height="60" as="geometry"/></mxCell>`;
const model = (cells) => `<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>${cells}</root></mxGraphModel>`;

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`${demo.origin}/drawio/`);
  await page.locator('ai-ops-switch[tool="drawio"] input[role="switch"]').waitFor();
  await loaded(page);
  await clickSwitch(page, 'drawio');
  await operationsListed(page);
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

test('[DRW-1] a real mouse drag of a cell changes its mxGeometry x/y in drawio_read, in the editor and in storage after a reload', async () => {
  const before = (await readCells()).idea.geometry;
  assert.deepEqual([before.x, before.y], ['40', '60']);
  const shape = await cellBox('アイデア');
  // Off the centre, where the connection handle sits.
  const from = { x: shape.x + 20, y: shape.y + shape.height / 2 };
  await drag(from, { x: from.x + 100, y: from.y + 80 });
  await waitFor(async () => (await readCells()).idea.geometry.x !== '40', 5000, 'the moved geometry in drawio_read');
  const moved = (await readCells()).idea.geometry;
  assert.ok(Number(moved.x) >= 120 && Number(moved.x) <= 160, `x moved by about 100 (${moved.x})`);
  assert.ok(Number(moved.y) >= 120 && Number(moved.y) <= 160, `y moved by about 80 (${moved.y})`);
  assert.deepEqual([moved.width, moved.height], ['140', '60'], 'the size stays');
  const read = await call(page, 'drawio_read', {});
  assert.equal(await editorText(page), read.xml, 'the editor shows the moved cell');

  await page.reload();
  await loaded(page);
  await operationsListed(page);
  assert.deepEqual((await readCells()).idea.geometry, moved, 'the move was saved');
});

test('[CONF-2] [FIRST-7] the page\'s own 「直前の変更を取り消す」 undoes a canvas edit', async () => {
  const shape = await cellBox('アイデア');
  const from = { x: shape.x + 20, y: shape.y + 10 };
  const was = (await readCells()).idea.geometry;
  await drag(from, { x: from.x + 60, y: from.y });
  await waitFor(async () => (await readCells()).idea.geometry.x !== was.x, 5000, 'the move');
  await page.getByRole('button', { name: '直前の変更を取り消す' }).click();
  await waitFor(async () => (await readCells()).idea.geometry.x === was.x, 5000, 'the move undone');
  assert.deepEqual((await readCells()).idea.geometry, was);
  const after = await cellBox('アイデア');
  assert.ok(Math.abs(after.x - shape.x) < 2, 'the canvas shows the cell where it was');
});

test('[DRW-1] resizing a cell by its corner handle changes its width and height in drawio_read', async () => {
  const shape = await cellBox('アイデア');
  // A click selects it: its handles appear on the corners.
  await page.mouse.click(shape.x + 20, shape.y + 10);
  const corner = { x: shape.x + shape.width, y: shape.y + shape.height };
  await drag(corner, { x: corner.x + 60, y: corner.y + 40 });
  await waitFor(async () => (await readCells()).idea.geometry.width !== '140', 5000, 'the new size in drawio_read');
  const { geometry } = (await readCells()).idea;
  assert.ok(Number(geometry.width) >= 190 && Number(geometry.width) <= 210, `width grew by about 60 (${geometry.width})`);
  assert.ok(Number(geometry.height) >= 90 && Number(geometry.height) <= 110, `height grew by about 40 (${geometry.height})`);
  await page.mouse.click(5, 5);
});

test('[DRW-1] dragging from a cell\'s connection handle to another cell adds an edge with source and target', async () => {
  const added = await call(page, 'drawio_add_cells', { cells: box('third', '三つ目', 600, 300) });
  assert.equal(added.ok, true);
  await waitFor(async () => (await cellCount(page)) === '4', 5000, 'the third box drawn');
  const edgesBefore = Object.values(await readCells()).filter((c) => c.attrs.edge === '1').length;
  const from = await cellBox('図');
  const to = await cellBox('三つ目');
  const centre = (b) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
  // Hovering shows the handle in the cell's centre; the drag starts on it.
  await page.mouse.move(centre(from).x - 30, centre(from).y);
  await page.mouse.move(centre(from).x, centre(from).y, { steps: 4 });
  await drag(centre(from), centre(to));
  await waitFor(async () => Object.values(await readCells()).filter((c) => c.attrs.edge === '1').length === edgesBefore + 1, 5000, 'a new edge in drawio_read');
  const edge = Object.entries(await readCells()).find(([id, c]) => c.attrs.edge === '1' && id !== 'arrow');
  assert.equal(edge[1].attrs.source, 'diagram');
  assert.equal(edge[1].attrs.target, 'third');
  assert.equal(edge[1].attrs.parent, '1');
  assert.equal(edge[1].geometry.relative, '1');
  assert.equal(await cellCount(page), '5');
});

test('[DRW-1] a label edited on the canvas (double-click, type, Enter) reaches drawio_read', async () => {
  const shape = await cellBox('三つ目');
  await page.mouse.dblclick(shape.x + 20, shape.y + 15);
  const inPlace = page.locator('#preview [contenteditable="true"]');
  await inPlace.waitFor();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('名前を変えた');
  await page.keyboard.press('Enter');
  await waitFor(async () => (await readCells()).third.label === '名前を変えた', 5000, 'the new label in drawio_read');
  assert.match(await page.locator('#preview').textContent(), /名前を変えた/);
});

test('[APP-4] an agent\'s drawio_write shows on the canvas at once; an added cell leaves the view where the person had it', async () => {
  const where = await cellBox('アイデア');
  const { x, y } = (await readCells()).idea.geometry;
  await agentWrites(model(box('idea', 'アイデア', x, y) + box('agent', 'エージェントの箱', 900, 600)));
  // At once: when the agent has its answer the canvas shows the new diagram.
  assert.equal(await cellCount(page), '2');
  assert.match(await page.locator('#preview').textContent(), /エージェントの箱/);
  const now = await cellBox('アイデア');
  assert.ok(Math.abs(now.x - where.x) < 2 && Math.abs(now.y - where.y) < 2, `a cell the agent left in place stays where it was on screen (${JSON.stringify([where, now, x, y])})`);
});

test('[SHAPE-7] [DRW-1] what the canvas leaves out (an image URL of another origin, a wrapper\'s link) survives a move unchanged in the XML', async () => {
  const xml = `<mxfile><diagram id="p" name="p"><mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>${box('pic', '画像つき', 40, 40, 'rounded=0;image=https://example.com/a.png;')}<UserObject id="wrapped" label="包んだ箱" link="https://example.com/x" tooltip="説明"><mxCell style="rounded=1;" vertex="1" parent="1"><mxGeometry x="300" y="40" width="120" height="60" as="geometry"/></mxCell></UserObject></root></mxGraphModel></diagram></mxfile>`;
  await agentWrites(xml);
  await waitFor(async () => (await cellCount(page)) === '2', 5000, 'the diagram drawn');
  const shape = await cellBox('画像つき');
  await drag({ x: shape.x + 15, y: shape.y + 15 }, { x: shape.x + 95, y: shape.y + 15 });
  await waitFor(async () => (await readCells()).pic.geometry.x !== '40', 5000, 'the move in drawio_read');
  const cells = await readCells();
  assert.equal(cells.pic.attrs.style, 'rounded=0;image=https://example.com/a.png;', 'the image URL the canvas never saw is still there');
  assert.equal(cells.wrapped.label, '包んだ箱');

  // The wrapper's label is edited on its `label`, and its other attributes stay.
  const wrapped = await cellBox('包んだ箱');
  await page.mouse.dblclick(wrapped.x + 15, wrapped.y + 15);
  await page.locator('#preview [contenteditable="true"]').waitFor();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('包みの新しい名前');
  // Clicking away (here: into the XML editor) keeps the new label.
  await editor(page).click();
  await waitFor(async () => (await readCells()).wrapped.label === '包みの新しい名前', 5000, 'the wrapper\'s label');
  const { xml: after } = await call(page, 'drawio_read', {});
  assert.match(after, /<UserObject id="wrapped" label="包みの新しい名前" link="https:\/\/example.com\/x" tooltip="説明">/);
  assert.match(after, /image=https:\/\/example.com\/a.png;/);
});

test('[DRW-1] a selected cell removed by Delete on the canvas is gone from drawio_read, with its edge', async () => {
  await agentWrites(model(`${box('a', '消す箱', 40, 40)}${box('b', '残る箱', 300, 40)}<mxCell id="ab" edge="1" parent="1" source="a" target="b"><mxGeometry relative="1" as="geometry"/></mxCell>`));
  await waitFor(async () => (await cellCount(page)) === '3', 5000, 'the diagram drawn');
  const shape = await cellBox('消す箱');
  await page.mouse.click(shape.x + 15, shape.y + 15);
  await page.keyboard.press('Delete');
  await waitFor(async () => !('a' in (await readCells())), 5000, 'the cell gone from drawio_read');
  const cells = await readCells();
  assert.equal('ab' in cells, false, 'its edge went with it');
  assert.equal(cells.b.label, '残る箱');
  assert.equal(await cellCount(page), '1');
});

test('[DRW-2] a cell of a compressed diagram moved on the canvas: the page is written back uncompressed with the new geometry', async () => {
  const inner = model(box('packed', '圧縮の箱', 40, 40));
  const packed = await page.evaluate(async (xml) => {
    const stream = new Blob([new TextEncoder().encode(encodeURIComponent(xml))]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    return btoa(String.fromCharCode(...new Uint8Array(await new Response(stream).arrayBuffer())));
  }, inner);
  await agentWrites(`<mxfile host="app.diagrams.net"><diagram id="c1" name="ページ1">${packed}</diagram></mxfile>`);
  await waitFor(async () => (await cellCount(page)) === '1', 5000, 'the compressed diagram drawn');
  const shape = await cellBox('圧縮の箱');
  await drag({ x: shape.x + 15, y: shape.y + 15 }, { x: shape.x + 15, y: shape.y + 95 });
  await waitFor(async () => (await readCells()).packed?.geometry.y !== undefined && (await readCells()).packed.geometry.y !== '40', 5000, 'the move in drawio_read');
  const { xml } = await call(page, 'drawio_read', {});
  assert.match(xml, /^<mxfile host="app.diagrams.net"><diagram id="c1" name="ページ1"><mxGraphModel>/);
  assert.ok(!xml.includes(packed));
  assert.equal((await readCells()).packed.geometry.x, '40');
});
