// Issue 6, RELAY-5 without a click: the user opens the page, turns the switch on, goes to another
// tab, starts the agent (the relay command with an MCP SDK client) and comes back to the page.
// Real demo server, real relay, Chromium with real focus changes (Playwright's focus emulation off).
// Build first: `node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startDemo, startRelay, launchBrowser, freePort, waitFor, clickSwitch, callRelay, relayedNames, recordTraffic, pairPage,
  openToolPage, realFocus, OPERATIONS,
} from './harness.mjs';

let demo, relay, browser, page, traffic;

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
  page = await openToolPage(browser.context, demo.origin, 'sql', '?id=late-focus');
  traffic = recordTraffic(page);
  await realFocus(browser.context, page);
});

after(async () => {
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

test('[RELAY-5] a relay started while the user is in another tab: listed within 5 s of coming back to the page', async () => {
  await clickSwitch(page, 'sql');
  await waitFor(() => page.evaluate(() => navigator.modelContextTesting?.listTools().length === 2), 15_000, 'the tools in the page');
  // DOOR-6: the user paired this page with their agent's relay earlier in the switch period; the
  // agent then quit (its relay with it). The pairing stays on both sides: the page looks for its relay.
  const earlier = await startRelay({ origin: demo.origin, port: await freePort() });
  try {
    await pairPage(page, earlier.client, 'sql');
    await waitFor(async () => (await relayedNames(earlier.client)).length === 2, 20_000, 'the tools through the earlier relay');
  } finally {
    await earlier.close();
  }
  const focus = [];
  await page.exposeFunction('__focusChanged', (type) => focus.push(type));
  await page.evaluate(() => {
    addEventListener('focus', () => window.__focusChanged('focus'));
    addEventListener('blur', () => window.__focusChanged('blur'));
  });
  // The page stays open without an agent for a while: until it has looked at the relay port three
  // more times (every 2 s while a switch is on) and found nothing there.
  const looked = traffic.toRelayPorts().length;
  await waitFor(() => traffic.toRelayPorts().length >= looked + 3, 30_000, 'three more looks at the relay port');

  // The user goes to another tab and starts the agent there.
  const other = await browser.context.newPage();
  await other.goto(`${demo.origin}/`);
  await other.bringToFront();
  await waitFor(() => focus.includes('blur'), 5000, 'the page to lose focus');
  relay = await startRelay({ origin: demo.origin, port: await freePort() });
  const started = Date.now();

  // … and comes back.
  await page.bringToFront();
  await waitFor(() => focus.at(-1) === 'focus', 5000, 'the page to get focus');
  const back = Date.now();
  await waitFor(async () => (await relayedNames(relay.client)).length === 2, 5000, 'the tools through the late relay');
  const now = Date.now();
  console.log(`# listed ${now - back} ms after the page got focus, ${now - started} ms after the relay started`);
  assert.ok(now - back <= 5000);
  assert.deepEqual(await relayedNames(relay.client), OPERATIONS.sql);
  assert.ok(traffic.sockets.length >= 1);
  const read = await callRelay(relay.client, 'sql_read_query');
  assert.equal(read.isError, false);
  assert.equal(typeof read.env.sql, 'string');
  await other.close();
});
