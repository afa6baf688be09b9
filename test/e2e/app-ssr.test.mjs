// REACT-2, the browser half: HTML rendered on the server (Node, the built package) is hydrated in
// Chromium by the same tree bundled from the sources through the package entries. The tags
// upgrade, React reports no hydration mismatch, and nothing is registered before the switch is on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { BROWSER_MODE, clickSwitch, launchBrowser, recordTraffic, root, startDemo, waitFor } from './harness.mjs';
import { ensureLibBuilt } from '../node/ssr.lib.mjs';
import { packageEntries } from '../../esbuild.config.mjs';

let demo, browser, serverHtml, mismatchedHtml, client;

/** The client: hydrates #root with the same tree, hands the tool's operations over, reports errors. */
const CLIENT = `
import * as React from 'react';
import { hydrateRoot } from 'react-dom/client';
import { defineOperation, provideOperations, succeed } from 'ai-ops';
import { SsrPage, SSR_TOOL } from './test/node/ssr-page.lib.mjs';
window.__hydration = { errors: [], recoverable: [] };
const consoleError = console.error;
console.error = (...args) => { window.__hydration.errors.push(args.map(String).join(' ')); consoleError(...args); };
provideOperations(SSR_TOOL, [defineOperation({
  name: 'notes_read', description: 'Reads the note.', inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  annotations: { readOnlyHint: true }, execute: async () => succeed({ text: 'hello' }),
})]);
hydrateRoot(document.getElementById('root'), React.createElement(SsrPage), {
  onRecoverableError: (error) => window.__hydration.recoverable.push(String(error && error.message)),
});
window.__hydrated = true;
`;

before(async () => {
  ensureLibBuilt(root);
  const React = await import('react');
  const { renderToString } = await import('react-dom/server');
  const { SsrPage } = await import('../node/ssr-page.lib.mjs');
  serverHtml = renderToString(React.createElement(SsrPage));
  mismatchedHtml = renderToString(React.createElement(SsrPage, { variant: ' (server)' }));
  // React's development build: it is the one that reports hydration mismatches on the console.
  const built = await esbuild.build({
    stdin: { contents: CLIENT, resolveDir: root, loader: 'js' },
    bundle: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"development"' },
    plugins: [packageEntries()],
  });
  client = built.outputFiles[0].text;
  demo = await startDemo();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

/** Opens a page of the demo origin whose document is `html` in #root, hydrated by the client. */
async function openSsrPage(html) {
  const page = await browser.context.newPage();
  const base = `${demo.origin}/__ssr__/`;
  await page.route(`${base}**`, (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.endsWith('/client.js')) return route.fulfill({ contentType: 'text/javascript', body: client });
    return route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SSR</title></head><body><div id="root">${html}</div><script type="module" src="${base}client.js"></script></body></html>`,
    });
  });
  const traffic = recordTraffic(page);
  const warnings = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') warnings.push(message.text());
  });
  await page.goto(base);
  await page.waitForFunction(() => window.__hydrated === true);
  return { page, traffic, warnings };
}

/** What the browser's own list (WebMCP on) or the polyfill's testing list holds. */
async function registeredNames(page) {
  return page.evaluate(async () => {
    const names = [];
    if ('modelContext' in document && typeof document.modelContext.getTools === 'function') {
      names.push(...(await document.modelContext.getTools()).map((t) => t.name));
    }
    if (navigator.modelContextTesting) names.push(...navigator.modelContextTesting.listTools().map((t) => t.name));
    return [...new Set(names)].sort();
  });
}

test('[REACT-2] hydrating the server\'s HTML upgrades the tags with no hydration warning, and nothing is registered before the switch is on', async () => {
  assert.match(serverHtml, /<ai-ops-switch/);
  const { page, traffic, warnings } = await openSsrPage(serverHtml);
  // The switch upgrades in place: the same element the server sent now has its shadow content.
  const toggle = page.locator('header ai-ops-switch[tool="notes"] input[role="switch"]');
  await toggle.waitFor();
  assert.equal(await toggle.isChecked(), false);
  assert.equal(await page.locator('ai-ops-switch').count(), 1);
  // React applied the wrapper's property (tool) after hydrating, on the server's element.
  assert.equal(await page.evaluate(() => document.querySelector('#root header ai-ops-switch').tool), 'notes');
  const hydration = await page.evaluate(() => window.__hydration);
  assert.deepEqual(hydration.recoverable, []);
  assert.deepEqual([...hydration.errors, ...warnings].filter((text) => /hydrat|did not match|didn't match/i.test(text)), []);
  // Off: no polyfill or relay script, nothing listed, no request to a relay port; the log and the
  // dialog are still bare tags (REACT-1).
  assert.deepEqual(await registeredNames(page), []);
  assert.equal(await page.locator('script[src*="vendor"]').count(), 0);
  assert.deepEqual(traffic.toRelayPorts(), []);
  assert.equal(await page.evaluate(() => customElements.get('ai-ops-log') === undefined && customElements.get('ai-ops-confirm') === undefined), true);
  if (BROWSER_MODE === 'plain') assert.equal(await page.evaluate(() => 'modelContext' in document), false);

  // The same page does register once the switch is on (so the checks above could fail).
  await clickSwitch(page, 'notes');
  await waitFor(async () => (await registeredNames(page)).includes('notes_read'), 15_000, 'notes_read to be registered');
  await page.locator('footer ai-ops-log[tool="notes"]').evaluate((log) => customElements.whenDefined('ai-ops-log').then(() => log.updateComplete));
  assert.equal(await page.locator('ai-ops-log').count(), 1);
  await page.close();
});

test('[REACT-2] the hydration check catches a mismatch (the server said another title)', async () => {
  const { page, warnings } = await openSsrPage(mismatchedHtml);
  const seen = await waitFor(async () => {
    const hydration = await page.evaluate(() => window.__hydration);
    const all = [...hydration.recoverable, ...hydration.errors, ...warnings];
    return all.some((text) => /hydrat|did not match|didn't match/i.test(text)) && all;
  }, 10_000, 'React to report the mismatch');
  assert.ok(seen.length > 0);
  await page.close();
});
