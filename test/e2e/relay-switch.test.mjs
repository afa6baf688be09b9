// Issue 6, the switch seen through the real relay (VER-1..VER-5) on the /slides/ page: the demo
// server, the relay command agents run (bin/ai-ops-relay.mjs) with an MCP SDK client on its stdio,
// Debian's Chromium driven by playwright-core. The relay runs before the page opens, so a page that
// connected while off would be seen. Build first: `node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import {
  startDemo, startRelay, launchBrowser, freePort, waitFor, clickSwitch, callRelay, relayedNames, recordTraffic, pairPage,
  openToolPage, readLogRow, logRows, settlePage, RELAY_OWN_TOOLS, RELAY_PORT_URL, OPERATIONS, BROWSER_MODE,
} from './harness.mjs';

let demo, relay, browser, page, traffic;

before(async () => {
  demo = await startDemo();
  relay = await startRelay({ origin: demo.origin, port: await freePort() });
  browser = await launchBrowser();
  // The pages' time is Playwright's clock: the "nothing happens while off" checks jump past what a
  // widget would have done (settlePage) instead of sleeping for it.
  await browser.context.clock.install();
  page = await browser.context.newPage();
  traffic = recordTraffic(page);
  await page.goto(`${demo.origin}/slides/`);
  await page.locator('ai-ops-switch[tool="slides"] input[role="switch"]').waitFor();
});

after(async () => {
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

const NOT_FOUND = (name) => new RegExp(`Tool (not found: ${name}|${name} not found)`);

test('[VER-1] [SW-7] off: nothing listed in the page or through the relay, no WebSocket, no request to a relay port, no vendor script', async () => {
  // Past the time a widget would have needed to scan every port, had one been added: 10 s of the
  // page's clock at once, then every request ended.
  await settlePage(page, traffic, 10_000);
  assert.deepEqual(await relayedNames(relay.client), []);
  assert.equal(await page.evaluate(() => 'modelContextTesting' in navigator), false);
  assert.deepEqual(traffic.sockets, []);
  assert.deepEqual(traffic.toRelayPorts(), []);
  assert.deepEqual(traffic.requests.filter((url) => url.includes('/vendor/')), []);
  assert.equal(await page.locator('script[src*="vendor"]').count(), 0);
  assert.equal(await page.locator('[data-webmcp-relay]').count(), 0);
  // The relay's own tools are all it lists.
  const { tools } = await relay.client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), RELAY_OWN_TOOLS);
  const sources = await callRelay(relay.client, 'webmcp_list_sources');
  assert.equal(sources.env.count, 0);
});

test('[VER-2] [SW-2] on by a click: the slides operations are listed through the relay and callable', async () => {
  await clickSwitch(page, 'slides');
  // DOOR-6: each switch period, the user pairs the page with their agent's relay (the code it told them).
  await pairPage(page, relay.client, 'slides');
  const names = await waitFor(async () => {
    const n = await relayedNames(relay.client);
    return n.length === 3 && n;
  }, 20_000, 'the slides operations through the relay');
  assert.deepEqual(names, OPERATIONS.slides);
  assert.ok(traffic.sockets.some((url) => RELAY_PORT_URL.test(url)), 'the widget opened a WebSocket to the relay');
  const read = await callRelay(relay.client, 'slides_read');
  assert.equal(read.isError, false);
  assert.equal(read.result.content.length, 1);
  assert.equal(read.env.ok, true);
  assert.deepEqual(read.env.document, { id: 'welcome', name: 'ようこそ' });
  assert.equal(read.env.slideCount, 3);
  const theme = await callRelay(relay.client, 'slides_set_theme', { theme: 'gaia' });
  assert.deepEqual(theme.env, { ok: true, theme: 'gaia' });
  const bad = await callRelay(relay.client, 'slides_set_theme', { theme: 'gaia', extra: true });
  assert.equal(bad.isError, true);
  assert.equal(bad.env.error.code, 'invalid_input');
});

test('[VER-5] [LOG-3] [LOG-4] every relayed call left one row in the log; expanded, it shows name, arguments and result', async () => {
  await waitFor(async () => (await logRows(page, 'slides').count()) === 3, 5000, 'three log rows');
  const first = await readLogRow(page, 'slides', 0);
  assert.equal(first.name, 'slides_read');
  assert.match(first.summary, /成功/);
  assert.equal(first.args, '{}');
  assert.match(first.result, /"ok": true/);
  assert.match(first.result, /"name": "ようこそ"/);
  assert.match(first.result, /"slideCount": 3/);
  const second = await readLogRow(page, 'slides', 1);
  assert.equal(second.name, 'slides_set_theme');
  // Pretty-printed like JSON (no multi-line strings here, so it parses).
  assert.deepEqual(JSON.parse(second.args), { theme: 'gaia' });
  assert.deepEqual(JSON.parse(second.result), { ok: true, theme: 'gaia' });
  const third = await readLogRow(page, 'slides', 2);
  assert.equal(third.name, 'slides_set_theme');
  assert.match(third.summary, /失敗/);
  assert.deepEqual(JSON.parse(third.args), { theme: 'gaia', extra: true });
  // Strings are shown as written, not escaped (LOG-6), so a message with quotes is not JSON.
  assert.match(third.result, /"ok": false/);
  assert.match(third.result, /"code": "invalid_input"/);
  assert.match(third.result, /extra/);
});

test('[VER-3] [SW-3] [RELAY-4] off again: the relay drops the tools with tools/list_changed and a call answers "Tool not found"', async () => {
  const notified = relay.listChanged.length;
  await clickSwitch(page, 'slides');
  await waitFor(async () => (await relayedNames(relay.client)).length === 0, 15_000, 'the tools to leave the relay');
  await waitFor(() => relay.listChanged.length > notified, 5000, 'tools/list_changed');
  for (const name of OPERATIONS.slides) {
    const { result, isError } = await callRelay(relay.client, name, name === 'slides_set_theme' ? { theme: 'default' } : {});
    assert.equal(isError, true, name);
    assert.match(result.content[0].text, NOT_FOUND(name));
  }
  assert.equal(await page.locator('[data-webmcp-relay]').count(), 0);
  assert.deepEqual(await page.evaluate(() => navigator.modelContextTesting.listTools()), []);
  // The log hides while off (LOG-1), a moment after the switch (it renders after the change).
  await page.locator('ai-ops-log[tool="slides"]').waitFor({ state: 'hidden', timeout: 5000 });
});

/**
 * The checks of VER-4 on a tool page inside a cross-origin frame: no switch, no vendor script, no
 * WebMCP API, nothing added to the relay (the top-level tab, switched on, stays its only source).
 */
async function assertFrameInert(frame, frameTraffic) {
  await frame.locator('ai-ops-switch[tool="slides"]').waitFor({ state: 'attached' });
  // The page's own code ran (the elements are defined) …
  await waitFor(() => frame.evaluate(() => customElements.get('ai-ops-switch') !== undefined), 10_000, 'the elements to be defined in the frame');
  await settlePage(frame.page(), frameTraffic, 10_000);
  // … but the switch renders nothing, nothing is loaded or registered.
  assert.equal(await frame.evaluate(() => window.self !== window.top), true);
  assert.equal(await frame.evaluate(() => document.querySelector('ai-ops-switch').shadowRoot?.childElementCount ?? 0), 0);
  assert.equal(await frame.locator('ai-ops-switch input[role="switch"]').count(), 0);
  assert.equal(await frame.locator('script[src*="vendor"]').count(), 0);
  assert.equal(await frame.locator('[data-webmcp-relay]').count(), 0);
  assert.equal(await frame.evaluate(() => 'modelContextTesting' in navigator), false);
  if (BROWSER_MODE === 'webmcp') {
    // The browser's own API is there in every frame (NAT-3): nothing is registered in it, and in a
    // cross-origin frame without allow="tools" the Permissions Policy refuses it outright.
    const listed = await frame.evaluate(async () => {
      if (!('modelContext' in document)) return [];
      try {
        return (await document.modelContext.getTools()).map((t) => t.name);
      } catch (error) {
        return error.name;
      }
    });
    assert.ok(listed === 'NotAllowedError' || (Array.isArray(listed) && listed.length === 0), `the frame's own list: ${JSON.stringify(listed)}`);
  } else {
    assert.equal(await frame.evaluate(() => 'modelContext' in document), false);
  }
  assert.equal(await frame.locator('ai-ops-log').isVisible(), false);
  assert.deepEqual(frameTraffic.requests.filter((url) => url.includes('/vendor/')), []);
  assert.deepEqual(frameTraffic.toRelayPorts(), []);
  // The relay still has exactly one source (the top-level tab) and unsuffixed names.
  assert.deepEqual(await relayedNames(relay.client), OPERATIONS.slides);
  assert.equal((await callRelay(relay.client, 'webmcp_list_sources')).env.count, 1);
}

test('[VER-4] [SW-5] the slides page in a cross-origin frame of an about:blank page: no switch, no vendor script, nothing registered', async () => {
  // A top-level tab with the switch on, so a frame that registered would show up as a second source.
  await clickSwitch(page, 'slides');
  // DOOR-6: each switch period, the user pairs the page with their agent's relay (the code it told them).
  await pairPage(page, relay.client, 'slides');
  await waitFor(async () => (await relayedNames(relay.client)).length === 3, 20_000, 'the top-level tab\'s tools');
  // No "not found" call reached the page while off: the log, back on, still has its three rows.
  await waitFor(async () => (await logRows(page, 'slides').count()) === 3, 5000, 'the log back with three rows');
  const outer = await browser.context.newPage();
  const frameTraffic = recordTraffic(outer);
  try {
    await outer.setContent(`<iframe src="${demo.origin}/slides/" style="width:900px;height:600px"></iframe>`);
    const frame = await waitFor(() => outer.frames().find((f) => f.url().startsWith(`${demo.origin}/slides/`)), 10_000, 'the frame');
    await frame.waitForLoadState('load');
    await assertFrameInert(frame, frameTraffic);
  } finally {
    await outer.close();
  }
});

test('[VER-4] [SW-5] the slides page on localhost framed by a site on 127.0.0.1 (another origin): nothing registered', async () => {
  const outer = await browser.context.newPage();
  const frameTraffic = recordTraffic(outer);
  // The playground sends 127.0.0.1 to localhost (UV-4), so the framing site is a server of its own on 127.0.0.1.
  const server = createServer((req, res) => res.end('<!doctype html><title>another origin</title><body></body>'));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await outer.goto(`http://127.0.0.1:${server.address().port}/`);
    await outer.evaluate((src) => {
      const frame = document.createElement('iframe');
      frame.src = src;
      frame.style.cssText = 'width:900px;height:600px';
      document.body.append(frame);
    }, `${demo.origin}/slides/`);
    const frame = await waitFor(() => outer.frames().find((f) => f.url().startsWith(`${demo.origin}/slides/`)), 10_000, 'the frame');
    await frame.waitForLoadState('load');
    assert.notEqual(new URL(outer.url()).origin, new URL(frame.url()).origin);
    await assertFrameInert(frame, frameTraffic);
    // (A stored "on" cannot reach a frame here: this Chromium denies storage to third-party frames.)
    assert.equal(await frame.evaluate(() => { try { localStorage.length; return 'readable'; } catch { return 'denied'; } }), 'denied');
  } finally {
    await outer.close();
    server.close();
  }
});
