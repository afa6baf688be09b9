// AGENT-1, AGENT-2, NAT-1, NAT-4, UV-1: Playwright MCP (@playwright/mcp, the MCP server agents use
// to drive a browser) as the agent's browser, all real: the agent's browser as a user has it
// (agent-browser.mjs: Debian's Chromium with its own WebMCP on, started by the test, the pages on
// http://localhost, the user's device as a CDP virtual authenticator, present), Playwright MCP
// attached to it with `--cdp-endpoint` and started by an MCP SDK client over stdio, driving the seven
// demo pages the way an agent does — browser_navigate, browser_click on refs from the page snapshot,
// and the page's operations as the `webmcp_<name>` tools Playwright MCP derives from the browser's
// own tool list. Every switch-on is the agent's click with the user there to verify it (UV-1). The
// browser always has its own WebMCP, whatever AI_OPS_BROWSER_MODE says (it is what Playwright MCP
// reads). AGENT-2's 50 s decline runs on Playwright's clock in the page (installed and moved through
// Playwright MCP's browser_run_code_unsafe), so it takes seconds.
// Build first: `npm run build && node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, waitFor, OPERATIONS } from './harness.mjs';
import { launchAgentBrowser, localOrigin, addUserDevice, startPlaywrightMcp, playwrightResult as pageResult } from './agent-browser.mjs';

/** The seven pages, the query each opens with, and one read each. */
const PAGES = [
  { tool: 'sql', query: '?id=pmcp', read: 'sql_read_query' },
  { tool: 'slides', query: '', read: 'slides_read' },
  { tool: 'excalidraw', query: '', read: 'excalidraw_read' },
  { tool: 'drawio', query: '', read: 'drawio_read' },
  { tool: 'node', query: '?id=pmcp', read: 'node_list_files' },
  { tool: 'go', query: '?id=pmcp', read: 'go_list_files' },
  { tool: 'sample', query: '', read: 'sample_read_note' },
];
const OPS = { ...OPERATIONS, sample: ['sample_clear_note', 'sample_read_note', 'sample_wait'] };
/** DEF-4: the operations that carry consequentialHint, and those that carry readOnlyHint. */
const CONSEQUENTIAL = ['drawio_write', 'excalidraw_clear', 'go_delete_file', 'go_run', 'go_test', 'node_delete_file', 'node_run_command', 'sql_run_query'];
/** The sample page (not one of the six tools) has its own: sample_clear_note is consequential, sample_read_note a read. */
const SAMPLE_CONSEQUENTIAL = ['sample_clear_note'];
const SAMPLE_READ_ONLY = ['sample_read_note'];
const READ_ONLY = ['drawio_read', 'excalidraw_read', 'go_list_files', 'go_read_file', 'node_list_files', 'node_read_file', 'slides_read', 'sql_read_query'];

let demo, origin, browser, device, agent;

before(async () => {
  demo = await startDemo();
  origin = localOrigin(demo);
  browser = await launchAgentBrowser();
  const page = browser.context.pages()[0];
  // The user's device, present: it verifies each switch-on the agent's click starts. An
  // authenticator belongs to the tab, across its navigations.
  device = await addUserDevice(browser.context, page, { present: true });
  agent = await startPlaywrightMcp(browser);
});

after(async () => {
  // A page left open with its switch on would keep looking for a relay and join the next suite's
  // (VER-6's two tabs): the browser goes with the suite.
  await agent?.close();
  await browser?.close();
  await demo?.close();
});

/** Calls one of Playwright MCP's tools; answers its text and isError. */
const act = (name, args = {}, timeout = 120_000) => agent.call(name, args, timeout);

/** The page snapshot an action's answer links to (`.playwright-mcp/*.yml`), or a fresh one. */
async function snapshot(answer) {
  return answer ? agent.snapshotOf(answer) : agent.snapshot();
}

/** The ref of the first snapshot line matching `pattern`, e.g. `switch "AI からの操作"`. */
function refIn(text, pattern) {
  const line = text.split('\n').find((l) => pattern.test(l));
  return line ? /\[ref=([^\]]+)\]/.exec(line)?.[1] ?? null : null;
}

/** Waits until the current page's snapshot shows `pattern`; answers its ref. */
async function findRef(pattern, what, ms = 60_000) {
  return waitFor(async () => refIn(await snapshot(), pattern), ms, what);
}

/** The `webmcp_*` tools Playwright MCP lists now (it refreshes them after each action). */
async function pageTools() {
  return agent.pageTools();
}

/** Waits until the listed page tools are exactly `names` (operation names, without the prefix). */
async function toolsBecome(names, what) {
  return waitFor(async () => {
    await act('browser_snapshot'); // an action, so the list is refreshed
    const tools = await pageTools();
    const listed = tools.map((t) => t.name.replace(/^webmcp_/, '')).sort();
    return JSON.stringify(listed) === JSON.stringify([...names].sort()) && tools;
  }, 60_000, what);
}

const SWITCH = /switch "AI からの操作"/;

/** Every operation of the six tools seen marked, across the pages (the eight and the eight). */
const seen = { consequential: new Set(), readOnly: new Set() };

for (const { tool, query, read } of PAGES) {
  test(`[AGENT-1] [NAT-1] [NAT-4] [UV-1] ${tool}: listed after the switch is clicked (the user verifying), a read answers its envelope, a bad input is an error with invalid_input, gone after the switch is clicked off`, { timeout: 240_000 }, async () => {
    await act('browser_navigate', { url: `${origin}/${tool}/${query}` });
    const on = await findRef(SWITCH, `the ${tool} switch`);
    // Nothing of the page is listed while its switch is off.
    assert.deepEqual((await pageTools()).map((t) => t.name), []);
    await act('browser_click', { element: 'the AI からの操作 switch', target: on });
    const tools = await toolsBecome(OPS[tool], `the ${tool} operations as webmcp_* tools`);
    // UV-1: the click went through the user's verification (the first on this origin enrolled the device).
    assert.equal((await device.credentials()).length, 1, 'one credential on the user\'s device for this origin');
    for (const t of tools) {
      const name = t.name.replace(/^webmcp_/, '');
      if (t.description.includes('[CONSEQUENTIAL')) seen.consequential.add(name);
      if (t.annotations?.readOnlyHint === true) seen.readOnly.add(name);
      // NAT-1: the hints reach the agent as the browser's own list has them.
      assert.equal(t.description.includes('[CONSEQUENTIAL'), [...CONSEQUENTIAL, ...SAMPLE_CONSEQUENTIAL].includes(name), `${name}: [CONSEQUENTIAL…] in ${t.description}`);
      assert.equal(t.annotations?.readOnlyHint === true, [...READ_ONLY, ...SAMPLE_READ_ONLY].includes(name), `${name}: readOnlyHint`);
    }
    // One read, through the page's pipeline: the envelope comes back.
    const ok = await waitFor(async () => {
      const answer = await act(`webmcp_${read}`, {});
      const parsed = pageResult(answer);
      return parsed.env.error?.code === 'not_ready' ? null : { answer, ...parsed };
    }, 60_000, `${read} once its engine is ready`);
    assert.equal(ok.answer.isError, false, ok.answer.text);
    assert.equal(ok.env.ok, true, ok.answer.text);
    // NAT-4: a failure is reported as an error, and the agent sees the envelope's code and message.
    const bad = await act(`webmcp_${read}`, { unexpectedField: 1 });
    assert.equal(bad.isError, true, bad.text);
    const { result, env } = pageResult(bad);
    assert.equal(result.isError, true);
    assert.equal(env.ok, false);
    assert.equal(env.error.code, 'invalid_input');
    assert.match(env.error.message, /unexpectedField/);
    // Clicked off: the operations leave the agent's list.
    const off = await findRef(SWITCH, `the ${tool} switch`);
    await act('browser_click', { element: 'the AI からの操作 switch', target: off });
    await toolsBecome([], `the ${tool} operations to leave the list`);
  });
}

test('[AGENT-1] [NAT-1] across the six tools: exactly the eight consequential operations were marked [CONSEQUENTIAL…] and the eight reads carried readOnlyHint', () => {
  const ofTools = (set) => [...set].filter((n) => !n.startsWith('sample_')).sort();
  assert.deepEqual(ofTools(seen.consequential), CONSEQUENTIAL);
  assert.deepEqual(ofTools(seen.readOnly), READ_ONLY);
});

test('[AGENT-2] [CONF-6] a destructive call waits for the page\'s dialog; やめる, clicked through browser_click, declines it and nothing changes', { timeout: 240_000 }, async () => {
  await act('browser_navigate', { url: `${origin}/slides/` });
  await act('browser_click', { element: 'the AI からの操作 switch', target: await findRef(SWITCH, 'the slides switch') });
  await toolsBecome(OPS.slides, 'the slides operations');
  const before = pageResult(await act('webmcp_slides_read')).env;
  const started = Date.now();
  let settled = false;
  const write = act('webmcp_slides_write', { markdown: '# 置き換え' }).finally(() => (settled = true));
  // The dialog opens on the page; the call has not answered.
  const cancel = await findRef(/button "やめる"/, 'the dialog\'s やめる button', 30_000);
  assert.equal(settled, false, 'the call waits for the user');
  await act('browser_click', { element: 'the dialog\'s やめる button', target: cancel });
  const answer = await write;
  const { env } = pageResult(answer);
  assert.equal(answer.isError, true, answer.text);
  assert.equal(env.error.code, 'declined');
  assert.ok(Date.now() - started < 50_000, 'declined by やめる, not by the deadline');
  const after = pageResult(await act('webmcp_slides_read')).env;
  assert.equal(after.markdown, before.markdown);
  await act('browser_click', { element: 'the AI からの操作 switch', target: await findRef(SWITCH, 'the slides switch') });
  await toolsBecome([], 'the slides operations to leave the list');
});

/** Runs Playwright code on the page Playwright MCP drives (its `browser_run_code_unsafe`); answers the code's result, parsed. */
async function onPage(code) {
  const answer = await act('browser_run_code_unsafe', { code });
  assert.equal(answer.isError, false, answer.text);
  const result = /### Result\n([\s\S]*?)(?:\n### |$)/.exec(answer.text)?.[1];
  return result === undefined ? undefined : JSON.parse(result);
}

test('[AGENT-2] [CONF-8] [SAFE-2] a destructive call nobody answers is declined 50 s after it arrived (the page on Playwright\'s clock), not before, and nothing changes', { timeout: 240_000 }, async () => {
  // The page's time is Playwright's clock, installed before the page loads: it flows as usual,
  // and the test jumps it forward, so the 50 s pass in a moment instead of for real. (Pausing it
  // is no option: Playwright MCP waits on the page's timers after each action.)
  await onPage('async (page) => { await page.clock.install(); }');
  await act('browser_navigate', { url: `${origin}/slides/` });
  await act('browser_click', { element: 'the AI からの操作 switch', target: await findRef(SWITCH, 'the slides switch') });
  await toolsBecome(OPS.slides, 'the slides operations');
  const before = pageResult(await act('webmcp_slides_read')).env;
  const pageNow = 'await page.evaluate(() => Date.now())';
  // The call arrives between t0 and t1 (the page's time before the call and once its dialog shows).
  const t0 = Number(await onPage(`async (page) => ${pageNow}`));
  const started = Date.now();
  let settled = false;
  const write = act('webmcp_slides_write', { markdown: '# 誰も答えない' }, 60_000).finally(() => (settled = true));
  await findRef(/button "やめる"/, 'the dialog\'s やめる button', 30_000);
  const t1 = Number(await onPage(`async (page) => ${pageNow}`));
  assert.ok(t1 - t0 < 10_000, `the dialog showed ${t1 - t0} ms after the call`);
  // Up to 2 s before t0 + 50 s (so before the deadline whenever the call arrived), and at least
  // 48 s after t1 (so at least 48 s after the call arrived, less t1 - t0): still waiting.
  const waiting = await onPage(`async (page) => {
    await page.clock.fastForward(${50_000 - (t1 - t0) - 2_000});
    return { now: ${pageNow}, open: await page.getByRole('button', { name: 'やめる' }).isVisible() };
  }`);
  assert.ok(waiting.now < t0 + 50_000, `checked ${waiting.now - t0} ms after t0, before the deadline`);
  assert.ok(waiting.now - t1 >= 48_000 - (t1 - t0), `checked ${waiting.now - t1} ms after the dialog showed`);
  assert.equal(waiting.open, true, 'the dialog is still open just before 50 s');
  assert.equal(settled, false, 'the call still waits just before 50 s');
  // Past t1 + 50 s: the deadline has passed whenever the call arrived.
  await onPage(`async (page) => { await page.clock.fastForward(${(t1 - t0) + 3_000}); }`);
  const answer = await write;
  const { env } = pageResult(answer);
  assert.equal(answer.isError, true, answer.text);
  assert.equal(env.error.code, 'declined');
  assert.ok(Date.now() - started < 50_000, 'declined by the page\'s 50 s, which passed on its clock, not in real time');
  await waitFor(async () => !refIn(await snapshot(), /button "やめる"/), 30_000, 'the dialog to close');
  const after = pageResult(await act('webmcp_slides_read')).env;
  assert.equal(after.markdown, before.markdown);
  await act('browser_click', { element: 'the AI からの操作 switch', target: await findRef(SWITCH, 'the slides switch') });
  await toolsBecome([], 'the slides operations to leave the list');
});
