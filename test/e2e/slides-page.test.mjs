// The /slides/ page end to end: the demo server, Debian's Chromium driven by playwright-core, the
// real Marp (@marp-team/marp-core) in the app's slides page (playground/slides/), the Markdown in
// its CodeMirror editor, typed into like a person, and the operations called the
// way an agent's calls arrive (navigator.modelContextTesting.executeTool, the path the relay widget
// uses). Confirmations are answered by real clicks. Build first: `node esbuild.config.mjs slides`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, launchBrowser, waitFor, clickSwitch, isLoopback, callInPage as call, holdIndexedDb, logRows, showLog, leaveAndComeBack, axeViolations, requestSentinel } from './harness.mjs';
import { editorIsDisabled, editorText as textOf } from './editor.mjs';

let demo, browser, page;
/** Every request any page of the browser made. */
const requests = [];


/** Starts a call without waiting for it (for confirmations). */
const start = (target, name, args) => call(target, name, args);

/** The Markdown editor: CodeMirror's content element, named "Markdown". */
const editor = (target) => target.getByRole('textbox', { name: 'Markdown', exact: true });
/** The editor's text as a person sees it. */
const editorText = (target) => textOf(editor(target));
/** The rendered slides: one <svg data-marpit-svg> each, inside the preview's shadow root. */
const previewSlides = (target) => target.locator('#preview svg[data-marpit-svg]');
const confirmDialog = (target) => target.locator('ai-ops-confirm');
const toolNames = (target) => target.evaluate(() => navigator.modelContextTesting.listTools().map((t) => t.name).sort());

/** Waits until all three operations are registered (they are registered one after another). */
async function operationsListed(target) {
  await waitFor(() => target.evaluate(() => navigator.modelContextTesting?.listTools().filter((t) => t.name.startsWith('slides_')).length === 3), 15_000, 'the slides operations to be listed');
}

async function openPage(query = '', { beforeLoad } = {}) {
  const p = await browser.context.newPage();
  if (beforeLoad) await beforeLoad(p);
  await p.goto(`${demo.origin}/slides/${query}`);
  await p.locator('ai-ops-switch[tool="slides"] input[role="switch"]').waitFor();
  return p;
}

/** Waits until the deck is open: the editor is enabled and holds its Markdown. */
async function deckLoaded(target) {
  await waitFor(async () => (await editor(target).count()) === 1 && !(await editorIsDisabled(editor(target))) && (await editorText(target)).length > 0, 10_000, 'the deck to load');
}

/** Replaces the editor's whole text like a person: select all, then type (paste-like insert). */
async function replaceText(target, text) {
  await editor(target).click();
  await target.keyboard.press('Control+a');
  await target.keyboard.insertText(text);
}

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
  browser.context.on('request', (request) => requests.push(request.url()));
  page = await openPage();
  await deckLoaded(page);
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

test('[DOC-3] without ?doc= the page opens `welcome`, the sample deck: its name is in the title and the preview shows it', async () => {
  assert.equal(await page.title(), 'ようこそ — slides — ai-ops');
  assert.equal(await page.locator('header.page-header .doc-name').textContent(), 'ようこそ');
  assert.match(await editorText(page), /^---\ntheme: default/);
  await waitFor(async () => (await previewSlides(page).count()) === 3, 5000, 'three slides in the preview');
  assert.match(await page.locator('#preview h1').first().textContent(), /スライドのエディタ/);
});

test('[FIRST-7] the welcome deck says where the theme select is (the bar above the editor, at the left), and the page\'s own undo is not a second 「元に戻す」', async () => {
  const text = await editorText(page);
  assert.match(text, /上のバーの「テーマ」/);
  assert.doesNotMatch(text, /右上/);
  const select = await page.getByRole('combobox', { name: 'テーマ' }).boundingBox();
  const box = await editor(page).boundingBox();
  const width = await page.evaluate(() => innerWidth);
  assert.ok(select.y + select.height <= box.y, 'the select is above the editor');
  assert.ok(select.x + select.width / 2 < width / 2, 'the select is in the left half');
  // One 「元に戻す」 per page: the page's own says what it does; 「元に戻す」 is the log rows' alone.
  assert.equal(await page.getByRole('button', { name: '直前の変更を取り消す', exact: true }).count(), 1);
  assert.equal(await page.locator('button', { hasText: /^\s*元に戻す\s*$/ }).count(), 0);
});

test('[APP-4] [APP-5] the page passes axe: the Markdown editor is a textbox named Markdown, the document bar a named toolbar of labelled controls', async () => {
  assert.deepEqual(await axeViolations(page), []);
  assert.equal(await editor(page).getAttribute('aria-multiline'), 'true');
  const bar = page.getByRole('toolbar', { name: 'スライドの操作' });
  for (const name of ['名前', 'テーマ', '開く']) assert.equal(await bar.getByLabel(name).count(), 1, name);
  assert.equal(await bar.getByRole('button', { name: '新しいスライド' }).count(), 1);
});

test('[SW-2] switch on by a real click: slides_read, slides_set_theme and slides_write are listed', async () => {
  assert.equal(await page.evaluate(() => 'modelContextTesting' in navigator), false);
  await clickSwitch(page, 'slides');
  await operationsListed(page);
  assert.deepEqual(await toolNames(page), ['slides_read', 'slides_set_theme', 'slides_write']);
});

test('[SLI-1] [DOC-2] slides_read returns document, markdown, theme and slideCount as the page shows them', async () => {
  const read = await call(page, 'slides_read', {});
  assert.equal(read.isError, false);
  assert.deepEqual(Object.keys(read).sort(), ['document', 'isError', 'markdown', 'ok', 'slideCount', 'theme']);
  assert.deepEqual(read.document, { id: 'welcome', name: 'ようこそ' });
  assert.equal(read.markdown, await editorText(page));
  assert.equal(read.theme, 'default');
  assert.equal(await page.getByLabel('テーマ').inputValue(), 'default');
  assert.equal(read.slideCount, 3);
  assert.equal(read.slideCount, await previewSlides(page).count());
});

test('[IN-7] the slides_set_theme enum is Marp\'s theme list, read at runtime; the theme select offers the same', async () => {
  const schema = await page.evaluate(() => navigator.modelContextTesting.listTools().find((t) => t.name === 'slides_set_theme').inputSchema);
  const enumeration = (typeof schema === 'string' ? JSON.parse(schema) : schema).properties.theme.enum;
  assert.deepEqual(enumeration, ['default', 'gaia', 'uncover']);
  const options = await page.getByLabel('テーマ').locator('option').evaluateAll((list) => list.map((o) => o.value));
  assert.deepEqual(options, enumeration);
});

test('[SLI-1] [IN-7] slides_set_theme with a listed theme changes the preview, the select and the Markdown; an unlisted one is invalid_input', async () => {
  const set = await call(page, 'slides_set_theme', { theme: 'gaia' });
  assert.deepEqual(set, { isError: false, ok: true, theme: 'gaia' });
  await waitFor(async () => (await page.locator('#preview section[data-theme="gaia"]').count()) > 0, 5000, 'the preview in gaia');
  assert.equal(await page.getByLabel('テーマ').inputValue(), 'gaia');
  assert.match(await editorText(page), /^---\ntheme: gaia\n/);
  assert.equal((await call(page, 'slides_read', {})).theme, 'gaia');

  const unknown = await call(page, 'slides_set_theme', { theme: 'midnight' });
  assert.equal(unknown.isError, true);
  assert.equal(unknown.error.code, 'invalid_input');
  assert.equal((await call(page, 'slides_read', {})).theme, 'gaia');
});

test('[SLI-1] [CONF-1] [CONF-2] slides_write asks 「スライド「ようこそ」の全文を置き換える」 with the Markdown in the detail; 置き換える replaces editor and preview', async () => {
  const markdown = '---\ntheme: uncover\n---\n\n# 一枚目\n\n---\n\n# 二枚目\n\n---\n\n# 三枚目\n\n---\n\n# 四枚目\n';
  const pending = start(page, 'slides_write', { markdown });
  const dialog = confirmDialog(page);
  await dialog.getByRole('heading', { name: 'スライド「ようこそ」の全文を置き換える' }).waitFor();
  const body = await dialog.locator('.body').textContent();
  assert.match(body, /slides_write/);
  assert.match(body, /「元に戻す」で戻せます/, 'the log\'s 元に戻す (and the page\'s own) restores an agent\'s replacement, so the dialog says so (UNDO-5)');
  await dialog.getByText('渡された内容の全文').click();
  assert.equal(await dialog.locator('details pre').textContent(), markdown);
  // Nothing changed while the dialog is open.
  assert.match(await editorText(page), /スライドのエディタ/);
  await dialog.getByRole('button', { name: '置き換える' }).click();
  const result = await pending;
  assert.deepEqual(result, { isError: false, ok: true, slideCount: 4 });
  assert.equal(await editorText(page), markdown);
  await waitFor(async () => (await previewSlides(page).count()) === 4, 5000, 'four slides in the preview');
  assert.equal(await page.locator('#preview h1').nth(3).textContent(), '四枚目');
  assert.equal(await page.getByLabel('テーマ').inputValue(), 'uncover');
  const read = await call(page, 'slides_read', {});
  assert.equal(read.markdown, markdown);
  assert.equal(read.slideCount, 4);
  assert.equal(read.theme, 'uncover');
});

test('[CONF-6] やめる answers declined and changes nothing', async () => {
  const before = await editorText(page);
  const pending = start(page, 'slides_write', { markdown: '# 置き換えない\n' });
  const dialog = confirmDialog(page);
  await dialog.getByRole('heading', { name: 'スライド「ようこそ」の全文を置き換える' }).waitFor();
  await dialog.getByRole('button', { name: 'やめる' }).click();
  const result = await pending;
  assert.equal(result.isError, true);
  assert.equal(result.error.code, 'declined');
  assert.equal(await editorText(page), before);
  assert.equal((await call(page, 'slides_read', {})).markdown, before);
  assert.equal(await previewSlides(page).count(), 4);
});

test('[SLI-1] the agent\'s deck was saved in IndexedDB: a reload shows it', async () => {
  const before = await editorText(page);
  await page.reload();
  await deckLoaded(page);
  assert.equal(await editorText(page), before);
  await waitFor(async () => (await previewSlides(page).count()) === 4, 5000, 'four slides after the reload');
  // The switch is stored: the operations are registered again without a click (REG-2).
  await operationsListed(page);
});

test('[CONF-2] [FIRST-7] the page\'s own 「直前の変更を取り消す」 restores the deck an agent replaced', async () => {
  const original = await editorText(page);
  const pending = start(page, 'slides_write', { markdown: '# 一枚だけ\n' });
  await confirmDialog(page).getByRole('button', { name: '置き換える' }).click();
  assert.deepEqual(await pending, { isError: false, ok: true, slideCount: 1 });
  await waitFor(async () => (await previewSlides(page).count()) === 1, 5000, 'one slide');
  const undo = page.getByRole('button', { name: '直前の変更を取り消す' });
  assert.equal(await undo.isDisabled(), false);
  await undo.click();
  await waitFor(async () => (await editorText(page)) === original, 5000, 'the previous deck back in the editor');
  await waitFor(async () => (await previewSlides(page).count()) === 4, 5000, 'four slides again');
  assert.equal((await call(page, 'slides_read', {})).markdown, original);
});

test('[APP-4] an agent\'s slides_write shows in the open editor at once, as one step of its undo history: one Ctrl+Z restores the text before it', async () => {
  const original = await editorText(page);
  const box = editor(page);
  await box.click();
  await page.keyboard.press('Control+End');
  // One input, so the typing is one step of the editor's history whatever the machine's speed:
  // typed key by key, a pause over the editor's 500 ms grouping (a busy machine) split it in two,
  // and the second Ctrl+Z below then took only part of it away.
  await page.keyboard.insertText('<!-- 手で書いた -->');
  const typed = await editorText(page);
  assert.equal(typed, `${original}<!-- 手で書いた -->`);
  const markdown = '# エージェントの一枚\n\n本文\n';
  const pending = start(page, 'slides_write', { markdown });
  await confirmDialog(page).getByRole('button', { name: '置き換える' }).click();
  assert.deepEqual(await pending, { isError: false, ok: true, slideCount: 1 });
  assert.equal(await editorText(page), markdown, 'the write is in the editor when the agent gets its answer');
  // The dialog had the keyboard: a click gives it back to the editor, then one Ctrl+Z.
  await box.click();
  await page.keyboard.press('Control+z');
  await waitFor(async () => (await editorText(page)) === typed, 5000, 'the typed text back after one Ctrl+Z');
  await waitFor(async () => (await call(page, 'slides_read', {})).markdown === typed, 5000, 'the deck the agent reads to follow');
  // The write never merged with the typing: the next Ctrl+Z takes the typing away.
  await page.keyboard.press('Control+z');
  await waitFor(async () => (await editorText(page)) === original, 5000, 'the text before the typing');
  await waitFor(async () => (await previewSlides(page).count()) === 4, 5000, 'four slides again');
  assert.equal((await call(page, 'slides_read', {})).markdown, original);
});

test('[SLI-1] a person types Markdown: the preview follows, and slides_read sees the typed deck', async () => {
  const box = editor(page);
  await box.click();
  await page.keyboard.press('Control+End');
  // The editor's Enter continues a Markdown list, as an editor does: the typing ends on the item.
  await page.keyboard.type('\n---\n\n# 手で足した\n\n- 箇条書き');
  await waitFor(async () => (await previewSlides(page).count()) === 5, 5000, 'a fifth slide in the preview');
  await page.locator('#preview h1', { hasText: '手で足した' }).waitFor();
  assert.equal(await page.locator('#slide-count').textContent(), '5 枚');
  const read = await call(page, 'slides_read', {});
  assert.equal(read.slideCount, 5);
  assert.match(read.markdown, /# 手で足した\n\n- 箇条書き$/);
  // A person changes the theme with the select: the Markdown's directive follows.
  await page.getByLabel('テーマ').selectOption('default');
  await waitFor(async () => /^---\ntheme: default\n/.test(await editorText(page)), 5000, 'the directive to change');
  await waitFor(async () => (await page.locator('#preview section[data-theme="default"]').count()) > 0, 5000, 'the preview in default');
});

test('[APP-1] typing, then leaving by the app\'s home link and coming back (back button): the typed deck and the log rows are still there', async () => {
  const box = editor(page);
  await box.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n<!-- 去る前に -->');
  const typed = await editorText(page);
  await showLog(page, 'slides');
  const rows = await logRows(page, 'slides').count();
  assert.ok(rows > 0);
  // At once, before typing's debounced save: leaving the page saves it.
  await leaveAndComeBack(page, 'slides');
  await deckLoaded(page);
  assert.equal(await editorText(page), typed);
  await operationsListed(page);
  assert.equal((await call(page, 'slides_read', {})).markdown, typed);
  await showLog(page, 'slides');
  assert.ok((await logRows(page, 'slides').count()) >= rows, 'the rows logged before leaving are still shown');
  await page.reload();
  await deckLoaded(page);
  assert.equal(await editorText(page), typed, 'and it was saved');
  await operationsListed(page);
});

test('[DOC-1] [DOC-2] [VER-6] a second tab with ?doc=second answers not_ready until its deck is loaded, then its own document', async () => {
  const second = await openPage('?doc=second', { beforeLoad: (p) => p.addInitScript(holdIndexedDb) });
  try {
    // The switch is on for the origin: the operations register at once, before the deck is open.
    await operationsListed(second);
    const early = await call(second, 'slides_read', {});
    assert.equal(early.isError, true);
    assert.equal(early.error.code, 'not_ready');
    assert.equal((await call(second, 'slides_set_theme', { theme: 'gaia' })).error.code, 'not_ready');
    await second.evaluate(() => window.__releaseIndexedDb());
    await deckLoaded(second);
    assert.equal(await second.title(), 'second — slides — ai-ops');
    const there = await call(second, 'slides_read', {});
    const here = await call(page, 'slides_read', {});
    assert.deepEqual(there.document, { id: 'second', name: 'second' });
    assert.deepEqual(here.document, { id: 'welcome', name: 'ようこそ' });
    assert.notEqual(there.markdown, here.markdown);
    assert.equal(await page.title(), 'ようこそ — slides — ai-ops');
  } finally {
    await second.close();
  }
});

test('[DOC-3] renaming the deck in the page changes the title and the document name an agent reads', async () => {
  const name = page.getByLabel('名前');
  await name.fill('週報');
  await name.press('Enter');
  await waitFor(async () => (await page.title()) === '週報 — slides — ai-ops', 5000, 'the title to change');
  assert.deepEqual((await call(page, 'slides_read', {})).document, { id: 'welcome', name: '週報' });
  const pending = start(page, 'slides_write', { markdown: '# x' });
  await confirmDialog(page).getByRole('heading', { name: 'スライド「週報」の全文を置き換える' }).waitFor();
  await confirmDialog(page).getByRole('button', { name: 'やめる' }).click();
  assert.equal((await pending).error.code, 'declined');
});

test('[SHAPE-7] every request the pages made stayed on loopback (the page on localhost, the relay port on 127.0.0.1) — a deck\'s foreign images are not fetched', async () => {
  await replaceText(page, '# 外の画像\n\n![外](https://example.com/a.png)\n\n---\n\n![bg](https://example.com/b.png)\n\n<style>section { background: url(https://example.com/c.png); }</style>\n');
  await waitFor(async () => (await previewSlides(page).count()) === 2, 5000, 'the preview of the new deck');
  assert.equal(await page.locator('#preview img[data-blocked-src="https://example.com/a.png"]').count(), 1);
  // Whatever the new deck's preview started by now (an image, a background) has reached the network.
  await requestSentinel(page);
  assert.ok(requests.length > 5);
  const elsewhere = requests.filter((url) => !isLoopback(url));
  assert.deepEqual(elsewhere, []);
});
