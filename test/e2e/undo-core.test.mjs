// Undo from the log (UNDO-1..UNDO-4) on the plain sample page, all real: the relay command, an MCP
// SDK client as the agent, Chromium, the user's clicks and keys. `sample_clear_note` is the page
// author's tool that hands back an undo step. Build first: `node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  callRelay, clickSwitch, confirmDialog, freePort, launchBrowser, listedNames, renderedTwice, root, showLog, startDemo, startRelay, waitFor, ensurePaired
} from './harness.mjs';

let demo, relay, browser, page;

const TOOL = 'sample';
const note = () => page.getByRole('textbox', { name: 'メモ' });
const rows = () => page.locator(`ai-ops-log[tool="${TOOL}"] [role="log"] [part~="row"]`);
const row = (i) => rows().nth(i);
const undoButton = (i) => row(i).locator('[part~="undo-button"]');
const dialog = () => confirmDialog(page);
const dialogOpen = () => page.locator('ai-ops-confirm dialog[open]').count();

/** The agent clears the note; the user approves the tool's own dialog like a person. */
async function agentClears() {
  const pending = callRelay(relay.client, 'sample_clear_note', {});
  await dialog().getByRole('heading', { name: 'メモを空にする' }).waitFor({ timeout: 15_000 });
  await dialog().getByRole('button', { name: '空にする' }).click();
  const answer = await pending;
  assert.equal(answer.isError, false, JSON.stringify(answer.result));
  await waitFor(async () => (await dialogOpen()) === 0, 5000, 'the dialog to close');
  return answer.env;
}

/** What the agent reads back through the relay. */
const agentReads = async () => (await callRelay(relay.client, 'sample_read_note', {})).env.text;

before(async () => {
  demo = await startDemo();
  relay = await startRelay({ origin: demo.origin, port: await freePort() });
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.goto(`${demo.origin}/sample/`);
  await clickSwitch(page, TOOL);
  // DOOR-6: the user pairs the page with their agent.
  await ensurePaired(page, relay.client, TOOL);
  await waitFor(async () => (await listedNames(relay.client)).includes('sample_clear_note'), 20_000, 'the sample operations through the relay');
  await showLog(page, TOOL);
});

after(async () => {
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

test('[UNDO-5] [UNDO-1] the dialog says 「元に戻す」 restores it; a read has no button, the change has', async () => {
  const original = await note().inputValue();
  assert.ok(original.length > 0);
  await callRelay(relay.client, 'sample_read_note', {});
  const pending = callRelay(relay.client, 'sample_clear_note', {});
  await dialog().getByRole('heading', { name: 'メモを空にする' }).waitFor({ timeout: 15_000 });
  assert.match(await dialog().locator('[part~="body"]').textContent(), /この操作は「元に戻す」で戻せます。/);
  await dialog().getByRole('button', { name: '空にする' }).click();
  assert.equal((await pending).env.count, original.length);
  assert.equal(await note().inputValue(), '');
  await waitFor(async () => (await rows().count()) === 2, 5000, 'two rows');
  assert.equal(await row(0).getAttribute('data-undo'), null);
  assert.equal(await row(0).locator('[part~="undo-button"]').count(), 0);
  assert.equal(await row(1).getAttribute('data-undo'), 'available');
  assert.match(await undoButton(1).getAttribute('aria-label'), /^元に戻す: sample_clear_note/);

  // UNDO-3: a script's click() does nothing.
  await undoButton(1).evaluate((button) => button.click());
  await renderedTwice(page);
  assert.equal(await note().inputValue(), '');
  assert.equal(await row(1).getAttribute('data-undo'), 'available');
  assert.equal(await rows().count(), 2);

  // The user's click: the note as it was, byte for byte, which the agent reads back too. It adds
  // exactly one row: the script's click above started no undo of its own, then or later.
  await undoButton(1).click();
  await waitFor(async () => (await row(1).getAttribute('data-undo')) === 'undone', 5000, 'the row undone');
  await waitFor(async () => (await rows().count()) === 3, 5000, 'the undo\'s own row');
  await renderedTwice(page);
  assert.equal(await rows().count(), 3);
  assert.equal(await note().inputValue(), original);
  assert.equal(await agentReads(), original);
  await waitFor(async () => (await rows().count()) === 4, 5000, 'the undo row and the read');
  assert.equal(await row(2).getAttribute('data-by'), 'user');
  assert.match(await row(2).textContent(), /sample_clear_note/);
  assert.match(await row(2).textContent(), /あなたが元に戻した/);
  assert.match(await row(2).textContent(), /成功/);
  assert.match(await row(1).textContent(), /元に戻しました。/);
  assert.equal(await undoButton(1).count(), 0, 'undone twice is impossible: the button is gone');
});

test('[UNDO-2] a later change of the note (the user typed, the agent cleared again) asks first; declining changes nothing, approving undoes both', async () => {
  const original = await note().inputValue();
  const first = rows();
  const start = await first.count();
  await agentClears();
  await note().fill('利用者が打った文');
  const typed = await note().inputValue();
  await agentClears();
  await waitFor(async () => (await rows().count()) === start + 2, 5000, 'two more rows');
  const [a, b] = [start, start + 1];

  await undoButton(a).click();
  await dialog().getByRole('heading', { name: 'sample_clear_note を元に戻す' }).waitFor({ timeout: 5000 });
  const body = await dialog().locator('[part~="body"]').textContent();
  assert.match(body, /記録の「元に戻す」で、操作 sample_clear_note による変更を元に戻します。/);
  assert.match(body, /あとの変更も元に戻ります: sample_clear_note/);
  assert.doesNotMatch(body, /AI のエージェント/);
  assert.equal(await dialog().getByRole('checkbox').count(), 0);
  assert.equal(await dialog().getByRole('button', { name: 'このページでは今後尋ねない' }).count(), 0);
  assert.equal(await page.evaluate(() => document.querySelector('ai-ops-confirm').shadowRoot.activeElement?.textContent.trim()), 'やめる');
  await dialog().getByRole('button', { name: 'やめる' }).click();
  await waitFor(async () => (await dialogOpen()) === 0, 5000, 'the dialog to close');
  assert.equal(await note().inputValue(), '');
  assert.equal(await row(a).getAttribute('data-undo'), 'available');
  assert.equal(await row(b).getAttribute('data-undo'), 'available');
  assert.equal(await rows().count(), start + 2, 'declining logged nothing');

  await undoButton(a).click();
  await dialog().getByRole('heading', { name: 'sample_clear_note を元に戻す' }).waitFor({ timeout: 5000 });
  await dialog().getByRole('button', { name: '元に戻す' }).click();
  await waitFor(async () => (await row(a).getAttribute('data-undo')) === 'undone', 5000, 'the first row undone');
  assert.equal(await row(b).getAttribute('data-undo'), 'undone');
  assert.equal(await note().inputValue(), original);
  assert.notEqual(original, typed);
  await waitFor(async () => (await rows().count()) === start + 4, 5000, 'two undo rows');
  assert.deepEqual(await Promise.all([2, 3].map((i) => row(start + i).getAttribute('data-by'))), ['user', 'user']);
});

test('[UNDO-4] over the page\'s budget the oldest before-state goes, and its row says it can no longer be undone; nothing stored', async () => {
  // The same sample page with a 100-byte budget (AiOpsOptions.undoBudgetBytes): each clear of the
  // note keeps 2 bytes per character, so the second clear drops the first.
  const small = await browser.context.newPage();
  const operations = await readFile(join(root, 'dist/site/sample/operations.js'), 'utf8');
  await small.route('**/sample/operations.js', (route) => route.fulfill({
    contentType: 'text/javascript',
    body: `import { configureAiOps } from '/ai-ops/ai-ops.js';\nconfigureAiOps({ undoBudgetBytes: 100 });\n${operations}`,
  }));
  // The first page goes (its switch off first, which is stored for the origin), so the relay
  // reaches this page only and it loads with the switch off.
  await clickSwitch(page, TOOL);
  await waitFor(async () => !(await listedNames(relay.client)).includes('sample_clear_note'), 10_000, 'the first page\'s operations gone');
  await page.close();
  await small.goto(`${demo.origin}/sample/`);
  const smallNote = small.getByRole('textbox', { name: 'メモ' });
  await smallNote.fill('a'.repeat(40));
  await clickSwitch(small, TOOL);
  // The first page's off ended the pairing (DOOR-6): the user pairs this one.
  await ensurePaired(small, relay.client, TOOL);
  await showLog(small, TOOL);
  const smallRows = small.locator(`ai-ops-log[tool="${TOOL}"] [role="log"] [part~="row"]`);
  const clear = async () => {
    const pending = callRelay(relay.client, 'sample_clear_note', {});
    const smallDialog = confirmDialog(small);
    await smallDialog.getByRole('heading', { name: 'メモを空にする' }).waitFor({ timeout: 20_000 });
    await smallDialog.getByRole('button', { name: '空にする' }).click();
    assert.equal((await pending).isError, false);
  };
  await waitFor(async () => (await listedNames(relay.client)).includes('sample_clear_note'), 20_000, 'this page\'s operations');
  const stored = await small.evaluate(() => ({ local: Object.keys(localStorage).sort(), session: sessionStorage.length }));
  await clear();
  await waitFor(async () => (await smallRows.count()) === 1, 5000, 'one row');
  assert.equal(await smallRows.nth(0).getAttribute('data-undo'), 'available');
  await smallNote.fill('b'.repeat(40));
  await clear();
  await waitFor(async () => (await smallRows.nth(0).getAttribute('data-undo')) === 'dropped', 5000, 'the first row dropped');
  assert.equal(await smallRows.nth(1).getAttribute('data-undo'), 'available');
  assert.equal(await smallRows.nth(0).locator('[part~="undo-button"]').count(), 0);
  assert.match(await smallRows.nth(0).textContent(), /もう元に戻せません/);
  // UNDO-4: memory only — the before-states wrote nothing to storage, and IndexedDB holds nothing of
  // ai-ops but the consent store's enrolment and switch receipts (UV-8).
  assert.deepEqual(await small.evaluate(() => ({ local: Object.keys(localStorage).sort(), session: sessionStorage.length })), stored);
  assert.deepEqual(await small.evaluate(async () => (await indexedDB.databases()).map((d) => d.name)), ['ai-ops-consent']);
  const consentKeys = await small.evaluate(() => new Promise((resolve, reject) => {
    const open = indexedDB.open('ai-ops-consent');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const keys = open.result.transaction('records').objectStore('records').getAllKeys();
      keys.onsuccess = () => {
        open.result.close();
        resolve(keys.result);
      };
    };
  }));
  // No before-state either: the page's anchor key (UV-14), the enrolment, the receipts, and the
  // pairing with the relay (DOOR-6).
  assert.deepEqual(consentKeys.sort(), ['anchor', 'enrolment', 'receipts:sample', 'relay-pairing']);
  // The newest can still be undone by the user.
  await smallRows.nth(1).locator('[part~="undo-button"]').click();
  await waitFor(async () => (await smallRows.nth(1).getAttribute('data-undo')) === 'undone', 5000, 'the second row undone');
  assert.equal(await smallNote.inputValue(), 'b'.repeat(40));
  await small.close();
});
