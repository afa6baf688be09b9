// UV-1, UV-4, UV-6: the attack suite, with real agents. The agent's browser as a user has it
// (agent-browser.mjs): one Chromium with its own WebMCP, the sample page on http://localhost (an
// origin that can hold a credential), the user's device (a CDP virtual authenticator), and four real
// agent MCP servers attached to that browser — two Playwright MCP, two Chrome DevTools MCP (one
// calls, the other clicks while the call waits, since one DevTools MCP server runs one tool call at
// a time). The user is ABSENT (the device's presence simulation off) unless a test says otherwise:
// then every click, key and script an agent has is tried against the switch and against the
// dialog, and none may turn the switch on or get the destructive call approved. The user PRESENT,
// the same clicks work end to end; a device added after enrolment cannot approve.
//
// The sample page comes from the test's own server with `verificationTimeoutMs: 3000`, so each
// verification the absent user never gives ends in seconds; the Node page's attempt (served by the
// playground, as built) keeps the verifier's real 50 s. Each attempt starts on a fresh load with
// UV-10's pause cleared (no prompt for a while after two refused verifications of a tool, kept in
// IndexedDB across reloads since UV-16: the test plays the user waiting it out);
// attack-person.test.mjs tests the pause itself, consent-rest.test.ts its growth and its tabs.
// Build first: `npm run build && node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, waitFor, renderedTwice, clearRests } from './harness.mjs';
import {
  launchAgentBrowser, localOrigin, addUserDevice, startDevToolsMcp, startPlaywrightMcp, serveSample,
  switchInput, announced, browserListed, devtoolsNames, devtoolsResult, playwrightResult,
} from './agent-browser.mjs';

/** The sample page's note as it loads: the user's data the destructive call would erase. */
const NOTE = 'AI のエージェントは、このメモを読み書きし、消せます。';
const OPS = ['sample_clear_note', 'sample_read_note', 'sample_wait'];
const SWITCH = /switch "AI からの操作"/;
const APPROVE = /button "空にする"/;
/** UV-4: the page says why the switch stays off, in words about the verification it needs. */
const NEEDS_VERIFICATION = /本人確認/;

let demo, sample, browser, page, url, device;
/** The calling agents and the clicking agents, one pair of each kind. */
let pw, pwClicker, dt, dtClicker;
/** DevTools MCP's ids of the page (its page tools need them). */
let dtPage, dtClickerPage;

before(async () => {
  demo = await startDemo();
  sample = await serveSample({ verificationTimeoutMs: 3000 });
  browser = await launchAgentBrowser();
  page = browser.context.pages()[0];
  url = `${sample.localhost}/sample/`;
  await page.goto(url);
  await switchInput(page, 'sample').waitFor();
  device = await addUserDevice(browser.context, page, { present: false });
  // One at a time: four servers starting at once on two shared cores time each other out.
  pw = await startPlaywrightMcp(browser);
  pwClicker = await startPlaywrightMcp(browser);
  dt = await startDevToolsMcp(browser);
  dtClicker = await startDevToolsMcp(browser);
  await pw.selectTab(url);
  await pwClicker.selectTab(url);
  dtPage = await dt.pageId(url);
  dtClickerPage = await dtClicker.pageId(url);
});

after(async () => {
  for (const agent of [pw, pwClicker, dt, dtClicker]) await agent?.close();
  await browser?.close();
  await sample?.close();
  await demo?.close();
});

const note = () => page.locator('#note').inputValue();
const isOn = () => switchInput(page, 'sample').isChecked();

/** Whether `locator`'s element has focus (inside its shadow root too). */
const focused = (locator) => locator.evaluate((el) => el.matches(':focus'));

/** Presses `key` through `press` until `target` has focus (at most 8 times), as an agent tabbing to it does. */
async function tabTo(press, target, what) {
  for (let i = 0; i < 8; i++) {
    if (await focused(target)) return;
    await press('Tab');
  }
  assert.ok(await focused(target), `the agent's Tab reached ${what}`);
}

/** What each agent lists of the page now: Playwright MCP's `webmcp_sample_*`, DevTools MCP's `list_webmcp_tools`. */
async function agentsList() {
  await pw.call('browser_snapshot'); // an action: Playwright MCP refreshes its page tools after one
  const fromPlaywright = (await pw.pageTools()).map((t) => t.name.replace(/^webmcp_/, '')).filter((n) => n.startsWith('sample_')).sort();
  const fromDevTools = devtoolsNames((await dt.call('list_webmcp_tools', { pageId: dtPage })).text).filter((n) => n.startsWith('sample_'));
  return { fromPlaywright, fromDevTools };
}

/** The user (present for this one click) turns `tool`'s switch on, with a trusted click; then leaves. */
async function userTurnsOn(tool = 'sample', count = OPS.length) {
  if (await switchInput(page, tool).isChecked()) return;
  await device.setPresent(true);
  try {
    await switchInput(page, tool).click();
    await waitFor(async () => (await switchInput(page, tool).isChecked()) && (await browserListed(page, `${tool}_`)).length === count, 60_000, `the ${tool} switch on by the user, its operations listed`);
  } finally {
    await device.setPresent(false);
  }
}

/** The user turns the switch off (never verified). */
async function userTurnsOff() {
  if (await isOn()) await switchInput(page, 'sample').click();
  await waitFor(async () => !(await isOn()) && (await browserListed(page, 'sample_')).length === 0, 30_000, 'the switch off');
}

/** The user puts their note back after an attack that got through (so the next attack starts from it). */
async function restoreNote() {
  if ((await note()) !== NOTE) await page.locator('#note').fill(NOTE);
}

// ---- The switch, the user absent ----

/**
 * Counts, from now on, what reaches the switch's input: key presses, and presses that activate it
 * (`click`, `change`: what Space, a click or a script's click() make; Enter makes neither on a
 * checkbox). Recorded by the test's own connection, in capture, before any handler of the page.
 */
async function recordPresses() {
  await switchInput(page, 'sample').evaluate((input) => {
    const seen = (window.__switchSeen = { keys: 0, presses: 0 });
    input.getRootNode().addEventListener('keydown', (e) => e.composedPath()[0] === input && seen.keys++, true);
    for (const type of ['click', 'change']) input.getRootNode().addEventListener(type, (e) => e.composedPath()[0] === input && seen.presses++, true);
  });
}

/** What {@link recordPresses} saw. */
const pressesSeen = () => page.evaluate(() => window.__switchSeen);

/** Every way an agent has to press the switch: its tool calls, on the page it shows. */
const SWITCH_ATTACKS = [
  ['Playwright MCP browser_click on the switch', async () => {
    await pw.call('browser_click', { element: 'the AI からの操作 switch', target: await pw.ref(SWITCH, 'the switch in the snapshot') });
  }],
  ['Playwright MCP browser_press_key Tab to the switch, then Space', async () => {
    await tabTo((key) => pw.call('browser_press_key', { key }), switchInput(page, 'sample'), 'the switch');
    await pw.call('browser_press_key', { key: ' ' });
  }],
  ['Playwright MCP browser_press_key Tab to the switch, then Enter', async () => {
    await tabTo((key) => pw.call('browser_press_key', { key }), switchInput(page, 'sample'), 'the switch');
    await pw.call('browser_press_key', { key: 'Enter' });
  }],
  ['Playwright MCP browser_evaluate calling click() on the switch', async () => {
    const answer = await pw.call('browser_evaluate', { function: '() => { document.querySelector(\'ai-ops-switch[tool="sample"]\').shadowRoot.querySelector(\'input[role="switch"]\').click(); return true; }' });
    assert.equal(answer.isError, false, answer.text);
  }],
  ['Playwright MCP browser_evaluate dispatching pointer, mouse, key and change events at the switch', async () => {
    const answer = await pw.call('browser_evaluate', { function: `() => {
      const input = document.querySelector('ai-ops-switch[tool="sample"]').shadowRoot.querySelector('input[role="switch"]');
      const init = { bubbles: true, composed: true, cancelable: true };
      input.focus();
      for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup']) input.dispatchEvent(new (type.startsWith('pointer') ? PointerEvent : MouseEvent)(type, init));
      input.dispatchEvent(new MouseEvent('click', init));
      input.dispatchEvent(new KeyboardEvent('keydown', { ...init, key: ' ', code: 'Space' }));
      input.dispatchEvent(new KeyboardEvent('keyup', { ...init, key: ' ', code: 'Space' }));
      input.dispatchEvent(new Event('input', init));
      input.dispatchEvent(new Event('change', init));
      return true;
    }` });
    assert.equal(answer.isError, false, answer.text);
  }],
  ['DevTools MCP click on the switch', async () => {
    await dt.call('click', { pageId: dtPage, uid: await dt.uid(dtPage, SWITCH, 'the switch in the snapshot') });
  }],
  ['DevTools MCP press_key Tab to the switch, then Space', async () => {
    await tabTo((key) => dt.call('press_key', { pageId: dtPage, key }), switchInput(page, 'sample'), 'the switch');
    await dt.call('press_key', { pageId: dtPage, key: 'Space' });
  }],
  ['DevTools MCP press_key Tab to the switch, then Enter', async () => {
    await tabTo((key) => dt.call('press_key', { pageId: dtPage, key }), switchInput(page, 'sample'), 'the switch');
    await dt.call('press_key', { pageId: dtPage, key: 'Enter' });
  }],
  ['DevTools MCP fill the switch with "true"', async () => {
    await dt.call('fill', { pageId: dtPage, uid: await dt.uid(dtPage, SWITCH, 'the switch in the snapshot'), value: 'true' });
  }],
  ['DevTools MCP evaluate_script calling click() on the switch', async () => {
    const answer = await dt.call('evaluate_script', { pageId: dtPage, function: '() => { document.querySelector(\'ai-ops-switch[tool="sample"]\').shadowRoot.querySelector(\'input[role="switch"]\').click(); return true; }' });
    assert.equal(answer.isError, false, answer.text);
  }],
];

for (const [name, attack] of SWITCH_ATTACKS) {
  test(`[UV-1] [UV-4] [UV-6] the user absent, ${name}: the switch stays off, no agent lists an operation, and the page says verification is needed`, { timeout: 240_000 }, async (t) => {
    // A fresh load: whatever an earlier attempt left (a waiting request, a notice) is gone; and the
    // rest its refused prompts started (UV-16 keeps it across reloads), so each attempt meets a prompt.
    await page.reload();
    await switchInput(page, 'sample').waitFor();
    await clearRests(page);
    assert.equal(await isOn(), false, 'the switch starts off');
    await recordPresses();
    try {
      await attack();
      const { keys, presses } = await pressesSeen();
      if (name.includes('press_key')) assert.ok(keys > 0, 'the agent\'s keys reached the switch');
      if (presses > 0) {
        // The switch was pressed: the attempt has played out once the page says why it stays off —
        // or once it let the agent in.
        await waitFor(async () => NEEDS_VERIFICATION.test(await announced(page)) || (await browserListed(page, 'sample_')).length > 0, 150_000, 'the page to answer the attempt');
        assert.match(await announced(page), NEEDS_VERIFICATION, 'the page announces that turning on needs the user\'s verification');
      }
      // (Enter does not press a checkbox: nothing started, nothing to announce.)
      assert.equal(await isOn(), false, 'the switch reads off');
      assert.deepEqual(await agentsList(), { fromPlaywright: [], fromDevTools: [] }, 'no agent lists an operation of the page');
      t.diagnostic(`pressed ${presses} time(s); the page said: ${(await announced(page)) || '(nothing)'}`);
    } finally {
      await userTurnsOff();
    }
  });
}

// ---- The dialog, the user absent (the switch turned on by the user present) ----

test('[UV-1] the user, present for one click, turns the switch on: that click enrols the device (one credential on it) and the agents list the operations', { timeout: 120_000 }, async () => {
  await page.reload();
  await switchInput(page, 'sample').waitFor();
  // The user has waited out the rest the refused switch-ons above started (UV-16).
  await clearRests(page);
  await userTurnsOn();
  assert.equal((await device.credentials()).length, 1, 'the switch-on created one credential on the user\'s device');
  const lists = await waitFor(async () => {
    const now = await agentsList();
    return now.fromPlaywright.length === OPS.length && now.fromDevTools.length === OPS.length && now;
  }, 30_000, 'both agents to list the operations');
  assert.deepEqual(lists, { fromPlaywright: OPS, fromDevTools: OPS });
});

/**
 * The agent asks for `sample_clear_note` (through `caller`), and once the dialog's 「空にする」 can be
 * pressed, `press` tries to approve it; answers the call's envelope.
 */
async function destructiveCall(kind, press) {
  // A fresh load, and UV-10's pause from earlier refusals cleared: UV-16 keeps it in IndexedDB across
  // reloads (the test plays the user waiting it out).
  await page.reload();
  await switchInput(page, 'sample').waitFor();
  await clearRests(page);
  await userTurnsOn();
  await restoreNote();
  let call;
  if (kind === 'playwright') {
    await waitFor(async () => {
      await pw.call('browser_snapshot');
      return (await pw.pageTools()).some((t) => t.name === 'webmcp_sample_clear_note');
    }, 30_000, 'Playwright MCP to list webmcp_sample_clear_note');
    call = pw.call('webmcp_sample_clear_note', {}, 150_000).then((answer) => ({ isError: answer.isError, ...playwrightResult(answer) }));
  } else {
    // After the reload the page registers again: call once DevTools MCP lists the operation (a call
    // before that answers "Tool not found", and no dialog ever opens).
    await waitFor(async () => devtoolsNames((await dt.call('list_webmcp_tools', { pageId: dtPage })).text).includes('sample_clear_note'),
      30_000, 'DevTools MCP to list sample_clear_note');
    call = dt.call('execute_webmcp_tool', { pageId: dtPage, toolName: 'sample_clear_note', input: '{}' }, 150_000)
      .then((answer) => ({ isError: answer.isError, ...devtoolsResult(answer) }));
  }
  let settled = false;
  call.finally(() => (settled = true)).catch(() => {});
  const approve = page.locator('ai-ops-confirm [part~="action-button"]');
  // SAFE-7's pointer guard ignores presses in the dialog's first moments: the attacker waits it out.
  await waitFor(async () => (await approve.isVisible()) && (await approve.getAttribute('aria-disabled')) !== 'true', 30_000, 'the dialog\'s 空にする to be pressable');
  assert.equal(settled, false, 'the call waits for the dialog');
  // The call is awaited even when the press failed, so that no call outlives its test.
  const pressed = await press(approve).then(() => null, (error) => error);
  const answer = await call;
  if (pressed) throw pressed;
  return answer;
}

/** A press the browser delivers (CDP input): the dialog takes it and asks for the user's verification. */
const DELIVERED = true;
/** A script's click(): the dialog takes only delivered input, so it never gets as far as asking. */
const SCRIPTED = false;

/** Every way the clicking agent has to press 「空にする」 while the calling agent's call waits. */
const APPROVE_ATTACKS = [
  ['playwright', 'a second Playwright MCP\'s browser_click on 空にする', DELIVERED, async () => {
    await pwClicker.call('browser_click', { element: 'the dialog\'s 空にする button', target: await pwClicker.ref(APPROVE, '空にする in the snapshot') });
  }],
  ['playwright', 'a second Playwright MCP\'s browser_press_key Tab to 空にする, then Enter', DELIVERED, async (approve) => {
    await tabTo((key) => pwClicker.call('browser_press_key', { key }), approve, '空にする');
    await pwClicker.call('browser_press_key', { key: 'Enter' });
  }],
  ['playwright', 'a second Playwright MCP\'s browser_press_key Tab to 空にする, then Space', DELIVERED, async (approve) => {
    await tabTo((key) => pwClicker.call('browser_press_key', { key }), approve, '空にする');
    await pwClicker.call('browser_press_key', { key: ' ' });
  }],
  ['playwright', 'a second Playwright MCP\'s browser_evaluate calling click() on 空にする', SCRIPTED, async () => {
    const answer = await pwClicker.call('browser_evaluate', { function: '() => { document.querySelector(\'ai-ops-confirm\').shadowRoot.querySelector(\'[part~="action-button"]\').click(); return true; }' });
    assert.equal(answer.isError, false, answer.text);
  }],
  ['devtools', 'a second DevTools MCP\'s click on 空にする', DELIVERED, async () => {
    await dtClicker.call('click', { pageId: dtClickerPage, uid: await dtClicker.uid(dtClickerPage, APPROVE, '空にする in the snapshot') });
  }],
  ['devtools', 'a second DevTools MCP\'s press_key Tab to 空にする, then Enter', DELIVERED, async (approve) => {
    await tabTo((key) => dtClicker.call('press_key', { pageId: dtClickerPage, key }), approve, '空にする');
    await dtClicker.call('press_key', { pageId: dtClickerPage, key: 'Enter' });
  }],
  ['devtools', 'a second DevTools MCP\'s evaluate_script calling click() on 空にする', SCRIPTED, async () => {
    const answer = await dtClicker.call('evaluate_script', { pageId: dtClickerPage, function: '() => { document.querySelector(\'ai-ops-confirm\').shadowRoot.querySelector(\'[part~="action-button"]\').click(); return true; }' });
    assert.equal(answer.isError, false, answer.text);
  }],
];

for (const [kind, name, delivered, attack] of APPROVE_ATTACKS) {
  // A delivered press reached the button: the dialog then waits for the verification (UV-7's live
  // region says so), which the absent user never gives. A script's click() starts nothing: once the
  // page has rendered twice after it, the dialog still waits, asking nothing and running nothing,
  // and the user declines it (rather than the test waiting out CONF-8's 50 s).
  const press = delivered
    ? async (approve) => {
      await attack(approve);
      await waitFor(async () => /本人確認を待っています/.test(await announced(page)), 30_000, 'the dialog to wait for the verification');
    }
    : async (approve) => {
      await attack(approve);
      await renderedTwice(page);
      assert.equal(await approve.isVisible(), true, 'the dialog still waits after the script\'s click');
      assert.doesNotMatch(await announced(page), /本人確認を待っています/, 'the script\'s click started no verification');
      assert.equal(await note(), NOTE, 'the note is untouched while the dialog waits');
      await page.locator('ai-ops-confirm [part~="cancel-button"]').click();
    };
  const caller = kind === 'playwright' ? 'Playwright MCP\'s webmcp_sample_clear_note' : 'DevTools MCP\'s execute_webmcp_tool sample_clear_note';
  test(`[UV-1] [UV-6] the user absent, ${caller} approved by ${name}: declined, and the note reads back byte-identical`, { timeout: 240_000 }, async (t) => {
    try {
      const started = Date.now();
      const answer = await destructiveCall(kind, press);
      t.diagnostic(`answered after ${Math.round((Date.now() - started) / 1000)} s: ${JSON.stringify(answer.env)}`);
      assert.equal(answer.env.ok, false, JSON.stringify(answer.env));
      assert.equal(answer.env.error.code, 'declined');
      assert.equal(answer.result.isError, true);
      assert.equal(await note(), NOTE, 'the note is untouched');
      assert.equal(await isOn(), true, 'the switch the user turned on stays on');
    } finally {
      await restoreNote();
    }
  });
}

// ---- The user present: the same clicks work ----

test('[UV-1] [UV-6] the user present: Playwright MCP\'s browser_click turns the switch on, and a second one\'s browser_click on 空にする gets its webmcp_sample_clear_note done', { timeout: 240_000 }, async () => {
  await userTurnsOff();
  await device.setPresent(true);
  try {
    await pw.call('browser_click', { element: 'the AI からの操作 switch', target: await pw.ref(SWITCH, 'the switch in the snapshot') });
    await waitFor(async () => (await browserListed(page, 'sample_')).length === OPS.length, 60_000, 'the operations after the agent\'s click, the user verifying');
    assert.equal(await isOn(), true);
    const answer = await destructiveCall('playwright', async () => {
      await pwClicker.call('browser_click', { element: 'the dialog\'s 空にする button', target: await pwClicker.ref(APPROVE, '空にする in the snapshot') });
    });
    assert.equal(answer.env.ok, true, JSON.stringify(answer.env));
    assert.equal(answer.env.count, NOTE.length);
    assert.equal(await note(), '');
  } finally {
    await device.setPresent(false);
    await restoreNote();
  }
});

test('[UV-1] [UV-6] the user present: DevTools MCP\'s click turns the switch on, and a second one\'s click on 空にする gets its execute_webmcp_tool sample_clear_note done', { timeout: 240_000 }, async () => {
  await userTurnsOff();
  await device.setPresent(true);
  try {
    await dt.call('click', { pageId: dtPage, uid: await dt.uid(dtPage, SWITCH, 'the switch in the snapshot') });
    await waitFor(async () => (await browserListed(page, 'sample_')).length === OPS.length, 60_000, 'the operations after the agent\'s click, the user verifying');
    assert.equal(await isOn(), true);
    const answer = await destructiveCall('devtools', async () => {
      await dtClicker.call('click', { pageId: dtClickerPage, uid: await dtClicker.uid(dtClickerPage, APPROVE, '空にする in the snapshot') });
    });
    assert.equal(answer.env.ok, true, JSON.stringify(answer.env));
    assert.equal(answer.env.count, NOTE.length);
    assert.equal(await note(), '');
  } finally {
    await device.setPresent(false);
    await restoreNote();
  }
});

// ---- The Node page: a file ----

test('[UV-1] [UV-6] [UV-10] the Node page, the user absent, on the verifier\'s real 50 s: DevTools MCP\'s execute_webmcp_tool node_delete_file, approved by a second DevTools MCP\'s click on 削除する, is declined and index.js reads back byte-identical', { timeout: 240_000 }, async (t) => {
  await page.goto(`${localOrigin(demo)}/node/?id=attack-agents`);
  await switchInput(page, 'node').waitFor({ timeout: 60_000 });
  await userTurnsOn('node', 5);
  const read = async () => waitFor(async () => {
    const { env } = devtoolsResult(await dt.call('execute_webmcp_tool', { pageId: dtPage, toolName: 'node_read_file', input: JSON.stringify({ path: 'index.js' }) }));
    return env.error?.code === 'not_ready' ? null : env;
  }, 60_000, 'node_read_file once the engine is ready');
  const before = await read();
  assert.equal(before.ok, true, JSON.stringify(before));
  const started = Date.now();
  const call = dt.call('execute_webmcp_tool', { pageId: dtPage, toolName: 'node_delete_file', input: JSON.stringify({ path: 'index.js' }) }, 150_000)
    .then((answer) => devtoolsResult(answer));
  const approve = page.locator('ai-ops-confirm [part~="action-button"]');
  await waitFor(async () => (await approve.isVisible()) && (await approve.getAttribute('aria-disabled')) !== 'true', 30_000, 'the dialog\'s 削除する to be pressable');
  const pressed = await dtClicker.call('click', { pageId: dtClickerPage, uid: await dtClicker.uid(dtClickerPage, /button "削除する"/, '削除する in the snapshot') })
    .then(() => null, (error) => error);
  const { env } = await call;
  if (pressed) throw pressed;
  const seconds = (Date.now() - started) / 1000;
  t.diagnostic(`answered after ${seconds} s: ${JSON.stringify(env)}`);
  assert.equal(env.ok, false, JSON.stringify(env));
  assert.equal(env.error.code, 'declined');
  // The one attempt of the attack suites on the verifier's own timeout: the dialog's 50 s (UV-7).
  assert.ok(seconds >= 40, `the verification waited the real timeout (${seconds} s)`);
  const after = await read();
  assert.equal(after.contents, before.contents, 'index.js byte-identical');
});

// ---- Another device ----

test('[UV-1] [UV-4] a virtual authenticator added after enrolment (the first removed, a fresh one present) cannot approve: the call is declined and the note is untouched', { timeout: 240_000 }, async () => {
  await page.goto(url);
  await switchInput(page, 'sample').waitFor();
  await userTurnsOn();
  await device.remove();
  device = await addUserDevice(browser.context, page, { present: true });
  try {
    const answer = await destructiveCall('playwright', async () => {
      await pwClicker.call('browser_click', { element: 'the dialog\'s 空にする button', target: await pwClicker.ref(APPROVE, '空にする in the snapshot') });
    });
    assert.equal(answer.env.ok, false, JSON.stringify(answer.env));
    assert.equal(answer.env.error.code, 'declined');
    assert.equal(await note(), NOTE, 'the note is untouched');
    assert.equal((await device.credentials()).length, 0, 'the fresh device signed nothing into being');
  } finally {
    await restoreNote();
  }
});
