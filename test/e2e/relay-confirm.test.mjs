// Issue 6, confirmations of calls that come through the real relay (RELAY-1, CONF-4..CONF-8):
// slides_write called by an MCP SDK client through bin/ai-ops-relay.mjs, answered by clicks and
// keys in the /slides/ page like a person. Two long waits (40 s and 50 s) make this file ~2 minutes.
// Build first: `node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startDemo, startRelay, launchBrowser, freePort, waitFor, clickSwitch, callRelay, relayedNames, openToolPage, pairPage,
  confirmDialog, logRows, readLogRow, consentRecord,
} from './harness.mjs';
import { editorText } from './editor.mjs';

let demo, relay, browser, page;

const TITLE = 'スライド「ようこそ」の全文を置き換える';
const deck = (n) => Array.from({ length: n }, (_, i) => `# ${i + 1} 枚目`).join('\n\n---\n\n');
const dialog = () => confirmDialog(page);
const heading = () => dialog().getByRole('heading', { name: TITLE });
const dialogOpen = () => page.locator('ai-ops-confirm dialog[open]').count();
/** The deck as the page's Markdown editor shows it. */
const editorValue = () => editorText(page.getByRole('textbox', { name: 'Markdown', exact: true }));

before(async () => {
  demo = await startDemo();
  relay = await startRelay({ origin: demo.origin, port: await freePort() });
  browser = await launchBrowser();
  page = await openToolPage(browser.context, demo.origin, 'slides');
  await waitFor(async () => (await editorValue()).length > 0, 15_000, 'the deck');
  await clickSwitch(page, 'slides');
  // DOOR-6: each switch period, the user pairs the page with their agent's relay (the code it told them).
  await pairPage(page, relay.client, 'slides');
  await waitFor(async () => (await relayedNames(relay.client)).length === 3, 20_000, 'the slides operations through the relay');
});

after(async () => {
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

test('[RELAY-1] [CONF-4] approved 40 s after the call arrived: the agent gets the operation\'s real result', { timeout: 120_000 }, async () => {
  const markdown = deck(4);
  const started = Date.now();
  const pending = callRelay(relay.client, 'slides_write', { markdown });
  await heading().waitFor({ timeout: 15_000 });
  // The page changes nothing while the dialog waits.
  assert.doesNotMatch(await editorValue(), /4 枚目/);
  await page.waitForTimeout(Math.max(0, 40_000 - (Date.now() - started)));
  await dialog().getByRole('button', { name: '置き換える' }).click();
  const { isError, env, result } = await pending;
  assert.ok(Date.now() - started >= 40_000);
  assert.equal(isError, false, JSON.stringify(result));
  assert.deepEqual(env, { ok: true, slideCount: 4 });
  assert.equal(await editorValue(), markdown);
  await waitFor(async () => (await dialogOpen()) === 0, 5000, 'the dialog to close');
});

test('[CONF-6] やめる: the agent gets declined and nothing changes', async () => {
  const before = await editorValue();
  const pending = callRelay(relay.client, 'slides_write', { markdown: deck(1) });
  await heading().waitFor({ timeout: 15_000 });
  await dialog().getByRole('button', { name: 'やめる' }).click();
  const { isError, env } = await pending;
  assert.equal(isError, true);
  assert.equal(env.ok, false);
  assert.equal(env.error.code, 'declined');
  assert.equal(await editorValue(), before);
  assert.equal(await dialogOpen(), 0);
});

test('[CONF-6] Esc: the agent gets declined', async () => {
  const before = await editorValue();
  const pending = callRelay(relay.client, 'slides_write', { markdown: deck(2) });
  await heading().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Escape');
  const { isError, env } = await pending;
  assert.equal(isError, true);
  assert.equal(env.error.code, 'declined');
  assert.equal(await editorValue(), before);
  await waitFor(async () => (await dialogOpen()) === 0, 5000, 'the dialog to close');
});

test('[CONF-1] [CONF-3] the action button: the operation runs and the agent gets its result', async () => {
  const markdown = deck(3);
  const pending = callRelay(relay.client, 'slides_write', { markdown });
  await heading().waitFor({ timeout: 15_000 });
  // The skip is its own button (UV-18), not a box; focus on やめる.
  assert.equal(await dialog().getByRole('checkbox').count(), 0);
  assert.equal(await dialog().getByRole('button', { name: 'このページでは今後尋ねない' }).count(), 1);
  assert.equal(await page.evaluate(() => document.querySelector('ai-ops-confirm').shadowRoot.activeElement?.textContent?.trim()), 'やめる');
  await dialog().getByRole('button', { name: '置き換える' }).click();
  const { isError, env } = await pending;
  assert.equal(isError, false);
  assert.deepEqual(env, { ok: true, slideCount: 3 });
  assert.equal(await editorValue(), markdown);
});

test('[CONF-8] a call nobody answers: declined 50 s after it arrived, and the dialog closes', { timeout: 120_000 }, async () => {
  const before = await editorValue();
  const started = Date.now();
  const pending = callRelay(relay.client, 'slides_write', { markdown: deck(5) });
  await heading().waitFor({ timeout: 15_000 });
  const { isError, env } = await pending;
  const waited = Date.now() - started;
  console.log(`# declined after ${waited} ms`);
  assert.equal(isError, true);
  assert.equal(env.error.code, 'declined');
  assert.ok(waited >= 49_000 && waited <= 60_000, `${waited} ms`);
  await waitFor(async () => (await dialogOpen()) === 0, 3000, 'the dialog to close');
  assert.equal(await editorValue(), before);
});

test('[CONF-7] two calls at once: two dialogs in turn, one at a time, each answer going to its own call', async () => {
  const before = await editorValue();
  const six = deck(6);
  const seven = deck(7);
  const calls = {
    [six.length]: callRelay(relay.client, 'slides_write', { markdown: six }),
    [seven.length]: callRelay(relay.client, 'slides_write', { markdown: seven }),
  };
  const shownLength = async () => {
    await heading().waitFor({ timeout: 15_000 });
    const summary = await dialog().locator('[part="body"]').textContent();
    return Number(/(\d+) 文字/.exec(summary.replaceAll(',', ''))[1]);
  };
  const first = await shownLength();
  assert.equal(await page.locator('ai-ops-confirm dialog').count(), 1);
  assert.equal(await heading().count(), 1, 'one dialog at a time');
  await dialog().getByRole('button', { name: '置き換える' }).click();
  const firstResult = await calls[first];
  assert.equal(firstResult.isError, false);
  assert.equal(firstResult.env.slideCount, first === six.length ? 6 : 7);
  // The second dialog follows, for the other call.
  const second = await shownLength();
  assert.notEqual(second, first);
  await dialog().getByRole('button', { name: 'やめる' }).click();
  const secondResult = await calls[second];
  assert.equal(secondResult.env.error.code, 'declined');
  assert.equal(await editorValue(), first === six.length ? six : seven);
  assert.notEqual(await editorValue(), before);
  await waitFor(async () => (await dialogOpen()) === 0, 5000, 'the dialog to close');
});

test('[CONF-5] 「このページでは今後尋ねない」 (its own button, UV-18): the call runs, and the next call runs without a dialog', async () => {
  const pending = callRelay(relay.client, 'slides_write', { markdown: deck(8) });
  await heading().waitFor({ timeout: 15_000 });
  await dialog().getByRole('button', { name: 'このページでは今後尋ねない' }).click();
  assert.deepEqual((await pending).env, { ok: true, slideCount: 8 });
  await waitFor(async () => (await dialogOpen()) === 0, 5000, 'the dialog to close');

  let opened = false;
  const watch = setInterval(async () => {
    if ((await dialogOpen().catch(() => 0)) > 0) opened = true;
  }, 20);
  try {
    const next = await callRelay(relay.client, 'slides_write', { markdown: deck(9) });
    assert.deepEqual(next.env, { ok: true, slideCount: 9 });
  } finally {
    clearInterval(watch);
  }
  assert.equal(opened, false, 'no dialog opened');
  assert.equal(await editorValue(), deck(9));
  const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('fd-ai-operations:slides')));
  assert.equal(typeof stored.skipConfirmUntil, 'number');
});

test('[VER-5] each relayed confirmation left one row: 成功 for the approved, 中止 for the declined', async () => {
  const rows = logRows(page, 'slides');
  // The log renders a moment after the call it records.
  await waitFor(async () => (await rows.count()) === 9, 5000, 'nine log rows');
  const badges = await page.locator('ai-ops-log[tool="slides"] [part~="badge"]').allTextContents();
  // In the collapsed panel the last row is shown again in the summary: read the rows only.
  const rowBadges = await rows.locator('[part~="badge"]').allTextContents();
  assert.ok(badges.length >= rowBadges.length);
  assert.deepEqual(rowBadges.map((b) => b.trim()).filter((b) => b === '中止').length, 4);
  const last = await readLogRow(page, 'slides', 8);
  assert.equal(last.name, 'slides_write');
  assert.match(last.args, /# 9 枚目/);
  assert.match(last.result, /"slideCount": 9/);
});

test('[UV-6] [UV-1] through the relay, in this browser mode, the approval is the click plus the device: the dialog says so and the row keeps the receipt', async () => {
  // The 「今後尋ねない」 above was verified too; turn the switch off and on (verified again) so a dialog shows.
  await clickSwitch(page, 'slides');
  await waitFor(async () => (await relayedNames(relay.client)).length === 0, 20_000, 'the slides operations gone');
  await clickSwitch(page, 'slides');
  // The off ended the pairing (DOOR-6): the user pairs again.
  await pairPage(page, relay.client, 'slides');
  await waitFor(async () => (await relayedNames(relay.client)).length === 3, 20_000, 'the slides operations back');
  // UV-8: the receipts are kept where a program that only writes storage cannot write, not in localStorage.
  const stored = await consentRecord(page, 'receipts:slides');
  assert.equal(stored.on.description.kind, 'switch');
  assert.deepEqual(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('slides'))), ['fd-ai-operations:slides']);
  const pending = callRelay(relay.client, 'slides_write', { markdown: deck(4) });
  await heading().waitFor({ timeout: 15_000 });
  assert.match(await dialog().locator('[part~="verification-notice"]').textContent(), /本人確認が必要です/);
  await dialog().getByRole('button', { name: '置き換える' }).click();
  assert.deepEqual((await pending).env, { ok: true, slideCount: 4 });
  const rows = logRows(page, 'slides');
  await waitFor(async () => (await rows.last().locator('[part~="verified"]').count()) === 1, 5000, 'the verified row');
});
