// Issue 25 through the real relay (BATCH-1..BATCH-3, UV-6): five node_delete_file from a real MCP
// client in one burst, one trusted click on 「すべて承認」 in the /node/ page (whose virtual
// authenticator the harness adds: one verification), the five answer ok and the files are gone; a
// declined call retried at once answers `declined` with `retryAfterMs`, with no second dialog.
// The 60 s passing: the page's clock (Playwright's, installed before the page loaded) jumps them.
// Build first: `npm run build && node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, startRelay, launchBrowser, freePort, waitFor, clickSwitch, callRelay, relayedNames, confirmDialog, logRows, showLog, pairPage } from './harness.mjs';

let demo, relay, browser, page;
const FILES = ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt'];
const dialogOpen = () => page.locator('ai-ops-confirm dialog[open]').count();

before(async () => {
  demo = await startDemo();
  relay = await startRelay({ origin: demo.origin, port: await freePort() });
  browser = await launchBrowser();
  page = await browser.context.newPage();
  // It flows as usual until a test jumps it (BATCH-3's 60 s).
  await page.clock.install();
  await page.goto(`${demo.origin}/node/?id=batch-relay-${Date.now().toString(36)}`);
  await page.getByRole('treeitem', { name: 'index.js', exact: true }).waitFor({ timeout: 30_000 });
  await clickSwitch(page, 'node');
  // DOOR-6: the user pairs the page with their agent's relay (the code it told them).
  await pairPage(page, relay.client, 'node');
  await waitFor(async () => (await relayedNames(relay.client)).includes('node_delete_file'), 60_000, 'the node operations through the relay');
});

after(async () => {
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

test('[BATCH-1] [BATCH-2] [UV-6] five node_delete_file in one burst through the relay: one click on すべて承認 approves exactly those five', { timeout: 120_000 }, async () => {
  for (const path of [...FILES, 'keep.txt']) {
    assert.equal((await callRelay(relay.client, 'node_write_file', { path, contents: path })).env?.ok, true, path);
  }
  const pending = FILES.map((path) => callRelay(relay.client, 'node_delete_file', { path }));
  const dialog = confirmDialog(page);
  await dialog.getByText('ほかに 4 件が待っています').waitFor({ timeout: 20_000 });
  assert.equal(await dialog.getByRole('list', { name: 'ほかに 4 件が待っています' }).getByRole('listitem').count(), 4);
  // Playwright waits until the button is enabled (not aria-disabled): every item on screen, SAFE-7 past.
  await dialog.getByRole('button', { name: 'すべて承認', exact: true }).click();
  const answers = await Promise.all(pending);
  assert.deepEqual(answers.map((a) => a.env?.ok), [true, true, true, true, true], JSON.stringify(answers.map((a) => a.env)));
  for (const path of FILES) {
    assert.equal((await callRelay(relay.client, 'node_read_file', { path })).env?.ok, false, `${path} is gone`);
  }
  assert.equal((await callRelay(relay.client, 'node_read_file', { path: 'keep.txt' })).env?.ok, true);
  await waitFor(async () => (await dialogOpen()) === 0, 10_000, 'the dialog to close');
  // BATCH-4: the five rows say they were approved together, each verified (the one verification's receipt).
  await showLog(page, 'node');
  const batched = logRows(page, 'node').filter({ has: page.locator('[part="batch"]', { hasText: 'まとめて承認(5 件)' }) });
  await waitFor(async () => (await batched.count()) === 5, 10_000, 'five rows approved together');
  assert.equal(await batched.filter({ has: page.locator('[part="verified"]') }).count(), 5);
});

test('[BATCH-3] a declined call retried at once through the relay answers declined with retryAfterMs and shows no second dialog; after 60 s it asks again', { timeout: 120_000 }, async () => {
  const first = callRelay(relay.client, 'node_delete_file', { path: 'keep.txt' });
  const dialog = confirmDialog(page);
  await dialog.getByRole('button', { name: 'やめる', exact: true }).click({ timeout: 20_000 });
  const declined = await first;
  assert.equal(declined.env?.error?.code, 'declined');
  assert.match(declined.env.error.message, /do not call it again unless the user asks/);
  const again = await callRelay(relay.client, 'node_delete_file', { path: 'keep.txt' });
  assert.equal(again.env?.error?.code, 'declined');
  assert.ok(again.env.retryAfterMs > 0 && again.env.retryAfterMs <= 60_000, String(again.env.retryAfterMs));
  assert.equal(await dialogOpen(), 0);
  assert.equal((await callRelay(relay.client, 'node_read_file', { path: 'keep.txt' })).env?.ok, true);
  // Past the 60 s of the user's no, the same call shows its dialog again.
  await page.clock.fastForward(60_000);
  const later = callRelay(relay.client, 'node_delete_file', { path: 'keep.txt' });
  await dialog.getByRole('button', { name: 'やめる', exact: true }).click({ timeout: 20_000 });
  const asked = await later;
  assert.equal(asked.env?.error?.code, 'declined');
  assert.equal(asked.env.retryAfterMs, undefined, 'a dialog was shown and declined, not an at-once refusal');
});
