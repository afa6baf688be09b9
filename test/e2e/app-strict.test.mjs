// APP-2: <React.StrictMode>, remounts and fast navigation never register an operation twice and
// leave nothing behind. The app runs as React's development build here (built by the test into a
// copy of the site), where StrictMode mounts, unmounts and mounts every effect again. After 20
// navigations round the app's pages (every switch on, some clicks made before the previous page
// finished loading) the browser's list holds exactly the shown page's operations, each once, and
// at most one relay WebSocket is open.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROWSER_MODE, OPERATIONS, RELAY_PORT_URL, callRelay, clickSwitch, freePort, launchBrowser, relayedNames, root, startRelay, waitFor, ensurePaired } from './harness.mjs';
import { browserListNames, clickNav, routedTools } from './app-harness.mjs';
import { startServer } from '../../playground/server/serve.mjs';
import { buildApp } from '../../esbuild.config.mjs';

let site, demo, relay, relayPort, browser, page, tools;
const sockets = { opened: 0, closed: 0, urls: new Set(), open: new Set() };

before(async () => {
  tools = routedTools();
  // The server and the relay first: the page's relay widget looks for the relay on 9333
  // (freePort's first choice), so the port is taken before the build below.
  site = await mkdtemp(join(tmpdir(), 'ai-ops-app-dev-'));
  demo = await startServer({ port: 0, root: site });
  relayPort = await freePort();
  relay = await startRelay({ origin: demo.origin, port: relayPort });
  // The built site, hard-linked (no copy of the engines), with the app rebuilt for development.
  execFileSync('cp', ['-al', `${join(root, 'dist/site')}/.`, site]);
  await rm(join(site, 'app'), { recursive: true, force: true });
  await buildApp({ outdir: join(site, 'app'), production: false });
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on('websocket', (ws) => {
    if (!RELAY_PORT_URL.test(ws.url())) return;
    sockets.opened++;
    sockets.urls.add(ws.url());
    const id = `${ws.url()}#${sockets.opened}@${Date.now()}`;
    sockets.open.add(id);
    ws.on('close', () => {
      sockets.closed++;
      sockets.open.delete(id);
    });
  });
});

after(async () => {
  await browser?.close();
  await relay?.close();
  await demo?.close();
  if (site) await rm(site, { recursive: true, force: true });
});

/** Waits for `tool`'s page to show and its operations to be listed (its switch is on). */
async function shown(tool) {
  await page.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`).waitFor({ timeout: 30_000 });
  await waitFor(async () => {
    const names = await browserListNames(page, BROWSER_MODE);
    return OPERATIONS[tool].every((n) => names.includes(n));
  }, 15_000, `${tool}'s operations in the browser's list`);
}

test('[APP-2] the app runs inside <React.StrictMode>, as React\'s development build', async () => {
  assert.ok(tools.length >= 2, `the app routes at least two pages (${tools.join(', ')})`);
  await page.goto(`${demo.origin}/`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  const shape = await page.evaluate(() => {
    const container = document.getElementById('root');
    const key = Object.keys(container).find((k) => k.startsWith('__reactContainer$'));
    // The root fiber the container names may be a stale copy: its root's current one is not.
    const first = container[key]?.stateNode?.current?.child;
    // StrictMode's fiber, and its modes: StrictLegacyMode (8) and StrictEffectsMode (16).
    return {
      strict: first?.elementType === Symbol.for('react.strict_mode') && (first.mode & 24) === 24,
      dev: first !== undefined && '_debugStack' in first,
    };
  });
  assert.deepEqual(shape, { strict: true, dev: true });
});

test('[APP-2] after 20 navigations round the pages, every switch on and some clicks fast, the browser\'s list holds exactly the shown page\'s operations, each once; at most one relay WebSocket is open', { timeout: 300_000 }, async () => {
  // Every switch on, once, like a person.
  for (const tool of tools) {
    await page.goto(`${demo.origin}/${tool}/`);
    const toggle = page.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`);
    await toggle.waitFor({ timeout: 30_000 });
    if (!(await toggle.isChecked())) await clickSwitch(page, tool);
    // DOOR-6: paired once; every later page of the origin keeps the pairing (a reload too).
    await ensurePaired(page, relay.client, tool);
    await shown(tool);
  }
  // Sockets of the documents left above (page.goto) are not this document's: Playwright does not
  // always report their close. The relay's own count of its sources covers every document.
  const before = new Set(sockets.open);
  let current = tools.at(-1);
  for (let i = 0; i < 20; i++) {
    const next = tools[(tools.indexOf(current) + 1) % tools.length];
    await clickNav(page, next);
    // Every third navigation goes on before the page has loaded (fast navigation).
    if (i % 3 !== 1) await shown(next);
    current = next;
  }
  await shown(current);
  // What the page lists settles at once; give a withdrawal deferred by a task its time.
  await waitFor(async () => (await browserListNames(page, BROWSER_MODE)).length === OPERATIONS[current].length, 5000, 'only the shown page\'s operations');
  const names = await browserListNames(page, BROWSER_MODE);
  assert.deepEqual([...names].sort(), [...OPERATIONS[current]].sort(), `shown: ${current}`);
  assert.equal(new Set(names).size, names.length, 'each operation once');
  let relayed = [];
  await waitFor(async () => {
    relayed = await relayedNames(relay.client);
    return relayed.length === OPERATIONS[current].length && relayed.every((n) => n.startsWith(`${current}_`));
  }, 10_000, 'the relay to list the shown page\'s operations only').catch((error) => {
    throw new Error(`${error.message}: the relay (port ${relayPort}) lists ${JSON.stringify(relayed)}; sockets opened ${sockets.opened}, closed ${sockets.closed}, to ${[...sockets.urls].join(' ')}`);
  });
  const openNow = [...sockets.open].filter((id) => !before.has(id));
  assert.ok(openNow.length <= 1, `relay WebSockets this document opened and left open: ${openNow.join(' ')}`);
  assert.equal((await callRelay(relay.client, 'webmcp_list_sources')).env.count, 1, 'the relay has one source: one socket');
  assert.ok(sockets.opened >= 1, 'the relay was reached over a WebSocket');
});
