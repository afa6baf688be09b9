// UV-4, UV-8, UV-9: storage is not the anchor, and an IP-literal origin turns nothing on.
//
// A program that writes the origin's storage but runs no script in the page — CDP `DOMStorage`
// (here the test's own CDP session, as any CDP client has it) and Playwright MCP's
// `browser_localstorage_set` — tries each forgery of issue 34: a copied receipt as the skip, a
// planted key with a self-signed switch receipt (made with a key the test generates, WebCrypto in
// Node), a deleted enrolment (IndexedDB deleted over CDP, the old localStorage key removed), and a
// receipt left from before an off (written back after the user turned the switch off). None may
// skip a dialog or turn anything on; the note reads back byte-identical. The assertions are on what
// the page does (the switch, the dialog, the note), not on where it keeps things, so they hold
// whatever the storage layout.
//
// Then `http://127.0.0.1` (an origin that cannot hold a credential), served by the test's own
// static server (the playground's server sends 127.0.0.1 to localhost): nothing turns on by a
// click, not even the user's own with the device present, and the page says what to do.
//
// Each runs in two browsers: one whose page reads `navigator.webdriver` true (a DevTools port the
// browser picked, as automation starts it) and one started as a person starts it (false).
// Build first: `npm run build && node esbuild.config.mjs`.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { waitFor } from './harness.mjs';
import {
  launchAgentBrowser, serveSample, addUserDevice, startPlaywrightMcp, playwrightResult,
  switchInput, switchSettledOn, announced, browserListed, webdriverOf, userTurnsOn, userTurnsOff,
} from './agent-browser.mjs';
// The attacker's own "authenticator": a P-256 key the test generates, receipts it signs for any
// description (UP and UV set, the right relying party and origin: all a page can check, but the wrong key).
import { attackerKey } from './forged-consent.mjs';

const NOTE = 'AI のエージェントは、このメモを読み書きし、消せます。';
const OPS = ['sample_clear_note', 'sample_read_note', 'sample_wait'];
const SWITCH = /switch "AI からの操作"/;
const APPROVE = /button "空にする"/;
const WEEK = 7 * 24 * 60 * 60 * 1000;
/** Today's keys (before issue 34): the switch record, its receipts, the enrolment. */
const SWITCH_KEY = 'fd-ai-operations:sample';
const RECEIPTS_KEY = 'fd-ai-operations:sample:uv';
const ENROLMENT_KEY = 'fd-ai-operations-uv';

/**
 * The test's CDP session on the page, used only for what a storage-only program has: the `DOMStorage`
 * and `IndexedDB` domains. No `Runtime`, no script in the page.
 */
async function storageProgram(context, page, origin) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('DOMStorage.enable');
  const storageId = { securityOrigin: origin, isLocalStorage: true };
  return {
    /** Every localStorage entry of the origin, as `[key, value]`. */
    async items() {
      return (await cdp.send('DOMStorage.getDOMStorageItems', { storageId })).entries;
    },
    set: (key, value) => cdp.send('DOMStorage.setDOMStorageItem', { storageId, key, value }),
    remove: (key) => cdp.send('DOMStorage.removeDOMStorageItem', { storageId, key }),
    /** Deletes every IndexedDB database of the origin (CDP can read and delete, not put); answers their names. */
    async deleteIndexedDb() {
      const { databaseNames } = await cdp.send('IndexedDB.requestDatabaseNames', { securityOrigin: origin });
      for (const databaseName of databaseNames) {
        const { databaseWithObjectStores } = await cdp.send('IndexedDB.requestDatabase', { securityOrigin: origin, databaseName });
        for (const { name } of databaseWithObjectStores.objectStores) {
          await cdp.send('IndexedDB.clearObjectStore', { securityOrigin: origin, databaseName, objectStoreName: name });
        }
        await cdp.send('IndexedDB.deleteDatabase', { securityOrigin: origin, databaseName });
      }
      return databaseNames;
    },
  };
}

/**
 * The copied-receipt forgery over whatever the origin's localStorage holds: every record with a
 * switch-on receipt gets that receipt as its skip too, and every switch record a skip period up to
 * its end (or a week). Answers the entries to write.
 */
function copiedReceiptAsSkip(entries) {
  const writes = [];
  for (const [key, value] of entries) {
    let parsed;
    try {
      parsed = JSON.parse(value);
    } catch {
      continue;
    }
    if (!parsed || typeof parsed !== 'object') continue;
    if (parsed.on && typeof parsed.on === 'object') writes.push([key, JSON.stringify({ ...parsed, skip: parsed.on })]);
    if ('skipConfirmUntil' in parsed) writes.push([key, JSON.stringify({ ...parsed, skipConfirmUntil: parsed.enabledUntil ?? Date.now() + WEEK })]);
  }
  return writes;
}

const KINDS = [
  { name: 'a browser whose page reads navigator.webdriver true', person: false, webdriver: true },
  { name: 'a browser started as a person starts it (navigator.webdriver false)', person: true, webdriver: false },
];

for (const kind of KINDS) {
  describe(kind.name, () => {
    let server, browser, page, device, pw, origin, url, storage;

    before(async () => {
      server = await serveSample({ verificationTimeoutMs: 3000 });
      origin = server.localhost;
      url = `${origin}/sample/`;
      browser = await launchAgentBrowser({ person: kind.person });
      page = browser.context.pages()[0];
      await page.goto(url);
      await switchInput(page, 'sample').waitFor();
      device = await addUserDevice(browser.context, page, { present: false });
      // One session for the whole suite: detaching a CDP session from the page also ends the
      // page's virtual authenticator environment (measured: the device's next command then fails).
      storage = await storageProgram(browser.context, page, origin);
      pw = await startPlaywrightMcp(browser, { caps: 'storage' });
      await pw.selectTab(url);
    });

    after(async () => {
      await pw?.close();
      await browser?.close();
      await server?.close();
    });

    const note = () => page.locator('#note').inputValue();
    const approveButton = () => page.locator('ai-ops-confirm [part~="action-button"]');

    /** A fresh load of `at`, once the switch has settled: on with its operations listed, or off. */
    async function load(at = url) {
      await page.goto(at);
      await switchInput(page, 'sample').waitFor();
      await waitFor(async () => (await switchInput(page, 'sample').getAttribute('aria-busy')) !== 'true'
        && (!(await switchInput(page, 'sample').isChecked()) || (await browserListed(page, 'sample_')).length === OPS.length), 60_000, 'the switch to settle after the load');
      await pw.call('browser_snapshot'); // Playwright MCP refreshes its page tools after an action
    }



    async function restoreNote() {
      if ((await note()) !== NOTE) await page.locator('#note').fill(NOTE);
    }

    /**
     * The user clears what a planted key left (today a planted enrolment would lock their own device
     * out of every later switch-on, so the next attempt would not start from the user's state).
     */
    async function removePlanted() {
      for (const key of [ENROLMENT_KEY, RECEIPTS_KEY, SWITCH_KEY]) await storage.remove(key);
      await load();
      await userTurnsOff(page, 'sample', 'sample_');
    }

    /** After a forgery and a reload: the switch reads off and no agent is offered an operation. */
    async function assertNothingOn(t) {
      // The page has dealt with what storage says once it lists the operations, says why the switch
      // is off, or no longer keeps a stored "on" (so a later look cannot find one still unread).
      const storedOn = async () => {
        const value = (await storage.items()).find(([key]) => key === SWITCH_KEY)?.[1];
        try {
          return JSON.parse(value).enabledUntil > Date.now();
        } catch {
          return false;
        }
      };
      await waitFor(async () => (await switchInput(page, 'sample').getAttribute('aria-busy')) !== 'true'
        && ((await browserListed(page, 'sample_')).length > 0 || /始められません|本人確認/.test(await announced(page)) || !(await storedOn())), 60_000, 'the page to settle what storage says');
      const listed = await browserListed(page, 'sample_');
      const fromAgent = (await pw.pageTools()).map((tool) => tool.name);
      t.diagnostic(`after the reload the switch reads ${(await switchSettledOn(page, 'sample')) ? 'ON' : 'off'}; listed ${JSON.stringify(listed)}; the page said: ${(await announced(page)) || '(nothing)'}`);
      assert.deepEqual(listed, [], 'no operation is listed');
      assert.deepEqual(fromAgent, [], 'the agent is offered no operation');
      assert.equal(await switchSettledOn(page, 'sample'), false, 'the switch reads off');
    }

    /** The agent calls sample_clear_note with the user away: a dialog must come, which the user declines. */
    async function assertCallAsks(t) {
      await restoreNote();
      let settled = false;
      await waitFor(async () => {
        await pw.call('browser_snapshot');
        return (await pw.pageTools()).some((tool) => tool.name === 'webmcp_sample_clear_note');
      }, 30_000, 'Playwright MCP to list webmcp_sample_clear_note');
      const call = pw.call('webmcp_sample_clear_note', {}, 120_000).then((answer) => playwrightResult(answer).env).finally(() => (settled = true));
      call.catch(() => {});
      const shown = await waitFor(async () => (settled ? 'answered' : (await approveButton().isVisible()) && 'shown'), 30_000, 'a dialog or an answer');
      if (shown === 'shown') await page.locator('ai-ops-confirm [part~="cancel-button"]').click();
      const env = await call;
      t.diagnostic(`the agent's sample_clear_note: ${shown === 'shown' ? 'the dialog asked (the user declined)' : 'ran with NO dialog'}: ${JSON.stringify(env)}; the note is ${(await note()) === NOTE ? 'intact' : `now ${JSON.stringify(await note())}`}`);
      assert.equal(shown, 'shown', 'the call shows its dialog');
      assert.equal(env.ok, false);
      assert.equal(await note(), NOTE, 'the note is byte-identical');
    }

    test(`[UV-2] ${kind.name}: the page reads navigator.webdriver as ${kind.webdriver}`, async () => {
      assert.equal(await webdriverOf(page), kind.webdriver);
    });

    test(`[UV-8] ${kind.name}, never enrolled: a planted key with self-signed switch and skip receipts, written over CDP DOMStorage, turns nothing on`, { timeout: 120_000 }, async (t) => {
      await load();
      assert.equal(await switchSettledOn(page, 'sample'), false);
      const key = await attackerKey();
      const enabledUntil = Date.now() + WEEK;
      const on = await key.sign({ kind: 'switch', origin, tool: 'sample', enabledUntil });
      const skip = await key.sign({ kind: 'call', origin, tool: 'sample', operation: 'sample_clear_note', inputDigest: 'x', callId: 1, openedAt: Date.now(), skipFuture: true });
      await storage.set(ENROLMENT_KEY, JSON.stringify(key.record));
      await storage.set(RECEIPTS_KEY, JSON.stringify({ on, skip }));
      await storage.set(SWITCH_KEY, JSON.stringify({ v: 1, enabledUntil, skipConfirmUntil: enabledUntil }));
      try {
        await load();
        await assertNothingOn(t);
        assert.equal(await note(), NOTE);
      } finally {
        await removePlanted();
      }
    });

    test(`[UV-1] ${kind.name}: the user, present for one click, turns the switch on (the origin's first switch-on enrols the device)`, { timeout: 120_000 }, async (t) => {
      await load();
      await userTurnsOff(page, 'sample', 'sample_');
      await userTurnsOn(page, device, 'sample', 'sample_', OPS.length);
      t.diagnostic(`credentials on the user's device: ${(await device.credentials()).length}`);
    });

    for (const via of ['CDP DOMStorage', 'Playwright MCP\'s browser_localstorage_set']) {
      test(`[UV-8] [UV-9] ${kind.name}: the switch-on receipt copied in as the skip, with a skip period, written by ${via}: the next call still asks`, { timeout: 120_000 }, async (t) => {
        await load();
        await userTurnsOff(page, 'sample', 'sample_');
        await userTurnsOn(page, device, 'sample', 'sample_', OPS.length);
        const writes = copiedReceiptAsSkip(await storage.items());
        for (const [key, value] of writes) {
          if (via === 'CDP DOMStorage') await storage.set(key, value);
          else {
            const answer = await pw.call('browser_localstorage_set', { key, value });
            assert.equal(answer.isError, false, answer.text);
          }
        }
        t.diagnostic(`wrote ${writes.map(([key]) => key).join(', ') || '(nothing to copy)'}`);
        assert.ok(writes.some(([key]) => key === SWITCH_KEY), 'the switch record got a skip period');
        await load();
        await assertCallAsks(t);
      });
    }

    test(`[UV-8] ${kind.name}, enrolled: the enrolment replaced by a planted key with self-signed receipts, over CDP DOMStorage, turns nothing on`, { timeout: 120_000 }, async (t) => {
      await load();
      await userTurnsOff(page, 'sample', 'sample_');
      await userTurnsOn(page, device, 'sample', 'sample_', OPS.length);
      await userTurnsOff(page, 'sample', 'sample_');
      const key = await attackerKey();
      const enabledUntil = Date.now() + WEEK;
      const on = await key.sign({ kind: 'switch', origin, tool: 'sample', enabledUntil });
      await storage.set(ENROLMENT_KEY, JSON.stringify(key.record));
      await storage.set(RECEIPTS_KEY, JSON.stringify({ on, skip: on }));
      await storage.set(SWITCH_KEY, JSON.stringify({ v: 1, enabledUntil, skipConfirmUntil: enabledUntil }));
      try {
        await load();
        await assertNothingOn(t);
      } finally {
        await removePlanted();
      }
    });

    test(`[UV-8] ${kind.name}: the stored records from before an off, written back over CDP DOMStorage after it, turn nothing on`, { timeout: 120_000 }, async (t) => {
      await load();
      await userTurnsOff(page, 'sample', 'sample_');
      await userTurnsOn(page, device, 'sample', 'sample_', OPS.length);
      const saved = (await storage.items()).filter(([key]) => key.startsWith('fd-ai-operations'));
      t.diagnostic(`saved ${saved.map(([key]) => key).join(', ')}`);
      assert.ok(saved.some(([key]) => key === SWITCH_KEY), 'the switch record was there to save');
      await userTurnsOff(page, 'sample', 'sample_');
      for (const [key, value] of saved) await storage.set(key, value);
      await load();
      await assertNothingOn(t);
    });

    test(`[UV-8] ${kind.name}: the enrolment deleted over CDP (IndexedDB deleted, the localStorage key removed) lowers nothing: the agent's click turns nothing on, and the user's next switch-on enrols again`, { timeout: 120_000 }, async (t) => {
      await load();
      await userTurnsOff(page, 'sample', 'sample_');
      await userTurnsOn(page, device, 'sample', 'sample_', OPS.length);
      const before = (await device.credentials()).length;
      const deleted = await storage.deleteIndexedDb();
      await storage.remove(ENROLMENT_KEY);
      t.diagnostic(`deleted IndexedDB ${JSON.stringify(deleted)} and ${ENROLMENT_KEY}`);
      await load();
      if (await switchSettledOn(page, 'sample')) {
        // A switch still on must still ask: the agent's call gets a dialog.
        await assertCallAsks(t);
        await userTurnsOff(page, 'sample', 'sample_');
      }
      await pw.call('browser_click', { element: 'the AI からの操作 switch', target: await pw.ref(SWITCH, 'the switch in the snapshot') });
      await waitFor(async () => (await switchInput(page, 'sample').getAttribute('aria-busy')) !== 'true'
        && ((await browserListed(page, 'sample_')).length > 0 || /本人確認/.test(await announced(page))), 60_000, 'the page to answer the agent\'s click');
      await assertNothingOn(t);
      await userTurnsOff(page, 'sample', 'sample_');
      await userTurnsOn(page, device, 'sample', 'sample_', OPS.length);
      const now = (await device.credentials()).length;
      t.diagnostic(`credentials on the device: ${before} before the deletion, ${now} after the next switch-on`);
      assert.equal(now, before + 1, 'the next switch-on enrolled again (a new credential, created with verification)');
      await userTurnsOff(page, 'sample', 'sample_');
    });
    test(`[UV-4] ${kind.name}: on http://127.0.0.1 the user's own click, with the device present, and the agent's click turn nothing on, and the page says to open it on localhost`, { timeout: 120_000 }, async (t) => {
      const ipUrl = `${server.ip}/sample/`;
      // A tab of its own: the user's device is per tab, and another site's page may get a new target.
      const tab = await browser.context.newPage();
      try {
        await tab.goto(ipUrl);
        await switchInput(tab, 'sample').waitFor();
        await addUserDevice(browser.context, tab, { present: true });
        await pw.selectTab(ipUrl);
        for (const [who, press] of [
          ['the user\'s own click', () => switchInput(tab, 'sample').click()],
          ['Playwright MCP\'s browser_click', async () => pw.call('browser_click', { element: 'the AI からの操作 switch', target: await pw.ref(SWITCH, 'the switch in the snapshot') })],
        ]) {
          await press();
          await waitFor(async () => (await switchInput(tab, 'sample').getAttribute('aria-busy')) !== 'true'
            && ((await browserListed(tab, 'sample_')).length > 0 || /localhost|本人確認/.test(await announced(tab))), 60_000, 'the page to answer the click');
          const listed = await browserListed(tab, 'sample_');
          t.diagnostic(`${who}: the switch reads ${(await switchSettledOn(tab, 'sample')) ? 'ON' : 'off'}, listed ${JSON.stringify(listed)}; the page said: ${(await announced(tab)) || '(nothing)'}`);
          assert.deepEqual(listed, [], `${who}: nothing is listed`);
          assert.equal(await switchSettledOn(tab, 'sample'), false, `${who}: the switch reads off`);
          assert.match(await announced(tab), /localhost/, `${who}: the page says to open it on localhost`);
          // The next click starts from off (turning off never asks).
          if (await switchInput(tab, 'sample').isChecked()) await switchInput(tab, 'sample').click();
          await waitFor(async () => !(await switchInput(tab, 'sample').isChecked()), 30_000, 'the switch off');
        }
      } finally {
        await tab.close();
        await pw.selectTab(url);
      }
    });
  });
}
