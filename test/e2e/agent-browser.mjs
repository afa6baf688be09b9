// The agent's browser as a user has it, all real: one Debian Chromium started by the test with its
// own WebMCP on and a DevTools port on 127.0.0.1 (the way a user starts Chrome for an agent), the
// test's own playwright-core connection to it (to give a page "the user's device", a CDP virtual
// authenticator, and to read what the page shows), and real agent MCP servers attached to that same
// browser — Chrome DevTools MCP (`--browserUrl`) and Playwright MCP (`--cdp-endpoint`) — each
// started by a real MCP SDK client over stdio, in its own temporary HOME and working directory.
//
// Both agents read the browser's own WebMCP (DevTools MCP's `list_webmcp_tools`, Playwright MCP's
// `webmcp_*` tools), so this browser always runs with `--enable-features=WebMCP`, whatever
// AI_OPS_BROWSER_MODE says; scripts/test.mjs runs the suites that use it once.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CHROME_ARGS, BROWSER_MODES, root, waitFor } from './harness.mjs';
import { assertBrowserMode } from '../webmcp-check.mjs';

/** The flags the agent's browser starts with (besides its profile and DevTools port). */
export const AGENT_BROWSER_ARGS = [...CHROME_ARGS, '--headless', ...BROWSER_MODES.webmcp];

/**
 * The origin of the demo server that can hold a WebAuthn credential: `http://localhost:<port>`
 * (`127.0.0.1` cannot: `SecurityError: This is an invalid domain`). The demo server answers both.
 * @param {{port: number}} demo what harness.mjs's startDemo answered
 */
export function localOrigin(demo) {
  return `http://localhost:${demo.port}`;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A TCP port on 127.0.0.1 that is free now (the OS picks it; closed again before it is handed out).
 * @returns {Promise<number>}
 */
export async function freeLocalPort() {
  return new Promise((done, fail) => {
    const probe = createServer().once('error', fail).listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

/**
 * Starts the agent's browser: Chromium on a fresh profile with a DevTools port on 127.0.0.1, then
 * connects playwright-core to it over CDP. Throws when the browser has no WebMCP of its own (NAT-3's
 * check), so no suite runs on the wrong browser.
 *
 * How the port is given decides what the page reads in `navigator.webdriver` (measured in Debian's
 * Chromium 156, headless and headful alike): `--remote-debugging-port=0` (Chromium picks the port, as
 * automation tools do) makes it true; a numbered port, as a person types it
 * (`chromium --remote-debugging-port=9222`), leaves it false. `person: true` starts the browser the
 * person's way, on a free numbered port, with no automation flag at all.
 * @param {{person?: boolean}} [options]
 */
export async function launchAgentBrowser({ person = false } = {}) {
  const profile = await mkdtemp(join(tmpdir(), 'ai-ops-agent-chrome-'));
  const port = person ? await freeLocalPort() : 0;
  const args = [...AGENT_BROWSER_ARGS, '--remote-debugging-address=127.0.0.1', `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'];
  const proc = spawn(process.env.CHROME_PATH || '/usr/bin/chromium', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const close = async () => {
    await browser?.close().catch(() => {});
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((done) => proc.once('exit', done));
      proc.kill('SIGTERM');
      await Promise.race([exited, new Promise((done) => setTimeout(done, 10_000))]);
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    }
    await rm(profile, { recursive: true, force: true }).catch(() => {});
  };
  let browser;
  try {
    const wsEndpoint = await new Promise((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`Chromium printed no DevTools endpoint in 30 s: ${seen}`)), 30_000);
      proc.once('exit', (code) => reject(new Error(`Chromium exited (${code}) before its DevTools endpoint: ${seen}`)));
      proc.stderr.on('data', (chunk) => {
        seen += chunk;
        const found = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]);
        }
      });
    });
    proc.stderr.resume();
    const browserUrl = `http://${new URL(wsEndpoint).host}`;
    browser = await chromium.connectOverCDP(browserUrl);
    const context = browser.contexts()[0];
    await assertBrowserMode(context, 'webmcp', AGENT_BROWSER_ARGS.join(' '));
    return { browserUrl, browser, context, pid: proc.pid, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Gives `page` the user's device: a CDP virtual authenticator (ctap2, internal, resident key, user
 * verification), which the page's WebAuthn reaches as its platform authenticator. `present` is the
 * user at the device: presence simulation on, every request the page makes is answered (the user
 * touches and verifies); off, a request waits until its timeout and rejects `NotAllowedError` (the
 * user is not there; turning presence on later does not complete a request already waiting).
 * @param {import('playwright-core').BrowserContext} context
 * @param {import('playwright-core').Page} page
 * @param {{present: boolean}} options
 */
export async function addUserDevice(context, page, { present }) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true,
      isUserVerified: true, automaticPresenceSimulation: present,
    },
  });
  return {
    authenticatorId,
    /** The user comes to the device (true) or leaves it (false). */
    async setPresent(on) {
      await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: on });
    },
    /** The credentials this device holds (created on it). */
    async credentials() {
      return (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    },
    /** The device is gone (its private keys with it). */
    async remove() {
      await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
      await cdp.detach().catch(() => {});
    },
  };
}

/**
 * Starts one agent MCP server over stdio with a real MCP client, in its own temporary HOME and
 * working directory. Throws unless the server answers and lists every tool of `expect` (so a suite
 * never passes on a server that did not start or lacks the tools it is about).
 */
async function startAgent({ name, args, env = {}, expect }) {
  const dir = await mkdtemp(join(tmpdir(), `ai-ops-${name}-`));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const client = new Client({ name: `ai-ops-e2e-${name}`, version: '1.0.0' });
  const pid = () => transport.pid;
  const close = async () => {
    const serverPid = pid();
    await client.close().catch(() => {});
    if (serverPid) await waitFor(() => !isAlive(serverPid), 15_000, `${name} to exit`).catch(() => {});
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  };
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const missing = expect.filter((t) => !tools.some((listed) => listed.name === t));
    if (missing.length) throw new Error(`${name} lists no ${missing.join(', ')}`);
  } catch (error) {
    await close();
    throw new Error(`${name} did not start: ${error.message}\n${stderr}`);
  }
  return {
    client,
    dir,
    /** Calls one of the server's tools; answers its text and isError. */
    async call(tool, args = {}, timeout = 120_000) {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout });
      return { text: result.content.map((c) => c.text ?? '').join('\n'), isError: result.isError === true, result };
    },
    close,
  };
}

/**
 * Chrome DevTools MCP (`chrome-devtools-mcp` 1.11.0) attached to the agent's browser, with its
 * WebMCP tools (`--categoryExperimentalWebmcp`), no usage statistics, no update check.
 * @param {{browserUrl: string}} agentBrowser
 */
export async function startDevToolsMcp({ browserUrl }, { flags = ['--categoryExperimentalWebmcp'] } = {}) {
  const evaluates = !flags.includes('--no-javascript-evaluation');
  const agent = await startAgent({
    name: 'devtools-mcp',
    args: [join(root, 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'),
      `--browserUrl=${browserUrl}`, ...flags, '--no-usage-statistics', '--no-performance-crux'],
    env: { CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1', CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' },
    expect: ['list_pages', 'take_snapshot', 'click', 'press_key', 'fill', ...(evaluates ? ['evaluate_script'] : []), 'list_webmcp_tools', 'execute_webmcp_tool'],
  });
  return {
    ...agent,
    /**
     * The id DevTools MCP gives the page at `url` (its page tools need `pageId`): from
     * `list_pages`'s lines, e.g. `1: http://localhost:… [selected]`.
     */
    async pageId(url) {
      return waitFor(async () => {
        const { text } = await agent.call('list_pages');
        const line = text.split('\n').find((l) => l.includes(url));
        const id = line && /^\s*(\d+):/.exec(line)?.[1];
        return id ? Number(id) : null;
      }, 30_000, `DevTools MCP to list ${url}`);
    },
    /** The uid of the first line of the page's snapshot matching `pattern` (e.g. `uid=1_19 switch "AI からの操作"`). */
    async uid(pageId, pattern, what = String(pattern)) {
      return waitFor(async () => {
        const { text } = await agent.call('take_snapshot', { pageId });
        const line = text.split('\n').find((l) => pattern.test(l));
        return line ? /uid=(\S+)/.exec(line)?.[1] ?? null : null;
      }, 30_000, what);
    },
  };
}

/**
 * Playwright MCP (`@playwright/mcp` 0.0.83) attached to the agent's browser over CDP; it exposes the
 * page's WebMCP tools as `webmcp_<name>`. `caps` adds capabilities (e.g. `storage`: the
 * `browser_localstorage_*` tools).
 * @param {{browserUrl: string}} agentBrowser
 * @param {{caps?: string}} [options]
 */
export async function startPlaywrightMcp({ browserUrl }, { caps } = {}) {
  const agent = await startAgent({
    name: 'playwright-mcp',
    args: [join(root, 'node_modules/@playwright/mcp/cli.js'), '--cdp-endpoint', browserUrl, ...(caps ? ['--caps', caps] : [])],
    expect: ['browser_tabs', 'browser_snapshot', 'browser_click', 'browser_press_key', 'browser_evaluate', ...(caps === 'storage' ? ['browser_localstorage_set'] : [])],
  });
  return playwrightHelpers(agent);
}

/**
 * The Playwright MCP config of docs/agents.md ("Which agents reach the page, and how"), as a user
 * copies it, plus only what this machine and the test need: no sandbox (root), no GPU, and a
 * numbered DevTools port, through which the test gives the page the user's device and reads it.
 * Nothing in it names `--disable-blink-features`, so Playwright MCP adds
 * `--disable-blink-features=AutomationControlled` as it does for every user (`navigator.webdriver`
 * false).
 * @param {number} port
 */
export function readmePlaywrightConfig(port) {
  return {
    browser: {
      browserName: 'chromium',
      isolated: true,
      launchOptions: {
        executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
        headless: true,
        // The README's one arg first; then this machine's (root: no sandbox) and the test's port.
        args: ['--enable-features=WebMCP', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', `--remote-debugging-port=${port}`],
        chromiumSandbox: false,
      },
    },
  };
}

/**
 * Playwright MCP launching its own browser from the README's config ({@link readmePlaywrightConfig}):
 * starts the server, has it open `url` (its `browser_navigate` launches Chromium), then connects the
 * test's playwright-core to that browser's DevTools port. Answers the agent (with the helpers of
 * {@link startPlaywrightMcp}) and the browser (as {@link launchAgentBrowser} answers it; closing it
 * closes the test's connection and the agent, whose exit ends its browser).
 * @param {string} url
 */
export async function launchWithPlaywrightMcp(url) {
  const port = await freeLocalPort();
  const configDir = await mkdtemp(join(tmpdir(), 'ai-ops-playwright-config-'));
  const config = join(configDir, 'playwright-mcp.json');
  await writeFile(config, JSON.stringify(readmePlaywrightConfig(port)));
  const agent = playwrightHelpers(await startAgent({
    name: 'playwright-mcp-launch',
    args: [join(root, 'node_modules/@playwright/mcp/cli.js'), '--config', config],
    expect: ['browser_navigate', 'browser_tabs', 'browser_snapshot', 'browser_click', 'browser_press_key', 'browser_evaluate'],
  }));
  let browser;
  const close = async () => {
    await browser?.close().catch(() => {});
    await agent.close();
    await rm(configDir, { recursive: true, force: true }).catch(() => {});
  };
  try {
    const opened = await agent.call('browser_navigate', { url });
    if (opened.isError) throw new Error(`Playwright MCP did not open ${url}: ${opened.text}`);
    const browserUrl = `http://127.0.0.1:${port}`;
    browser = await waitFor(() => chromium.connectOverCDP(browserUrl).catch(() => null), 30_000, `the DevTools port ${port} of Playwright MCP's browser`);
    // The MCP's isolated context is not the test's to know; its pages land in the connection's default one.
    const context = browser.contexts()[0];
    await assertBrowserMode(context, 'webmcp', 'the README\'s Playwright MCP config');
    return { agent, browser: { browserUrl, browser, context, close } };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The page helpers every Playwright MCP agent of these suites has. */
function playwrightHelpers(agent) {
  /** The page snapshot an action's answer links to (`.playwright-mcp/*.yml`), or its inline text. */
  const snapshotOf = async (answer) => {
    const file = /\]\((\.playwright-mcp\/[^)]+\.yml)\)/.exec(answer.text)?.[1];
    return file ? readFile(join(agent.dir, file), 'utf8') : answer.text;
  };
  return {
    ...agent,
    snapshotOf,
    /** The page's snapshot as the agent sees it now. */
    async snapshot() {
      return snapshotOf(await agent.call('browser_snapshot'));
    },
    /** The ref of the first line of the current page's snapshot matching `pattern`. */
    async ref(pattern, what = String(pattern)) {
      return waitFor(async () => {
        const line = (await this.snapshot()).split('\n').find((l) => pattern.test(l));
        return line ? /\[ref=([^\]]+)\]/.exec(line)?.[1] ?? null : null;
      }, 30_000, what);
    },
    /** Selects the browser tab showing `url` (Playwright MCP attached over CDP sees the tabs that are open). */
    async selectTab(url) {
      const index = await waitFor(async () => {
        const { text } = await agent.call('browser_tabs', { action: 'list' });
        const line = text.split('\n').find((l) => l.includes(url));
        const found = line && /^\s*-\s*(\d+):/.exec(line)?.[1];
        return found !== undefined && found !== null && found !== false ? String(found) : null;
      }, 30_000, `Playwright MCP to list ${url}`);
      await agent.call('browser_tabs', { action: 'select', index: Number(index) });
    },
    /** The page's WebMCP tools it lists now, without the `webmcp_` prefix (refreshed after each action). */
    async pageTools() {
      const { tools } = await agent.client.listTools();
      return tools.filter((t) => t.name.startsWith('webmcp_'));
    },
  };
}

// ---- What the page shows, read by the test (not by an agent) ----

/** The page's switch for `tool` (the input inside the element's shadow root). */
export function switchInput(page, tool) {
  return page.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`);
}

/**
 * What the page says to assistive technology now: the text of every `role="alert"`,
 * `role="status"` and `aria-live` region, open shadow roots included, joined by newlines.
 * @param {import('playwright-core').Page} page
 */
export async function announced(page) {
  return page.evaluate(() => {
    const texts = [];
    const visit = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.matches('[role="alert"], [role="status"], [aria-live]:not([aria-live="off"])')) {
          const text = el.textContent.trim();
          if (text) texts.push(text);
        }
        if (el.shadowRoot) visit(el.shadowRoot);
      }
    };
    visit(document);
    return texts.join('\n');
  });
}

/** The operations of `prefix` (e.g. `sample_`) in the browser's own WebMCP list of the page, as every agent reads it. */
export async function browserListed(page, prefix) {
  return (await page.webmcp.tools()).map((t) => t.name).filter((n) => n.startsWith(prefix)).sort();
}

/** The tool names in DevTools MCP's `list_webmcp_tools` answer (lines `name="…", description=…`). */
export function devtoolsNames(text) {
  return [...text.matchAll(/^name="([^"]+)"/gm)].map((m) => m[1]).sort();
}

/**
 * Parses DevTools MCP's `execute_webmcp_tool` answer: `{status, output}` as JSON text, `output` the
 * page's CallToolResult; answers that, and the envelope inside.
 */
export function devtoolsResult(answer) {
  const start = answer.text.indexOf('{');
  let outer;
  try {
    outer = JSON.parse(answer.text.slice(start));
  } catch {
    throw new Error(`not a WebMCP tool result: ${answer.text}`);
  }
  return { status: outer.status, result: outer.output, env: JSON.parse(outer.output.content[0].text) };
}

/**
 * Parses what Playwright MCP shows for a page tool's result: its text says what it called, then the
 * CallToolResult the page returned as JSON; answers that and the envelope inside.
 */
export function playwrightResult(answer) {
  // The JSON block runs up to the next `### ` section (Page, Snapshot, Events), when there is one.
  const start = answer.text.indexOf('{');
  const next = answer.text.indexOf('\n### ', start);
  let result;
  try {
    result = JSON.parse(answer.text.slice(start, next < 0 ? undefined : next));
  } catch {
    throw new Error(`not a page tool result: ${answer.text}`);
  }
  return { result, env: JSON.parse(result.content[0].text) };
}

// ---- The sample page from the test's own server ----

const SAMPLE_TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.wasm': 'application/wasm' };

/**
 * Serves the built playground (`dist/site/`) from a small static server of the test's own on
 * 127.0.0.1 (any port), so the page can be opened on `http://127.0.0.1:<port>` — the playground's
 * server sends that host to `localhost` — and on `http://localhost:<port>`. With
 * `verificationTimeoutMs`, `/sample/`'s HTML gets, before its operations.js, a module that hands that
 * option to the default runtime (`configureAiOps`): a verification the absent user never gives ends
 * in seconds instead of the verifier's 50 s. Everything else is served as built.
 * @param {{verificationTimeoutMs?: number}} [options]
 * @returns {Promise<{port: number, localhost: string, ip: string, close: () => Promise<void>}>}
 */
export async function serveSample({ verificationTimeoutMs } = {}) {
  const { createServer: createHttpServer } = await import('node:http');
  const { extname, normalize, sep } = await import('node:path');
  const site = join(root, 'dist/site');
  const inject = verificationTimeoutMs === undefined ? ''
    : `<script type="module">import { configureAiOps } from '/ai-ops/ai-ops.js'; configureAiOps({ verificationTimeoutMs: ${Number(verificationTimeoutMs)} });</script>\n  `;
  const server = createHttpServer(async (req, res) => {
    try {
      let path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (path.endsWith('/')) path += 'index.html';
      const file = normalize(join(site, path));
      if (!file.startsWith(site + sep)) throw Object.assign(new Error('outside'), { code: 'ENOENT' });
      let body = await readFile(file);
      if (path === '/sample/index.html' && inject) {
        const html = body.toString('utf8');
        const at = html.indexOf('<script type="module" src="./operations.js">');
        if (at < 0) throw new Error('the sample page has no operations.js script to inject before');
        body = Buffer.from(html.slice(0, at) + inject + html.slice(at));
      }
      res.writeHead(200, { 'Content-Type': SAMPLE_TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
      res.end(body);
    } catch (error) {
      res.writeHead(error.code === 'ENOENT' || error.code === 'EISDIR' ? 404 : 500, { 'Content-Type': 'text/plain' });
      res.end(String(error.message));
    }
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  return {
    port,
    localhost: `http://localhost:${port}`,
    ip: `http://127.0.0.1:${port}`,
    close: () => new Promise((done) => {
      server.closeAllConnections?.();
      server.close(() => done());
    }),
  };
}

/** What the page reads in `navigator.webdriver` (who says the browser is driven). */
export function webdriverOf(page) {
  return page.evaluate(() => navigator.webdriver);
}

/**
 * Whether `tool`'s switch is on and settled: checked and not waiting for a verification (while
 * one waits the checkbox shows checked with `aria-busy`; that is not on).
 */
export async function switchSettledOn(page, tool) {
  const input = switchInput(page, tool);
  return (await input.isChecked()) && (await input.getAttribute('aria-busy')) !== 'true';
}

/** Whether `locator`'s element has focus (inside its shadow root too). */
export function focused(locator) {
  return locator.evaluate((el) => el.matches(':focus'));
}

/** Presses `Tab` through `press` until `target` has focus (at most 8 times), as an agent tabbing to it does; throws if it never gets there. */
export async function tabTo(press, target, what) {
  for (let i = 0; i < 8; i++) {
    if (await focused(target)) return;
    await press('Tab');
  }
  if (!(await focused(target))) throw new Error(`the agent's Tab did not reach ${what}`);
}

/**
 * The user, present for this one click of their own, turns `tool`'s switch on (nothing when it is
 * on already), waits until `count` operations starting `prefix` are listed, then leaves the device.
 */
export async function userTurnsOn(page, device, tool, prefix, count) {
  if (await switchSettledOn(page, tool)) return;
  await device.setPresent(true);
  try {
    await switchInput(page, tool).click();
    await waitFor(async () => (await switchSettledOn(page, tool)) && (await browserListed(page, prefix)).length === count, 60_000, 'the switch on by the user, its operations listed');
  } finally {
    await device.setPresent(false);
  }
}

/** The user turns `tool`'s switch off (turning off never asks), once no verification waits at it. */
export async function userTurnsOff(page, tool, prefix) {
  const input = switchInput(page, tool);
  await waitFor(async () => (await input.getAttribute('aria-busy')) !== 'true', 60_000, 'no verification waiting at the switch');
  if (await input.isChecked()) await input.click();
  await waitFor(async () => !(await input.isChecked()) && (await browserListed(page, prefix)).length === 0, 30_000, 'the switch off');
}
