// SAFE-5, DOOR-9: an off is over for the relay by the time the page's socket reads closed, however
// late the relay hears that the connection dropped. On a fresh machine `[SAFE-5] on then off after
// 200 ms` found the relay still listing the slides operations after the page's socket had closed:
// the widget's frame goes with the off, Chromium closes its socket (close frame, answered) and says
// so, but relay 2.2.0 withdrew the page's tools only once the TCP connection had ended (2–80 ms
// later, measured here). ai-ops-relay now withdraws them as the close frame arrives, before it
// answers (bin/relay-door.mjs). Made certain: the page reaches the real relay through a TCP proxy on
// the relay port that passes every byte at once but ends the relay's side of a connection 1.5 s
// after the page's side ended (fails with 2.2.0's withdrawal). Runs in both browser modes. Build
// first: `node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect } from 'node:net';
import {
  startDemo, startRelay, launchBrowser, waitFor, relayedNames, switchIsOn, RELAY_PORT_URL, OPERATIONS, pairPage,
} from './harness.mjs';

/** How late the proxy tells the relay that the page's connection ended. */
const LATE_MS = 1500;

let demo, relay, proxy, browser, page;
const sockets = new Set();

/**
 * A TCP proxy on 127.0.0.1:9333 (the pages' relay port) to the relay on `target`: bytes pass at once
 * both ways; the end of the page's side reaches the relay `LATE_MS` later.
 */
async function lateEndingProxy(target) {
  const open = new Set();
  const server = createServer({ allowHalfOpen: true }, (page) => {
    // Half-open both ways: the relay's own end of the connection must not close it for the page.
    const upstream = connect({ port: target, host: '127.0.0.1', allowHalfOpen: true });
    open.add(page).add(upstream);
    page.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => page.write(chunk));
    const late = () => setTimeout(() => upstream.destroy(), LATE_MS);
    page.once('end', late);
    page.once('error', late);
    upstream.on('close', () => page.destroy()).on('error', () => page.destroy());
  });
  await new Promise((listening, failed) => server.once('error', failed).listen(9333, '127.0.0.1', listening));
  return {
    close() {
      for (const socket of open) socket.destroy();
      server.close();
    },
  };
}

before(async () => {
  demo = await startDemo();
  // Outside the widget's scan (9333–9348): the page reaches it only through the proxy.
  const port = await new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => done(free));
    });
  });
  relay = await startRelay({ origin: demo.origin, port });
  proxy = await lateEndingProxy(port);
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on('websocket', (ws) => {
    if (!RELAY_PORT_URL.test(ws.url())) return;
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
  });
  await page.goto(`${demo.origin}/slides/`);
  await page.locator('ai-ops-switch[tool="slides"] input[role="switch"]').waitFor();
});

after(async () => {
  await browser?.close();
  proxy?.close();
  await relay?.close();
  await demo?.close();
});

test('[SAFE-5] [DOOR-9] off: once the page\'s relay socket reads closed, the relay lists none of its operations', { timeout: 90_000 }, async () => {
  const toggle = page.locator('ai-ops-switch[tool="slides"] input[role="switch"]');
  for (let round = 1; round <= 3; round++) {
    await toggle.click();
    await toggle.and(page.locator(':not([aria-busy])')).waitFor({ timeout: 20_000 });
    // DOOR-6: each switch period, the user pairs the page with their agent's relay.
    await pairPage(page, relay.client, 'slides');
    await waitFor(async () => (await relayedNames(relay.client)).length === 3, 20_000, `round ${round}: the slides operations through the relay`);
    assert.deepEqual(await relayedNames(relay.client), OPERATIONS.slides);
    await toggle.click();
    assert.equal(await switchIsOn(page, 'slides'), false, `round ${round}: the switch reads off`);
    // The positive sign: the browser says the page's socket to the relay port closed.
    await waitFor(() => sockets.size === 0, 10_000, `round ${round}: the page's relay socket to close`);
    assert.deepEqual(await relayedNames(relay.client), [], `round ${round}: nothing listed once the socket closed`);
  }
});
