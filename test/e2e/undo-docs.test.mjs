// Issue 19, the document tools: every change an agent makes to a deck, a drawing or a diagram is
// taken back from its log row. All real: the demo server, the /slides/, /excalidraw/ and /drawio/
// pages in Debian's Chromium (playwright-core), the relay command (bin/ai-ops-relay.mjs) with an MCP
// SDK client on its stdio. For each of the 7 changing operations: the document read through the
// read operation (and as the page saved it in IndexedDB), the agent's change through the relay
// (its dialog approved by a click where it asks), the user's trusted click on the row's
// 「元に戻す」, the document read back byte for byte as it was. Then a later change: the dialog lists
// it, declining changes nothing, approving takes both back. Runs in both browser modes
// (`AI_OPS_BROWSER_MODE=webmcp`). Build first: `node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import {
  startDemo, startRelay, launchBrowser, freePort, waitFor, clickSwitch, callRelay, relayedNames, openToolPage,
  confirmDialog, showLog, OPERATIONS, ensurePaired
} from './harness.mjs';

const TOOLS = ['slides', 'excalidraw', 'drawio'];
/** Where each page keeps its documents, and the field that holds a document's content. */
const STORES = {
  slides: { db: 'ai-ops-slides', store: 'documents', field: 'markdown' },
  excalidraw: { db: 'ai-ops-excalidraw', store: 'drawings', field: 'elements' },
  drawio: { db: 'ai-ops-drawio', store: 'documents', field: 'xml' },
};
const UNDOABLE = 'この操作は「元に戻す」で戻せます。';

let demo, relay, browser;
const pages = {};

before(async () => {
  demo = await startDemo();
  relay = await startRelay({ origin: demo.origin, port: await freePort() });
  browser = await launchBrowser();
  for (const tool of TOOLS) pages[tool] = await openToolPage(browser.context, demo.origin, tool);
  for (const tool of TOOLS) await clickSwitch(pages[tool], tool);
  // DOOR-6: the user pairs once, in the first tab; each other tab, looked at, uses the pairing too.
  await ensurePaired(pages[TOOLS[0]], relay.client, TOOLS[0]);
  for (const tool of TOOLS.slice(1)) await pages[tool].bringToFront();
  const all = TOOLS.flatMap((tool) => OPERATIONS[tool]).sort();
  let listed = [];
  await waitFor(async () => {
    listed = await relayedNames(relay.client);
    return all.every((name) => listed.includes(name));
  }, 60_000, 'the 10 document operations through the relay').catch((error) => {
    throw new Error(`${error.message}; listed: ${listed.join(', ')}`);
  });
});

after(async () => {
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

/** The open document as the agent reads it (the whole envelope of the read operation, as text). */
async function read(tool) {
  let answer;
  await waitFor(async () => {
    answer = await callRelay(relay.client, `${tool}_read`);
    return answer.env?.error?.code !== 'not_ready';
  }, 60_000, `${tool}_read to stop answering not_ready`);
  assert.equal(answer.env.ok, true, JSON.stringify(answer.env));
  return JSON.stringify(answer.env);
}

/** The content of the `welcome` document as the page saved it in IndexedDB, as text. */
function saved(tool) {
  return pages[tool].evaluate(({ db, store, field }) => new Promise((resolve, reject) => {
    const open = indexedDB.open(db);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const get = open.result.transaction(store).objectStore(store).get('welcome');
      get.onsuccess = () => {
        resolve(JSON.stringify(get.result?.[field] ?? null));
        open.result.close();
      };
      get.onerror = () => reject(get.error);
    };
  }), STORES[tool]);
}

/** An Excalidraw element as `excalidraw_read` shows a shape, without its label and bindings (EXC-1). */
const shape = ({ id, type, x, y, width, height, strokeColor, backgroundColor }) => ({ id, type, x, y, width, height, strokeColor, backgroundColor });

/**
 * What the page saved, in what the read operation shows of it: the deck's Markdown, the diagram's
 * XML, the drawing's shapes (its labels, text elements inside a shape, are part of their shape there).
 */
const AS_READ = {
  slides: (stored) => stored,
  drawio: (stored) => stored,
  excalidraw: (stored) => {
    const ids = new Set((stored ?? []).map((element) => element.id));
    return (stored ?? []).filter((element) => !(element.type === 'text' && ids.has(element.containerId))).map(shape);
  },
};
/** The same of the read operation's envelope. */
const READ = {
  slides: (env) => env.markdown,
  drawio: (env) => env.xml,
  excalidraw: (env) => env.elements.map(shape),
};

/**
 * The saved content once the page has saved what `envelope` (the read operation's answer) shows:
 * slides and drawio save before a change resolves; Excalidraw 300 ms after the last change, so its
 * saved drawing may still be the one before.
 */
async function settledSave(tool, envelope) {
  const shown = READ[tool](JSON.parse(envelope));
  let stored = null;
  await waitFor(async () => {
    stored = await saved(tool);
    return isDeepStrictEqual(AS_READ[tool](JSON.parse(stored)), shown);
  }, 20_000, `${tool}'s saved document to hold what the agent reads`);
  return stored;
}

/** The ids of the log's rows, in order, with their `data-undo` and `data-by`. */
function rows(tool) {
  return pages[tool].locator(`ai-ops-log[tool="${tool}"]`).evaluate((log) =>
    [...log.shadowRoot.querySelectorAll('[part="row"]')].map((row) => ({
      id: row.dataset.id,
      undo: row.dataset.undo ?? null,
      by: row.dataset.by ?? null,
      name: row.querySelector('[part="name"]')?.textContent.trim() ?? '',
      summary: row.querySelector('[part="row-summary"]')?.textContent.trim() ?? '',
    })));
}

/** The log row of the call `id`. */
const row = (tool, id) => pages[tool].locator(`ai-ops-log[tool="${tool}"] [role="log"] [part="row"][data-id="${id}"]`);

/**
 * The agent's change through the relay; a dialog that asks is read and approved by a click. Answers
 * the id of the call's log row, which offers 「元に戻す」.
 */
async function change(tool, name, args, dialog) {
  const page = pages[tool];
  const count = (await rows(tool)).length;
  let answer;
  if (dialog) {
    await page.bringToFront();
    const pending = callRelay(relay.client, name, args);
    const confirm = confirmDialog(page);
    await confirm.getByRole('heading', { name: dialog.title }).waitFor({ timeout: 20_000 });
    const body = await confirm.locator('[part="body"]').textContent();
    // UNDO-5: the dialog says the change can be undone, and the rest of this test shows it is true.
    assert.ok(body.includes(UNDOABLE), `${name}'s dialog says ${UNDOABLE}: ${body}`);
    assert.doesNotMatch(body, /元に戻せません/);
    await confirm.getByRole('button', { name: dialog.action }).click();
    answer = await pending;
  } else {
    answer = await callRelay(relay.client, name, args);
  }
  assert.equal(answer.env?.ok, true, `${name}: ${answer.result.content?.[0]?.text}`);
  const added = await waitFor(async () => {
    const all = await rows(tool);
    return all.length > count && all.at(-1).name === name && all.at(-1);
  }, 10_000, `${name}'s log row`);
  assert.equal(added.undo, 'available', `${name}'s row offers 「元に戻す」`);
  return added.id;
}

/** The user's trusted click on the row's 「元に戻す」 (the row opened first if the button is inside it). */
async function clickUndo(tool, id) {
  const page = pages[tool];
  await page.bringToFront();
  await showLog(page, tool);
  const button = row(tool, id).locator('[part="undo-button"]');
  if (!(await button.isVisible())) await row(tool, id).locator('[part="row-summary"]').click();
  const label = (await button.getAttribute('aria-label')) ?? (await button.textContent());
  assert.match(label.trim(), /^元に戻す/);
  await button.click();
}

/** The row reads `undone`, and the undo is logged as the user's own row, with the undone operation's name. */
async function assertUndone(tool, id, name) {
  await waitFor(async () => (await row(tool, id).getAttribute('data-undo')) === 'undone', 10_000, `${name}'s row to read undone`);
  const all = await rows(tool);
  const own = all.filter((r) => r.by === 'user' && r.name === name);
  assert.ok(own.length > 0, `an undo row of ${name} by the user: ${JSON.stringify(all)}`);
  assert.match(own.at(-1).summary, /成功/);
}

/** Change → 「元に戻す」 → the document read back, and as saved, byte for byte as before. */
async function changeThenUndo(tool, name, args, dialog) {
  const before = await read(tool);
  const savedBefore = await settledSave(tool, before);
  const id = await change(tool, name, args, dialog);
  const changed = await read(tool);
  assert.notEqual(changed, before, `${name} changed the document`);
  await clickUndo(tool, id);
  await assertUndone(tool, id, name);
  assert.equal(await read(tool), before, `${name} undone: the document as the agent reads it`);
  await waitFor(async () => (await saved(tool)) === savedBefore, 10_000, `${name} undone: the saved document as before`);
}

test('[UNDO-1] slides_set_theme: the user\'s 「元に戻す」 in its row brings the deck back byte for byte', async () => {
  await changeThenUndo('slides', 'slides_set_theme', { theme: 'gaia' });
});

test('[UNDO-1] [UNDO-5] slides_write: the dialog says 「元に戻す」で戻せます, and the row\'s 「元に戻す」 brings back the deck', async () => {
  await changeThenUndo('slides', 'slides_write', { markdown: '# 中継から\n\n---\n\n# 二枚目\n' }, { title: 'スライド「ようこそ」の全文を置き換える', action: '置き換える' });
});

test('[UNDO-1] excalidraw_add_elements: undone, the scene is as it was (read, and saved: every element\'s every field)', async () => {
  await changeThenUndo('excalidraw', 'excalidraw_add_elements', {
    elements: [{ id: 'undo-box', type: 'rectangle', x: 100, y: 400, width: 120, height: 60, text: '足した箱' }, { type: 'arrow', x: 0, y: 0, from: 'undo-box', to: 'welcome-box' }],
  });
});

test('[UNDO-1] excalidraw_update_element: undone, the element (and the arrow that followed it) is back', async () => {
  await changeThenUndo('excalidraw', 'excalidraw_update_element', { id: 'welcome-box', x: 40, y: 300, backgroundColor: '#a5d8ff' });
});

test('[UNDO-1] [UNDO-5] excalidraw_clear: the dialog says 「元に戻す」で戻せます, and the row\'s 「元に戻す」 brings every element back', async () => {
  await changeThenUndo('excalidraw', 'excalidraw_clear', {}, { title: '図「ようこそ」の全ての要素を削除する', action: '削除する' });
});

test('[UNDO-1] drawio_add_cells: undone, the diagram\'s XML is as it was', async () => {
  await changeThenUndo('drawio', 'drawio_add_cells', { cells: '<mxCell id="undo-a" value="足した" vertex="1" parent="1"><mxGeometry x="40" y="300" width="120" height="50" as="geometry"/></mxCell>' });
});

test('[UNDO-1] [UNDO-5] drawio_write: the dialog says 「元に戻す」で戻せます, and the row\'s 「元に戻す」 brings back the diagram', async () => {
  await changeThenUndo('drawio', 'drawio_write', { xml: '<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/></root></mxGraphModel>' }, { title: '図「ようこそ」の全体を置き換える', action: '置き換える' });
});

test('[UNDO-2] [UNDO-3] a later change of the diagram: undoing the first lists it; やめる changes nothing; a script\'s click() does nothing; 元に戻す takes both back', async () => {
  const page = pages.drawio;
  const before = await read('drawio');
  const first = await change('drawio', 'drawio_add_cells', { cells: '<mxCell id="undo-first" value="一つ目" vertex="1" parent="1"/>' });
  const later = await change('drawio', 'drawio_write', { xml: '<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/><mxCell id="undo-later" vertex="1" parent="1"/></root></mxGraphModel>' },
    { title: '図「ようこそ」の全体を置き換える', action: '置き換える' });
  const afterBoth = await read('drawio');

  // A script's click on the button is not the user's: nothing opens, nothing changes (UNDO-3).
  await showLog(page, 'drawio');
  const button = row('drawio', first).locator('[part="undo-button"]');
  if (!(await button.isVisible())) await row('drawio', first).locator('[part="row-summary"]').click();
  await button.evaluate((element) => element.click());
  assert.equal(await page.locator('ai-ops-confirm dialog[open]').count(), 0, 'no dialog for a script\'s click');
  assert.equal(await row('drawio', first).getAttribute('data-undo'), 'available');
  assert.equal(await read('drawio'), afterBoth);

  await clickUndo('drawio', first);
  const dialog = confirmDialog(page);
  await dialog.locator('dialog[open]').waitFor({ timeout: 10_000 });
  assert.match(await dialog.locator('[part="body"]').textContent(), /drawio_write/, 'the dialog lists the later change');
  const cancel = dialog.getByRole('button', { name: 'やめる' });
  assert.equal(await cancel.evaluate((element) => element.matches(':focus') || element.getRootNode().activeElement === element), true, 'やめる starts focused');
  await cancel.click();
  await waitFor(async () => (await page.locator('ai-ops-confirm dialog[open]').count()) === 0, 10_000, 'the dialog to close');
  assert.equal(await read('drawio'), afterBoth, 'declined: nothing changed');
  for (const id of [first, later]) assert.equal(await row('drawio', id).getAttribute('data-undo'), 'available');

  await clickUndo('drawio', first);
  await dialog.locator('dialog[open]').waitFor({ timeout: 10_000 });
  await dialog.getByRole('button', { name: '元に戻す' }).click();
  await assertUndone('drawio', later, 'drawio_write');
  await assertUndone('drawio', first, 'drawio_add_cells');
  assert.equal(await read('drawio'), before, 'both undone, newest first: the diagram as before either');
});
