// Issue 2's end-to-end proof on the sample page: a real relay process, a real MCP client, Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, startRelay, launchBrowser, freePort, waitFor, listedNames, envelope, clickSwitch, recordTraffic, settlePage, pairPage } from './harness.mjs';

let demo, relay, browser, page, traffic;
const sockets = [];

before(async () => {
  demo = await startDemo();
  const port = await freePort();
  relay = await startRelay({ origin: demo.origin, port });
  browser = await launchBrowser();
  // The page's time is Playwright's clock (flowing as usual): the "nothing while off" check jumps
  // past what a widget would have done (settlePage) instead of sleeping for it.
  await browser.context.clock.install();
  page = await browser.context.newPage();
  traffic = recordTraffic(page);
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.goto(`${demo.origin}/sample/`);
  await page.locator('ai-ops-switch[tool="sample"] input[role="switch"]').waitFor();
});

after(async () => {
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

const sampleNames = async () => (await listedNames(relay.client)).filter((n) => n.startsWith('sample_')).sort();

test('[VER-1] [SW-7] switch off: no relay script, no WebSocket, nothing listed through the relay', async () => {
  // Past the time a widget would have needed to scan every port, had one been added: 10 s of the
  // page's clock at once, then every request ended.
  await settlePage(page, traffic, 10_000);
  assert.deepEqual(sockets, []);
  assert.equal(await page.locator('script[src*="vendor"]').count(), 0);
  assert.deepEqual(await sampleNames(), []);
  assert.equal(await page.evaluate(() => 'modelContextTesting' in navigator), false);
});

test('[VER-2] [SW-2] switch on by a click: the sample operations are listed by a real MCP client', async () => {
  await clickSwitch(page, 'sample');
  // DOOR-6: the user pairs the page with their agent's relay (the code the agent told them).
  await pairPage(page, relay.client, 'sample');
  const names = await waitFor(async () => {
    const n = await sampleNames();
    return n.length === 3 && n;
  }, 15_000, 'sample tools through the relay');
  assert.deepEqual(names, ['sample_clear_note', 'sample_read_note', 'sample_wait']);
  assert.ok(sockets.some((url) => url.startsWith('ws://127.0.0.1:')), 'the widget connected to the relay');
  const read = await relay.client.callTool({ name: 'sample_read_note', arguments: {} });
  assert.equal(read.isError, undefined);
  assert.match(envelope(read).text, /メモ/);
});

test('[RELAY-3] a call with an unknown field answers invalid_input as text with isError: true', async () => {
  const result = await relay.client.callTool({ name: 'sample_read_note', arguments: { unexpected: 1 } });
  assert.equal(result.isError, true);
  assert.equal(result.content.length, 1);
  assert.equal(envelope(result).error.code, 'invalid_input');
});

test('[RELAY-1] [RELAY-2] a 55 s operation returns its real result through the relay command', { timeout: 120_000 }, async () => {
  const started = Date.now();
  const result = await relay.client.callTool({ name: 'sample_wait', arguments: { seconds: 55 } }, undefined, { timeout: 110_000 });
  assert.deepEqual(envelope(result), { waited: 55, ok: true });
  assert.ok(Date.now() - started >= 55_000);
});

test('[VER-5] every call left one row in the page log with its name', async () => {
  const locator = page.locator('ai-ops-log [role="log"] > *');
  await waitFor(async () => (await locator.count()) === 3, 5000, 'three log rows'); // renders just after each call
  const rows = await locator.allTextContents();
  assert.equal(rows.length, 3);
  assert.match(rows[0], /sample_read_note/);
  assert.match(rows[1], /sample_read_note/);
  assert.match(rows[2], /sample_wait/);
});

test('[VER-3] [SW-3] switch off: the relay drops the tools (list_changed) and a call answers "Tool not found"', async () => {
  const notified = relay.listChanged.length;
  await clickSwitch(page, 'sample');
  await waitFor(async () => (await sampleNames()).length === 0, 10_000, 'tools to disappear');
  await waitFor(() => relay.listChanged.length > notified, 5000, 'tools/list_changed');
  const result = await relay.client.callTool({ name: 'sample_read_note', arguments: {} });
  assert.equal(result.isError, true);
  assert.match(result.content[0].text, /Tool (not found: sample_read_note|sample_read_note not found)/);
  assert.equal(await page.locator('[data-webmcp-relay]').count(), 0);
});
