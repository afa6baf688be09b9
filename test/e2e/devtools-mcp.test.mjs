// UV-6: Chrome DevTools MCP (`chrome-devtools-mcp` 1.11.0, `--categoryExperimentalWebmcp`) as a
// supported agent, in the native mode it needs (it reads the browser's own WebMCP). All real: the
// agent's browser as a user has it (agent-browser.mjs: Chromium with its WebMCP on, the sample page
// on http://localhost, the user's device as a CDP virtual authenticator, present), DevTools MCP
// attached to it with `--browserUrl`, driven by a real MCP SDK client. A person turns the switch on
// (a trusted click, verified by their device), then the agent lists the operations with their hints
// and calls them. Build first: `npm run build && node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { root, startDemo, waitFor } from './harness.mjs';
import { launchAgentBrowser, localOrigin, addUserDevice, startDevToolsMcp, switchInput, devtoolsNames, devtoolsResult } from './agent-browser.mjs';

const NOTE = 'AI のエージェントは、このメモを読み書きし、消せます。';
const OPS = ['sample_clear_note', 'sample_read_note', 'sample_wait'];

let demo, browser, page, device, dt, pageId;

before(async () => {
  demo = await startDemo();
  browser = await launchAgentBrowser();
  page = browser.context.pages()[0];
  const url = `${localOrigin(demo)}/sample/`;
  await page.goto(url);
  await switchInput(page, 'sample').waitFor();
  device = await addUserDevice(browser.context, page, { present: true });
  dt = await startDevToolsMcp(browser);
  pageId = await dt.pageId(url);
});

after(async () => {
  await dt?.close();
  await browser?.close();
  await demo?.close();
});

/** DevTools MCP's listing of the page's WebMCP tools: the raw text and the `sample_*` names. */
async function listing() {
  const { text, isError } = await dt.call('list_webmcp_tools', { pageId });
  assert.equal(isError, false, text);
  return { text, names: devtoolsNames(text).filter((n) => n.startsWith('sample_')) };
}

/** The annotations DevTools MCP shows for `name` (its line's `annotations={…}`), or null. */
function annotationsOf(text, name) {
  const line = text.split('\n').find((l) => l.startsWith(`name="${name}"`));
  const json = line && /annotations=(\{.*\})\s*$/.exec(line)?.[1];
  return json ? JSON.parse(json) : null;
}

/** Calls a page operation through DevTools MCP's execute_webmcp_tool. */
async function execute(toolName, input) {
  const answer = await dt.call('execute_webmcp_tool', { pageId, toolName, input: JSON.stringify(input) });
  assert.equal(answer.isError, false, answer.text);
  return devtoolsResult(answer);
}

test('[UV-6] DevTools MCP lists none of the page\'s operations while its switch is off, and its page tools need pageId', async () => {
  assert.deepEqual((await listing()).names, []);
  const without = await dt.client.callTool({ name: 'list_webmcp_tools', arguments: {} }).then((r) => r, (error) => ({ isError: true, content: [{ text: error.message }] }));
  assert.equal(without.isError, true, 'refused without pageId');
});

test('[UV-6] [UV-1] a person turns the switch on (a trusted click, their device verifying): DevTools MCP lists the operations, with readOnly and consequential as the page declared them', { timeout: 120_000 }, async () => {
  await switchInput(page, 'sample').click();
  const { text, names } = await waitFor(async () => {
    const now = await listing();
    return now.names.length === OPS.length && now;
  }, 60_000, 'DevTools MCP to list the sample operations');
  assert.deepEqual(names, OPS);
  assert.equal(await switchInput(page, 'sample').isChecked(), true);
  // The switch-on went through the platform's verification: the first on this origin enrolled the device.
  assert.equal((await device.credentials()).length, 1, 'one credential created on the user\'s device');
  assert.equal(annotationsOf(text, 'sample_read_note')?.readOnly, true);
  assert.equal(annotationsOf(text, 'sample_read_note')?.consequential, false);
  assert.equal(annotationsOf(text, 'sample_clear_note')?.consequential, true);
  assert.equal(annotationsOf(text, 'sample_clear_note')?.readOnly, false);
  assert.notEqual(annotationsOf(text, 'sample_wait')?.consequential, true);
});

test('[UV-6] [NAT-4] a read through execute_webmcp_tool answers the envelope; a wrong type answers invalid_input as an error the agent reads', { timeout: 120_000 }, async () => {
  const read = await execute('sample_read_note', {});
  assert.equal(read.status, 'Completed');
  assert.notEqual(read.result.isError, true);
  assert.deepEqual(read.env, { text: NOTE, ok: true });
  const bad = await execute('sample_wait', { seconds: 'three' });
  // DevTools MCP reports "Completed" for a result the page marked isError; the agent sees both.
  assert.equal(bad.status, 'Completed');
  assert.equal(bad.result.isError, true);
  assert.equal(bad.env.ok, false);
  assert.equal(bad.env.error.code, 'invalid_input');
  assert.match(bad.env.error.message, /seconds/);
});

test('[UV-6] one DevTools MCP server runs one tool call at a time: a list_pages sent while a 2 s operation runs answers after it', { timeout: 120_000 }, async () => {
  const order = [];
  const waiting = dt.call('execute_webmcp_tool', { pageId, toolName: 'sample_wait', input: JSON.stringify({ seconds: 2 }) }).then((answer) => {
    order.push('sample_wait');
    return answer;
  });
  // Sent right behind it on the same stdio: a server that ran calls side by side would answer this first.
  const pages = dt.call('list_pages').then(() => order.push('list_pages'));
  const answer = await waiting;
  await pages;
  assert.deepEqual(devtoolsResult(answer).env, { waited: 2, ok: true });
  assert.deepEqual(order, ['sample_wait', 'list_pages']);
});

test('[UV-6] [UV-1] turned off by the person (no verification asked): the operations leave DevTools MCP\'s list', { timeout: 60_000 }, async () => {
  await device.setPresent(false); // turning off never asks
  await switchInput(page, 'sample').click();
  await waitFor(async () => (await listing()).names.length === 0, 30_000, 'the operations to leave the list');
  assert.equal(await switchInput(page, 'sample').isChecked(), false);
});

// Last: a second DevTools MCP attaching and leaving ends the page's virtual authenticator (its CDP
// session goes), which the tests above need.
test('[UV-13] with the README\'s own flags (--no-javascript-evaluation among them) DevTools MCP lists and calls the operations and has no evaluate_script to run script in the page', { timeout: 120_000 }, async () => {
  const readme = await readFile(join(root, 'docs/agents.md'), 'utf8');
  const config = JSON.parse(/^(\{ "mcpServers": \{ "chrome-devtools".*\})$/m.exec(readme)[1]).mcpServers['chrome-devtools'];
  // Its flags but those that launch a browser of its own: here it attaches to this one (--browserUrl), as the README allows.
  const launch = new Set(['--executablePath', '/usr/bin/chromium', '--headless', '--chrome-arg=--enable-features=WebMCP', '--no-usage-statistics']);
  const flags = config.args.filter((arg) => arg.startsWith('--') && !launch.has(arg));
  assert.deepEqual(flags, ['--categoryExperimentalWebmcp', '--no-javascript-evaluation']);
  // The person turns the switch on again (their device verifying) before the second agent attaches.
  await device.setPresent(true);
  await switchInput(page, 'sample').click();
  await waitFor(async () => (await listing()).names.length === OPS.length, 60_000, 'the operations listed again');
  const kept = await startDevToolsMcp(browser, { flags });
  try {
    const names = (await kept.client.listTools()).tools.map((t) => t.name);
    assert.equal(names.includes('evaluate_script'), false, 'no evaluate_script');
    assert.equal(names.includes('execute_webmcp_tool'), true);
    const id = await kept.pageId(`${localOrigin(demo)}/sample/`);
    const read = devtoolsResult(await kept.call('execute_webmcp_tool', { pageId: id, toolName: 'sample_read_note', input: '{}' }));
    assert.deepEqual(read.env, { text: NOTE, ok: true });
  } finally {
    await kept.close();
  }
});
