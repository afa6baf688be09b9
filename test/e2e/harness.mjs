// End-to-end parts, all real: the demo server, the relay command agents run (bin/ai-ops-relay.mjs
// over @mcp-b/webmcp-local-relay), Debian's Chromium driven by playwright-core, and an MCP SDK
// client talking to the relay over stdio.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startServer } from '../../demo/server/serve.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export const CHROME_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
  // Background tabs must keep their timers and dialogs (CONF-9) in a headless run with several pages.
  '--disable-background-timer-throttling', '--disable-renderer-backgrounding', '--disable-backgrounding-occluded-windows',
];

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

/** Starts the relay the way the README tells an agent to, with a real MCP client on its stdio. */
export async function startRelay({ origin, port }) {
  const home = await mkdtemp(join(tmpdir(), 'ai-ops-relay-home-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(root, 'bin/ai-ops-relay.mjs'), '--port', String(port), '--widget-origin', origin],
    env: { PATH: process.env.PATH ?? '', HOME: home },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'ai-ops-e2e', version: '1.0.0' });
  const listChanged = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => listChanged.push(Date.now()));
  await client.connect(transport);
  return {
    client,
    listChanged,
    async close() {
      await client.close().catch(() => {});
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** Launches Chromium with a fresh profile. */
export async function launchBrowser() {
  const profile = await mkdtemp(join(tmpdir(), 'ai-ops-chrome-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    headless: true,
    args: CHROME_ARGS,
  });
  return {
    context,
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

/** Clicks the page's switch like a person (the input inside the element's shadow root). */
export async function clickSwitch(page, tool) {
  await page.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`).click();
}
