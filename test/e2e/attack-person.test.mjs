// UV-1, UV-2, UV-4, UV-6, UV-9, UV-10, UV-18: the attack suite in the browsers people give their agents,
// where `navigator.webdriver` is false (measured here, and asserted: consent must not rest on it).
//
// Two launch modes, each with real agents:
// - Chromium started as a person starts it (`chromium --remote-debugging-port=<n>`, a numbered port,
//   headless, no automation flag), Chrome DevTools MCP attached by `--browserUrl` (two servers: one
//   calls, the other clicks while the call waits, since one DevTools MCP server runs one tool call
//   at a time) and Playwright MCP attached by `--cdp-endpoint` (one server: it clicks while its own
//   call waits).
// - Playwright MCP launching its own browser from the README's config (it adds
//   `--disable-blink-features=AutomationControlled`), one server calling and clicking.
// The test's own playwright-core connection (over the same DevTools port) gives the page the user's
// device (a CDP virtual authenticator) and reads what the page holds. The user is AWAY (presence
// off) unless a test says otherwise: every click and key of each agent is tried on the switch and on
// the dialog (its button, Tab+Enter, Tab+Space, the 「このページでは今後尋ねない」 button), and none may
// turn the switch on or get the destructive call approved; the note reads back byte-identical. The
// user PRESENT, the same clicks work end to end.
//
// The sample page comes from the test's own server with `verificationTimeoutMs: 3000`, so a
// verification the absent user never gives ends in seconds (the real 50 s are kept by one attempt of
// attack-agents.test.mjs). Each attempt starts on a fresh load with the rest cleared (UV-10's pause
// after two refused verifications for a tool, which UV-16 keeps in IndexedDB across reloads: the
// test plays the user waiting it out), and UV-10 is tested on its own below. Build first: `npm run build && node esbuild.config.mjs`.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { waitFor, clearRests } from './harness.mjs';
import {
  launchAgentBrowser, launchWithPlaywrightMcp, serveSample, addUserDevice, startDevToolsMcp, startPlaywrightMcp,
  switchInput, switchSettledOn, announced, browserListed, devtoolsResult, playwrightResult, webdriverOf, tabTo, userTurnsOn, userTurnsOff,
} from './agent-browser.mjs';

/** The sample page's note as it loads: the user's data the destructive call would erase. */
const NOTE = 'AI のエージェントは、このメモを読み書きし、消せます。';
const OPS = ['sample_clear_note', 'sample_read_note', 'sample_wait'];
const SWITCH = /switch "AI からの操作"/;
const APPROVE = /button "空にする"/;
const SKIP = /button "このページでは今後尋ねない"/;
/** How long one verification waits for the (absent) user in these suites. */
const VERIFICATION_MS = 3000;

/**
 * One agent as the attacks use it: how it presses the switch and the dialog (clicks and keys, the
 * way every browser agent has), and how it calls the destructive operation.
 * @typedef {{
 *   name: string,
 *   clickSwitch: () => Promise<void>,
 *   pressKey: (key: 'Tab' | 'Space' | 'Enter') => Promise<void>,
 *   clickApprove: () => Promise<void>,
 *   clickSkip: () => Promise<void>,
 *   callClear: (timeout: number) => Promise<{ok: boolean, error?: {code: string, message: string}, count?: number}>,
 *   refresh: () => Promise<void>,
 * }} Attacker
 */

/** A Playwright MCP server as an attacker: it presses while its own call waits (it runs tool calls side by side). */
function playwrightAttacker(name, pw) {
  return {
    name,
    clickSwitch: async () => {
      await pw.call('browser_click', { element: 'the AI からの操作 switch', target: await pw.ref(SWITCH, 'the switch in the snapshot') });
    },
    pressKey: async (key) => {
      await pw.call('browser_press_key', { key: key === 'Space' ? ' ' : key });
    },
    clickApprove: async () => {
      await pw.call('browser_click', { element: 'the dialog\'s 空にする button', target: await pw.ref(APPROVE, '空にする in the snapshot') });
    },
    clickSkip: async () => {
      await pw.call('browser_click', { element: 'the dialog\'s このページでは今後尋ねない button', target: await pw.ref(SKIP, 'the skip button in the snapshot') });
    },
    callClear: async (timeout) => {
      await waitFor(async () => {
        await pw.call('browser_snapshot'); // an action: Playwright MCP refreshes its page tools after one
        return (await pw.pageTools()).some((t) => t.name === 'webmcp_sample_clear_note');
      }, 30_000, `${name} to list webmcp_sample_clear_note`);
      return playwrightResult(await pw.call('webmcp_sample_clear_note', {}, timeout)).env;
    },
    refresh: async () => {
      await pw.call('browser_snapshot');
    },
  };
}

/** Two DevTools MCP servers as one attacker: `dt` calls, `clicker` presses while the call waits. */
function devtoolsAttacker(name, dt, dtPage, clicker, clickerPage) {
  return {
    name,
    clickSwitch: async () => {
      await dt.call('click', { pageId: dtPage, uid: await dt.uid(dtPage, SWITCH, 'the switch in the snapshot') });
    },
    pressKey: async (key) => {
      await clicker.call('press_key', { pageId: clickerPage, key });
    },
    clickApprove: async () => {
      await clicker.call('click', { pageId: clickerPage, uid: await clicker.uid(clickerPage, APPROVE, '空にする in the snapshot') });
    },
    clickSkip: async () => {
      await clicker.call('click', { pageId: clickerPage, uid: await clicker.uid(clickerPage, SKIP, 'the skip button in the snapshot') });
    },
    callClear: async (timeout) => {
      const answer = await dt.call('execute_webmcp_tool', { pageId: dtPage, toolName: 'sample_clear_note', input: '{}' }, timeout);
      return devtoolsResult(answer).env;
    },
    refresh: async () => {},
  };
}

/**
 * The two launch modes, each with its number of attackers. `start(url)` answers the test's page, the browser (to close) and the
 * attackers, each attached to the page at `url`.
 */
const MODES = [
  {
    name: 'Chromium started as a person starts it (--remote-debugging-port=<n>, no automation flag)',
    attackers: 2,
    async start(url) {
      const browser = await launchAgentBrowser({ person: true });
      const agents = [];
      try {
        const page = browser.context.pages()[0];
        await page.goto(url);
        // One at a time: servers starting at once on two shared cores time each other out.
        const pw = await startPlaywrightMcp(browser);
        agents.push(pw);
        const dt = await startDevToolsMcp(browser);
        agents.push(dt);
        const dtClicker = await startDevToolsMcp(browser);
        agents.push(dtClicker);
        await pw.selectTab(url);
        const attackers = [
          devtoolsAttacker('Chrome DevTools MCP attached by --browserUrl', dt, await dt.pageId(url), dtClicker, await dtClicker.pageId(url)),
          playwrightAttacker('Playwright MCP attached by --cdp-endpoint', pw),
        ];
        return {
          page, context: browser.context, attackers,
          close: async () => {
            for (const agent of agents) await agent.close();
            await browser.close();
          },
        };
      } catch (error) {
        for (const agent of agents) await agent.close();
        await browser.close();
        throw error;
      }
    },
  },
  {
    name: 'Playwright MCP launching its own browser from the README\'s config',
    attackers: 1,
    async start(url) {
      const { agent, browser } = await launchWithPlaywrightMcp(url);
      const page = await waitFor(() => browser.context.pages().find((p) => p.url().startsWith(url)), 30_000, 'the page Playwright MCP opened');
      return {
        page, context: browser.context, attackers: [playwrightAttacker('Playwright MCP (its own browser)', agent)],
        close: () => browser.close(),
      };
    },
  },
];

for (const mode of MODES) {
  describe(mode.name, () => {
    let server, url, page, context, attackers, device, closeMode;

    before(async () => {
      server = await serveSample({ verificationTimeoutMs: VERIFICATION_MS });
      url = `${server.localhost}/sample/`;
      ({ page, context, attackers, close: closeMode } = await mode.start(url));
      await switchInput(page, 'sample').waitFor();
      device = await addUserDevice(context, page, { present: false });
    });

    after(async () => {
      await closeMode?.();
      await server?.close();
    });

    const note = () => page.locator('#note').inputValue();
    const approveButton = () => page.locator('ai-ops-confirm [part~="action-button"]');
    const skipButton = () => page.locator('ai-ops-confirm [part~="skip-button"]');
    const pressable = async () => (await approveButton().isVisible()) && (await approveButton().getAttribute('aria-disabled')) !== 'true';

    /** A fresh load of the page, the rest cleared (what a pause or a waiting request of an earlier attempt left is gone). */
    async function freshLoad() {
      await page.reload();
      await switchInput(page, 'sample').waitFor();
      await clearRests(page);
      for (const attacker of attackers) await attacker.refresh();
    }



    /** The user puts their note back after an attack that got through (so the next attack starts from it). */
    async function restoreNote() {
      if ((await note()) !== NOTE) await page.locator('#note').fill(NOTE);
    }

    test(`[UV-2] ${mode.name}: the page reads navigator.webdriver as false, so nothing may rest on it`, async () => {
      assert.equal(await webdriverOf(page), false);
    });

    // ---- The switch, the user away ----

    const SWITCH_ATTACKS = [
      ['clicks the switch', (a) => a.clickSwitch(), true],
      ['tabs to the switch and presses Space', async (a) => {
        await tabTo((key) => a.pressKey(key), switchInput(page, 'sample'), 'the switch');
        await a.pressKey('Space');
      }, true],
      // Enter does not toggle a checkbox: nothing starts, and the switch must stay off all the same.
      ['tabs to the switch and presses Enter', async (a) => {
        await tabTo((key) => a.pressKey(key), switchInput(page, 'sample'), 'the switch');
        await a.pressKey('Enter');
      }, false],
    ];

    for (let index = 0; index < mode.attackers; index++) {
      for (const [how, attack, toggles] of SWITCH_ATTACKS) {
        test(`[UV-1] [UV-2] [UV-4] [UV-6] ${mode.name}, the user away: agent ${index + 1} ${how}: the switch stays off, nothing is listed, and the page says why`, { timeout: 180_000 }, async (t) => {
          const attacker = attackers[index];
          await freshLoad();
          assert.equal(await switchSettledOn(page, 'sample'), false, 'the switch starts off');
          const started = Date.now();
          try {
            await attack(attacker);
            if (toggles) {
              // The attempt has played out once no verification waits and the page either let the
              // agent in or said why not.
              await waitFor(async () => (await switchInput(page, 'sample').getAttribute('aria-busy')) !== 'true'
                && ((await browserListed(page, 'sample_')).length > 0 || /本人確認/.test(await announced(page))), 60_000, 'the page to answer the attempt');
            }
            const listed = await browserListed(page, 'sample_');
            t.diagnostic(`${attacker.name}: after ${Math.round((Date.now() - started) / 100) / 10} s the switch reads ${(await switchSettledOn(page, 'sample')) ? 'ON' : 'off'}, ${listed.length} operation(s) listed; the page said: ${(await announced(page)) || '(nothing)'}`);
            assert.deepEqual(listed, [], 'no operation is listed to any agent');
            assert.equal(await switchSettledOn(page, 'sample'), false, 'the switch reads off');
            if (toggles) assert.match(await announced(page), /本人確認/, 'the page announces that turning on needs the user\'s verification');
          } finally {
            await userTurnsOff(page, 'sample', 'sample_');
          }
        });
      }
    }

    // ---- The dialog, the user away (the switch turned on by the user present) ----

    /**
     * The attacker calls sample_clear_note, and once the dialog's 「空にする」 can be pressed (SAFE-7's
     * guard waited out), `press` tries to approve it; answers the call's envelope and its time.
     */
    async function destructiveCall(attacker, press) {
      await freshLoad();
      // A new switch period each time: a skip choice an earlier attempt got stored ends with the old one.
      await userTurnsOff(page, 'sample', 'sample_');
      await userTurnsOn(page, device, 'sample', 'sample_', OPS.length);
      await restoreNote();
      let settled = false;
      const started = Date.now();
      const call = attacker.callClear(120_000).finally(() => (settled = true));
      call.catch(() => {});
      await waitFor(async () => settled || pressable(), 30_000, 'the dialog\'s 空にする to be pressable');
      if (settled) assert.fail(`the call ran with no dialog: ${JSON.stringify(await call)}; the note is now ${JSON.stringify(await note())}`);
      // The call is awaited even when the press failed, so that no call outlives its test.
      const pressed = await press().then(() => null, (error) => error);
      const env = await call;
      if (pressed) throw pressed;
      return { env, seconds: Math.round((Date.now() - started) / 100) / 10 };
    }

    const APPROVE_ATTACKS = [
      ['clicks 空にする', (a) => a.clickApprove()],
      ['tabs to 空にする and presses Enter', async (a) => {
        await tabTo((key) => a.pressKey(key), approveButton(), '空にする');
        await a.pressKey('Enter');
      }],
      ['tabs to 空にする and presses Space', async (a) => {
        await tabTo((key) => a.pressKey(key), approveButton(), '空にする');
        await a.pressKey('Space');
      }],
      // UV-18: the skip is its own button (SAFE-7's guard, waited out above, holds it back for keys too).
      ['clicks このページでは今後尋ねない', async (a) => {
        await a.clickSkip();
      }],
      ['tabs to このページでは今後尋ねない and presses Enter', async (a) => {
        await tabTo((key) => a.pressKey(key), skipButton(), 'このページでは今後尋ねない');
        await a.pressKey('Enter');
      }],
    ];

    for (let index = 0; index < mode.attackers; index++) {
      for (const [how, attack] of APPROVE_ATTACKS) {
        const skip = how.includes('今後尋ねない');
        test(`[UV-1] [UV-2] [UV-6]${skip ? ' [UV-9] [UV-18]' : ''} ${mode.name}, the user away: agent ${index + 1} calls sample_clear_note and ${how}: declined, the note byte-identical${skip ? ', and the next call asks again' : ''}`, { timeout: 180_000 }, async (t) => {
          const attacker = attackers[index];
          try {
            const { env, seconds } = await destructiveCall(attacker, () => attack(attacker));
            t.diagnostic(`${attacker.name}: answered after ${seconds} s: ${JSON.stringify(env)}; the note is ${(await note()) === NOTE ? 'intact' : `now ${JSON.stringify(await note())}`}`);
            assert.equal(env.ok, false, JSON.stringify(env));
            assert.equal(env.error.code, 'declined');
            assert.equal(await note(), NOTE, 'the note is byte-identical');
            assert.ok(seconds < 30, `the refused attempt took seconds, not the verifier's 50 s (${seconds} s)`);
            if (skip) {
              // The skip counted for nothing: the next call shows the dialog again, which the user
              // (the test's own click: declining never asks) declines.
              let settled = false;
              const next = attacker.callClear(120_000).finally(() => (settled = true));
              next.catch(() => {});
              const shown = await waitFor(async () => (settled ? 'answered' : (await approveButton().isVisible()) && 'shown'), 30_000, 'the next call to show its dialog or answer');
              if (shown === 'shown') await page.locator('ai-ops-confirm [part~="cancel-button"]').click();
              const again = await next;
              t.diagnostic(`the next call: ${shown === 'shown' ? 'dialog shown, the user declined' : 'answered with no dialog'}: ${JSON.stringify(again)}`);
              assert.equal(shown, 'shown', 'the next call shows the dialog');
              assert.equal(again.ok, false);
              assert.equal(await note(), NOTE, 'the note is byte-identical');
            }
          } finally {
            await restoreNote();
            // A skip choice that got through must not carry into the next attempt.
            if (skip) await userTurnsOff(page, 'sample', 'sample_');
          }
        });
      }
    }

    // ---- UV-10: two refused verifications in a row pause the tool's prompts ----

    test(`[UV-10] ${mode.name}, the user away: after two refused verifications of sample_clear_note, the agent's third call is declined at once, with no dialog, and says so`, { timeout: 180_000 }, async (t) => {
      const attacker = attackers[0];
      try {
        await destructiveCall(attacker, () => attacker.clickApprove());
        // No fresh load between: the page's memory of the first refusal stays.
        let settled = false;
        const call = attacker.callClear(120_000).finally(() => (settled = true));
        call.catch(() => {});
        await waitFor(async () => settled || pressable(), 30_000, 'the second dialog');
        if (!settled) await attacker.clickApprove();
        const second = await call;
        assert.equal(second.ok, false, JSON.stringify(second));
        let shown = false;
        settled = false;
        const started = Date.now();
        const third = attacker.callClear(120_000).finally(() => (settled = true));
        third.catch(() => {});
        await waitFor(async () => {
          if (await approveButton().isVisible()) shown = true;
          return settled;
        }, 60_000, 'the third call to answer');
        const env = await third;
        const seconds = (Date.now() - started) / 1000;
        t.diagnostic(`third call after ${seconds} s, dialog ${shown ? 'SHOWN' : 'not shown'}: ${JSON.stringify(env)}; the page said: ${(await announced(page)) || '(nothing)'}`);
        assert.equal(shown, false, 'no dialog, no prompt');
        assert.equal(env.ok, false);
        assert.equal(env.error.code, 'declined');
        assert.ok(seconds < 5, `declined at once (${seconds} s)`);
        assert.match(env.error.message, /60|paus|again|しばらく/i, 'the answer says why and for how long');
        assert.equal(await note(), NOTE, 'the note is byte-identical');
      } finally {
        if (await approveButton().isVisible()) await page.locator('ai-ops-confirm [part~="cancel-button"]').click();
        await restoreNote();
      }
    });

    // ---- The user present: the same clicks work (on a fresh load: no pause from above) ----

    for (let index = 0; index < mode.attackers; index++) {
      test(`[UV-1] [UV-6] ${mode.name}, the user present: agent ${index + 1}'s click turns the switch on, and its click on 空にする gets sample_clear_note done`, { timeout: 180_000 }, async () => {
        const attacker = attackers[index];
        await freshLoad();
        await userTurnsOff(page, 'sample', 'sample_');
        await restoreNote();
        await device.setPresent(true);
        try {
          await attacker.clickSwitch();
          await waitFor(async () => (await switchSettledOn(page, 'sample')) && (await browserListed(page, 'sample_')).length === OPS.length, 60_000, 'the operations after the agent\'s click, the user verifying');
          let settled = false;
          const call = attacker.callClear(120_000).finally(() => (settled = true));
          call.catch(() => {});
          await waitFor(async () => settled || pressable(), 30_000, 'the dialog\'s 空にする to be pressable');
          assert.equal(settled, false, 'the call waits for the dialog');
          const pressed = await attacker.clickApprove().then(() => null, (error) => error);
          const env = await call;
          if (pressed) throw pressed;
          assert.equal(env.ok, true, JSON.stringify(env));
          assert.equal(env.count, NOTE.length);
          assert.equal(await note(), '');
        } finally {
          await device.setPresent(false);
          await restoreNote();
        }
      });
    }
  });
}
