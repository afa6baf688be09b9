// The check that makes a "WebMCP on" run (wtr WEBMCP=1, e2e AI_OPS_BROWSER_MODE=webmcp) fail at
// once when the browser lacks its own document.modelContext, and a plain run fail when it has one.
import test from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { assertBrowserMode } from '../webmcp-check.mjs';

const executablePath = process.env.CHROME_PATH || '/usr/bin/chromium';

async function withBrowser(args, fn) {
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', ...args] });
  try {
    return await fn(await browser.newContext());
  } finally {
    await browser.close();
  }
}

test('[NAT-3] a "WebMCP on" run refuses a Chromium started without --enable-features=WebMCP', async () => {
  await withBrowser([], async (context) => {
    await assert.rejects(assertBrowserMode(context, 'webmcp', 'no flags'), /needs Chromium's own document\.modelContext.*no document\.modelContext/);
    await assertBrowserMode(context, 'plain', 'no flags');
  });
});

test('[NAT-3] a plain run refuses a Chromium that has its own WebMCP, and a "WebMCP on" run accepts it', async () => {
  await withBrowser(['--enable-features=WebMCP'], async (context) => {
    await assert.rejects(assertBrowserMode(context, 'plain', '--enable-features=WebMCP'), /without WebMCP of its own.*\[object ModelContext\]/);
    await assertBrowserMode(context, 'webmcp', '--enable-features=WebMCP');
  });
});
