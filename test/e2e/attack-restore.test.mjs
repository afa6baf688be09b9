// UV-14, UV-15, AGENT-4 (issue 42): a storage restore and a software passkey forge no consent.
//
// Playwright MCP 0.0.83 with `--caps=storage`, attached over CDP to the user's browser (started as a
// person starts it: `navigator.webdriver` false), the user away from their device (a CDP virtual
// authenticator that answers only while the test says the user is there). Its
// `browser_set_storage_state` deletes every IndexedDB database of the origin and re-creates them
// from a JSON file, replaces localStorage, and, for a file with `credentials`, installs a software
// passkey as `navigator.credentials.get/create` in every frame (read in its bundled
// playwright-core: `BrowserContext.setStorageState`, `StorageScript.restore`, `Credentials.install`).
//
// (a) a planted enrolment of the agent's own key with self-signed "switch on" and "skip" receipts
// and the matching stored "on"; (b) the same file with the key as a passkey, then the agent's own
// clicks on the switch (and on 空にする, were a dialog to come); (c) a wiped store with the passkey,
// then the agent's clicks. None may turn the switch on, skip a dialog or approve a call; the note
// reads back byte-identical; the key the page shows is the user's or none, and the page says the
// records were reset or that WebAuthn was replaced. The user present, the same flow works. Last,
// `--caps=network`'s `browser_route` is shown to be L2 (script in the page), as the README ranks it.
// Build first: `npm run build && node esbuild.config.mjs`.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { showLog, waitFor } from './harness.mjs';
import {
  launchAgentBrowser, serveSample, addUserDevice, startPlaywrightMcp, playwrightResult,
  switchInput, switchSettledOn, announced, browserListed, webdriverOf, userTurnsOff,
} from './agent-browser.mjs';
import { attackerKey, deviceFingerprint, plantedState } from './forged-consent.mjs';

const NOTE = 'AI のエージェントは、このメモを読み書きし、消せます。';
const OPS = ['sample_clear_note', 'sample_read_note', 'sample_wait'];
const SWITCH = /switch "AI からの操作"/;
const APPROVE = /button "空にする"/;

describe('Playwright MCP --caps=storage attached to the user\'s browser, the user away', () => {
  let server, browser, page, device, pw, origin, url, key;
  let files = 0;

  before(async () => {
    server = await serveSample({ verificationTimeoutMs: 3000 });
    origin = server.localhost;
    url = `${origin}/sample/`;
    browser = await launchAgentBrowser({ person: true });
    page = browser.context.pages()[0];
    await page.goto(url);
    await switchInput(page, 'sample').waitFor();
    device = await addUserDevice(browser.context, page, { present: false });
    pw = await startPlaywrightMcp(browser, { caps: 'storage' });
    await pw.selectTab(url);
    key = await attackerKey(new URL(origin).hostname);
  });

  after(async () => {
    await pw?.close();
    await browser?.close();
    await server?.close();
  });

  const note = () => page.locator('#note').inputValue();
  const approveButton = () => page.locator('ai-ops-confirm [part~="action-button"]');
  const settled = async () => (await switchInput(page, 'sample').getAttribute('aria-busy')) !== 'true';

  /** A fresh load, once the switch has settled: on with its operations listed, off, or saying why. */
  async function load() {
    await page.goto(url);
    await switchInput(page, 'sample').waitFor();
    await waitFor(async () => (await settled())
      && (!(await switchInput(page, 'sample').isChecked()) || (await browserListed(page, 'sample_')).length === OPS.length), 60_000, 'the switch to settle after the load');
    await pw.call('browser_snapshot'); // Playwright MCP refreshes its page tools after an action
  }

  async function restoreNote() {
    if ((await note()) !== NOTE) await page.locator('#note').fill(NOTE);
  }

  /** The agent restores `state` with its own tool, from a file in its working directory. */
  async function agentRestores(state) {
    const name = `state-${++files}.json`;
    await writeFile(join(pw.dir, name), JSON.stringify(state));
    const answer = await pw.call('browser_set_storage_state', { filename: name });
    assert.equal(answer.isError, false, answer.text);
  }

  /** The key the page shows as the user's (what its log panel reads, `verification.fingerprint()`), or null. */
  async function shownKey() {
    return page.evaluate(async () => {
      const { getAiOps } = await import('/ai-ops/ai-ops.js');
      const verification = getAiOps().capabilities.getState()?.verification;
      return verification ? verification.fingerprint() : null;
    });
  }

  /** The key line of the sample log's panel (UV-5), opened as a person opens it. */
  async function logKeyLine() {
    await showLog(page, 'sample');
    const line = page.locator('ai-ops-log[tool="sample"] [part="verification-key"]');
    await line.waitFor({ timeout: 30_000 });
    return (await line.textContent()).trim();
  }

  /** The fingerprints of the credentials on the user's device. */
  async function deviceKeys() {
    return (await device.credentials()).map(deviceFingerprint);
  }

  /** The agent's browser_click on the switch, then the page's answer: on, or off saying why. */
  async function agentClicksSwitch(t) {
    const before = await announced(page);
    await pw.call('browser_click', { element: 'the AI からの操作 switch', target: await pw.ref(SWITCH, 'the switch in the snapshot') });
    await waitFor(async () => (await settled())
      && ((await browserListed(page, 'sample_')).length === OPS.length || ((await announced(page)) !== before && /本人確認/.test(await announced(page)))), 60_000, 'the page to answer the agent\'s click');
    const said = await announced(page);
    t.diagnostic(`the agent's click: the switch reads ${(await switchSettledOn(page, 'sample')) ? 'ON' : 'off'}; the page said: ${said || '(nothing)'}`);
    return said;
  }

  /**
   * The agent calls sample_clear_note and, if a dialog comes, clicks 空にする itself (the user is
   * away). Answers whether a dialog came, the envelope, and the note afterwards.
   */
  async function agentCallsAndApproves() {
    await restoreNote();
    let answered = false;
    const call = pw.call('webmcp_sample_clear_note', {}, 120_000).then((answer) => playwrightResult(answer).env).finally(() => (answered = true));
    call.catch(() => {});
    const shown = await waitFor(async () => (answered ? 'no dialog' : (await approveButton().isVisible()) && 'dialog'), 30_000, 'a dialog or an answer');
    if (shown === 'dialog') await pw.call('browser_click', { element: '空にする', target: await pw.ref(APPROVE, 'the approve button') });
    const env = await call;
    return { shown, env, note: await note() };
  }

  /**
   * The user present: the agent's sample_clear_note shows the dialog, the user's own click (their
   * device answering) runs it, and the log shows `key`, the user's new key.
   */
  async function userApprovesAgentsCall(key) {
    await restoreNote();
    let answered = false;
    const call = pw.call('webmcp_sample_clear_note', {}, 120_000).then((answer) => playwrightResult(answer).env).finally(() => (answered = true));
    call.catch(() => {});
    assert.equal(await waitFor(async () => (answered ? 'no dialog' : (await approveButton().isVisible()) && 'dialog'), 30_000, 'the dialog'), 'dialog');
    await approveButton().click();
    const env = await call;
    assert.equal(env.ok, true, JSON.stringify(env));
    assert.equal(await note(), '', 'the user\'s approval ran the call');
    assert.equal(await logKeyLine(), `本人確認の鍵: ${key}`, 'the log shows the user\'s key');
  }

  /** Whether localStorage still holds a stored "on" for the sample (read by the test, in the page). */
  const storedOn = () => page.evaluate(() => {
    try {
      return JSON.parse(localStorage.getItem('fd-ai-operations:sample')).enabledUntil > Date.now();
    } catch {
      return false;
    }
  });

  /** After a restore and a reload: nothing on, nothing offered, the note intact, no planted key shown. */
  async function assertNothingOn(t, what) {
    // The page has dealt with a stored "on" once it lists the operations, or no longer keeps it.
    await waitFor(async () => (await settled()) && ((await browserListed(page, 'sample_')).length === OPS.length || !(await storedOn())), 60_000, 'the page to settle the stored "on"');
    await pw.call('browser_snapshot');
    const listed = await browserListed(page, 'sample_');
    const offered = (await pw.pageTools()).map((tool) => tool.name);
    const on = await switchSettledOn(page, 'sample');
    // Today's code would run the call: show what it does before the assertions fail.
    let outcome = 'not offered to the agent';
    if (offered.includes('webmcp_sample_clear_note')) {
      const { shown, env, note: after } = await agentCallsAndApproves();
      outcome = `${shown}; ${JSON.stringify(env)}; the note is ${after === NOTE ? 'intact' : `now ${JSON.stringify(after)}`}`;
    }
    const shownNow = await shownKey();
    t.diagnostic(`${what}: after the reload the switch reads ${on ? 'ON' : 'off'}; listed ${JSON.stringify(listed)}; the agent's sample_clear_note: ${outcome}; the page shows the key ${shownNow} (the agent's is ${key.fingerprint}); it said: ${(await announced(page)) || '(nothing)'}`);
    assert.deepEqual(listed, [], 'no operation is listed');
    assert.deepEqual(offered, [], 'the agent is offered no operation');
    assert.equal(on, false, 'the switch reads off');
    assert.equal(await note(), NOTE, 'the note is byte-identical');
    assert.notEqual(shownNow, key.fingerprint, 'the page never shows the agent\'s key as the user\'s');
  }

  test('[UV-2] the page reads navigator.webdriver false (a browser a person started)', async () => {
    assert.equal(await webdriverOf(page), false);
  });

  test('[UV-1] [UV-5] the user, present for one click, turns the switch on (enrolling the device); the page shows their key', { timeout: 120_000 }, async () => {
    await load();
    await device.setPresent(true);
    try {
      await switchInput(page, 'sample').click();
      await waitFor(async () => (await switchSettledOn(page, 'sample')) && (await browserListed(page, 'sample_')).length === OPS.length, 60_000, 'the switch on');
    } finally {
      await device.setPresent(false);
    }
    const keys = await deviceKeys();
    assert.equal(keys.length, 1);
    assert.equal(await shownKey(), keys[0]);
    await userTurnsOff(page, 'sample', 'sample_');
  });

  test('[UV-14] [AGENT-4] (a) browser_set_storage_state plants an enrolment of the agent\'s key with self-signed switch and skip receipts and the stored "on": nothing turns on, no call runs, and the page says the records were reset', { timeout: 180_000 }, async (t) => {
    await agentRestores(await plantedState({ origin, tool: 'sample', key }));
    // The open page hears the restored "on" (a storage event) at once, and says why it does not count.
    await waitFor(async () => (await browserListed(page, 'sample_')).length === OPS.length || /保存されていた許可/.test(await announced(page)), 60_000, 'the open page to answer the restored "on"');
    t.diagnostic(`the open page, at the restore: the switch reads ${(await switchSettledOn(page, 'sample')) ? 'ON' : 'off'}; it said: ${await announced(page)}`);
    assert.match(await announced(page), /保存されていた許可には確かめられる本人確認の記録がない/, 'the switch says why the stored "on" did not count');
    await load();
    await assertNothingOn(t, 'the planted enrolment');
    // The agent's own clicks: the first is told the records were reset; the second asks the
    // platform (the user is away: no answer), and nothing turns on.
    const first = await agentClicksSwitch(t);
    assert.match(first, /登録の記録.*消されたか書き換えられていました/, 'the switch says the records were reset');
    assert.equal(await switchSettledOn(page, 'sample'), false);
    const second = await agentClicksSwitch(t);
    assert.match(second, /本人確認に時間内に答えがなかった/, 'the second click asked the user, who did not answer');
    assert.equal(await switchSettledOn(page, 'sample'), false);
    assert.deepEqual(await browserListed(page, 'sample_'), []);
    assert.notEqual(await shownKey(), key.fingerprint);
    assert.equal(await note(), NOTE);
  });

  test('[UV-14] the user present after the planted restore: one switch-on enrols the device again, verified; the agent\'s call asks and the user\'s approval runs it', { timeout: 180_000 }, async (t) => {
    const before = await deviceKeys();
    await device.setPresent(true);
    try {
      await switchInput(page, 'sample').click();
      await waitFor(async () => (await switchSettledOn(page, 'sample')) && (await browserListed(page, 'sample_')).length === OPS.length, 60_000, 'the switch on by the user');
      const after = await deviceKeys();
      t.diagnostic(`device keys: ${before.length} before, ${after.length} after; the page shows ${await shownKey()}`);
      assert.equal(after.length, before.length + 1, 'a new credential, created with verification');
      assert.equal(await shownKey(), after.find((k) => !before.includes(k)), 'the page shows the user\'s new key');
      await pw.call('browser_snapshot');
      await userApprovesAgentsCall(after.find((k) => !before.includes(k)));
    } finally {
      await device.setPresent(false);
    }
    await restoreNote();
    await userTurnsOff(page, 'sample', 'sample_');
  });

  test('[UV-14] [UV-15] [AGENT-4] (b) a planted enrolment of the agent\'s key and the same key as a Playwright passkey (credentials in the file): the agent\'s clicks turn nothing on and approve nothing', { timeout: 180_000 }, async (t) => {
    const before = await deviceKeys();
    await agentRestores(await plantedState({ origin, tool: 'sample', key, passkey: true, receipts: false }));
    await load();
    await assertNothingOn(t, 'the planted enrolment with its passkey');
    const first = await agentClicksSwitch(t);
    let outcome = '';
    if (await switchSettledOn(page, 'sample')) {
      await pw.call('browser_snapshot');
      const { shown, env, note: after } = await agentCallsAndApproves();
      outcome = `${shown}; ${JSON.stringify(env)}; the note is ${after === NOTE ? 'intact' : `now ${JSON.stringify(after)}`}`;
      t.diagnostic(`after the agent's click turned the switch on, its sample_clear_note and its click on 空にする: ${outcome}`);
    }
    assert.equal(await switchSettledOn(page, 'sample'), false, 'the agent\'s first click turned nothing on');
    assert.match(first, /登録の記録.*消されたか書き換えられていました/, 'the switch says the records were reset');
    const second = await agentClicksSwitch(t);
    assert.match(second, /ブラウザー本来のものではなく/, 'the switch says WebAuthn was replaced');
    assert.equal(await switchSettledOn(page, 'sample'), false, 'the agent\'s second click turned nothing on');
    assert.deepEqual(await browserListed(page, 'sample_'), []);
    assert.deepEqual(await deviceKeys(), before, 'nothing was asked of the user\'s device');
    assert.notEqual(await shownKey(), key.fingerprint);
    assert.equal(await note(), NOTE, 'the note is byte-identical');
  });

  test('[UV-15] [AGENT-4] (c) a wiped store with the agent\'s passkey installed: the agent\'s click enrols nothing and turns nothing on, and the page says WebAuthn was replaced', { timeout: 180_000 }, async (t) => {
    await agentRestores(await plantedState({ origin, tool: 'sample', key, passkey: true, planted: false }));
    await load();
    assert.equal(await switchSettledOn(page, 'sample'), false);
    const said = await agentClicksSwitch(t);
    assert.equal(await switchSettledOn(page, 'sample'), false, 'the agent\'s click turned nothing on');
    assert.match(said, /ブラウザー本来のものではなく/, 'the switch says WebAuthn was replaced');
    assert.deepEqual(await browserListed(page, 'sample_'), []);
    assert.equal(await shownKey(), null, 'nothing is enrolled');
    assert.equal(await note(), NOTE);
  });

  test('[UV-14] [UV-15] the agent\'s passkey gone (a restore without credentials), the user present: the switch-on enrols, verified, and the user approves the agent\'s call', { timeout: 180_000 }, async (t) => {
    await agentRestores({ cookies: [], origins: [] });
    await load();
    const before = await deviceKeys();
    await device.setPresent(true);
    try {
      await switchInput(page, 'sample').click();
      await waitFor(async () => (await switchSettledOn(page, 'sample')) && (await browserListed(page, 'sample_')).length === OPS.length, 60_000, 'the switch on by the user');
      const after = await deviceKeys();
      t.diagnostic(`device keys: ${before.length} before, ${after.length} after; the page shows ${await shownKey()}`);
      assert.equal(after.length, before.length + 1);
      assert.equal(await shownKey(), after.find((k) => !before.includes(k)));
      await pw.call('browser_snapshot');
      await userApprovesAgentsCall(after.find((k) => !before.includes(k)));
    } finally {
      await device.setPresent(false);
    }
    await restoreNote();
    await userTurnsOff(page, 'sample', 'sample_');
  });

  test('[AGENT-4] --caps=network is L2: browser_route serves the agent\'s own script in place of the page\'s, and it runs as the page (so the README\'s deny list names browser_route)', { timeout: 120_000 }, async (t) => {
    const network = await startPlaywrightMcp(browser, { caps: 'network' });
    try {
      await network.selectTab(url);
      const routed = await network.call('browser_route', { pattern: '**/sample/operations.js', body: 'document.documentElement.dataset.routed = "the agent";', contentType: 'text/javascript' });
      assert.equal(routed.isError, false, routed.text);
      await page.goto(url);
      const ran = await waitFor(() => page.evaluate(() => document.documentElement.dataset.routed ?? null), 30_000, 'the routed script to run');
      t.diagnostic(`the page ran the agent's script: <html data-routed="${ran}">`);
      assert.equal(ran, 'the agent');
    } finally {
      await network.call('browser_unroute', {}).catch(() => {});
      await network.close();
    }
    await load();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.routed ?? null), null, 'the page\'s own script again');
  });
});
