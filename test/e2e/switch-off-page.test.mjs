// PKG-4 and SW-7 from what a real page fetches: the sample page (/sample/, the README's plain HTML
// page) opened in Chromium with every switch off (a fresh profile); each response under /ai-ops/
// (the bundle and its chunks: ai-ops and Lit) is gzipped (-9) as a server would send it (the build
// minifies them), and their sum must stay within the 12 KB budget. test/node/switch-off-bytes.test.mjs
// says where the bytes come from when it grows past.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { launchBrowser, startDemo } from './harness.mjs';
import { SWITCH_OFF_BUDGET } from '../node/switch-off-bytes.lib.mjs';

let demo, browser;

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

test('[PKG-4] [SW-7] the sample page with its switch off loads at most 12 KB (min+gzip) of ai-ops and Lit, measured from its requests in Chromium', async (t) => {
  const page = await browser.context.newPage();
  const bodies = [];
  const requested = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    bodies.push(response.body().then((body) => ({ path: pathname, status: response.status(), gzip: gzipSync(body, { level: 9 }).length })));
  });
  try {
    await page.goto(`${demo.origin}/sample/`);
    const input = page.locator('ai-ops-switch[tool="sample"] input[role="switch"]');
    await input.waitFor();
    assert.equal(await input.isChecked(), false, 'the switch is off');
    // Whatever the page starts after its switch rendered (a chunk, a probe) has settled too.
    await page.waitForLoadState('networkidle');
    // (The browser asks for /favicon.ico by itself, whenever; the demo has none.)
    const responses = (await Promise.all(bodies)).filter((r) => r.path !== '/favicon.ico');
    // Nothing the page fetched escapes the count: the page's own list of resources agrees.
    const resources = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
    assert.deepEqual(resources.filter((path) => path !== '/favicon.ico' && !responses.some((r) => r.path === path)), []);

    const aiOps = responses.filter((r) => r.path.startsWith('/ai-ops/'));
    const total = aiOps.reduce((sum, r) => sum + r.gzip, 0);
    t.diagnostic(`switch off, requested by /sample/: ${total} B of ai-ops and Lit in ${aiOps.length} files (${aiOps.map((r) => `${r.path.split('/').pop()} ${r.gzip}`).join(', ')}); budget ${SWITCH_OFF_BUDGET} B`);
    assert.ok(aiOps.some((r) => r.path === '/ai-ops/ai-ops.js' && r.status === 200), 'the bundle was loaded (the count is not of nothing)');
    assert.deepEqual(responses.filter((r) => r.status !== 200).map((r) => `${r.path} ${r.status}`), []);
    // Every script the page ran is the page's own or ai-ops's: Lit comes inside the bundle.
    assert.deepEqual(responses.filter((r) => /\.m?js$/.test(r.path) && !r.path.startsWith('/ai-ops/') && !r.path.startsWith('/sample/')).map((r) => r.path), []);
    // SW-7, PKG-4: no polyfill or relay file, and neither the log's nor the dialog's code.
    assert.deepEqual(requested.filter((path) => path.includes('/vendor/') || /ai-ops-(log|confirm)/.test(path)), []);
    assert.equal(await page.evaluate(() => customElements.get('ai-ops-log') === undefined && customElements.get('ai-ops-confirm') === undefined), true);
    assert.ok(total <= SWITCH_OFF_BUDGET, `${total} B of ai-ops and Lit load while the switch is off, over PKG-4's ${SWITCH_OFF_BUDGET} B by ${total - SWITCH_OFF_BUDGET} B`);
  } finally {
    await page.close();
  }
});
