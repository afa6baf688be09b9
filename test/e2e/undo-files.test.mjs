// Issue 19, the file tools' undo end to end (UNDO-1, UNDO-2, UNDO-3, UNDO-5): the real /node/ page
// (its localhost runner, real Node processes) and the real /go/ page (its files module, IndexedDB),
// both switched on by a click, an MCP SDK client calling through bin/ai-ops-relay.mjs. For each of
// node_write_file, node_delete_file, node_run_command, go_write_file and go_delete_file: the files
// read, the agent's change, the user's trusted click on the row's 「元に戻す」, the files read back
// byte-identical (on the runner's disk too, for node). Run in both browser modes:
// `node --test test/e2e/undo-files.test.mjs` and `AI_OPS_BROWSER_MODE=webmcp node --test …`.
// Build first: `npm run build && node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  startDemo, startRelay, launchBrowser, freePort, waitFor, clickSwitch, callRelay, relayedNames, openToolPage,
  confirmDialog, logRows, showLog, OPERATIONS, ensurePaired
} from './harness.mjs';

const embedId = `undo-${Date.now().toString(36)}`;
/** Texts a careless round trip would change: a BOM, CRLF, a tab, kanji, an emoji. */
const TRICKY = '\uFEFF// 日本語 \u{1F600}\r\nconst a = 1;\t\r\n\n';
const GO_TEXT = 'package main\n\n// 日本語 \u{1F600}\t\n\nfunc main() {}\n';

let demo, relay, browser, nodePage, goPage;

/** The page and log of an operation's tool. */
const toolOf = (name) => (name.startsWith('node_') ? { page: nodePage, tool: 'node' } : { page: goPage, tool: 'go' });

/** Calls through the relay like an agent; answers once the call's row shows in the page's log. */
async function relayed(name, args) {
  const { page, tool } = toolOf(name);
  const before = await logRows(page, tool).count();
  const answer = await callRelay(relay.client, name, args);
  // The log renders a moment after the answer: wait, so the newest row is this call's.
  await waitFor(async () => (await logRows(page, tool).count()) > before, 10_000, `the row of ${name}`);
  return answer;
}

/** Calls through the relay like an agent and asserts an ok envelope. */
async function agent(name, args) {
  const { isError, env, result } = await relayed(name, args);
  assert.equal(isError, false, `${name}: ${JSON.stringify(result)}`);
  return env;
}

/** A file's text as the agent reads it, or the failure code (`not_found`). */
async function agentRead(tool, path) {
  const { env } = await relayed(`${tool}_read_file`, { path });
  return env.ok ? env.contents : env.error.code;
}

/** The bytes on the runner's disk, or null when no file is there. */
const onDisk = async (path) => (existsSync(join(demo.workspace, path)) ? readFile(join(demo.workspace, path)) : null);

/**
 * The log row of the newest agent's call of `name` (with `available`: of those that can be undone),
 * found by its id, so rows logged after it do not move it. The log renders a moment after the call
 * answered: this waits for the row.
 */
async function newestRow(page, tool, name, { available = true } = {}) {
  await page.bringToFront();
  await showLog(page, tool);
  const id = await waitFor(() => logRows(page, tool).evaluateAll((all, [n, mustUndo]) => {
    const mine = all.filter((row) => row.querySelector('[part="name"]')?.textContent.trim() === n && row.dataset.by !== 'user' &&
      (!mustUndo || row.dataset.undo === 'available'));
    return mine.length ? mine[mine.length - 1].dataset.id : null;
  }, [name, available]), 10_000, `a ${name} row in the ${tool} log`);
  return page.locator(`ai-ops-log[tool="${tool}"] [part="row"][data-id="${id}"]`);
}

/** The row's 「元に戻す」 button (the row says `available`). */
async function undoButton(row) {
  assert.equal(await row.getAttribute('data-undo'), 'available');
  const button = row.getByRole('button', { name: /^元に戻す/ });
  if (!(await button.isVisible())) await row.locator('[part="row-summary"]').click();
  return button;
}

/**
 * The user's trusted click on the newest row's 「元に戻す」 (Playwright's click is trusted); waits
 * until the row says undone and the undo is logged as the user's own row.
 */
async function userUndoes(page, tool, name) {
  const row = await newestRow(page, tool, name);
  const before = await logRows(page, tool).count();
  await (await undoButton(row)).click();
  await waitFor(async () => (await row.getAttribute('data-undo')) === 'undone', 10_000, 'data-undo="undone" on the row');
  await waitFor(async () => (await logRows(page, tool).count()) > before, 10_000, 'the undo\'s own row');
  const undoRow = logRows(page, tool).last();
  assert.equal(await undoRow.getAttribute('data-by'), 'user');
  assert.equal((await undoRow.locator('[part="name"]').textContent()).trim(), name);
  return row;
}

/** Runs a confirmed call: the dialog says the change can be undone (UNDO-5), a real click approves. */
async function confirmedByUser(page, name, args, title) {
  const answered = relayed(name, args);
  await page.bringToFront();
  const dialog = confirmDialog(page);
  await dialog.getByRole('heading', { name: title }).waitFor({ timeout: 15_000 });
  const body = await dialog.locator('[part="body"]').textContent();
  assert.match(body, /この操作は「元に戻す」で戻せます。/);
  assert.doesNotMatch(body, /元に戻せません/);
  await dialog.getByRole('button', { name: '削除する' }).click();
  const { isError, env, result } = await answered;
  assert.equal(isError, false, JSON.stringify(result));
  return env;
}

before(async () => {
  demo = await startDemo();
  relay = await startRelay({ origin: demo.origin, port: await freePort() });
  browser = await launchBrowser();
  nodePage = await openToolPage(browser.context, demo.origin, 'node', `?id=${embedId}`);
  await nodePage.getByRole('treeitem', { name: 'index.js', exact: true }).waitFor({ timeout: 30_000 });
  await clickSwitch(nodePage, 'node');
  goPage = await openToolPage(browser.context, demo.origin, 'go', `?id=${embedId}`);
  await goPage.locator('#file-tree [role="treeitem"]').first().waitFor({ timeout: 30_000 });
  await clickSwitch(goPage, 'go');
  // DOOR-6: the user pairs once, in the go tab; the node tab, looked at, uses the pairing too.
  await ensurePaired(goPage, relay.client, 'go');
  await nodePage.bringToFront();
  const expected = [...OPERATIONS.node, ...OPERATIONS.go].sort();
  let listed = [];
  await waitFor(async () => JSON.stringify((listed = await relayedNames(relay.client))) === JSON.stringify(expected), 30_000, 'the node and go operations through the relay')
    .catch((error) => { throw new Error(`${error.message}; listed: ${listed.join(', ')}`); });
  // The runtime boots at page load: the first calls may answer not_ready.
  await waitFor(async () => (await callRelay(relay.client, 'node_list_files', {})).env?.ok === true, 30_000, 'the Node runtime');
});

after(async () => {
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

test('[UNDO-1] [UNDO-3] node_write_file over a file: the user\'s 元に戻す puts back its bytes exactly (read and on disk)', async () => {
  await agent('node_write_file', { path: 'undo/tricky.js', contents: TRICKY });
  const bytes = await onDisk('undo/tricky.js');
  assert.equal(await agentRead('node', 'undo/tricky.js'), TRICKY);
  await agent('node_write_file', { path: 'undo/tricky.js', contents: 'overwritten by the agent\n' });
  assert.equal(await agentRead('node', 'undo/tricky.js'), 'overwritten by the agent\n');
  await userUndoes(nodePage, 'node', 'node_write_file');
  assert.equal(await agentRead('node', 'undo/tricky.js'), TRICKY);
  assert.ok((await onDisk('undo/tricky.js')).equals(bytes), 'byte-identical on the runner\'s disk');
});

test('[UNDO-1] node_write_file that created a file: 元に戻す removes it again, and the directories it made', async () => {
  assert.equal(await agentRead('node', 'undo/new/created.js'), 'not_found');
  await agent('node_write_file', { path: 'undo/new/created.js', contents: 'made\n' });
  await userUndoes(nodePage, 'node', 'node_write_file');
  assert.equal(await agentRead('node', 'undo/new/created.js'), 'not_found');
  assert.equal(existsSync(join(demo.workspace, 'undo/new')), false, 'the directory the write made is gone');
  assert.equal(existsSync(join(demo.workspace, 'undo')), true, 'the one there before stays');
});

test('[UNDO-1] [UNDO-5] node_delete_file: the dialog says 「元に戻す」で戻せます, and the user\'s 元に戻す brings the file back byte-identical', async () => {
  await agent('node_write_file', { path: 'undo/doomed.js', contents: TRICKY });
  const bytes = await onDisk('undo/doomed.js');
  const env = await confirmedByUser(nodePage, 'node_delete_file', { path: 'undo/doomed.js' }, 'ファイル「undo/doomed.js」を削除する');
  assert.deepEqual(env, { ok: true, path: 'undo/doomed.js' });
  assert.equal(await onDisk('undo/doomed.js'), null);
  await userUndoes(nodePage, 'node', 'node_delete_file');
  assert.equal(await agentRead('node', 'undo/doomed.js'), TRICKY);
  assert.ok((await onDisk('undo/doomed.js')).equals(bytes));
});

test('[UNDO-1] node_run_command: 元に戻す restores every kept file it created, changed or deleted; node_modules/ is not kept and stays', async () => {
  await agent('node_write_file', { path: 'undo/cmd/a.txt', contents: TRICKY });
  await agent('node_write_file', { path: 'undo/cmd/b.txt', contents: 'b stays\r\n' });
  const a = await onDisk('undo/cmd/a.txt');
  const b = await onDisk('undo/cmd/b.txt');
  const script = [
    "const fs = require('fs');",
    "fs.writeFileSync('undo/cmd/a.txt', 'changed');",
    "fs.rmSync('undo/cmd/b.txt');",
    "fs.writeFileSync('undo/cmd/c.txt', 'created');",
    "fs.mkdirSync('node_modules/undo-pkg', { recursive: true });",
    "fs.writeFileSync('node_modules/undo-pkg/index.js', 'module.exports = 1;');",
  ].join(' ');
  const env = await agent('node_run_command', { command: 'node', args: ['-e', script] });
  assert.equal(env.exitCode, 0, JSON.stringify(env));
  assert.equal(await agentRead('node', 'undo/cmd/a.txt'), 'changed');
  await userUndoes(nodePage, 'node', 'node_run_command');
  assert.ok((await onDisk('undo/cmd/a.txt')).equals(a), 'a.txt byte-identical');
  assert.ok((await onDisk('undo/cmd/b.txt')).equals(b), 'b.txt back, byte-identical');
  assert.equal(await onDisk('undo/cmd/c.txt'), null, 'c.txt removed again');
  assert.equal((await onDisk('node_modules/undo-pkg/index.js'))?.toString(), 'module.exports = 1;', 'node_modules/ is not kept, so not undone');
});

test('[UNDO-1] node_run_command that changed no kept file has no 元に戻す', async () => {
  const env = await agent('node_run_command', { command: 'node', args: ['-e', 'console.log("read only")'] });
  assert.equal(env.exitCode, 0);
  const row = await newestRow(nodePage, 'node', 'node_run_command', { available: false });
  assert.equal(await row.getAttribute('data-undo'), null);
  assert.equal(await row.getByRole('button', { name: /^元に戻す/ }).count(), 0);
});

test('[UNDO-2] after the agent\'s write the user saves an edit: 元に戻す first asks; やめる changes nothing, 元に戻す restores', async () => {
  await agent('node_write_file', { path: 'undo-edited.js', contents: 'original\n' });
  await agent('node_write_file', { path: 'undo-edited.js', contents: 'by the agent\n' });
  const row = await newestRow(nodePage, 'node', 'node_write_file');
  // The person's own edit, saved from the page's editor (the log does not show it).
  await nodePage.getByRole('treeitem', { name: 'undo-edited.js', exact: true }).click();
  const editor = nodePage.locator('.editor-pane .cm-content');
  await waitFor(async () => (await editor.textContent()).includes('by the agent'), 10_000, 'the file in the editor');
  await editor.click();
  await nodePage.keyboard.press('Control+End');
  await nodePage.keyboard.type('typed by the user');
  await nodePage.keyboard.press('Control+s');
  await waitFor(async () => (await agentRead('node', 'undo-edited.js')).includes('typed by the user'), 10_000, 'the saved edit');
  const saved = await agentRead('node', 'undo-edited.js');
  await nodePage.bringToFront();
  await showLog(nodePage, 'node');
  const dialog = confirmDialog(nodePage);
  await (await undoButton(row)).click();
  await dialog.getByRole('button', { name: 'やめる' }).waitFor({ timeout: 10_000 });
  // The page's saved edit is what goes too: the step's changedSince() saw it (no later row does).
  assert.match(await dialog.locator('[part="body"]').textContent(), /記録にない変更/);
  await dialog.getByRole('button', { name: 'やめる' }).click();
  assert.equal(await agentRead('node', 'undo-edited.js'), saved);
  assert.equal(await row.getAttribute('data-undo'), 'available');
  await (await undoButton(row)).click();
  await dialog.getByRole('button', { name: /^元に戻す/ }).click();
  await waitFor(async () => (await row.getAttribute('data-undo')) === 'undone', 10_000, 'the row undone');
  assert.equal(await agentRead('node', 'undo-edited.js'), 'original\n');
});

test('[UNDO-1] [UNDO-3] go_write_file over a file and of a new one: the user\'s 元に戻す puts back the text, and the absence', async () => {
  await agent('go_write_file', { path: 'undo/keep.go', contents: GO_TEXT });
  assert.equal(await agentRead('go', 'undo/keep.go'), GO_TEXT);
  await agent('go_write_file', { path: 'undo/keep.go', contents: 'package main\n\n// the agent\n' });
  await userUndoes(goPage, 'go', 'go_write_file');
  assert.equal(await agentRead('go', 'undo/keep.go'), GO_TEXT);
  assert.equal(await agentRead('go', 'undo/made/fresh.go'), 'not_found');
  const listing = async () => JSON.stringify((await agent('go_list_files', { path: 'undo' })).entries);
  const listed = await listing();
  await agent('go_write_file', { path: 'undo/made/fresh.go', contents: 'package made\n' });
  await userUndoes(goPage, 'go', 'go_write_file');
  assert.equal(await agentRead('go', 'undo/made/fresh.go'), 'not_found');
  assert.equal(await listing(), listed, 'the directory the write made is gone too');
});

test('[UNDO-1] [UNDO-5] go_delete_file: the dialog says 「元に戻す」で戻せます, and the user\'s 元に戻す brings the file back byte-identical', async () => {
  await agent('go_write_file', { path: 'undo/doomed.go', contents: GO_TEXT });
  const env = await confirmedByUser(goPage, 'go_delete_file', { path: 'undo/doomed.go' }, 'ファイル「undo/doomed.go」を削除する');
  assert.deepEqual(env, { ok: true, path: 'undo/doomed.go' });
  assert.equal(await agentRead('go', 'undo/doomed.go'), 'not_found');
  await userUndoes(goPage, 'go', 'go_delete_file');
  assert.equal(await agentRead('go', 'undo/doomed.go'), GO_TEXT);
});

test('[UNDO-4] the before-states live in the pages\' memory only: no localStorage value holds them, and the one IndexedDB is the go page\'s project, holding the files as they are', async () => {
  // A before-state still kept: the agent's change is not undone.
  await agent('node_write_file', { path: 'undo/kept.js', contents: `${TRICKY}kept before\n` });
  await agent('node_write_file', { path: 'undo/kept.js', contents: 'after\n' });
  await agent('go_write_file', { path: 'undo/kept.go', contents: `${GO_TEXT}// kept before\n` });
  await agent('go_write_file', { path: 'undo/kept.go', contents: 'package main\n' });
  const stored = (page) => page.evaluate(async () => ({
    values: Object.keys(localStorage).map((key) => localStorage.getItem(key)),
    databases: (await indexedDB.databases()).map((db) => db.name).sort(),
  }));
  // Both pages are of one origin: one localStorage, one list of databases — the go page's project
  // and ai-ops's consent store (UV-8), which holds the enrolment, the switches' receipts and the relay pairing only.
  for (const page of [nodePage, goPage]) {
    const { values, databases } = await stored(page);
    assert.ok(!values.some((value) => value.includes('kept before')), 'no before-state in localStorage');
    assert.deepEqual(databases, ['ai-ops-consent', 'ai-ops-go']);
  }
  const consent = await goPage.evaluate(() => new Promise((resolve, reject) => {
    const open = indexedDB.open('ai-ops-consent');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const store = open.result.transaction('records').objectStore('records');
      const keys = store.getAllKeys();
      const all = store.getAll();
      all.onsuccess = () => resolve({ keys: keys.result, text: JSON.stringify(all.result) });
    };
  }));
  // (and the pairing with the relay, DOOR-6: a key, no file)
  // The page's anchor key (UV-14) and any rest after refused prompts (UV-16) are consent's too.
  assert.ok(consent.keys.every((key) => ['anchor', 'enrolment', 'relay-pairing'].includes(key) || key.startsWith('receipts:') || key.startsWith('rest:')), JSON.stringify(consent.keys));
  assert.ok(!consent.text.includes('kept before'), 'no before-state in the consent store');
  const project = await goPage.evaluate((id) => new Promise((resolve, reject) => {
    const open = indexedDB.open('ai-ops-go');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const get = open.result.transaction('projects').objectStore('projects').get(id);
      get.onsuccess = () => resolve({ stores: [...open.result.objectStoreNames], text: JSON.stringify(get.result) });
    };
  }), embedId);
  assert.deepEqual(project.stores, ['projects']);
  assert.ok(!project.text.includes('kept before'), 'the project record holds the files as they are, not the before-state');
});
