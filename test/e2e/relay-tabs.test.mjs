// Issue 6, one tool in two tabs through the real relay (VER-6, PERM-2, PERM-7): /slides/?doc=a and
// /slides/?doc=b in one Chromium context, an MCP SDK client on the stdio of bin/ai-ops-relay.mjs.
// Build first: `node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startDemo, startRelay, launchBrowser, freePort, waitFor, clickSwitch, callRelay, relayedNames, openToolPage, pairPage,
  switchIsOn, OPERATIONS,
} from './harness.mjs';
import { editorText } from './editor.mjs';

const KEY = 'fd-ai-operations:slides';
let demo, relay, browser;
/** The two tabs, by document id. */
const tabs = {};

/** The page's Markdown editor (CodeMirror), and the deck as it shows it. */
const editor = (page) => page.getByRole('textbox', { name: 'Markdown', exact: true });
const editorValue = (page) => editorText(editor(page));
const tabId = (page) => page.evaluate(() => sessionStorage.getItem('__webmcp_relay_tab_id'));
const stored = (page) => page.evaluate((key) => localStorage.getItem(key), KEY);
/** The relay's names for one operation, e.g. slides_read_1a2b and slides_read_3c4d. */
const suffixed = (names, operation) => names.filter((n) => new RegExp(`^${operation}_[A-Za-z0-9_]{1,4}$`).test(n));

async function openDoc(id) {
  const page = await openToolPage(browser.context, demo.origin, 'slides', `?doc=${id}`);
  await waitFor(async () => (await page.title()) === `${id} — slides — ai-ops` && (await editorValue(page)).length > 0, 15_000, `the deck ${id}`);
  return page;
}

before(async () => {
  demo = await startDemo();
  relay = await startRelay({ origin: demo.origin, port: await freePort() });
  browser = await launchBrowser();
  // Opening ?doc=<id> creates the deck; give each its own text.
  tabs.a = await openDoc('a');
  tabs.b = await openDoc('b');
  await editor(tabs.a).fill('# デッキ A\n');
  await editor(tabs.b).fill('# デッキ B\n\n---\n\n# B の二枚目\n');
});

after(async () => {
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

test('[PERM-7] a click in tab a turns the switch on in tab b too (storage event): both tabs\' tools reach the relay', async () => {
  await clickSwitch(tabs.a, 'slides');
  await waitFor(() => switchIsOn(tabs.b, 'slides'), 10_000, 'tab b\'s switch to follow');
  // DOOR-6: the user pairs in tab a; the pairing is the origin's, and tab b, looked at, uses it too.
  await pairPage(tabs.a, relay.client, 'slides');
  await tabs.b.bringToFront();
  await waitFor(async () => (await relayedNames(relay.client)).length === 6, 20_000, 'six slides tools through the relay');
});

test('[VER-6] both tabs are listed with suffixed names; descriptions start with the page title; read results tell the documents apart', async () => {
  const { tools } = await relay.client.listTools();
  const names = tools.map((t) => t.name);
  for (const operation of OPERATIONS.slides) assert.equal(suffixed(names, operation).length, 2, operation);
  assert.equal(names.filter((n) => n.startsWith('slides_')).length, 6);
  const seen = {};
  for (const [id, page] of Object.entries(tabs)) {
    const prefix = `[WebMCP ${await tabId(page)} • ${id} — slides — ai-ops] `;
    const own = tools.filter((t) => t.name.startsWith('slides_') && t.description.startsWith(prefix));
    assert.equal(own.length, 3, `tab ${id}: ${tools.map((t) => t.description.slice(0, 80)).join(' | ')}`);
    const read = own.find((t) => t.name.startsWith('slides_read_'));
    const answer = await callRelay(relay.client, read.name);
    assert.equal(answer.isError, false);
    assert.deepEqual(answer.env.document, { id, name: id });
    assert.equal(answer.env.markdown, await editorValue(page));
    seen[id] = { read: read.name, theme: own.find((t) => t.name.startsWith('slides_set_theme_')).name };
  }
  assert.notEqual(seen.a.read, seen.b.read);
  // A change through one tab's name reaches that tab only.
  const themed = await callRelay(relay.client, seen.b.theme, { theme: 'gaia' });
  assert.deepEqual(themed.env, { ok: true, theme: 'gaia' });
  await waitFor(async () => /theme: gaia/.test(await editorValue(tabs.b)), 5000, 'tab b\'s deck in gaia');
  assert.doesNotMatch(await editorValue(tabs.a), /theme: gaia/);
});

test('[PERM-2] a reload keeps the switch on (no click), without extending enabledUntil; the relay lists the reloaded tab again', async () => {
  const before = JSON.parse(await stored(tabs.a));
  assert.equal(before.v, 1);
  const notified = relay.listChanged.length;
  await tabs.a.reload();
  await tabs.a.locator('ai-ops-switch[tool="slides"] input[role="switch"]').waitFor();
  await waitFor(() => switchIsOn(tabs.a, 'slides'), 10_000, 'the switch on after the reload');
  await waitFor(() => tabs.a.evaluate(() => navigator.modelContextTesting?.listTools().length === 3), 15_000, 'the tools registered again');
  assert.deepEqual(JSON.parse(await stored(tabs.a)), before);
  await waitFor(() => relay.listChanged.length > notified, 10_000, 'tools/list_changed');
  await waitFor(async () => (await relayedNames(relay.client)).length === 6, 20_000, 'six tools again');
  const { tools } = await relay.client.listTools();
  // The same tab id (sessionStorage) after the reload. (The title in the prefix is the one the page
  // had when the widget was added, which a reload may reach before the deck is open.)
  const prefix = `[WebMCP ${await tabId(tabs.a)} • `;
  const read = tools.find((t) => t.name.startsWith('slides_read_') && t.description.startsWith(prefix));
  assert.ok(read, 'the reloaded tab\'s slides_read');
  assert.deepEqual((await callRelay(relay.client, read.name)).env.document, { id: 'a', name: 'a' });
});

test('[PERM-7] [VER-3] turning the switch off in tab b turns it off in tab a: the relay drops all six and calls answer "Tool not found"', async () => {
  const names = await relayedNames(relay.client);
  const notified = relay.listChanged.length;
  await clickSwitch(tabs.b, 'slides');
  await waitFor(async () => !(await switchIsOn(tabs.a, 'slides')), 10_000, 'tab a\'s switch to follow');
  assert.equal(await stored(tabs.a), null);
  await waitFor(async () => (await relayedNames(relay.client)).length === 0, 15_000, 'the tools to leave the relay');
  assert.ok(relay.listChanged.length > notified);
  for (const page of Object.values(tabs)) {
    assert.deepEqual(await page.evaluate(() => navigator.modelContextTesting.listTools()), []);
    assert.equal(await page.locator('[data-webmcp-relay]').count(), 0);
  }
  for (const name of names) {
    const { isError, result } = await callRelay(relay.client, name);
    assert.equal(isError, true);
    assert.match(result.content[0].text, new RegExp(`Tool (not found: ${name}|${name} not found)`));
  }
});
