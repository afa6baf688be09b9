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
import { mkdtemp, readFile, rm } from 'node:fs/promises';
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
 * Starts the agent's browser: Chromium on a fresh profile with `--remote-debugging-port=0`
 * (Chromium picks a free port and prints it), then connects playwright-core to it over CDP. Throws
 * when the browser has no WebMCP of its own (NAT-3's check), so no suite runs on the wrong browser.
 * @returns {Promise<{browserUrl: string, browser: import('playwright-core').Browser, context: import('playwright-core').BrowserContext, close: () => Promise<void>}>}
 */
export async function launchAgentBrowser() {
  const profile = await mkdtemp(join(tmpdir(), 'ai-ops-agent-chrome-'));
  const args = [...AGENT_BROWSER_ARGS, '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'];
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
export async function startDevToolsMcp({ browserUrl }) {
  const agent = await startAgent({
    name: 'devtools-mcp',
    args: [join(root, 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'),
      `--browserUrl=${browserUrl}`, '--categoryExperimentalWebmcp', '--no-usage-statistics', '--no-performance-crux'],
    env: { CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1', CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' },
    expect: ['list_pages', 'take_snapshot', 'click', 'press_key', 'fill', 'evaluate_script', 'list_webmcp_tools', 'execute_webmcp_tool'],
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
 * page's WebMCP tools as `webmcp_<name>`.
 * @param {{browserUrl: string}} agentBrowser
 */
export async function startPlaywrightMcp({ browserUrl }) {
  const agent = await startAgent({
    name: 'playwright-mcp',
    args: [join(root, 'node_modules/@playwright/mcp/cli.js'), '--cdp-endpoint', browserUrl],
    expect: ['browser_tabs', 'browser_snapshot', 'browser_click', 'browser_press_key', 'browser_evaluate'],
  });
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
