// NAT-3: the relay round trip where the browser has its own WebMCP (relay 2.2.0's embed then reads
// the navigator.modelContextTesting surface ai-ops installs over it), in its own Chromium with
// --enable-features=WebMCP. The bare tool is added to that same surface (no ai-ops pipeline).
import { launchBrowser } from '../../test/e2e/harness.mjs';
import { BARE_READ_QUERY, measureRelayRoundTrip, roundTripRows } from '../lib/relay-round-trip.mjs';

export const name = 'relay round trip, browser\'s own WebMCP on: sql_read_query vs a bare tool (≥ 200 interleaved calls each)';

export async function run({ demo }) {
  const browser = await launchBrowser({ mode: 'webmcp' });
  try {
    const { times, close } = await measureRelayRoundTrip({
      demo, browser, docId: 'bench-relay-webmcp',
      // Before the switch-on: the polyfill, loaded then, wraps the browser's own context.
      beforeClick: async (page) => {
        if (!(await page.evaluate(() => Object.prototype.toString.call(document.modelContext) === '[object ModelContext]'))) {
          throw new Error('this browser has no WebMCP of its own');
        }
      },
      registerBare: (page) => page.evaluate(`navigator.modelContextTesting.add(${BARE_READ_QUERY})`),
    });
    await close();
    return roundTripRows(times, ', WebMCP on');
  } finally {
    await browser.close();
  }
}
