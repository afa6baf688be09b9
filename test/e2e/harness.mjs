// End-to-end parts, all real: the demo server, the relay command agents run (bin/ai-ops-relay.mjs
// over @mcp-b/webmcp-local-relay), Debian's Chromium driven by playwright-core, and an MCP SDK
// client talking to the relay over stdio.
import { mkdtemp, rm } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startServer } from '../../playground/server/serve.mjs';
import { assertBrowserMode } from '../webmcp-check.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export const CHROME_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
  // Background tabs must keep their timers and dialogs (CONF-9) in a headless run with several pages.
  '--disable-background-timer-throttling', '--disable-renderer-backgrounding', '--disable-backgrounding-occluded-windows',
];

/**
 * The two kinds of browser every e2e suite runs in (NAT-3): Chromium as shipped (no WebMCP of its
 * own: the polyfill provides it) and Chromium with its own WebMCP (`--enable-features=WebMCP`,
 * where document.modelContext is the browser's). One run uses one mode, from
 * `AI_OPS_BROWSER_MODE` (default `plain`); `npm test` runs test/e2e/ once per mode.
 */
export const BROWSER_MODES = {
  plain: [],
  webmcp: ['--enable-features=WebMCP'],
};

/** This run's browser mode: `plain` or `webmcp`. */
export const BROWSER_MODE = process.env.AI_OPS_BROWSER_MODE || 'plain';
if (!Object.hasOwn(BROWSER_MODES, BROWSER_MODE)) throw new Error(`AI_OPS_BROWSER_MODE must be one of ${Object.keys(BROWSER_MODES).join(', ')}`);

/** A free TCP port on 127.0.0.1 within [from, to] (the widget scans 9333–9348). */
export async function freePort(from = 9333, to = 9348) {
  for (let port = from; port <= to; port++) {
    const ok = await new Promise((done) => {
      const probe = createServer().once('error', () => done(false)).listen(port, '127.0.0.1', () => probe.close(() => done(true)));
    });
    if (ok) return port;
  }
  throw new Error(`no free port in ${from}-${to}`);
}

/** Starts the demo server on a free port. */
export async function startDemo() {
  return startServer({ port: 0, root: join(root, 'dist/site') });
}

/**
 * The runtime directory of this test process's relays (AI_OPS_RELAY_RUNTIME_DIR, DOOR-6, DOOR-7):
 * one per process, 0700, so the relays of one suite share their secrets and pairings as one user's
 * would, and suites running at once in other network namespaces (same ports, same /tmp) never read
 * each other's.
 */
export const RELAY_RUNTIME_DIR = await mkdtemp(join(tmpdir(), 'ai-ops-relay-run-'));
process.once('exit', () => {
  try {
    rmSync(RELAY_RUNTIME_DIR, { recursive: true, force: true });
  } catch {
    // best effort
  }
});

/** Starts the relay the way the README tells an agent to, with a real MCP client on its stdio. */
export async function startRelay({ origin, port, clientInfo = { name: 'ai-ops-e2e', version: '1.0.0' } }) {
  const home = await mkdtemp(join(tmpdir(), 'ai-ops-relay-home-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(root, 'bin/ai-ops-relay.mjs'), '--port', String(port), '--widget-origin', origin],
    env: { PATH: process.env.PATH ?? '', HOME: home, AI_OPS_RELAY_RUNTIME_DIR: RELAY_RUNTIME_DIR },
    stderr: 'pipe',
  });
  let said = '';
  transport.stderr?.on('data', (chunk) => (said += chunk));
  const client = new Client(clientInfo);
  const listChanged = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => listChanged.push(Date.now()));
  try {
    await client.connect(transport);
  } catch (error) {
    // What the command said, for a test of why it stopped.
    await rm(home, { recursive: true, force: true });
    error.stderr = said;
    throw error;
  }
  return {
    client,
    listChanged,
    /** What the command said on stderr so far. */
    stderr: () => said,
    async close() {
      await client.close().catch(() => {});
      await rm(home, { recursive: true, force: true });
    },
  };
}

/**
 * DOOR-6: the agent asks its relay for a pairing code (`ai_ops_pair`), as the README says, and
 * reads the code out of the words it is to tell the user.
 */
export async function askPairingCode(client) {
  const result = await client.callTool({ name: 'ai_ops_pair', arguments: {} });
  const match = /コード ([0-9A-Z]{5}-[0-9A-Z]{5}) /.exec(result.content?.[0]?.text ?? '');
  if (!match) throw new Error(`ai_ops_pair gave no code: ${JSON.stringify(result)}`);
  return match[1];
}

/**
 * DOOR-6: pairs `page` with the relay of `client` the way a user does: the agent asks for the code
 * and tells the user; the user opens the tool's log, its 「AI のエージェントのつなぎ方」, types the
 * code and presses 「つなぐ」. Resolves once the log says the relay is connected. A switch of the
 * page must be on (pairing belongs to a switch period).
 */
export async function pairPage(page, client, tool, { log = page.locator(`ai-ops-log[tool="${tool}"]`) } = {}) {
  const code = await askPairingCode(client);
  await showLog(page, tool, log);
  const connect = log.locator('[part="connect"]');
  if ((await connect.getAttribute('open')) === null) await connect.locator('summary').click();
  await log.locator('[part="pair-code"]').fill(code);
  // Enter in the field, as a person who just typed the code does (on some pages the tool's own
  // content overlaps the log panel's buttons; the field is where the focus is).
  await log.locator('[part="pair-code"]').press('Enter');
  await log.locator('[part="relay-status-text"]').filter({ hasText: /とつながっています|Connected to/ }).waitFor({ timeout: 30_000 });
  return code;
}

/**
 * DOOR-6: what a user does when the page's log does not already say the agent is connected (the
 * origin was paired earlier in the switch period, in this tab or another): pairs as
 * {@link pairPage} does. Resolves once the log says the relay is connected.
 */
export async function ensurePaired(page, client, tool) {
  await showLog(page, tool);
  const connected = page.locator(`ai-ops-log[tool="${tool}"] [part="relay-status-text"]`).filter({ hasText: /とつながっています|Connected to/ });
  // The log shows the pairing once it has read it: a moment after the switch went on.
  const already = await connected.waitFor({ timeout: 3000 }).then(() => true, () => false);
  if (!already) await pairPage(page, client, tool);
}

/**
 * The virtual authenticator every automated page gets (PLATFORM-NOTES, "User verification"): it
 * plays the user's own device — a platform authenticator (`internal`) that keeps resident keys and
 * verifies its user — present and verifying, so the switch-on and the dialog's approval go through
 * the real WebAuthn verification when a suite clicks them like a person.
 */
export const VIRTUAL_AUTHENTICATOR = Object.freeze({
  protocol: 'ctap2',
  transport: 'internal',
  hasResidentKey: true,
  hasUserVerification: true,
  isUserVerified: true,
  automaticPresenceSimulation: true,
});

/**
 * A page's virtual authenticator, as {@link launchBrowser}'s `authenticatorOf(page)` gives it.
 * @typedef {object} PageAuthenticator
 * @property {string} id the authenticator's id (CDP `WebAuthn.AuthenticatorId`)
 * @property {import('playwright-core').CDPSession} session the page's CDP session that owns it
 *   (the authenticator lives as long as this session, so it is never detached by the harness)
 * @property {(on: boolean) => Promise<void>} setPresence `false`: the user absent — a request then
 *   never completes and rejects `NotAllowedError` at its timeout (turning it on later does not
 *   complete a request already waiting)
 * @property {(on: boolean) => Promise<void>} setUserVerified `false`: the device answers without the
 *   UV flag (the user present but not verified)
 * @property {() => Promise<void>} remove removes the authenticator: the page has none from then on
 *   (a WebAuthn request waits for one until its timeout), and it leaves the context's sharing
 * @property {() => Promise<object[]>} credentials the credentials it holds (`WebAuthn.Credential`s,
 *   private keys included)
 */

/**
 * Gives every page of `context` — those open now, those a suite opens, and those a page opens
 * itself (popups, `window.open`) — a virtual authenticator ({@link VIRTUAL_AUTHENTICATOR}).
 *
 * When: a page from `context.newPage()` (which suites and `openToolPage` use) is handed over only
 * once its authenticator is in place, so it is there before the page's first `goto` and before any
 * of its scripts run (verified by test/e2e/authenticator.test.mjs). A page the browser opens on its
 * own (a popup) gets it from the context's `page` event, a few CDP round trips after it was created:
 * before a document it loads over the network runs a script, but a popup's inline `about:blank`
 * script calling WebAuthn at once could run first; `await authenticatorOf(popup)` before driving it.
 *
 * Sharing: the authenticator is per page (per CDP target), while a person's device is one for all
 * their tabs. So, with `share` (the default), the context behaves as one device: every credential
 * that any page's authenticator creates is copied into every other page's authenticator of the
 * context at once (`WebAuthn.credentialAdded`), a new page starts with all of them, and a credential
 * deleted by a page (`WebAuthn.credentialDeleted`) leaves the others too. A copy has the sign counter
 * the credential had when copied; the copies' counters then advance on their own (ai-ops does not
 * check the counter). Removing a page's authenticator takes it out of the sharing. `share: false`
 * keeps each page's authenticator apart (e.g. to show that a device without the enrolled credential
 * cannot approve); {@link copyCredentials} then copies by hand.
 * @param {import('playwright-core').BrowserContext} context
 * @param {{share?: boolean}} [options]
 */
function equipWithAuthenticators(context, { share = true } = {}) {
  /** @type {Map<import('playwright-core').Page, Promise<PageAuthenticator>>} */
  const byPage = new Map();
  /** Authenticators that take part in the sharing, once each holds the device's credentials. */
  const sharing = new Set();
  /** The device's credentials by id (the latest seen of each). */
  const device = new Map();

  const addTo = async (authenticator, credential) => {
    try {
      await authenticator.session.send('WebAuthn.addCredential', { authenticatorId: authenticator.id, credential });
    } catch (error) {
      // Already there (the page created it, or copied twice) or the page closed meanwhile.
      if (!/already|exist|closed|Target|detached|not found/i.test(String(error?.message))) throw error;
    }
  };

  async function attach(page) {
    const session = await context.newCDPSession(page);
    await session.send('WebAuthn.enable', { enableUI: false });
    const { authenticatorId: id } = await session.send('WebAuthn.addVirtualAuthenticator', { options: { ...VIRTUAL_AUTHENTICATOR } });
    /** @type {PageAuthenticator} */
    const authenticator = {
      id,
      session,
      setPresence: (on) => session.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId: id, enabled: on }).then(() => {}),
      setUserVerified: (on) => session.send('WebAuthn.setUserVerified', { authenticatorId: id, isUserVerified: on }).then(() => {}),
      async remove() {
        sharing.delete(authenticator);
        await session.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: id });
      },
      credentials: async () => (await session.send('WebAuthn.getCredentials', { authenticatorId: id })).credentials,
    };
    if (share) {
      session.on('WebAuthn.credentialAdded', ({ authenticatorId, credential }) => {
        if (authenticatorId !== id || !sharing.has(authenticator) || device.has(credential.credentialId)) return;
        device.set(credential.credentialId, credential);
        for (const other of sharing) if (other !== authenticator) addTo(other, credential).catch(() => {});
      });
      session.on('WebAuthn.credentialAsserted', ({ authenticatorId, credential }) => {
        if (authenticatorId === id && device.has(credential.credentialId)) device.set(credential.credentialId, credential);
      });
      session.on('WebAuthn.credentialDeleted', ({ authenticatorId, credentialId }) => {
        if (authenticatorId !== id || !sharing.has(authenticator) || !device.delete(credentialId)) return;
        for (const other of sharing) {
          if (other !== authenticator) other.session.send('WebAuthn.removeCredential', { authenticatorId: other.id, credentialId }).catch(() => {});
        }
      });
      // Joins first, then takes the device's credentials: one created meanwhile reaches it either way.
      sharing.add(authenticator);
      for (const credential of [...device.values()]) await addTo(authenticator, credential);
    }
    page.once('close', () => sharing.delete(authenticator));
    return authenticator;
  }

  /** The page's authenticator, attaching it if the page has none yet. */
  const authenticatorOf = (page) => {
    let attached = byPage.get(page);
    if (!attached) {
      attached = attach(page);
      // A page closed before its authenticator was in place: nothing to report unless asked.
      attached.catch(() => {});
      byPage.set(page, attached);
      page.once('close', () => byPage.delete(page));
    }
    return attached;
  };

  context.on('page', (page) => void authenticatorOf(page));
  const newPage = context.newPage.bind(context);
  // Every suite opens its pages here: hand a page over only once its authenticator is in place.
  context.newPage = async (...args) => {
    const page = await newPage(...args);
    await authenticatorOf(page);
    return page;
  };
  return Promise.all(context.pages().map(authenticatorOf)).then(() => authenticatorOf);
}

/**
 * Copies every credential of `fromPage`'s authenticator into `toPage`'s (the same device in another
 * tab, when the context's pages do not share: `launchBrowser({ shareCredentials: false })`).
 * @param {(page: import('playwright-core').Page) => Promise<PageAuthenticator>} authenticatorOf
 * @returns {Promise<number>} how many credentials were copied
 */
async function copyCredentialsWith(authenticatorOf, fromPage, toPage) {
  const [from, to] = await Promise.all([authenticatorOf(fromPage), authenticatorOf(toPage)]);
  const credentials = await from.credentials();
  for (const credential of credentials) await to.session.send('WebAuthn.addCredential', { authenticatorId: to.id, credential });
  return credentials.length;
}

/**
 * Launches Chromium with a fresh profile, in this run's browser mode (or `mode`); `args` adds flags.
 * Throws when the browser does not have its own WebMCP in `webmcp` mode, or has it in `plain`.
 * Every page of the browser has a virtual authenticator playing the user's device (see
 * {@link equipWithAuthenticators}): `authenticatorOf(page)` reaches it, `copyCredentials(from, to)`
 * copies one page's credentials to another's; `shareCredentials: false` keeps each page's apart.
 * @param {{mode?: 'plain' | 'webmcp', args?: string[], shareCredentials?: boolean}} [options]
 */
export async function launchBrowser({ mode = BROWSER_MODE, args = [], shareCredentials = true } = {}) {
  const profile = await mkdtemp(join(tmpdir(), 'ai-ops-chrome-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    headless: true,
    args: [...CHROME_ARGS, ...BROWSER_MODES[mode], ...args],
  });
  let authenticatorOf;
  try {
    // Fails the suite at once when the browser is not in the mode the run is named for (NAT-3).
    await assertBrowserMode(context, mode, [...BROWSER_MODES[mode], ...args].join(' '));
    authenticatorOf = await equipWithAuthenticators(context, { share: shareCredentials });
  } catch (error) {
    await context.close().catch(() => {});
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    context,
    /** @type {(page: import('playwright-core').Page) => Promise<PageAuthenticator>} */
    authenticatorOf,
    /** @type {(fromPage: import('playwright-core').Page, toPage: import('playwright-core').Page) => Promise<number>} */
    copyCredentials: (fromPage, toPage) => copyCredentialsWith(authenticatorOf, fromPage, toPage),
    async close() {
      await context.close().catch(() => {});
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Polls `fn` until it returns a truthy value, or throws after `ms`. */
export async function waitFor(fn, ms = 10_000, what = 'condition') {
  const end = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The tool names the relay lists, without its own tools. */
export async function listedNames(client) {
  const { tools } = await client.listTools();
  return tools.map((t) => t.name);
}

/** Parses the single text item of a CallToolResult. */
export function envelope(result) {
  return JSON.parse(result.content[0].text);
}

/**
 * Clicks the page's switch like a person (the input inside the element's shadow root), in the tab
 * in front: a person clicks in the tab they look at, and WebAuthn refuses a document without focus
 * (`NotAllowedError`), so the verification of a switch-on (UV-1) needs it.
 */
export async function clickSwitch(page, tool) {
  await page.bringToFront();
  const input = page.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`);
  await input.click();
  // Until the switch is no longer starting (the device answered, the scripts loaded): bringing
  // another tab to front meanwhile would take the focus its verification needs.
  await input.and(page.locator(':not([aria-busy])')).waitFor({ timeout: 20_000 });
}

// ---- Helpers for the relay end-to-end files (test/e2e/relay-*.test.mjs) ----

/** The relay's own tools (@mcp-b/webmcp-local-relay 2.2.0's, and ai-ops-relay's `ai_ops_pair`, DOOR-6), listed beside the relayed ones. */
export const RELAY_OWN_TOOLS = ['ai_ops_pair', 'webmcp_call_tool', 'webmcp_list_sources', 'webmcp_list_tools', 'webmcp_open_page'];

/** The 23 operations of the design doc, by tool. */
export const OPERATIONS = {
  sql: ['sql_read_query', 'sql_run_query'],
  slides: ['slides_read', 'slides_set_theme', 'slides_write'],
  excalidraw: ['excalidraw_add_elements', 'excalidraw_clear', 'excalidraw_read', 'excalidraw_update_element'],
  drawio: ['drawio_add_cells', 'drawio_read', 'drawio_write'],
  node: ['node_delete_file', 'node_list_files', 'node_read_file', 'node_run_command', 'node_write_file'],
  go: ['go_delete_file', 'go_list_files', 'go_read_file', 'go_run', 'go_test', 'go_write_file'],
};

/** The names the relay lists, its own tools left out, sorted. */
export async function relayedNames(client) {
  return (await listedNames(client)).filter((n) => !RELAY_OWN_TOOLS.includes(n)).sort();
}

/**
 * Calls a tool through the relay like an agent; `timeout` is the MCP client's request timeout
 * (its default, 60 s, is shorter than a confirmation plus a run).
 * @returns {Promise<{result: object, isError: boolean, env: object | null}>} `env` is the parsed envelope, null when the text is not JSON.
 */
export async function callRelay(client, name, args = {}, timeout = 150_000) {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout });
  let env = null;
  try {
    env = JSON.parse(result.content?.[0]?.text);
  } catch {
    // "Tool not found: …" and other relay texts
  }
  return { result, isError: result.isError === true, env };
}

/** Matches any URL of the relay's candidate ports (the widget scans 9333–9348 on 127.0.0.1 and [::1]). */
export const RELAY_PORT_URL = /^(?:ws|wss|http|https):\/\/(?:127\.0\.0\.1|\[::1\]|localhost):93(?:3[3-9]|4[0-8])(?:\/|$)/;

/**
 * Records what a page (its frames included) asks of the network: WebSockets, requests, and those
 * that go to a relay port.
 */
export function recordTraffic(page) {
  const traffic = { sockets: [], requests: [], inFlight: new Set() };
  page.on('websocket', (ws) => traffic.sockets.push(ws.url()));
  page.on('request', (request) => {
    traffic.requests.push(request.url());
    traffic.inFlight.add(request);
  });
  for (const ended of ['requestfinished', 'requestfailed']) page.on(ended, (request) => traffic.inFlight.delete(request));
  traffic.toRelayPorts = () => [...traffic.sockets, ...traffic.requests].filter((url) => RELAY_PORT_URL.test(url));
  return traffic;
}

/**
 * Lets whatever a page still has pending play out, without waiting for it in real time: jumps the
 * page's clock `ms` forward (Playwright's, installed with `context.clock.install()` before the page
 * loaded; it flows as usual otherwise), which fires every timer due meanwhile — a late retry, a
 * port scan, a vendor script's bound — then waits until none of the page's requests (recorded by
 * {@link recordTraffic}) is in flight, after a task of the page's own has run (so a script that just
 * arrived has executed, and whatever it requested is seen). Then leftovers can be checked.
 */
export async function settlePage(page, traffic, ms = 5000) {
  await page.clock.fastForward(ms);
  await waitFor(async () => {
    if (traffic.inFlight.size) return false;
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    return traffic.inFlight.size === 0;
  }, 30_000, 'the page\'s requests to end');
}

let sentinels = 0;

/**
 * A positive sign that what a page has started by now has reached the network, for a check of
 * what it requested: after two of the page's animation frames (its styles computed, so the images
 * and backgrounds of what it shows are requested) and a task after them, the page fetches a URL of
 * its own origin; this resolves once Playwright has reported that request. The page's earlier
 * requests come in the same event stream before it, so every listener has seen them by then.
 * Brings the page to front first: a background tab gets no animation frames.
 */
export async function requestSentinel(page) {
  await page.bringToFront();
  const path = `/?ai-ops-sentinel=${++sentinels}`;
  const seen = page.waitForRequest((request) => request.url().endsWith(path), { timeout: 30_000 });
  await page.evaluate((url) => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0))))
    .then(() => { fetch(url, { cache: 'no-store' }).catch(() => {}); }), path);
  await seen;
}

/**
 * Opens a tool page in a new tab and waits for its switch; `beforeLoad(page)` runs before the page
 * is loaded (to record its traffic from the start, say).
 */
export async function openToolPage(context, origin, tool, query = '', { beforeLoad } = {}) {
  const page = await context.newPage();
  if (beforeLoad) await beforeLoad(page);
  await page.goto(`${origin}/${tool}/${query}`);
  await page.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`).waitFor({ timeout: 30_000 });
  return page;
}

/** Whether the page's switch shows on. */
export async function switchIsOn(page, tool) {
  return page.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`).isChecked();
}

/** The page's confirmation dialog. */
export function confirmDialog(page) {
  return page.locator('ai-ops-confirm');
}

/** The rows of a tool's log (`role="log"` children). */
export function logRows(page, tool) {
  return page.locator(`ai-ops-log[tool="${tool}"] [role="log"] [part="row"]`);
}

/**
 * Shows a tool's log like a person: opens the panel (panel mode), or selects the host's tab that
 * holds it (tab mode, e.g. the node page's 「AI からの操作」 tab).
 */
export async function showLog(page, tool, log = page.locator(`ai-ops-log[tool="${tool}"]`)) {
  if ((await log.getAttribute('mode')) === 'tab') {
    const panel = await log.evaluate((element) => element.closest('[role="tabpanel"]')?.id ?? null);
    if (panel !== null && !(await log.isVisible())) await page.locator(`[role="tab"][aria-controls="${panel}"]`).click();
    await log.locator('[role="log"]').waitFor();
    return;
  }
  if ((await log.locator('[part="panel"]').getAttribute('open')) === null) await log.locator('[part="panel-summary"]').click();
}

/**
 * Opens a tool's log panel and the row at `index` like a person, and reads it.
 * @returns {Promise<{summary: string, name: string, args: string, result: string}>}
 */
export async function readLogRow(page, tool, index) {
  await showLog(page, tool);
  const row = logRows(page, tool).nth(index);
  if ((await row.getAttribute('open')) === null) await row.locator('[part="row-summary"]').click();
  await row.locator('[part="result"]').waitFor();
  return {
    summary: (await row.locator('[part="row-summary"]').textContent()).trim(),
    name: (await row.locator('[part="name"]').textContent()).trim(),
    args: await row.locator('[part="args"]').textContent(),
    result: await row.locator('[part="result"]').textContent(),
  };
}

/**
 * Lets the page see real focus changes (Playwright emulates focus in headless pages, so switching
 * tabs fires no `focus`/`blur` otherwise).
 */
export async function realFocus(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
  return cdp;
}

/**
 * Opens a tool's log panel and every row like a person (a click on each row's summary), then reads
 * all rows at once.
 * @returns {Promise<{summary: string, name: string, args: string, result: string}[]>}
 */
export async function readLogRows(page, tool) {
  // Clicks wait for animation frames, which a tab in the background gets rarely.
  await page.bringToFront();
  const log = page.locator(`ai-ops-log[tool="${tool}"]`);
  await showLog(page, tool);
  const rows = logRows(page, tool);
  const read = () => log.evaluate((element) =>
    [...element.shadowRoot.querySelectorAll('[part="row"]')].map((row) => ({
      summary: row.querySelector('[part="row-summary"]')?.textContent.trim() ?? '',
      name: row.querySelector('[part="name"]')?.textContent.trim() ?? '',
      args: row.querySelector('[part="args"]')?.textContent ?? null,
      result: row.querySelector('[part="result"]')?.textContent ?? null,
    })));
  return waitFor(async () => {
    const count = await rows.count();
    for (let i = 0; i < count; i++) {
      const row = rows.nth(i);
      if ((await row.getAttribute('open')) === null) await row.locator('[part="row-summary"]').click();
    }
    // A row opened just now may not show its details yet: read again on waitFor's next poll.
    const all = await read();
    return all.every((row) => row.args !== null && row.result !== null) && all;
  }, 30_000, `every row of the ${tool} log expanded`);
}

/**
 * True for a URL on this machine's loopback (127.0.0.1, [::1], localhost). Besides the page's own
 * origin, a page with a switch on reaches the relay's port: the widget's WebSockets, and the probe
 * that finds a relay started after the page.
 */
export function isLoopback(url) {
  const { hostname } = new URL(url);
  return hostname === '127.0.0.1' || hostname === '[::1]' || hostname === 'localhost';
}

/**
 * Calls an operation in `target` (a page or frame) as an agent on that page would, through
 * `navigator.modelContextTesting.executeTool`; answers the envelope's fields plus `isError`. A page
 * that loads with its switch stored on registers a moment after it shows (the polyfill and, with
 * the browser's own WebMCP, ai-ops's testing surface load first), so the call waits until the
 * operation is listed, as an agent would see it.
 */
export async function callInPage(target, name, args = {}) {
  await target.waitForFunction((n) => navigator.modelContextTesting?.listTools().some((t) => t.name === n), name, { timeout: 15_000 });
  const text = await target.evaluate(([n, a]) => navigator.modelContextTesting.executeTool(n, JSON.stringify(a)), [name, args]);
  const result = JSON.parse(text);
  return { isError: result.isError === true, ...JSON.parse(result.content[0].text) };
}

/**
 * Holds back IndexedDB's open success until `window.__releaseIndexedDb()` (an init script:
 * `page.addInitScript(holdIndexedDb)`), so a test can call while the page is still loading its
 * document. ai-ops's own consent store (`ai-ops-consent`, UV-8) opens as usual: the switch is not
 * the document.
 */
export function holdIndexedDb() {
  const held = [];
  let holding = true;
  window.__releaseIndexedDb = () => {
    holding = false;
    for (const release of held.splice(0)) release();
  };
  const open = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (...args) {
    const request = open.apply(this, args);
    if (args[0] === 'ai-ops-consent') return request;
    // Added before the page sets onsuccess, so it runs first and can stop it.
    request.addEventListener('success', (event) => {
      if (!holding) return;
      event.stopImmediatePropagation();
      held.push(() => request.onsuccess?.call(request, event));
    });
    return request;
  };
}

/**
 * Leaves a tool page by the header's home link and comes back with the browser's back button, like
 * a person, and checks the app did both without loading a document.
 */
export async function leaveAndComeBack(page, tool) {
  const marker = await page.evaluate(() => (window.__sameDocument = Math.random()));
  const toolSwitch = page.locator(`ai-ops-switch[tool="${tool}"]`);
  await page.locator('header.page-header a.home').click();
  await toolSwitch.waitFor({ state: 'detached' });
  await page.goBack();
  await toolSwitch.waitFor();
  if ((await page.evaluate(() => window.__sameDocument)) !== marker) throw new Error('the app loaded a new document');
}

/** axe-core's violations on the page (its open shadow roots included), as `id: selector…` lines. */
export async function axeViolations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: join(root, 'node_modules/axe-core/axe.min.js') });
  return page.evaluate(async () => (await window.axe.run(document)).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
}

/**
 * What the page's consent store (IndexedDB `ai-ops-consent`, UV-8) keeps under `key` — `enrolment`,
 * or `receipts:<tool>` — read in the page, or undefined. The value only: each record is kept as
 * `{anchored: value, tag}` under the page's own key (UV-14).
 */
export function consentRecord(page, key) {
  return page.evaluate((key) => new Promise((resolve, reject) => {
    const open = indexedDB.open('ai-ops-consent');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('records')) {
        db.close();
        resolve(undefined);
        return;
      }
      const get = db.transaction('records').objectStore('records').get(key);
      get.onsuccess = () => {
        db.close();
        resolve(get.result?.anchored);
      };
      get.onerror = () => reject(get.error);
    };
  }), key);
}

/**
 * Removes every tool's rest (`rest:*`, UV-16) from the page's consent store, as the user waiting it
 * out would: a suite whose attempts each start from no refusals calls it after a reload (the rest
 * holds across reloads, so a reload alone no longer ends it).
 * @param {import('playwright-core').Page} page
 */
export function clearRests(page) {
  return page.evaluate(() => new Promise((resolve, reject) => {
    const open = indexedDB.open('ai-ops-consent');
    open.onerror = () => resolve(undefined);
    // No database yet: nothing rests. Opening must not create an empty one, which the page would
    // then open at its version with no object store, and keep nothing in.
    open.onupgradeneeded = () => open.transaction.abort();
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('records')) {
        db.close();
        resolve(undefined);
        return;
      }
      const transaction = db.transaction('records', 'readwrite');
      transaction.objectStore('records').delete(IDBKeyRange.bound('rest:', 'rest:\uffff'));
      transaction.oncomplete = () => {
        db.close();
        resolve(undefined);
      };
      transaction.onerror = () => reject(transaction.error);
    };
  }));
}

/**
 * Resolves once the page has rendered two frames after now: whatever a click just did, its state
 * changes and the microtasks and tasks it queued before those frames have run. A negative check
 * ("a script's click did nothing") waits on this, not on a fixed time.
 */
export function renderedTwice(page) {
  return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))));
}
