// Issue 25 through Playwright MCP (BATCH-2, BATCH-3, UV-6): the agent's browser as a user has it
// (agent-browser.mjs: one Chromium with its own WebMCP, the /node/ page on http://localhost, the
// user's device, present). A real Playwright MCP server calls `webmcp_node_delete_file` five times
// at once; the user (the test's own trusted click) presses 「すべて承認」 once: one verification, the
// five answer ok and the files are gone. A declined call the agent retries at once answers
// `declined` with `retryAfterMs`, with no second dialog.
// Build first: `npm run build && node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, waitFor, clickSwitch, confirmDialog } from './harness.mjs';
import { launchAgentBrowser, localOrigin, addUserDevice, startPlaywrightMcp, switchInput, browserListed, playwrightResult } from './agent-browser.mjs';

const FILES = ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt'];
let demo, browser, page, url, device, pw;

before(async () => {
  demo = await startDemo();
  browser = await launchAgentBrowser();
  page = browser.context.pages()[0];
  url = `${localOrigin(demo)}/node/?id=batch-pw-${Date.now().toString(36)}`;
  await page.goto(url);
  await switchInput(page, 'node').waitFor({ timeout: 30_000 });
  await page.getByRole('treeitem', { name: 'index.js', exact: true }).waitFor({ timeout: 30_000 });
  device = await addUserDevice(browser.context, page, { present: true });
  await clickSwitch(page, 'node');
  await waitFor(async () => (await browserListed(page, 'node_')).includes('node_delete_file'), 60_000, 'the node operations in the browser\'s WebMCP');
  pw = await startPlaywrightMcp(browser);
  await pw.selectTab(url);
  await waitFor(async () => (await pw.pageTools()).some((t) => t.name === 'webmcp_node_delete_file'), 30_000, 'Playwright MCP to list webmcp_node_delete_file');
});

after(async () => {
  await pw?.close();
  await device?.remove().catch(() => {});
  await browser?.close();
  await demo?.close();
});

const call = async (name, args) => playwrightResult(await pw.call(`webmcp_${name}`, args, 150_000)).env;

test('[BATCH-2] [UV-6] five webmcp_node_delete_file from Playwright MCP at once: one press of すべて承認 approves exactly those five', { timeout: 240_000 }, async () => {
  for (const path of [...FILES, 'keep.txt']) assert.equal((await call('node_write_file', { path, contents: path })).ok, true, path);
  const pending = FILES.map((path) => call('node_delete_file', { path }));
  const dialog = confirmDialog(page);
  await dialog.getByText('ほかに 4 件が待っています').waitFor({ timeout: 60_000 });
  // The user looks at the tab: a tab in the background gets no frames, so its list is not on screen yet.
  await page.bringToFront();
  // The user scrolls through the list (this browser's window is small: the dialog scrolls too).
  for (const item of await dialog.getByRole('listitem').all()) await item.scrollIntoViewIfNeeded();
  await dialog.getByRole('button', { name: 'すべて承認', exact: true }).click();
  const answers = await Promise.all(pending);
  assert.deepEqual(answers.map((env) => env.ok), [true, true, true, true, true], JSON.stringify(answers));
  for (const path of FILES) assert.equal((await call('node_read_file', { path })).ok, false, `${path} is gone`);
  assert.equal((await call('node_read_file', { path: 'keep.txt' })).ok, true);
});

test('[BATCH-3] [UV-6] Playwright MCP retrying a declined call at once gets declined with retryAfterMs, and no second dialog', { timeout: 240_000 }, async () => {
  const first = call('node_delete_file', { path: 'keep.txt' });
  await page.bringToFront();
  await confirmDialog(page).getByRole('button', { name: 'やめる', exact: true }).click({ timeout: 60_000 });
  const declined = await first;
  assert.equal(declined.error.code, 'declined');
  assert.match(declined.error.message, /do not call it again unless the user asks/);
  const again = await call('node_delete_file', { path: 'keep.txt' });
  assert.equal(again.error.code, 'declined');
  assert.ok(again.retryAfterMs > 0 && again.retryAfterMs <= 60_000, String(again.retryAfterMs));
  assert.equal(await page.locator('ai-ops-confirm dialog[open]').count(), 0);
  assert.equal((await call('node_read_file', { path: 'keep.txt' })).ok, true);
});
