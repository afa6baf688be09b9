// FIRST-3: a person with the browser's console open sees nothing on any playground page, with no
// relay running (the newcomer's first minutes, before they start one). Every page — the app's home,
// the six tools, the plain sample page — is opened in its own tab and watched with its switch off,
// then switched on with a click (the virtual authenticator as the user's device), and all the tabs
// stay open and watched for 60 s more, each brought to the front in turn. Console errors and
// warnings, uncaught errors and responses of 400 or more are recorded; none is allowed.
//
// Counted apart, and none allowed either: the relay widget's attempts to reach a relay port (a
// WebSocket to 127.0.0.1:9333–9348 refused) — until the user pairs, the page opens no socket at all
// (DOOR-9); test/e2e/app-console.test.mjs covers the pages with a relay running.
// Build first: `node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, launchBrowser, clickSwitch, RELAY_PORT_URL } from './harness.mjs';

/** Each page and its switch's tool (none on the home page). */
const PAGES = [
  { path: '/' },
  { path: '/sql/?id=console-watch', tool: 'sql' },
  { path: '/slides/', tool: 'slides' },
  { path: '/excalidraw/', tool: 'excalidraw' },
  { path: '/drawio/', tool: 'drawio' },
  { path: '/node/?id=console-watch', tool: 'node' },
  { path: '/go/?id=console-watch', tool: 'go' },
  { path: '/sample/', tool: 'sample' },
];

/** How long every tab is watched once all are on (FIRST-3: 60 s). */
const WATCH_MS = 60_000;

/** A console line that is the relay widget failing to reach a relay on the relay ports. */
const isRelayAttempt = (text, url) => RELAY_PORT_URL.test(url ?? '') || /(?:ws|http):\/\/(?:127\.0\.0\.1|localhost|\[::1\]):93(?:3[3-9]|4[0-8])\b/.test(text);

let demo, browser;

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

/** Records console errors and warnings, uncaught errors and failed responses of `page`, by step. */
function watch(page, path) {
  const faults = [];
  const relayAttempts = [];
  let step = 'off';
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    const { url } = message.location();
    const line = `${path} (${step}): console ${message.type()}: ${message.text()} (${url})`;
    (isRelayAttempt(message.text(), url) ? relayAttempts : faults).push(line);
  });
  page.on('pageerror', (error) => faults.push(`${path} (${step}): page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) faults.push(`${path} (${step}): ${response.status()} ${response.url()}`);
  });
  return { faults, relayAttempts, enter: (name) => void (step = name) };
}

test('[FIRST-3] every playground page, no relay running: 0 console errors and warnings with its switch off, switched on, and over 60 s with all tabs open and not one relay port tried before the user paired [DOOR-9]', { timeout: 600_000 }, async () => {
  const tabs = [];
  try {
    for (const { path, tool } of PAGES) {
      const page = await browser.context.newPage();
      const watched = watch(page, path);
      tabs.push({ page, path, ...watched });
      await page.goto(`${demo.origin}${path}`, { waitUntil: 'load' });
      if (!tool) continue;
      const input = page.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`);
      await input.waitFor({ timeout: 60_000 });
      await page.waitForLoadState('networkidle', { timeout: 60_000 });
      watched.enter('on');
      await clickSwitch(page, tool);
      assert.equal(await input.isChecked(), true, `${path}: the switch is on`);
    }
    // The watch: every tab open, each in front in turn, for WATCH_MS in all.
    for (const tab of tabs) tab.enter('watch');
    const end = Date.now() + WATCH_MS;
    for (let i = 0; Date.now() < end; i++) {
      const { page } = tabs[i % tabs.length];
      await page.bringToFront();
      // One rendered frame of the tab in front, then the rest of its turn.
      await page.evaluate((ms) => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, ms))), Math.min(WATCH_MS / tabs.length, Math.max(0, end - Date.now())));
    }
    const relayAttempts = tabs.flatMap((tab) => tab.relayAttempts);
    console.log(`# relay connection attempts: ${relayAttempts.length}${relayAttempts.length ? ` (first: ${relayAttempts[0]})` : ''}`);
    assert.deepEqual(tabs.flatMap((tab) => tab.faults), []);
    assert.deepEqual(relayAttempts, [], 'no relay port tried before the user paired (DOOR-9)');
  } finally {
    for (const { page } of tabs) await page.close().catch(() => {});
  }
});
