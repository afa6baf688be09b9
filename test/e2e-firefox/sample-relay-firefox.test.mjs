// The plain /sample/ page end to end in Firefox ESR (issue 36): the real relay command
// (bin/ai-ops-relay.mjs), the real MCP SDK client on its stdio, and Debian's Firefox driven by
// puppeteer-core over WebDriver BiDi. Firefox has no WebMCP of its own: the polyfill is the path.
// The user's device is Firefox's own virtual authenticator, reached over Marionette on the same
// browser (test/marionette.mjs), so the page's default consent (`auto`: verified wherever the
// platform can verify) goes through Firefox's real WebAuthn stack.
// Its own folder (not test/e2e/): `npm test` runs it once, as the "e2e, Firefox" stage.
// Build first: `npm run build && node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer from 'puppeteer-core';
import { startDemo, startRelay, freePort, waitFor, listedNames, envelope, askPairingCode } from '../e2e/harness.mjs';
import { connectMarionette, firefoxLaunchOptions, freeLocalPort } from '../marionette.mjs';

let demo, relay, browser, marionette, device, page;

before(async () => {
  demo = await startDemo();
  // The sample page asks the default port (9333) and its widget scans on to 9348: the first free
  // one is the one it finds first (the sample page has no option for another port).
  relay = await startRelay({ origin: demo.origin, port: await freePort() });
  const marionettePort = await freeLocalPort();
  browser = await puppeteer.launch(firefoxLaunchOptions(marionettePort));
  marionette = await connectMarionette(marionettePort);
  // The user's device, present and verifying: a platform authenticator (browser-wide in Firefox).
  device = await marionette.send('WebAuthn:AddVirtualAuthenticator', {
    protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserConsenting: true, isUserVerified: true,
  });
  page = await browser.newPage();
  await page.goto(`${demo.origin}/sample/`);
  await page.bringToFront();
  await page.waitForSelector('ai-ops-switch[tool="sample"] >>> input[role="switch"]');
});

after(async () => {
  marionette?.close();
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

const sampleNames = async () => (await listedNames(relay.client)).filter((n) => n.startsWith('sample_')).sort();

/** Whether the page's confirmation dialog is open. */
const dialogOpen = () => page.$eval('ai-ops-confirm', (el) => !!el.shadowRoot?.querySelector('dialog')?.open);

/**
 * Clicks a part of the dialog like a person (a trusted click through the protocol), once the
 * button takes a pointer press: SAFE-7's guard keeps it `aria-disabled` for 750 ms after the dialog
 * appears, and a press before then is ignored.
 */
async function clickDialog(part) {
  await waitFor(dialogOpen, 15_000, 'the confirmation dialog');
  const selector = `ai-ops-confirm >>> [part~="${part}"]`;
  await page.waitForSelector(`${selector}:not([aria-disabled])`, { visible: true });
  await (await page.$(selector)).click();
}

/**
 * DOOR-6: the user pairs the page with their agent's relay as the README says: the agent asks its
 * relay for a code and tells the user; the user opens the log, its 「AI のエージェントのつなぎ方」,
 * types the code and presses 「つなぐ」. Resolves once the log says who is connected.
 */
async function pairLikeAPerson() {
  const code = await askPairingCode(relay.client);
  const panelOpen = await page.$eval('ai-ops-log', (el) => el.shadowRoot.querySelector('[part="panel"]')?.hasAttribute('open') ?? true);
  if (!panelOpen) await (await page.$('ai-ops-log >>> [part="panel-summary"]')).click();
  const connectOpen = await page.$eval('ai-ops-log', (el) => el.shadowRoot.querySelector('[part="connect"]').hasAttribute('open'));
  if (!connectOpen) await (await page.$('ai-ops-log >>> [part="connect"] > summary')).click();
  await (await page.waitForSelector('ai-ops-log >>> [part="pair-code"]', { visible: true })).type(code);
  await (await page.$('ai-ops-log >>> [part="pair-button"]')).click();
  const said = () => page.$eval('ai-ops-log', (el) => el.shadowRoot.querySelector('[part="relay-status-text"]')?.textContent ?? '');
  await waitFor(async () => /とつながっています/.test(await said()), 30_000, 'the log to say who is connected').catch(async (error) => {
    throw new Error(`${error.message}: ${await said()}`);
  });
  return said();
}

const logRowTexts = () => page.$$eval('ai-ops-log >>> [role="log"] > *', (rows) => rows.map((row) => row.textContent.replace(/\s+/g, ' ').trim()));

test('[VER-1] in Firefox the page starts off: nothing listed through the relay, no WebAuthn asked for', async () => {
  assert.match(await browser.version(), /firefox/i);
  assert.equal(await page.evaluate(() => navigator.userAgent.includes('Firefox')), true);
  assert.deepEqual(await sampleNames(), []);
  const credentials = await marionette.send('WebAuthn:GetCredentials', { authenticatorId: device });
  assert.deepEqual(credentials, []);
});

test('[VER-2] [UV-1] [DOOR-6] a click with the user\'s device turns the switch on: the device holds the page\'s key; once the user paired, the MCP client lists the sample operations', async () => {
  const input = await page.$('ai-ops-switch[tool="sample"] >>> input[role="switch"]');
  await input.click();
  await waitFor(() => page.$eval('ai-ops-switch[tool="sample"]', (el) => {
    const box = el.shadowRoot.querySelector('input[role="switch"]');
    return (box.checked && !box.hasAttribute('aria-busy')) || !!el.shadowRoot.querySelector('[role="alert"]');
  }), 20_000, 'the switch on, or its alert');
  const alert = await page.$eval('ai-ops-switch[tool="sample"]', (el) => el.shadowRoot.querySelector('[role="alert"]')?.textContent.replace(/\s+/g, ' ').trim() ?? '');
  assert.equal(alert, '', 'no refusal under the switch');
  const credentials = await marionette.send('WebAuthn:GetCredentials', { authenticatorId: device });
  assert.equal(credentials.length, 1, 'the switch-on enrolled one key on the device');
  assert.equal(credentials[0].rpId, 'localhost');
  // DOOR-6, DOOR-10: nothing reaches the agent until the user pairs; then the log names the agent.
  assert.deepEqual(await sampleNames(), []);
  assert.match(await pairLikeAPerson(), /ai-ops-e2e 1\.0\.0 とつながっています/);
  const names = await waitFor(async () => {
    const n = await sampleNames();
    return n.length === 3 && n;
  }, 20_000, 'sample tools through the relay');
  assert.deepEqual(names, ['sample_clear_note', 'sample_read_note', 'sample_wait']);
});

test('[VER-2] a read through the relay answers the note', async () => {
  const read = await relay.client.callTool({ name: 'sample_read_note', arguments: {} });
  assert.equal(read.isError, undefined);
  assert.match(envelope(read).text, /メモ/);
});

test('[CONF-1] [UV-1] a destructive call waits for the dialog; approved with the device, it runs', async () => {
  const length = await page.$eval('#note', (note) => note.value.length);
  const before = (await marionette.send('WebAuthn:GetCredentials', { authenticatorId: device }))[0].signCount;
  const answer = relay.client.callTool({ name: 'sample_clear_note', arguments: {} }, undefined, { timeout: 60_000 });
  await clickDialog('action-button');
  const result = await answer;
  assert.equal(result.isError, undefined);
  assert.deepEqual(envelope(result), { count: length, ok: true });
  assert.equal(await page.$eval('#note', (note) => note.value), '');
  const after = (await marionette.send('WebAuthn:GetCredentials', { authenticatorId: device }))[0].signCount;
  assert.ok(after > before, 'the device signed the approval');
});

test('[CONF-1] a destructive call declined with やめる does not run and answers declined', async () => {
  await page.$eval('#note', (note) => { note.value = 'まだ消さない'; });
  const answer = relay.client.callTool({ name: 'sample_clear_note', arguments: {} }, undefined, { timeout: 60_000 });
  await clickDialog('cancel-button');
  const result = await answer;
  assert.equal(result.isError, true);
  assert.equal(envelope(result).error.code, 'declined');
  assert.equal(await page.$eval('#note', (note) => note.value), 'まだ消さない');
});

test('[VER-5] [LOG-3] every call left one row in the page log: the read, the approved call, the declined one', async () => {
  await waitFor(async () => (await logRowTexts()).length === 3, 5000, 'three log rows').catch(async (error) => {
    throw new Error(`${error.message}: ${JSON.stringify(await logRowTexts())}`);
  });
  const rows = await logRowTexts();
  assert.match(rows[0], /sample_read_note.*成功/);
  assert.match(rows[1], /sample_clear_note.*成功/);
  assert.match(rows[2], /sample_clear_note.*中止/);
});
