// AUDIT-1 in the playground app, all real: one document, the six tool pages reached by the nav's
// links, one read per tool by an MCP SDK client through the relay command, then the user's
// 「記録を保存」: the download parses as JSON Lines and matches the rows the logs showed.
// Build first: `node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  BROWSER_MODE, OPERATIONS, callRelay, clickSwitch, freePort, launchBrowser, logRows, readLogRows, relayedNames, showLog,
  startDemo, startRelay, waitFor, ensurePaired
} from './harness.mjs';
import { TOOLS, clickNav } from './app-harness.mjs';

/** The read each tool page answers without a confirmation. */
const READS = { sql: 'sql_read_query', slides: 'slides_read', excalidraw: 'excalidraw_read', drawio: 'drawio_read', node: 'node_list_files', go: 'go_list_files' };

let demo, relay, browser, page;

before(async () => {
  demo = await startDemo();
  relay = await startRelay({ origin: demo.origin, port: await freePort() });
  browser = await launchBrowser();
  page = await browser.context.newPage();
});

after(async () => {
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

const switchOf = (tool) => page.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`);

test('[AUDIT-1] one call per tool through the relay, then 「記録を保存」: the .jsonl parses and every line is its row', { timeout: 300_000 }, async () => {
  const shown = [];
  await page.goto(`${demo.origin}/${TOOLS[0]}/`);
  const marker = await page.evaluate(() => (window.__sameDocument = Math.random()));
  for (const tool of TOOLS) {
    if (tool !== TOOLS[0]) await clickNav(page, tool);
    await switchOf(tool).waitFor({ timeout: 30_000 });
    await clickSwitch(page, tool);
    // DOOR-6: paired once; the other pages of the app keep the pairing.
    await ensurePaired(page, relay.client, tool);
    await waitFor(async () => (await relayedNames(relay.client)).filter((n) => n.startsWith(`${tool}_`)).length === OPERATIONS[tool].length,
      30_000, `${tool}'s operations through the relay`);
    // A page still loading what its read needs answers not_ready, which is logged too.
    let calls = 0;
    await waitFor(async () => (calls++, await callRelay(relay.client, READS[tool], {})).env?.error?.code !== 'not_ready', 60_000, `${READS[tool]} ready`);
    await waitFor(async () => (await logRows(page, tool).count()) === calls, 5000, `${tool}'s ${calls} rows`);
    const read = await readLogRows(page, tool);
    const times = await logRows(page, tool).evaluateAll((rows) => rows.map((r) => r.querySelector('time').getAttribute('datetime')));
    read.forEach((row, i) => shown.push({ tool, ...row, time: times[i] }));
  }
  assert.equal(await page.evaluate(() => window.__sameDocument), marker, 'one document: the nav navigated in the app');
  assert.ok(shown.length >= TOOLS.length);

  const last = TOOLS.at(-1);
  await showLog(page, last);
  const exportButton = page.locator(`ai-ops-log[tool="${last}"] [part~="export-button"]`);
  assert.equal((await exportButton.textContent()).trim(), '記録を保存');
  // A script's click saves nothing.
  let downloads = 0;
  page.on('download', () => downloads++);
  await exportButton.evaluate((button) => button.click());
  // The user's click then downloads: the first download event is its, and the only one.
  const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
  assert.equal(downloads, 1, 'a script\'s click() downloaded nothing; the user\'s click one file');
  assert.match(download.suggestedFilename(), /^ai-ops-log-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.jsonl$/);
  const text = await readFile(await download.path(), 'utf8');
  assert.ok(text.endsWith('\n'));
  const lines = text.slice(0, -1).split('\n').map((line) => JSON.parse(line));
  assert.equal(lines.length, shown.length, 'one line per row of the session, every tool\'s');
  lines.forEach((line, i) => {
    const row = shown[i];
    // AUDIT-2: the row's members, then its place in the chain (checked in receipt-verify.test.mjs and test/node/audit-chain.test.mjs).
    assert.deepEqual(Object.keys(line), ['time', 'tool', 'operation', 'via', 'args', 'result', 'code', 'durationMs', 'undone', 'argsTruncated', 'receipt', 'publicKey', 'line', 'lines', 'prev', 'digest'], `line ${i}`);
    assert.deepEqual([line.line, line.lines, line.prev], [i + 1, lines.length, i ? lines[i - 1].digest : '0'.repeat(64)], `line ${i}`);
    // UV-5: reads ask no one, so they carry no receipt.
    assert.equal(line.receipt, null, `line ${i}`);
    assert.equal(line.argsTruncated, false, `line ${i}`);
    assert.equal(line.tool, row.tool, `line ${i}`);
    assert.equal(line.operation, row.name, `line ${i}`);
    assert.equal(line.args, row.args, `line ${i}: the arguments as the row shows them`);
    assert.equal(line.result, row.result, `line ${i}: the result as the row shows it`);
    assert.equal(line.time, row.time, `line ${i}`);
    // DOOR-10: the relay, and the agent behind it as its MCP client named itself in initialize.
    assert.equal(line.via, 'relay ai-ops-e2e 1.0.0', `line ${i}: the call came through the relay, from the e2e client`);
    assert.equal(line.undone, false);
    assert.ok(Number.isInteger(line.durationMs) && line.durationMs >= 0, `line ${i}: ${line.durationMs}`);
    // The code as the row's badge and result say it: none for 成功, else the envelope's.
    if (/成功/.test(row.summary)) assert.equal(line.code, null, `line ${i}`);
    else assert.ok(line.code && row.result.includes(line.code), `line ${i}: ${line.code}`);
  });
  assert.deepEqual([...new Set(lines.map((l) => l.tool))], TOOLS);
  for (const tool of TOOLS) assert.ok(lines.some((l) => l.operation === READS[tool] && l.code === null), `${tool}'s read succeeded`);
});

test('[AUDIT-1] the path is carried from where the call entered: the browser\'s own executeTool is webmcp, the polyfill\'s polyfill, the relay\'s relay', async () => {
  const tool = TOOLS.at(-1);
  const name = READS[tool];
  const before = await logRows(page, tool).count();
  await callRelay(relay.client, name, {});
  // A page script's executeTool: the browser's own WebMCP where it has one, the polyfill's where not
  // (which does not say who called: it must not be logged as the relay).
  const own = await page.evaluate(async ([webmcp, n]) => {
    const tool = (await document.modelContext.getTools()).find((t) => t.name === n);
    // The browser's takes the input as an object, the polyfill's as JSON text.
    return document.modelContext.executeTool(tool, webmcp ? {} : '{}');
  }, [BROWSER_MODE === 'webmcp', name]);
  assert.ok(own);
  await waitFor(async () => (await logRows(page, tool).count()) === before + 2, 5000, 'two more rows');
  await showLog(page, tool);
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`ai-ops-log[tool="${tool}"] [part~="export-button"]`).click()]);
  const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.slice(-2).map((l) => [l.operation, l.via]), [[name, 'relay ai-ops-e2e 1.0.0'], [name, BROWSER_MODE === 'webmcp' ? 'webmcp' : 'polyfill']]);
});
