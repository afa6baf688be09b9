// The routed playground (issue 16): what each route loads on a first visit, how fast a navigation
// from one tool page to another lists the new page's operations, and whether 20 rounds of
// navigation round the six pages leave memory behind (APP-2).
//   - first load: every response of a fresh visit (cache disabled), each body gzipped (-9) as a
//     server would send it, until the network is idle, with every switch off;
//   - navigation: both switches on, a click on the nav link → the new page's operations all in the
//     browser's list (the polyfill's, or the browser's own with WebMCP), timed in the page; the
//     page's chunk cached (its first visit is not counted); p50 of 10 (budget ≤ 300 ms);
//   - heap: once the page is idle after forced garbage collection (CDP), after round 2 and after
//     round 20: what the pages keep, from heap snapshots without compiled code (≤ 1.10×), and the
//     whole used size beside it; then the same after rounds 40 and 60 (whether the growth stops), and
//     what grew most between the snapshots, by constructor (how a growth is found).
import { gzipSync } from 'node:zlib';
import { OPERATIONS, freePort, relayedNames, startRelay } from '../../test/e2e/harness.mjs';
import { routedTools } from '../../test/e2e/app-harness.mjs';

export const name = 'playground app: first-load bytes per route, navigation → operations listed, heap over 20 (and 60) rounds';

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const ms = (n) => `${n.toFixed(0)} ms`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Every same-origin response of one fresh visit to `path`, gzipped, until the network is idle. */
async function firstLoad(browser, origin, path, ready) {
  const page = await browser.context.newPage();
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const bodies = [];
  page.on('response', (response) => {
    if (!response.url().startsWith(`${origin}/`) || response.status() !== 200) return;
    bodies.push(response.body().then((body) => ({ path: new URL(response.url()).pathname, gzip: gzipSync(body, { level: 9 }).length }), () => null));
  });
  await page.goto(`${origin}${path}`);
  await ready(page);
  await page.waitForLoadState('networkidle');
  const files = (await Promise.all(bodies)).filter(Boolean);
  await page.close();
  const sum = (list) => list.reduce((total, f) => total + f.gzip, 0);
  return { total: sum(files), js: sum(files.filter((f) => f.path.endsWith('.js'))), count: files.length };
}

/** The operation names in the page's list: the browser's own (WebMCP) or the polyfill's. */
function listedInPage() {
  return (async () => {
    const names = new Set();
    const own = document.modelContext;
    if (own && typeof own.getTools === 'function' && !navigator.modelContextTesting) for (const t of await own.getTools()) names.add(t.name);
    for (const t of navigator.modelContextTesting?.listTools() ?? []) names.add(t.name);
    return [...names];
  })();
}

/**
 * Clicks the nav link `to` and answers the ms until all of `to`'s operations are listed (in the
 * page). The timing function is installed in the page once (the app is one document), so the bench
 * does not compile a new script of its own per navigation into the heap it measures.
 */
async function navigateAndTime(page, to) {
  await page.evaluate((listed) => {
    if (window.__aiOpsBenchNavigate) return;
    const list = new Function(`return (${listed})()`);
    window.__aiOpsBenchNavigate = async (to, names) => {
      const link = [...document.querySelectorAll('nav[aria-label="ツール"] a')].find((a) => a.textContent.trim() === to);
      if (!link) throw new Error(`no nav link ${to}`);
      const start = performance.now();
      link.click();
      for (;;) {
        const now = await list();
        if (names.every((n) => now.includes(n))) return performance.now() - start;
        if (performance.now() - start > 20_000) throw new Error(`${to}'s operations not listed after 20 s; listed: ${now.join(',')}; switches: ${[...document.querySelectorAll('ai-ops-switch')].map((s) => { const tool = s.getAttribute('tool'); const input = s.shadowRoot?.querySelector('input[role="switch"]'); const session = s.runtime?.getSession(tool); return `${tool}: checked ${input?.checked} busy ${input?.getAttribute('aria-busy')} "${(s.shadowRoot?.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 200)}" session ${JSON.stringify(session?.getState())} permission ${JSON.stringify(session?.permission.getState())} stored ${localStorage.getItem(`fd-ai-operations:${tool}`)}`; }).join(' | ')}; path ${location.pathname}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    };
  }, listedInPage.toString());
  return page.evaluate(([to, names]) => window.__aiOpsBenchNavigate(to, names), [to, OPERATIONS[to]]);
}

/** Turns `tool`'s switch on like a person, on its page, and waits for its operations. */
async function switchOn(page, origin, tool) {
  await page.goto(`${origin}/${tool}/`);
  const toggle = page.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`);
  await toggle.waitFor({ timeout: 30_000 });
  if (!(await toggle.isChecked())) await toggle.click();
  // Polled from here, each answer awaited: page.waitForFunction took the async check's promise for
  // a truthy answer, so the next page.goto could come before the switch-on was verified and stored
  // (the switch then read off on the next visit: the "not listed after 20 s" of issue 24).
  for (const end = Date.now() + 30_000; ;) {
    const listed = await page.evaluate(async ({ names, listed }) => {
      const now = await new Function(`return (${listed})()`)();
      return names.every((n) => now.includes(n));
    }, { names: OPERATIONS[tool], listed: listedInPage.toString() });
    if (listed) return;
    if (Date.now() > end) throw new Error(`${tool}'s operations not listed 30 s after its switch was turned on`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * APP-1's 500 ms: a click on the nav that leaves `a` for `b`, until `a`'s operations are gone from
 * the browser's list (polled in the page) and from a real relay (polled by its MCP client), p50 of
 * 10 each way round; the e2e suite checks that they go, this how fast.
 */
async function withdrawal(page, origin, a, b) {
  const relay = await startRelay({ origin, port: await freePort() });
  try {
    const relayed = async (tool) => (await relayedNames(relay.client)).filter((n) => n.startsWith(`${tool}_`)).length;
    const until = async (test, what) => {
      const end = Date.now() + 20_000;
      while (!(await test())) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      return Date.now();
    };
    await page.goto(`${origin}/${a}/`);
    await until(async () => (await relayed(a)) === OPERATIONS[a].length, `${a} through the relay`);
    const times = { browser: [], relay: [] };
    for (let i = 0; i < 10; i++) {
      const [from, to] = i % 2 === 0 ? [a, b] : [b, a];
      const started = Date.now();
      const [inBrowser, inRelay] = await Promise.all([
        page.evaluate(async ([link, names, listed]) => {
          const list = new Function(`return (${listed})()`);
          [...document.querySelectorAll('nav[aria-label="ツール"] a')].find((x) => x.textContent.trim() === link).click();
          const start = performance.now();
          for (;;) {
            const now = await list();
            if (!names.some((n) => now.includes(n))) break;
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
          return performance.now() - start;
        }, [to, OPERATIONS[from], listedInPage.toString()]),
        until(async () => (await relayed(from)) === 0, `${from} withdrawn from the relay`).then((at) => at - started),
      ]);
      times.browser.push(inBrowser);
      times.relay.push(inRelay);
      await until(async () => (await relayed(to)) === OPERATIONS[to].length, `${to} through the relay`);
    }
    const browser = median(times.browser);
    const relayMs = median(times.relay);
    return [
      { label: `leaving ${a} ⇄ ${b} → withdrawn from the browser's list (p50 of 10)`, value: `${ms(browser)} (max ${ms(Math.max(...times.browser))})`, budget: '≤ 500 ms', ok: browser <= 500 },
      { label: '  … and from the relay (its MCP client polling)', value: `${ms(relayMs)} (max ${ms(Math.max(...times.relay))})`, budget: '≤ 500 ms', ok: relayMs <= 500 },
    ];
  } finally {
    await relay.close();
  }
}

/** APP-2's rounds, and the longer run printed beside them (whether the growth stops). */
const LONG_ROUNDS = 60;
const HEAP_ROUNDS = [2, 5, 10, 15, 20, 30, 40, 50, 60];
const SNAPSHOT_ROUNDS = [2, 20, 40, LONG_ROUNDS];

/**
 * A heap snapshot's self sizes: compiled code apart from every other object (what the pages keep),
 * and per constructor (a node's type and name: `object:Map`, `native:HTMLDivElement`, `closure:render`;
 * strings and numbers by their type alone) for the growth rows.
 */
function bytesByKind({ snapshot: { meta }, nodes, strings }) {
  const width = meta.node_fields.length;
  const typeField = meta.node_fields.indexOf('type');
  const nameField = meta.node_fields.indexOf('name');
  const sizeField = meta.node_fields.indexOf('self_size');
  const types = meta.node_types[0];
  const code = types.indexOf('code');
  const named = new Set(['object', 'native', 'closure', 'hidden', 'array', 'code'].map((t) => types.indexOf(t)));
  const bytes = { objects: 0, code: 0, byKey: new Map() };
  for (let i = 0; i < nodes.length; i += width) {
    const type = nodes[i + typeField];
    const size = nodes[i + sizeField];
    bytes[type === code ? 'code' : 'objects'] += size;
    // Names of closures and objects are short; a long one is a string's text, not a constructor.
    const name = named.has(type) ? strings[nodes[i + nameField]].slice(0, 60) : '';
    const key = name ? `${types[type]}:${name}` : types[type];
    const entry = bytes.byKey.get(key) ?? { bytes: 0, count: 0 };
    entry.bytes += size;
    entry.count += 1;
    bytes.byKey.set(key, entry);
  }
  return bytes;
}

/** The five constructors that grew most in bytes from `before` to `after`, with their counts. */
function topGrowth(before, after) {
  const kb = (n) => `${n >= 0 ? '+' : ''}${(n / 1024).toFixed(0)} KB`;
  return [...after]
    .map(([key, { bytes, count }]) => ({ key, bytes: bytes - (before.get(key)?.bytes ?? 0), count: count - (before.get(key)?.count ?? 0) }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 5)
    .map(({ key, bytes, count }) => `${key} ${kb(bytes)} (${count >= 0 ? '+' : ''}${count})`)
    .join('; ');
}

export async function run({ demo, browser }) {
  const rows = [];
  const tools = routedTools();
  const missing = ['sql', 'slides', 'excalidraw', 'drawio', 'node', 'go'].filter((t) => !tools.includes(t));
  if (missing.length) rows.push({ label: 'tool pages not in the app yet (left out below)', value: missing.join(', ') });

  // First-load bytes, every switch off.
  const home = await firstLoad(browser, demo.origin, '/', (page) => page.getByRole('heading', { level: 1 }).waitFor());
  rows.push({ label: '/ (home) first load, min+gzip', value: `${kb(home.total)} (JS ${kb(home.js)}, ${home.count} files)` });
  for (const tool of tools) {
    const load = await firstLoad(browser, demo.origin, `/${tool}/`, (page) => page.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`).waitFor({ timeout: 30_000 }));
    rows.push({ label: `/${tool}/ first load, min+gzip`, value: `${kb(load.total)} (JS ${kb(load.js)}, ${load.count} files)` });
  }

  const page = await browser.context.newPage();
  const cdp = await browser.context.newCDPSession(page);
  // What the page said, for a failure's message: its last console lines and uncaught errors.
  const said = [];
  page.on('console', (message) => said.push(`${message.type()}: ${message.text().slice(0, 300)}`));
  page.on('pageerror', (error) => said.push(`uncaught: ${error.message}`));
  try {
    // Navigation: the two lightest tools when present, both switched on; the first visit of each
    // page (its chunk and engine loading) is not timed.
    if (tools.length >= 2) {
      const [a, b] = ['drawio', 'sql', ...tools].filter((t, i, all) => tools.includes(t) && all.indexOf(t) === i).slice(0, 2);
      await switchOn(page, demo.origin, b);
      await switchOn(page, demo.origin, a);
      await navigateAndTime(page, b);
      await navigateAndTime(page, a);
      const times = [];
      for (let i = 0; i < 10; i++) times.push(await navigateAndTime(page, i % 2 === 0 ? b : a));
      const p50 = median(times);
      rows.push({ label: `navigation ${a} ⇄ ${b} → its operations listed (p50 of 10)`, value: `${ms(p50)} (max ${ms(Math.max(...times))})`, budget: '≤ 300 ms', ok: p50 <= 300 });
      rows.push(...(await withdrawal(page, demo.origin, a, b)));
    }

    // Heap: rounds through every routed page, each switch on (so each navigation withdraws and
    // registers operations), the heap after round 2 vs after round 20.
    for (const tool of tools) await switchOn(page, demo.origin, tool);
    // The heap once the page is idle: the polyfill passes each tool change on through a queue of
    // zero-delay timers, so right after a burst of navigations it still holds the registrations it
    // has not passed on yet (measured: ~10 KB a navigation, gone within a second). Collected
    // every 250 ms until two readings agree within 0.5 % (at most 10 s): a state, not a fixed sleep.
    //
    // Issue 24: that criterion alone stopped while the queue still drained. The wrapper's registerTool
    // awaits its tool-change queue (zero-delay timers, clamped to 4 ms once nested), and 20 rounds of
    // fast navigation pile up a backlog of registrations still waiting (measured at round 20: 403
    // AbortControllers, 181 copies of a Go schema's text, ~1.3 MB; 5 s later 9 and 16, fewer than at
    // round 2), each GC reading then falling by less than 0.5 %. So the queue is awaited first, until
    // no new link was added while waiting: a state, not a sleep.
    const queueSettled = () => page.evaluate(async () => {
      const context = document.modelContext;
      if (!context?.__isBrowserMcpServer || !('nativeToolChangeQueue' in context)) return;
      // At most 10 s: a queue that never settles is then read as it is (the GC readings below).
      for (let queue, deadline = performance.now() + 10_000; queue !== context.nativeToolChangeQueue && performance.now() < deadline; ) {
        queue = context.nativeToolChangeQueue;
        await queue;
        // The registrations that awaited it resume after it, each with one more zero-delay timer.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    });
    const heapAfterGc = async () => {
      await queueSettled();
      let last = Infinity;
      for (const deadline = Date.now() + 10_000; ;) {
        for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
        const used = (await cdp.send('Runtime.getHeapUsage')).usedSize;
        if (Math.abs(used - last) <= last * 0.005 || Date.now() > deadline) return used;
        last = used;
        await page.waitForTimeout(250);
      }
    };
    // What the heap holds besides compiled code (the optimising compiler keeps adding code for hot
    // functions for many rounds; that is not memory the pages leave behind), from a heap snapshot.
    const objectBytes = async () => {
      await heapAfterGc();
      const chunks = [];
      const onChunk = (event) => chunks.push(event.chunk);
      cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
      await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
      return bytesByKind(JSON.parse(chunks.join('')));
    };
    const objects = new Map();
    const heaps = new Map();
    const started = Date.now();
    const elapsed = new Map();
    for (let round = 1; round <= LONG_ROUNDS; round++) {
      for (const tool of tools) {
        if (new URL(page.url()).pathname === `/${tool}/`) continue;
        await navigateAndTime(page, tool);
      }
      if (HEAP_ROUNDS.includes(round)) heaps.set(round, await heapAfterGc());
      if (SNAPSHOT_ROUNDS.includes(round)) {
        objects.set(round, await objectBytes());
        elapsed.set(round, (Date.now() - started) / 1000);
      }
    }
    const mb = (n) => `${(n / 1048576).toFixed(1)} MB`;
    // The budget is on what the pages keep (every object but compiled code): V8's optimising
    // compilers keep adding machine code for functions that turn hot over the first ~15 rounds
    // (measured: +3 MB by round 15, then flat), which is the engine warming up, not a page left
    // behind. The whole heap is printed beside it, with the code's part, and the same again after
    // a longer run (does it stop?), with what grew most, by constructor.
    const early = objects.get(2);
    for (const round of [20, 40, LONG_ROUNDS]) {
      const late = objects.get(round);
      const objectRatio = late.objects / early.objects;
      const label = `heap objects after round 2 → round ${round} (${tools.length} pages a round)`;
      const value = `${mb(early.objects)} → ${mb(late.objects)} (${objectRatio.toFixed(2)}×, ${elapsed.get(round).toFixed(0)} s)`;
      // APP-2's bound is on round 20; the longer run is printed to show whether the growth stops.
      rows.push(round === 20 ? { label, value, budget: '≤ 1.10×', ok: objectRatio <= 1.1 } : { label, value });
      rows.push({ label: '  whole JS heap (V8 used size), same rounds', value: `${mb(heaps.get(2))} → ${mb(heaps.get(round))} (${(heaps.get(round) / heaps.get(2)).toFixed(2)}×; compiled code ${mb(early.code)} → ${mb(late.code)})` });
    }
    rows.push({ label: `  whole JS heap after rounds ${HEAP_ROUNDS.join(', ')}`, value: [...heaps.values()].map(mb).join(', ') });
    for (const [from, to] of [[2, 20], [20, 40], [40, LONG_ROUNDS]]) {
      rows.push({ label: `  grew most, round ${from} → ${to} (bytes, by constructor)`, value: topGrowth(objects.get(from).byKey, objects.get(to).byKey) });
    }
    // Leave every switch off for the next section.
    await page.evaluate(() => {
      for (const key of Object.keys(localStorage)) if (key.startsWith('fd-ai-operations:')) localStorage.removeItem(key);
    });
  } catch (error) {
    const lines = `\n  the page's last console lines:\n    ${said.slice(-20).join('\n    ') || '(none)'}`;
    error.message += lines;
    // The runner prints the stack, which was written before the message grew.
    if (error.stack) error.stack += lines;
    throw error;
  } finally {
    await page.close();
  }
  return rows;
}
