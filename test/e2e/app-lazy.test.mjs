// APP-3: each tool page's code and engine (PGlite, Yaegi, Marp, Excalidraw, maxGraph) load only
// when that page is first shown, by client-side navigation or by loading its URL; the home page
// loads none. What was requested is read from Chromium's requests, and which chunk holds which
// sources from the app build's metafile.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, startDemo } from './harness.mjs';
import { TOOLS, enginesLoaded, outputsByUrlPath, pagesLoaded, recordRequests, routedTools } from './app-harness.mjs';

let demo, browser, outputs, tools;

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
  outputs = outputsByUrlPath();
  tools = routedTools();
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

/** Waits until the page shows `tool`'s page (its switch rendered) and the network is idle. */
async function shown(page, tool) {
  await page.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`).waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
}

test('[APP-3] from the home page through the nav, each page\'s code and engine are requested only once that page is shown', async () => {
  assert.deepEqual(tools, TOOLS, 'the app routes the six tool pages');
  const page = await browser.context.newPage();
  const requests = recordRequests(page, demo.origin);
  await page.goto(`${demo.origin}/`, { waitUntil: 'networkidle' });
  assert.deepEqual(pagesLoaded(requests.paths(), outputs), [], 'the home page loads no tool page');
  assert.deepEqual(enginesLoaded(requests.paths(), outputs), [], 'the home page loads no engine');

  const seen = [];
  for (const [index, tool] of tools.entries()) {
    const before = requests.paths().length;
    // From the home page its tool card's link, then each page's nav link: no document loads.
    if (index === 0) await page.locator(`.home-tool a[href="/${tool}/"]`).click();
    else await page.getByRole('navigation', { name: 'ツール' }).getByRole('link', { name: tool, exact: true }).click();
    await shown(page, tool);
    const added = requests.paths().slice(before);
    assert.ok(!added.some((p) => p === `/${tool}/` || p.endsWith('/index.html')), `${tool}: shown without loading a document`);
    seen.push(tool);
    const pages = pagesLoaded(requests.paths(), outputs);
    assert.ok(pages.includes(tool), `${tool}'s page code is requested once shown`);
    assert.deepEqual(pages.filter((t) => !seen.includes(t)), [], `after showing ${seen.join(', ')}: no other page's code`);
    assert.deepEqual(enginesLoaded(requests.paths(), outputs).filter((t) => !seen.includes(t)), [], `after showing ${seen.join(', ')}: no other page's engine`);
  }
  // Coming back to the first page requests nothing of the others either.
  await page.getByRole('navigation', { name: 'ツール' }).getByRole('link', { name: tools[0], exact: true }).click();
  await shown(page, tools[0]);
  assert.deepEqual(pagesLoaded(requests.paths(), outputs).sort(), [...tools].sort());
  await page.close();
});

test('[APP-3] loading a tool page\'s URL directly requests that page\'s code and engine only', async () => {
  for (const tool of tools) {
    const page = await browser.context.newPage();
    const requests = recordRequests(page, demo.origin);
    await page.goto(`${demo.origin}/${tool}/`);
    await shown(page, tool);
    assert.deepEqual(pagesLoaded(requests.paths(), outputs), [tool], `${tool}: its page code only`);
    assert.deepEqual(enginesLoaded(requests.paths(), outputs).filter((t) => t !== tool), [], `${tool}: no other engine`);
    await page.close();
  }
});

test('[APP-3] the engines that load with their page are requested once it shows (the check sees them)', async () => {
  // Excalidraw and maxGraph draw as soon as their page shows; PGlite and Yaegi wait for a first run.
  const drawing = tools.filter((t) => t === 'excalidraw' || t === 'drawio' || t === 'slides');
  assert.ok(drawing.length > 0, 'at least one page whose engine loads as it shows');
  for (const tool of drawing) {
    const page = await browser.context.newPage();
    const requests = recordRequests(page, demo.origin);
    await page.goto(`${demo.origin}/${tool}/`);
    await shown(page, tool);
    assert.deepEqual(enginesLoaded(requests.paths(), outputs), [tool]);
    await page.close();
  }
});
