// The /drawio/ page end to end: the demo server, Debian's Chromium driven by playwright-core, the
// real maxGraph (@maxgraph/core) preview bundled into the app's draw.io page (playground/drawio/), and the operations called
// the way an agent's calls arrive (navigator.modelContextTesting.executeTool, the path the relay
// widget uses). Confirmations are answered by real clicks. Build first: `node esbuild.config.mjs drawio`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, launchBrowser, waitFor, clickSwitch, isLoopback, callInPage as call, holdIndexedDb, logRows, showLog, leaveAndComeBack, axeViolations, requestSentinel } from './harness.mjs';
import { editorIsDisabled, editorText as textOf } from './editor.mjs';

let demo, browser, page;
/** Every request any page of the browser made. */
const requests = [];


/** Starts a call without waiting for it (for confirmations). */
const start = (target, name, args) => call(target, name, args);

/** The XML editor: CodeMirror's content element, named "draw.io の XML". */
const editor = (target) => target.getByRole('textbox', { name: 'draw.io の XML', exact: true });
/** The editor's text as a person sees it. */
const editorText = (target) => textOf(editor(target));

/** Replaces the editor's whole text like a person: select all, then type (paste-like insert). */
async function replaceText(target, text) {
  await editor(target).click();
  await target.keyboard.press('Control+a');
  await target.keyboard.insertText(text);
}
const confirmDialog = (target) => target.locator('ai-ops-confirm');
/**
 * What maxGraph drew: the children of its draw pane (the second layer of its SVG), one group per
 * shape and one per label.
 */
const drawn = (target) => target.locator('#preview svg > g > g:nth-child(2) > g');
const drawnCount = (target) => drawn(target).count();
const previewText = (target) => target.locator('#preview').textContent();

/** Waits until all three operations are registered (they are registered one after another). */
async function operationsListed(target) {
  await waitFor(() => target.evaluate(() => navigator.modelContextTesting?.listTools().filter((t) => t.name.startsWith('drawio_')).length === 3), 15_000, 'the drawio operations to be listed');
}

async function openPage(query = '', { hold = false } = {}) {
  const p = await browser.context.newPage();
  if (hold) await p.addInitScript(holdIndexedDb);
  await p.goto(`${demo.origin}/drawio/${query}`);
  await p.locator('ai-ops-switch[tool="drawio"] input[role="switch"]').waitFor();
  if (hold) {
    // The switch is on for the origin: the operations register at once, before the diagram is open.
    await operationsListed(p);
    for (const [name, args] of [['drawio_read', {}], ['drawio_add_cells', { cells: vertex('early', 'early') }], ['drawio_write', { xml: diagramXml('') }]]) {
      const early = await call(p, name, args);
      assert.equal(early.error?.code, 'not_ready', `${name} before the diagram is loaded`);
    }
    await p.evaluate(() => window.__releaseIndexedDb());
  }
  await waitFor(async () => (await editor(p).count()) === 1 && !(await editorIsDisabled(editor(p))) && (await editorText(p)).length > 0, 10_000, 'the diagram to load');
  await waitFor(async () => (await p.locator('#preview').getAttribute('data-cell-count')) !== null, 10_000, 'the preview to draw');
  return p;
}

/** A vertex as an agent would pass it in `cells`. */
const vertex = (id, value, x = 40, y = 200) =>
  `<mxCell id="${id}" value="${value}" style="rounded=0;whiteSpace=wrap;" vertex="1" parent="1"><mxGeometry x="${x}" y="${y}" width="120" height="50" as="geometry"/></mxCell>`;

/** A whole diagram with the given cells after the two every page has. */
const diagramXml = (cells) => `<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>${cells}</root></mxGraphModel>`;

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
  browser.context.on('request', (request) => requests.push(request.url()));
  page = await openPage();
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

test('[DOC-3] without ?doc= the page opens `welcome`, the sample diagram: its name is in the title and maxGraph draws its 3 cells', async () => {
  assert.equal(await page.title(), 'ようこそ — drawio — ai-ops');
  assert.equal(await page.locator('header.page-header .doc-name').textContent(), 'ようこそ');
  assert.match(await editorText(page), /^<mxfile>/);
  assert.equal(await page.locator('#preview').getAttribute('data-cell-count'), '3');
  // Two boxes with labels and one arrow: 2 shapes + 2 labels + 1 edge.
  assert.equal(await drawnCount(page), 5);
  assert.equal(await page.locator('#preview svg ellipse').count(), 1);
  assert.match(await previewText(page), /アイデア/);
});

test('[APP-5] the page passes axe: the XML editor (CodeMirror) and the canvas are labelled, the document bar a named toolbar of labelled controls', async () => {
  assert.deepEqual(await axeViolations(page), []);
  const bar = page.getByRole('toolbar', { name: '図の操作' });
  for (const name of ['名前', '開く']) assert.equal(await bar.getByLabel(name).count(), 1, name);
  assert.equal(await bar.getByRole('button', { name: '新しい図' }).count(), 1);
  assert.equal(await page.getByRole('figure', { name: '図のキャンバス' }).count(), 1);
});

test('[SW-2] switch on by a real click: drawio_read, drawio_add_cells and drawio_write are listed', async () => {
  assert.equal(await page.evaluate(() => 'modelContextTesting' in navigator), false);
  await clickSwitch(page, 'drawio');
  await operationsListed(page);
  const names = await page.evaluate(() => navigator.modelContextTesting.listTools().map((t) => t.name).sort());
  assert.deepEqual(names, ['drawio_add_cells', 'drawio_read', 'drawio_write']);
});

test('[DRW-1] [DOC-2] drawio_read returns document and the whole XML, as the editor shows it', async () => {
  const read = await call(page, 'drawio_read', {});
  assert.equal(read.isError, false);
  assert.deepEqual(Object.keys(read).sort(), ['document', 'isError', 'ok', 'xml']);
  assert.deepEqual(read.document, { id: 'welcome', name: 'ようこそ' });
  assert.equal(read.xml, await editorText(page));
});

test('[DRW-1] drawio_add_cells adds an mxCell: count, the XML, the editor and the maxGraph preview all change', async () => {
  const before = await drawnCount(page);
  const result = await call(page, 'drawio_add_cells', { cells: vertex('e2e-box', '足した箱') });
  assert.deepEqual(result, { isError: false, ok: true, count: 1 });
  await waitFor(async () => (await drawnCount(page)) === before + 2, 5000, 'a shape and its label more in the preview');
  assert.match(await previewText(page), /足した箱/);
  assert.equal(await page.locator('#preview').getAttribute('data-cell-count'), '4');
  const read = await call(page, 'drawio_read', {});
  assert.match(read.xml, /<mxCell id="e2e-box" value="足した箱"/);
  assert.equal(await editorText(page), read.xml);
});

test('[DRW-1] an mxCell id already in the diagram, or cells that are not well-formed XML: invalid_input, nothing changes', async () => {
  const before = (await call(page, 'drawio_read', {})).xml;
  const drawnBefore = await drawnCount(page);
  const clash = await call(page, 'drawio_add_cells', { cells: vertex('idea', '重なる') });
  assert.equal(clash.isError, true);
  assert.equal(clash.error.code, 'invalid_input');
  assert.match(clash.error.message, /idea/);
  const broken = await call(page, 'drawio_add_cells', { cells: '<mxCell id="x" vertex="1" parent="1"><mxGeometry' });
  assert.equal(broken.error.code, 'invalid_input');
  assert.equal((await call(page, 'drawio_read', {})).xml, before);
  assert.equal(await editorText(page), before);
  assert.equal(await drawnCount(page), drawnBefore);
});

test('[DRW-1] [DEF-5] drawio_write with XML that is not well-formed answers invalid_input before any dialog', async () => {
  // What the page reported, in order: 'opened' for each time the dialog opened, then 'sentinel'.
  const reported = [];
  await page.exposeFunction('__dialogOpened', (what = 'opened') => reported.push(what));
  await page.evaluate(() => {
    const dialog = document.querySelector('ai-ops-confirm').shadowRoot.querySelector('dialog');
    new MutationObserver(() => dialog.open && window.__dialogOpened()).observe(dialog, { attributes: true, attributeFilter: ['open'] });
  });
  const result = await call(page, 'drawio_write', { xml: '<mxGraphModel><root><mxCell id="0"></root>' });
  assert.equal(result.isError, true);
  assert.equal(result.error.code, 'invalid_input');
  const notDiagram = await call(page, 'drawio_write', { xml: '<svg/>' });
  assert.equal(notDiagram.error.code, 'invalid_input');
  // A dialog opened for either call would have been reported before a sentinel the page sends
  // through the same binding after a rendering frame and a task.
  await page.bringToFront();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))).then(() => window.__dialogOpened('sentinel')));
  await waitFor(() => reported.includes('sentinel'), 10_000, 'the sentinel');
  const opened = reported.filter((what) => what === 'opened');
  assert.deepEqual(opened, [], 'no confirmation was shown');
  assert.equal(await confirmDialog(page).getByRole('button', { name: '置き換える' }).count(), 0);
});

test('[DRW-1] [CONF-1] [CONF-2] drawio_write asks 「図「ようこそ」の全体を置き換える」 with the XML in the detail; 置き換える replaces the diagram', async () => {
  const xml = diagramXml(vertex('only', '置き換えた図', 80, 80));
  const pending = start(page, 'drawio_write', { xml });
  const dialog = confirmDialog(page);
  await dialog.getByRole('heading', { name: '図「ようこそ」の全体を置き換える' }).waitFor();
  const body = await dialog.locator('.body').textContent();
  assert.match(body, /drawio_write/);
  assert.match(body, /「元に戻す」で戻せます/, 'the log\'s 元に戻す (and the page\'s own) restores an agent\'s change, so the dialog says so (UNDO-5)');
  await dialog.getByText('渡された内容の全文').click();
  assert.equal(await dialog.locator('details pre').textContent(), xml);
  assert.match(await previewText(page), /足した箱/, 'nothing changed while the dialog is open');
  await dialog.getByRole('button', { name: '置き換える' }).click();
  assert.deepEqual(await pending, { isError: false, ok: true });
  assert.equal(await editorText(page), xml);
  await waitFor(async () => (await page.locator('#preview').getAttribute('data-cell-count')) === '1', 5000, 'one cell in the preview');
  assert.equal(await drawnCount(page), 2);
  assert.match(await previewText(page), /置き換えた図/);
  assert.doesNotMatch(await previewText(page), /アイデア/);
  assert.equal((await call(page, 'drawio_read', {})).xml, xml);
});

test('[CONF-6] やめる answers declined and changes nothing', async () => {
  const before = await editorText(page);
  const pending = start(page, 'drawio_write', { xml: diagramXml('') });
  const dialog = confirmDialog(page);
  await dialog.getByRole('heading', { name: '図「ようこそ」の全体を置き換える' }).waitFor();
  await dialog.getByRole('button', { name: 'やめる' }).click();
  const result = await pending;
  assert.equal(result.isError, true);
  assert.equal(result.error.code, 'declined');
  assert.equal(await editorText(page), before);
  assert.equal((await call(page, 'drawio_read', {})).xml, before);
  assert.equal(await drawnCount(page), 2);
});

test('[CONF-2] [FIRST-7] the page\'s own 「直前の変更を取り消す」 restores the diagram an agent replaced', async () => {
  await page.getByRole('button', { name: '直前の変更を取り消す' }).click();
  await waitFor(async () => /e2e-box/.test(await editorText(page)), 5000, 'the diagram before drawio_write');
  await waitFor(async () => (await page.locator('#preview').getAttribute('data-cell-count')) === '4', 5000, 'four cells again');
  assert.match(await previewText(page), /足した箱/);
  assert.match((await call(page, 'drawio_read', {})).xml, /e2e-box/);
});

test('[DRW-1] the diagram was saved in IndexedDB: a reload shows it', async () => {
  const before = await editorText(page);
  await page.reload();
  await waitFor(async () => !(await editorIsDisabled(editor(page))) && (await editorText(page)) === before, 10_000, 'the saved diagram');
  await waitFor(async () => (await page.locator('#preview').getAttribute('data-cell-count')) === '4', 5000, 'four cells after the reload');
  await operationsListed(page);
});

test('[DRW-1] a person edits the XML: a valid edit redraws the preview; a broken one shows an error and keeps the last diagram', async () => {
  const box = editor(page);
  const valid = diagramXml(vertex('typed', '手で書いた箱') + vertex('typed-2', 'もう一つ', 240, 200));
  await replaceText(page, valid);
  await waitFor(async () => (await page.locator('#preview').getAttribute('data-cell-count')) === '2', 5000, 'the typed diagram');
  assert.match(await previewText(page), /手で書いた箱/);
  assert.equal(await drawnCount(page), 4);
  assert.equal((await call(page, 'drawio_read', {})).xml, valid);

  // A person's keystrokes that break the XML: the error is shown, the diagram stays as it was.
  await box.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('<oops');
  const error = page.locator('#xml-error');
  await waitFor(() => error.isVisible(), 5000, 'the error under the editor');
  assert.match(await error.textContent(), /XML として読めません/);
  assert.equal(await box.getAttribute('aria-invalid'), 'true');
  assert.equal((await call(page, 'drawio_read', {})).xml, valid);
  assert.match(await previewText(page), /手で書いた箱/);

  // Fixing it applies it.
  for (let i = 0; i < '<oops'.length; i++) await page.keyboard.press('Backspace');
  await waitFor(async () => !(await error.isVisible()), 5000, 'the error to go');
  assert.equal(await box.getAttribute('aria-invalid'), null);
  assert.equal((await call(page, 'drawio_read', {})).xml, valid);
});

test('[APP-1] an edit still resting when the page is left by the app\'s home link is kept: coming back (back button) shows it drawn, with the log rows', async () => {
  await showLog(page, 'drawio');
  const rows = await logRows(page, 'drawio').count();
  assert.ok(rows > 0);
  const xml = diagramXml(vertex('left-behind', '去る前の箱'));
  await replaceText(page, xml);
  // At once, before the edit is applied (it rests 250 ms): leaving applies and saves it.
  await leaveAndComeBack(page, 'drawio');
  await waitFor(async () => (await editorText(page)) === xml, 5000, 'the edit in the editor');
  await waitFor(async () => (await page.locator('#preview').getAttribute('data-cell-count')) === '1', 5000, 'the edit drawn');
  assert.match(await previewText(page), /去る前の箱/);
  await operationsListed(page);
  assert.equal((await call(page, 'drawio_read', {})).xml, xml);
  await showLog(page, 'drawio');
  assert.ok((await logRows(page, 'drawio').count()) >= rows, 'the rows logged before leaving are still shown');
});

test('[DOC-1] [DOC-2] [VER-6] a second tab with ?doc=second answers not_ready until its diagram is loaded, then its own document', async () => {
  const second = await openPage('?doc=second', { hold: true });
  try {
    await operationsListed(second);
    assert.equal(await second.title(), 'second — drawio — ai-ops');
    const there = await call(second, 'drawio_read', {});
    const here = await call(page, 'drawio_read', {});
    assert.deepEqual(there.document, { id: 'second', name: 'second' });
    assert.deepEqual(here.document, { id: 'welcome', name: 'ようこそ' });
    assert.notEqual(there.xml, here.xml);
    assert.equal(await second.locator('#preview').getAttribute('data-cell-count'), '0', 'a new diagram is blank');
    assert.deepEqual(await call(second, 'drawio_add_cells', { cells: vertex('only-there', '二つ目のタブ') }), { isError: false, ok: true, count: 1 });
    assert.doesNotMatch((await call(page, 'drawio_read', {})).xml, /only-there/);
    assert.equal(await page.title(), 'ようこそ — drawio — ai-ops');
  } finally {
    await second.close();
  }
});

test('[DOC-1] [DOC-3] [APP-5] the document bar: 新しい図 opens a new diagram within the app, 開く and the back button return to ようこそ, renaming shows in the title and to the agent', async () => {
  const marker = await page.evaluate(() => (window.__sameDocument = Math.random()));
  const welcomeXml = (await call(page, 'drawio_read', {})).xml;
  await page.getByRole('button', { name: '新しい図' }).click();
  await waitFor(async () => /^\?doc=diagram-[\w-]+$/.test(await page.evaluate(() => location.search)), 5000, 'the new diagram\'s ?doc=');
  const id = (await page.evaluate(() => location.search)).slice('?doc='.length);
  await waitFor(async () => (await page.title()) === '新しい図 — drawio — ai-ops', 5000, 'the new diagram\'s title');
  await waitFor(async () => (await page.locator('#preview').getAttribute('data-cell-count')) === '0', 5000, 'the blank diagram drawn');
  assert.deepEqual((await call(page, 'drawio_read', {})).document, { id, name: '新しい図' });
  assert.equal(await page.locator('header.page-header .doc-name').textContent(), '新しい図');

  const name = page.getByLabel('名前');
  await name.fill('構成図');
  await name.press('Enter');
  await waitFor(async () => (await page.title()) === '構成図 — drawio — ai-ops', 5000, 'the renamed title');
  assert.deepEqual((await call(page, 'drawio_read', {})).document, { id, name: '構成図' });
  // Escape puts the name back without renaming.
  await name.fill('やめた名前');
  await name.press('Escape');
  assert.equal(await name.inputValue(), '構成図');
  assert.equal((await call(page, 'drawio_read', {})).document.name, '構成図');

  const open = page.getByLabel('開く');
  await waitFor(async () => (await open.locator('option').allTextContents()).includes('ようこそ'), 5000, 'ようこそ in 開く');
  assert.equal(await open.inputValue(), id);
  await open.selectOption('welcome');
  await waitFor(async () => (await page.title()) === 'ようこそ — drawio — ai-ops', 5000, 'back to ようこそ');
  assert.equal((await call(page, 'drawio_read', {})).xml, welcomeXml);
  assert.equal(await editorText(page), welcomeXml);

  await page.goBack();
  await waitFor(async () => (await page.title()) === '構成図 — drawio — ai-ops', 5000, 'the back button to reopen 構成図');
  assert.deepEqual((await call(page, 'drawio_read', {})).document, { id, name: '構成図' });
  await page.goBack();
  await waitFor(async () => (await page.title()) === 'ようこそ — drawio — ai-ops', 5000, 'ようこそ again');
  assert.equal(await page.evaluate(() => window.__sameDocument), marker, 'all within one document');
  assert.deepEqual((await call(page, 'drawio_read', {})).document, { id: 'welcome', name: 'ようこそ' });
});

test('[SHAPE-7] every request the pages made stayed on loopback (the page on localhost, the relay port on 127.0.0.1) — a diagram\'s foreign images and HTML labels fetch nothing', async () => {
  const hostile = diagramXml(
    '<mxCell id="img" value="" style="shape=image;image=https://example.com/a.png;" vertex="1" parent="1"><mxGeometry x="20" y="20" width="40" height="40" as="geometry"/></mxCell>' +
    '<mxCell id="html" value="&lt;b&gt;太字&lt;/b&gt;&lt;img src=&quot;https://example.com/b.png&quot; onerror=&quot;window.__ran=1&quot;&gt;" style="html=1;" vertex="1" parent="1"><mxGeometry x="100" y="20" width="120" height="40" as="geometry"/></mxCell>',
  );
  const pending = start(page, 'drawio_write', { xml: hostile });
  await confirmDialog(page).getByRole('button', { name: '置き換える' }).click();
  assert.deepEqual(await pending, { isError: false, ok: true });
  await waitFor(async () => (await page.locator('#preview').getAttribute('data-cell-count')) === '2', 5000, 'the diagram drawn');
  assert.equal(await page.locator('#preview b').textContent(), '太字', 'HTML labels keep their formatting');
  assert.equal(await page.locator('#preview img, #preview image').count(), 0);
  // Whatever the drawn diagram started by now (an image it kept, say) has reached the network.
  await requestSentinel(page);
  assert.equal(await page.evaluate(() => window.__ran), undefined);
  assert.ok(requests.length > 5);
  const elsewhere = requests.filter((url) => !isLoopback(url));
  assert.deepEqual(elsewhere, []);
});
