// Issue 26, the newcomer's hour: a person who opens the playground with the browser's console open
// sees no red. Every page (the routed app's home and six tools, and the plain sample page) is walked
// in turn, with a real relay process and a real MCP client on its stdio: on load, then switched on
// by a click (the virtual authenticator plays the user's device), then one read through the relay.
// Every response of 400 or more, every console message of type error and every uncaught page error
// is recorded at each step, and none is allowed.
// Build first: `node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, startRelay, launchBrowser, freePort, waitFor, clickSwitch, callRelay, relayedNames, ensurePaired } from './harness.mjs';

/** Each page, its switch's tool (none on the home page) and the read operation called through the relay. */
const PAGES = [
  { path: '/' },
  { path: '/sql/?id=console-walk', tool: 'sql', read: 'sql_read_query' },
  { path: '/go/?id=console-walk', tool: 'go', read: 'go_list_files' },
  { path: '/node/?id=console-walk', tool: 'node', read: 'node_list_files' },
  { path: '/slides/', tool: 'slides', read: 'slides_read' },
  { path: '/excalidraw/', tool: 'excalidraw', read: 'excalidraw_read' },
  { path: '/drawio/', tool: 'drawio', read: 'drawio_read' },
  { path: '/sample/', tool: 'sample', read: 'sample_read_note' },
];

let demo, relay, browser;

before(async () => {
  demo = await startDemo();
  relay = await startRelay({ origin: demo.origin, port: await freePort() });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

/**
 * Records what a person would see go wrong on `page`: responses of 400 or more (its frames' and
 * workers' requests included), console errors and uncaught errors, each line naming the step it
 * happened in.
 */
function recordFaults(page) {
  const faults = [];
  let step = 'load';
  page.on('response', (response) => {
    if (response.status() >= 400) faults.push(`${step}: ${response.status()} ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') faults.push(`${step}: console error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => faults.push(`${step}: page error: ${error.message}`));
  const inFlight = new Set();
  page.on('request', (request) => inFlight.add(request));
  for (const ended of ['requestfinished', 'requestfailed']) page.on(ended, (request) => inFlight.delete(request));
  return {
    faults,
    inFlight,
    /** Names the step whose faults are recorded from now on. */
    enter: (name) => void (step = name),
  };
}

/**
 * Waits until nothing the page asked for is still loading (fonts and engines load late), checked
 * again after a task of the page's own, so what a script that just arrived requested is seen.
 */
async function quiet(page, inFlight) {
  await page.waitForLoadState('load');
  await waitFor(async () => {
    if (inFlight.size) return false;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    return inFlight.size === 0;
  }, 60_000, 'the page\'s requests to end').catch((error) => {
    throw new Error(`${error.message}: ${[...inFlight].map((r) => r.url()).join(', ')}`);
  });
}

/** Calls `name` through the relay until the page has loaded what it needs (not_ready meanwhile). */
async function readWhenReady(name) {
  let answer;
  await waitFor(async () => {
    answer = await callRelay(relay.client, name);
    return answer.env?.error?.code !== 'not_ready';
  }, 90_000, `${name} to stop answering not_ready`);
  return answer;
}

for (const { path, tool, read } of PAGES) {
  const title = tool
    ? `[VER-2] [RELAY-5] [NAT-3] ${path}: no response of 400 or more and no console error on load, switched on with a relay running, and after ${read} through the relay`
    : `[APP-3] [NAT-3] ${path}: no response of 400 or more and no console error on load`;
  test(title, { timeout: 180_000 }, async () => {
    const page = await browser.context.newPage();
    const { faults, enter, inFlight } = recordFaults(page);
    try {
      await page.goto(`${demo.origin}${path}`);
      if (tool) await page.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`).waitFor({ timeout: 30_000 });
      await quiet(page, inFlight);
      if (!tool) return assert.deepEqual(faults, []);

      enter('switch on');
      await clickSwitch(page, tool);
      // DOOR-6: the user pairs the page with their agent (unless the log says it already is).
      await ensurePaired(page, relay.client, tool);
      await waitFor(async () => (await relayedNames(relay.client)).includes(read), 60_000, `${read} listed through the relay`);
      await quiet(page, inFlight);

      enter(read);
      const answer = await readWhenReady(read);
      assert.equal(answer.isError, false, `${read}: ${answer.result.content?.[0]?.text}`);
      assert.equal(answer.env.ok, true, read);
      await quiet(page, inFlight);
      assert.deepEqual(faults, []);
    } finally {
      await page.close();
      // The next page's operations are the only ones listed.
      if (read) await waitFor(async () => !(await relayedNames(relay.client)).includes(read), 15_000, `${read} gone from the relay`);
    }
  });
}

test('[APP-4] /slides/: the sample\'s :sparkles: shows as a colour emoji, not an empty box (scripts/setup.sh installs fonts-noto-color-emoji)', async () => {
  const page = await browser.context.newPage();
  try {
    await page.goto(`${demo.origin}/slides/`);
    const sparkles = page.getByText('✨').first();
    await sparkles.waitFor({ timeout: 30_000 });
    // Drawn in the slide's own font, the glyph has colour (Noto Color Emoji's is yellow); an empty
    // box or a monochrome fallback glyph has none.
    const coloured = await sparkles.evaluate((element) => {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 64;
      const context = canvas.getContext('2d');
      const style = getComputedStyle(element);
      context.font = `48px ${style.fontFamily}`;
      context.textBaseline = 'top';
      context.fillText('✨', 4, 4);
      const { data } = context.getImageData(0, 0, 64, 64);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
        if (a > 128 && Math.max(r, g, b) - Math.min(r, g, b) > 64) count++;
      }
      return count;
    });
    assert.ok(coloured > 50, `coloured pixels of ✨: ${coloured}`);
  } finally {
    await page.close();
  }
});
