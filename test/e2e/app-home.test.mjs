// The playground's home page (/): a landing page that loads no tool page and no engine, lists the
// six tools with their operations, and tells each kind of agent how to connect to this origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, launchBrowser, OPERATIONS } from './harness.mjs';
import { TOOLS, axeViolations, enginesLoaded, pagesLoaded, recordRequests } from './app-harness.mjs';

let demo, browser, page, requests;

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
  page = await browser.context.newPage();
  requests = recordRequests(page, demo.origin);
  await page.goto(`${demo.origin}/`, { waitUntil: 'networkidle' });
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

test('[APP-3] the home page requests no tool page and no engine', async () => {
  await page.getByRole('heading', { level: 1, name: 'ai-ops playground' }).waitFor();
  const paths = requests.paths();
  assert.ok(paths.includes('/app/main.js'), paths.join(' '));
  assert.deepEqual(pagesLoaded(paths), []);
  assert.deepEqual(enginesLoaded(paths), []);
  assert.deepEqual(paths.filter((p) => TOOLS.some((t) => p.startsWith(`/${t}/`))), []);
});

test('[APP-3] the home page lists the six tools, each with its operations, linking to its path', async () => {
  const cards = page.locator('.home-tool');
  assert.equal(await cards.count(), 6);
  for (const [index, tool] of TOOLS.entries()) {
    const card = cards.nth(index);
    assert.equal(await card.getByRole('link').first().getAttribute('href'), `/${tool}/`);
    const names = await card.locator('.home-ops code').allTextContents();
    assert.deepEqual(names.sort(), [...OPERATIONS[tool]].sort(), tool);
  }
  assert.equal(await page.getByRole('link', { name: 'sample' }).getAttribute('href'), '/sample/');
});

test('[LOG-2] the home page gives the relay command with this origin, the Playwright MCP config and the browser\'s own WebMCP', async () => {
  const relay = page.getByLabel('リレーのコマンド');
  assert.equal((await relay.textContent()).trim(), `npx --offline --no-install ai-ops-relay --widget-origin ${demo.origin}`);
  const config = JSON.parse(await page.getByLabel('MCP クライアントの設定').textContent());
  assert.deepEqual(config.mcpServers['ai-ops'].args, ['--offline', '--no-install', 'ai-ops-relay', '--widget-origin', demo.origin]);
  const playwright = JSON.parse(await page.getByLabel('playwright-mcp.json').textContent());
  assert.deepEqual(playwright.browser.launchOptions.args, ['--enable-features=WebMCP']);
  await page.getByRole('heading', { name: 'ブラウザー自身の WebMCP' }).waitFor();
});

test('[APP-3] the home page is accessible (axe) and its links and code blocks are reached by Tab', async () => {
  assert.deepEqual(await axeViolations(page), []);
  const reached = new Set();
  await page.locator('body').focus();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    reached.add(await page.evaluate(() => document.activeElement?.getAttribute('href') ?? document.activeElement?.getAttribute('aria-label') ?? ''));
  }
  for (const tool of TOOLS) assert.ok(reached.has(`/${tool}/`), tool);
  assert.ok(reached.has('リレーのコマンド'));
});

test('[RUNNER] the app document at / carries this start\'s runner token, so the node page reached from it by the app\'s links can run commands', async () => {
  assert.equal(await page.locator('meta[name="ai-ops-runner-token"]').getAttribute('content'), demo.token);
  await page.locator('.home-tool a[href="/node/"]').click();
  await page.locator('ai-ops-switch[tool="node"] input[role="switch"]').waitFor({ timeout: 30_000 });
  // The runner answers the token this document carries (a wrong one is refused with 403).
  const answer = (token) => page.evaluate(async (t) => {
    const response = await fetch('/__runner/info', { method: 'POST', headers: { 'content-type': 'application/json', 'x-ai-ops-token': t }, body: '{}' });
    return response.status;
  }, token);
  const carried = await page.locator('meta[name="ai-ops-runner-token"]').getAttribute('content');
  assert.equal(await answer(carried), 200);
  assert.equal(await answer('not-the-token'), 403);
  await page.goBack();
  await page.getByRole('heading', { level: 1, name: 'ai-ops playground' }).waitFor();
});

test('[FIRST-6] the home page claims no Chrome version that turns WebMCP on, gives a headed Playwright MCP config (the user verifies in its window), and shows /sample/ before the tool cards', async () => {
  const text = await page.locator('main').innerText();
  assert.doesNotMatch(text, /Chrome 160/);
  const configs = await page.locator('pre.home-code').allTextContents();
  const playwright = configs.find((c) => c.includes('"browserName"'));
  assert.ok(playwright, 'the Playwright MCP config is shown');
  assert.equal(JSON.parse(playwright).browser.launchOptions.headless, false);
  const sampleFirst = await page.evaluate(() => {
    const sample = document.querySelector('a[href="/sample/"]');
    const firstCard = document.querySelector('.home-tool');
    return !!sample && !!firstCard && !!(sample.compareDocumentPosition(firstCard) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  assert.equal(sampleFirst, true, 'the sample link comes before the tool cards');
});
