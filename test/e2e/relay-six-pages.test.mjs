// Issue 6: a real MCP client through the real relay, on all six pages at once. One Chromium context
// holds /sql/, /slides/, /excalidraw/, /drawio/, /node/ and /go/, each switch clicked like a person;
// an MCP SDK client on the stdio of bin/ai-ops-relay.mjs lists the 23 operations and calls every
// one with valid input and with an unknown field. The five confirmations are answered by clicks in
// their pages. Real engines (PGlite, Marp, Excalidraw, draw.io XML, the Node runner, Yaegi).
// Build first: `node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { editorText } from './editor.mjs';
import {
  startDemo, startRelay, launchBrowser, freePort, waitFor, clickSwitch, callRelay, relayedNames, recordTraffic, pairPage,
  openToolPage, confirmDialog, logRows, readLogRows, settlePage, OPERATIONS, RELAY_OWN_TOOLS, RELAY_PORT_URL,
} from './harness.mjs';

const TOOLS = ['sql', 'slides', 'excalidraw', 'drawio', 'node', 'go'];
const QUERY = { sql: '?id=relay-six', node: '?id=relay-six', go: '?id=relay-six' };
const ALL = Object.values(OPERATIONS).flat().sort();

let demo, relay, browser;
/** The tab of each tool. */
const pages = {};
/** What each tab asked of the network (recordTraffic), by tool. */
const traffic = {};
/** Every relayed call, by tool, in order: what each log must show (VER-5). */
const calls = Object.fromEntries(TOOLS.map((t) => [t, []]));
/** Every URL any page asked for. */
const requests = [];

/** Calls through the relay and remembers the call for the log check. */
async function call(name, args = {}, timeout) {
  const answer = await callRelay(relay.client, name, args, timeout);
  calls[name.split('_')[0]].push({ name, args, answer });
  return answer;
}

/** A success: isError absent, one text item, `ok: true` and exactly the fields of the design doc. */
function assertSuccess(name, answer, fields) {
  assert.equal(answer.isError, false, `${name}: ${answer.result.content?.[0]?.text}`);
  assert.equal(answer.result.content.length, 1, name);
  assert.equal(answer.env.ok, true, name);
  assert.deepEqual(Object.keys(answer.env).sort(), ['ok', ...fields].sort(), name);
}

/** A failure: isError true, one text item, `{ok: false, error: {code, message}}`. */
function assertFailure(name, answer, code) {
  assert.equal(answer.isError, true, name);
  assert.equal(answer.result.content.length, 1, name);
  assert.equal(answer.env.ok, false, name);
  assert.equal(answer.env.error.code, code, `${name}: ${JSON.stringify(answer.env)}`);
  assert.equal(typeof answer.env.error.message, 'string');
}

/** The same input plus an unknown field answers invalid_input and opens no dialog (IN-2, REG-4). */
async function assertUnknownFieldRefused(tool, name, args) {
  const answer = await call(name, { ...args, unexpectedField: 1 });
  assertFailure(name, answer, 'invalid_input');
  assert.match(answer.env.error.message, /unexpectedField/, name);
  assert.equal(await pages[tool].locator('ai-ops-confirm dialog[open]').count(), 0, `${name}: no dialog`);
}

/** Calls until the page has loaded what the operation needs (the not_ready answers are logged too). */
async function callWhenReady(name, args = {}, ms = 60_000, timeout) {
  let last;
  await waitFor(async () => {
    last = await call(name, args, timeout);
    return last.env?.error?.code !== 'not_ready';
  }, ms, `${name} to stop answering not_ready`);
  return last;
}

/** Starts a confirmed call, answers its dialog in the tool's page with `action`, and returns the answer. */
async function confirmed(tool, name, args, title, action) {
  await pages[tool].bringToFront();
  const pending = call(name, args);
  const dialog = confirmDialog(pages[tool]);
  await dialog.getByRole('heading', { name: title }).waitFor({ timeout: 20_000 });
  assert.match(await dialog.locator('[part="body"]').textContent(), new RegExp(name));
  await dialog.getByRole('button', { name: action }).click();
  const answer = await pending;
  await waitFor(async () => (await pages[tool].locator('ai-ops-confirm dialog[open]').count()) === 0, 10_000, 'the dialog to close');
  return answer;
}

before(async () => {
  demo = await startDemo();
  relay = await startRelay({ origin: demo.origin, port: await freePort() });
  browser = await launchBrowser();
  browser.context.on('request', (request) => requests.push(request.url()));
  // The pages' time is Playwright's clock: the "nothing while off" check jumps past what a widget
  // would have done (settlePage) instead of sleeping for it.
  await browser.context.clock.install();
  for (const tool of TOOLS) {
    pages[tool] = await openToolPage(browser.context, demo.origin, tool, QUERY[tool] ?? '', { beforeLoad: (page) => { traffic[tool] = recordTraffic(page); } });
  }
});

after(async () => {
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

test('[VER-1] six pages open, every switch off: the relay lists only its own tools', async () => {
  // Past the time a widget would have needed to scan every port, had one been added: 10 s of each
  // page's clock at once, then every request of the page ended.
  for (const tool of TOOLS) await settlePage(pages[tool], traffic[tool], 10_000);
  assert.deepEqual(await relayedNames(relay.client), []);
  for (const tool of TOOLS) assert.equal(await pages[tool].evaluate(() => 'modelContextTesting' in navigator), false, tool);
  assert.deepEqual(requests.filter((url) => RELAY_PORT_URL.test(url) || url.includes('/vendor/')), []);
});

test('[VER-2] [DEF-2] six switches clicked: the client lists exactly the 23 operations plus the relay\'s own four tools', async () => {
  for (const tool of TOOLS) await clickSwitch(pages[tool], tool);
  // DOOR-6: the user pairs once, in the first tab; the pairing is the origin's, and each other tab,
  // looked at, uses it too.
  await pairPage(pages[TOOLS[0]], relay.client, TOOLS[0]);
  for (const tool of TOOLS.slice(1)) await pages[tool].bringToFront();
  await waitFor(async () => (await relayedNames(relay.client)).length === ALL.length, 60_000, 'the 23 operations through the relay');
  const { tools } = await relay.client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [...ALL, ...RELAY_OWN_TOOLS].sort());
  const sources = await callRelay(relay.client, 'webmcp_list_sources');
  assert.equal(sources.env.count, 6);
  for (const tool of tools.filter((t) => !RELAY_OWN_TOOLS.includes(t.name))) {
    // Each description names its tab and page title (relay 2.2.0), then the operation's own text.
    assert.match(tool.description, /^\[WebMCP [^\]]+ • [^\]]*ai-ops\] /, tool.name);
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    assert.equal(tool.inputSchema.additionalProperties, false, tool.name);
  }
  for (const tool of TOOLS) assert.equal(await pages[tool].locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`).isChecked(), true, tool);
});

test('[VER-2] [RELAY-3] [SQL-1] [SQL-2] sql: both operations with valid input and with an unknown field', { timeout: 120_000 }, async () => {
  const read = await callWhenReady('sql_read_query');
  assertSuccess('sql_read_query', read, ['sql']);
  assert.equal(read.env.sql, await editorText(pages.sql.getByLabel('SQL', { exact: true })));
  await assertUnknownFieldRefused('sql', 'sql_read_query', {});
  // The engine loads on this first run.
  const run = await call('sql_run_query', { sql: 'select 6 * 7 as answer', timeoutMs: 60_000 }, 150_000);
  assertSuccess('sql_run_query', run, ['results', 'ms']);
  assert.deepEqual(run.env.results[0].rows, [[42]]);
  await assertUnknownFieldRefused('sql', 'sql_run_query', { sql: 'select 1' });
  const failing = await call('sql_run_query', { sql: 'select * from no_such_table' });
  assertFailure('sql_run_query', failing, 'failed');
  assert.equal(failing.env.sqlState, '42P01');
});

test('[VER-2] [RELAY-3] [CONF-1] slides: read, set_theme, write (confirmed by a click) and an unknown field on each', async () => {
  const read = await callWhenReady('slides_read');
  assertSuccess('slides_read', read, ['document', 'markdown', 'theme', 'slideCount']);
  assert.deepEqual(read.env.document, { id: 'welcome', name: 'ようこそ' });
  await assertUnknownFieldRefused('slides', 'slides_read', {});
  const theme = await call('slides_set_theme', { theme: 'uncover' });
  assertSuccess('slides_set_theme', theme, ['theme']);
  assert.equal(theme.env.theme, 'uncover');
  await assertUnknownFieldRefused('slides', 'slides_set_theme', { theme: 'gaia' });
  const markdown = '# 中継から\n\n---\n\n# 二枚目\n';
  await assertUnknownFieldRefused('slides', 'slides_write', { markdown });
  const write = await confirmed('slides', 'slides_write', { markdown }, 'スライド「ようこそ」の全文を置き換える', '置き換える');
  assertSuccess('slides_write', write, ['slideCount']);
  assert.equal(write.env.slideCount, 2);
  assert.equal(await editorText(pages.slides.getByRole('textbox', { name: 'Markdown', exact: true })), markdown);
});

test('[VER-2] [RELAY-3] [CONF-1] excalidraw: read, add_elements, update_element, clear (confirmed by a click) and an unknown field on each', async () => {
  const read = await callWhenReady('excalidraw_read');
  assertSuccess('excalidraw_read', read, ['document', 'elements']);
  assert.deepEqual(read.env.document, { id: 'welcome', name: 'ようこそ' });
  await assertUnknownFieldRefused('excalidraw', 'excalidraw_read', {});
  const element = { type: 'rectangle', x: 40, y: 400, width: 120, height: 60, id: 'relay-box', text: '中継' };
  await assertUnknownFieldRefused('excalidraw', 'excalidraw_add_elements', { elements: [element] });
  const added = await call('excalidraw_add_elements', { elements: [element] });
  assertSuccess('excalidraw_add_elements', added, ['ids']);
  assert.deepEqual(added.env.ids, ['relay-box']);
  await assertUnknownFieldRefused('excalidraw', 'excalidraw_update_element', { id: 'relay-box', x: 60 });
  const updated = await call('excalidraw_update_element', { id: 'relay-box', x: 60, backgroundColor: '#a5d8ff' });
  assertSuccess('excalidraw_update_element', updated, ['id']);
  const after = await call('excalidraw_read');
  const box = after.env.elements.find((e) => e.id === 'relay-box');
  assert.equal(box.x, 60);
  assert.equal(box.backgroundColor, '#a5d8ff');
  await assertUnknownFieldRefused('excalidraw', 'excalidraw_clear', {});
  const count = after.env.elements.length;
  const cleared = await confirmed('excalidraw', 'excalidraw_clear', {}, '図「ようこそ」の全ての要素を削除する', '削除する');
  assertSuccess('excalidraw_clear', cleared, ['count']);
  assert.equal(cleared.env.count, count);
  assert.deepEqual((await call('excalidraw_read')).env.elements, []);
});

test('[VER-2] [RELAY-3] [CONF-1] drawio: read, add_cells, write (confirmed by a click) and an unknown field on each', async () => {
  const read = await callWhenReady('drawio_read');
  assertSuccess('drawio_read', read, ['document', 'xml']);
  assert.deepEqual(read.env.document, { id: 'welcome', name: 'ようこそ' });
  await assertUnknownFieldRefused('drawio', 'drawio_read', {});
  // The layer every vertex hangs from: the cell whose parent is the root cell.
  const layer = /<mxCell\b[^>]*\bid="([^"]+)"[^>]*\bparent="0"/.exec(read.env.xml)?.[1]
    ?? /<mxCell\b[^>]*\bparent="0"[^>]*\bid="([^"]+)"/.exec(read.env.xml)?.[1] ?? '1';
  const cells = `<mxCell id="relay-cell" value="中継" style="rounded=1;" vertex="1" parent="${layer}"><mxGeometry x="40" y="300" width="120" height="60" as="geometry"/></mxCell>`;
  await assertUnknownFieldRefused('drawio', 'drawio_add_cells', { cells });
  const added = await call('drawio_add_cells', { cells });
  assertSuccess('drawio_add_cells', added, ['count']);
  assert.equal(added.env.count, 1);
  assert.match((await call('drawio_read')).env.xml, /id="relay-cell"/);
  const xml = `<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/><mxCell id="only" value="一つだけ" vertex="1" parent="1"><mxGeometry x="10" y="10" width="80" height="40" as="geometry"/></mxCell></root></mxGraphModel>`;
  await assertUnknownFieldRefused('drawio', 'drawio_write', { xml });
  const written = await confirmed('drawio', 'drawio_write', { xml }, '図「ようこそ」の全体を置き換える', '置き換える');
  assertSuccess('drawio_write', written, []);
  assert.match((await call('drawio_read')).env.xml, /id="only"/);
});

test('[VER-2] [RELAY-3] [CONF-1] node: list, read, write, delete (confirmed by a click), run_command and an unknown field on each', { timeout: 150_000 }, async () => {
  const list = await callWhenReady('node_list_files', {}, 90_000);
  assertSuccess('node_list_files', list, ['entries', 'truncated']);
  await assertUnknownFieldRefused('node', 'node_list_files', {});
  await assertUnknownFieldRefused('node', 'node_write_file', { path: 'relay-note.txt', contents: 'x' });
  const written = await call('node_write_file', { path: 'relay-note.txt', contents: '中継から書いた\n' });
  assertSuccess('node_write_file', written, ['path']);
  await assertUnknownFieldRefused('node', 'node_read_file', { path: 'relay-note.txt' });
  const readBack = await call('node_read_file', { path: 'relay-note.txt' });
  assertSuccess('node_read_file', readBack, ['path', 'contents']);
  assert.equal(readBack.env.contents, '中継から書いた\n');
  await assertUnknownFieldRefused('node', 'node_run_command', { command: 'node', args: ['-v'] });
  const run = await call('node_run_command', { command: 'node', args: ['-e', 'console.log(6 * 7)'], timeoutMs: 60_000 }, 150_000);
  assertSuccess('node_run_command', run, ['exitCode', 'output', 'truncated']);
  assert.equal(run.env.exitCode, 0);
  assert.match(run.env.output, /42/);
  await assertUnknownFieldRefused('node', 'node_delete_file', { path: 'relay-note.txt' });
  const deleted = await confirmed('node', 'node_delete_file', { path: 'relay-note.txt' }, 'ファイル「relay-note.txt」を削除する', '削除する');
  assertSuccess('node_delete_file', deleted, ['path']);
  assertFailure('node_read_file', await call('node_read_file', { path: 'relay-note.txt' }), 'not_found');
});

test('[VER-2] [RELAY-3] [CONF-1] go: list, read, write, delete (confirmed by a click), run, test and an unknown field on each', { timeout: 170_000 }, async () => {
  const list = await callWhenReady('go_list_files');
  assertSuccess('go_list_files', list, ['entries', 'truncated']);
  assert.ok(list.env.entries.some((e) => e.path === 'main.go'));
  await assertUnknownFieldRefused('go', 'go_list_files', {});
  const read = await call('go_read_file', { path: 'main.go' });
  assertSuccess('go_read_file', read, ['path', 'contents']);
  assert.match(read.env.contents, /package main/);
  await assertUnknownFieldRefused('go', 'go_read_file', { path: 'main.go' });
  await assertUnknownFieldRefused('go', 'go_write_file', { path: 'notes/relay.txt', contents: 'x' });
  const written = await call('go_write_file', { path: 'notes/relay.txt', contents: '中継から\n' });
  assertSuccess('go_write_file', written, ['path']);
  await assertUnknownFieldRefused('go', 'go_delete_file', { path: 'notes/relay.txt' });
  const deleted = await confirmed('go', 'go_delete_file', { path: 'notes/relay.txt' }, 'ファイル「notes/relay.txt」を削除する', '削除する');
  assertSuccess('go_delete_file', deleted, ['path']);
  await assertUnknownFieldRefused('go', 'go_run', { timeoutMs: 60_000 });
  // Yaegi loads on this first run; its load time is not counted in timeoutMs.
  const run = await call('go_run', { timeoutMs: 60_000 }, 165_000);
  assertSuccess('go_run', run, ['exitCode', 'output', 'truncated']);
  assert.equal(run.env.exitCode, 0, run.env.output);
  await assertUnknownFieldRefused('go', 'go_test', {});
  const tested = await call('go_test', { timeoutMs: 60_000 }, 165_000);
  assertSuccess('go_test', tested, ['exitCode', 'output', 'truncated']);
  assert.match(tested.env.output, /--- (PASS|FAIL)/);
});

test('[DEF-2] every one of the 23 operations was called with valid input and with an unknown field', () => {
  for (const name of ALL) {
    const made = calls[name.split('_')[0]].filter((c) => c.name === name);
    assert.ok(made.some((c) => c.answer.env?.ok === true), `${name} succeeded`);
    assert.ok(made.some((c) => 'unexpectedField' in c.args && c.answer.env?.error?.code === 'invalid_input'), `${name} refused an unknown field`);
  }
});

test('[RELAY-3] through the relay\'s own webmcp_call_tool too: the envelope comes first and isError follows ok', async () => {
  const good = await callRelay(relay.client, 'webmcp_call_tool', { name: 'slides_read', arguments: {} });
  assert.equal(good.isError, false);
  assert.equal(good.env.ok, true);
  const bad = await callRelay(relay.client, 'webmcp_call_tool', { name: 'slides_read', arguments: { unexpectedField: 1 } });
  assert.equal(bad.isError, true);
  assert.equal(bad.env.error.code, 'invalid_input');
  calls.slides.push({ name: 'slides_read', args: {}, answer: good }, { name: 'slides_read', args: { unexpectedField: 1 }, answer: bad });
});

test('[VER-5] [LOG-3] [LOG-4] each page\'s log has one row per relayed call, in order, with its name, arguments and result', { timeout: 120_000 }, async () => {
  for (const tool of TOOLS) {
    const page = pages[tool];
    const made = calls[tool];
    await waitFor(async () => (await logRows(page, tool).count()) === made.length, 5000, `${made.length} rows in the ${tool} log`);
    const rows = await readLogRows(page, tool);
    assert.deepEqual(rows.map((r) => r.name), made.map((c) => c.name), tool);
    for (const [index, { args, answer }] of made.entries()) {
      const row = rows[index];
      assert.match(row.summary, answer.env.ok ? /成功/ : /失敗/, `${tool} row ${index}`);
      for (const key of Object.keys(args)) assert.match(row.args, new RegExp(`"${key}": `), `${tool} row ${index} args`);
      assert.match(row.result, answer.env.ok ? /"ok": true/ : new RegExp(`"code": "${answer.env.error.code}"`), `${tool} row ${index} result`);
    }
  }
});

test('[SHAPE-7] every request of the six pages went to the demo server or a relay port on 127.0.0.1', () => {
  const elsewhere = requests.filter((url) => !url.startsWith(`${demo.origin}/`) && !RELAY_PORT_URL.test(url) && !url.startsWith('data:') && !url.startsWith('blob:'));
  assert.deepEqual(elsewhere, []);
});
