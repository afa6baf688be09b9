// A web-test-runner command for SAFE-8's test: the page's JS heap in use after forced garbage
// collection, read over the Chrome DevTools Protocol (HeapProfiler.collectGarbage, then
// Runtime.getHeapUsage), as bench/sections/70-log-memory.mjs reads it. Chromium only: any other
// launcher makes the command fail, so the test cannot pass without measuring.

/** The plugin; the browser side calls `executeServerCommand('heap-used-after-gc')`. */
export function heapPlugin() {
  return {
    name: 'ai-ops-heap',
    async executeCommand({ command, session }) {
      if (command !== 'heap-used-after-gc') return undefined;
      if (session.browser.type !== 'puppeteer') throw new Error(`heap-used-after-gc needs Chromium over puppeteer, not ${session.browser.type}`);
      const page = session.browser.getPage(session.id);
      const cdp = await page.createCDPSession();
      try {
        // Several passes: the first may only promote what the second frees.
        for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
        const { usedSize } = await cdp.send('Runtime.getHeapUsage');
        return { usedSize };
      } finally {
        await cdp.detach();
      }
    },
  };
}
