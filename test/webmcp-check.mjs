// NAT-3's "WebMCP on" runs are only worth their name in a Chromium whose document.modelContext is
// the browser's own. If `--enable-features=WebMCP` stopped working (a renamed feature, another
// binary on CHROME_PATH), the suites would silently run plain mode a second time; this check makes
// the run fail before any test instead. The page is served by interception at an https address
// (the API is for secure contexts) and loads no script, so the polyfill cannot be what it finds.
import { chromium } from 'playwright-core';

const PROBE_URL = 'https://webmcp-probe.ai-ops.invalid/';

/**
 * What a blank secure page of `context` sees: whether it has the browser's own ModelContext.
 * @param {import('playwright-core').BrowserContext} context
 * @returns {Promise<{own: boolean, seen: string}>}
 */
export async function probeOwnWebMCP(context) {
  const page = await context.newPage();
  try {
    await page.route(PROBE_URL, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>probe</title>' }));
    await page.goto(PROBE_URL);
    return await page.evaluate(() => {
      const mc = document.modelContext;
      const seen = mc === undefined ? 'no document.modelContext' : Object.prototype.toString.call(mc);
      // The browser's own: a ModelContext instance, with the platform's methods on its prototype.
      const own = typeof ModelContext === 'function' && mc instanceof ModelContext
        && typeof mc.registerTool === 'function' && typeof mc.getTools === 'function';
      return { own, seen };
    });
  } finally {
    await page.close();
  }
}

/**
 * Throws unless `context`'s pages match `mode`: `webmcp`, the browser's own WebMCP; `plain`, none
 * (so that the plain run is the polyfill's, not the browser's under another name).
 * @param {import('playwright-core').BrowserContext} context
 * @param {'plain' | 'webmcp'} mode
 * @param {string} flags how the browser was started, for the message
 */
export async function assertBrowserMode(context, mode, flags) {
  const { own, seen } = await probeOwnWebMCP(context);
  const browser = `${process.env.CHROME_PATH || '/usr/bin/chromium'} started with ${flags || 'no flags'}`;
  if (mode === 'webmcp' && !own) {
    throw new Error(`a "WebMCP on" run needs Chromium's own document.modelContext, but ${browser} shows ${seen}: refusing to rerun plain mode under the WebMCP name`);
  }
  if (mode === 'plain' && own) {
    throw new Error(`a plain run needs a Chromium without WebMCP of its own, but ${browser} has ${seen}: the polyfill's path would go untested`);
  }
}

/**
 * Launches `executablePath` headless with `args` just to run assertBrowserMode, then closes it.
 * @param {{executablePath: string, args: string[], mode: 'plain' | 'webmcp'}} options
 */
export async function assertLaunchedBrowserMode({ executablePath, args, mode }) {
  const browser = await chromium.launch({ executablePath, headless: true, args });
  try {
    await assertBrowserMode(await browser.newContext(), mode, args.join(' '));
  } finally {
    await browser.close();
  }
}
