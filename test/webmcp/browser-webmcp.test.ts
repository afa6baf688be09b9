// The runtime in a browser with its own WebMCP (Chromium 156 with --enable-features=WebMCP), with the
// real polyfill and relay scripts from the build. Runs only with WEBMCP=1 (web-test-runner.config.mjs);
// build first (`node esbuild.config.mjs`).
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsConfirm } from '../../elements/confirm/ai-ops-confirm.js';
import { createAiOps } from '../../src/runtime.js';
import { defineOperation } from '../../src/definition.js';
import { succeed } from '../../src/result.js';
import { MemoryStorage } from '../runtime/helpers.js';

// All three tags now, as a page that has turned a switch on has them.
await loadAiOpsElements();

/** The browser's own API as Chromium 156 has it (PLATFORM-NOTES). */
type BrowserTool = { name: string; description: string; annotations?: Record<string, boolean> | null };
type BrowserModelContext = {
  registerTool(tool: unknown, options?: { signal?: AbortSignal }): Promise<void>;
  getTools(): Promise<BrowserTool[]>;
  executeTool(tool: BrowserTool, input: unknown, options?: { signal?: AbortSignal }): Promise<string>;
};
type Testing = EventTarget & {
  listTools(): { name: string; description: string; inputSchema?: string }[];
  executeTool(name: string, args: string): Promise<string | null>;
  registerToolsChangedCallback?: (cb: () => void) => void;
};

// Captured before anything of ai-ops ran: the polyfill replaces document.modelContext later.
const own = (document as Document & { modelContext?: BrowserModelContext }).modelContext!;
const testing = () => (navigator as Navigator & { modelContextTesting?: Testing }).modelContextTesting;
/** Waits until `condition` holds (checked every 10 ms), failing after `ms`. */
const until = (condition: () => boolean | Promise<boolean>, ms = 5000) => waitUntil(condition, 'timed out waiting', { interval: 10, timeout: ms });
/**
 * A minimal MCP client of the polyfill's tab bridge: JSON-RPC in `postMessage` envelopes on the
 * page's own window (the `mcp-default` channel of @mcp-b/transports), initialised as a client would.
 */
async function openTabBridge() {
  let nextId = 1;
  const waiting = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  const onMessage = (event: MessageEvent) => {
    const data = event.data as { channel?: string; direction?: string; payload?: { id?: number } } | null;
    if (event.source !== window || data?.channel !== 'mcp-default' || data.direction !== 'server-to-client') return;
    const id = data.payload?.id;
    if (id !== undefined && waiting.has(id)) {
      waiting.get(id)!(data.payload as { result?: unknown });
      waiting.delete(id);
    }
  };
  addEventListener('message', onMessage);
  const send = (payload: Record<string, unknown>) =>
    postMessage({ channel: 'mcp-default', type: 'mcp', direction: 'client-to-server', payload: { jsonrpc: '2.0', ...payload } }, location.origin);
  const request = (method: string, params: Record<string, unknown>) => new Promise<{ result?: unknown; error?: unknown }>((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    send({ id, method, params });
  });
  const init = await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'ai-ops-test', version: '1' } });
  expect(init.error).to.equal(undefined);
  send({ method: 'notifications/initialized' });
  return { request, close: () => removeEventListener('message', onMessage) };
}
const ownTool = async (name: string) => (await own.getTools()).find((t) => t.name === name)!;

const empty = { type: 'object', properties: {}, additionalProperties: false } as const;
const ops = [
  defineOperation({
    name: 'native_read', description: '読む', inputSchema: { type: 'object', properties: { text: { type: 'string', maxBytes: 10 } }, additionalProperties: false },
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    execute: async ({ text }) => succeed({ text: text ?? 'hello' }),
  }),
  defineOperation({
    name: 'native_delete', description: '消す', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
    annotations: { consequentialHint: true },
    confirmation: ({ path }) => ({ title: `ファイル「${path}」を削除する`, summary: 'ファイルを削除します。', actionLabel: '削除する' }),
    execute: async ({ path }) => succeed({ deleted: path }),
  }),
  defineOperation({ name: 'native_ping', description: 'pong を返す', inputSchema: empty, execute: async () => succeed({ pong: true }) }),
];

describe('in a browser with its own WebMCP', function () {
  this.timeout(30000);
  // The relay port points at a closed port so the widget's scan stays on this machine.
  const aiOps = createAiOps({ consent: 'click', storage: new MemoryStorage(), assetsBase: '/dist/site/ai-ops/vendor/', relayPort: 9, embedded: false, autoReconnect: false });
  const session = aiOps.provideOperations('native', ops);
  after(() => aiOps.dispose());

  it('[NAT-5] the browser has its own document.modelContext (this group runs with --enable-features=WebMCP)', () => {
    expect(own, 'document.modelContext').to.not.equal(undefined);
    expect(Object.prototype.toString.call(own)).to.equal('[object ModelContext]');
    expect(testing()).to.equal(undefined);
  });

  it('[SW-6] [NAT-1] on: the polyfill loads all the same, and every operation is in the browser\'s own list once, with every hint', async () => {
    await session.turnOn();
    await until(() => session.getState().status === 'on');
    expect(session.getState().error).to.equal(null);
    expect(document.querySelectorAll('script[src$="mcp-b-global.js"]')).to.have.length(1);
    expect(aiOps.capabilities.getState()!.native).to.equal(true);
    const tools = await own.getTools();
    expect(tools.map((t) => t.name).sort()).to.deep.equal(['native_delete', 'native_ping', 'native_read']);
    const hints = (name: string) => tools.find((t) => t.name === name)!.annotations;
    expect(hints('native_read')).to.include({ readOnlyHint: true, untrustedContentHint: true, consequentialHint: false });
    expect(hints('native_delete')).to.include({ consequentialHint: true, readOnlyHint: false, untrustedContentHint: false });
  });

  it('[SW-6] [NAT-7] the polyfill\'s tab bridge (what the MCP-B extension talks to) lists them, and the page\'s own tools, with document.modelContext the browser\'s', async () => {
    expect((document as Document & { modelContext?: unknown }).modelContext === own, 'document.modelContext is the browser\'s').to.equal(true);
    const page = new AbortController();
    await own.registerTool({ name: 'page_own', description: 'a tool of another script', execute: async () => 'page ran' }, { signal: page.signal });
    const bridge = await openTabBridge();
    try {
      const names = async () => ((await bridge.request('tools/list', {})).result as { tools: { name: string }[] }).tools.map((t) => t.name).sort();
      await until(async () => (await names()).includes('page_own'));
      expect(await names()).to.deep.equal(['native_delete', 'native_ping', 'native_read', 'page_own']);
      // (Calls through the bridge fail in Chromium 156 with or without the wrapper in place: the
      // polyfill hands the browser's executeTool JSON text where it wants an object.)
    } finally {
      bridge.close();
      page.abort();
    }
  });

  it('[NAT-3] [RELAY-4] the relay embed gets navigator.modelContextTesting from ai-ops\'s registry: the same tools, schemas as JSON, calls, changes', async () => {
    const surface = testing()!;
    expect(surface.listTools().map((t) => t.name)).to.deep.equal(['native_read', 'native_delete', 'native_ping']);
    expect(JSON.parse(surface.listTools()[0].inputSchema!).properties.text).to.deep.equal({ type: 'string', maxLength: 10 });
    const ok = JSON.parse((await surface.executeTool('native_read', JSON.stringify({ text: 'hi' })))!);
    expect(ok).to.deep.equal({ content: [{ type: 'text', text: '{"text":"hi","ok":true}' }] });
    const bad = JSON.parse((await surface.executeTool('native_read', JSON.stringify({ text: 'hi', extra: 1 })))!);
    expect(bad.isError).to.equal(true);
    expect(JSON.parse(bad.content[0].text).error.code).to.equal('invalid_input');
    let changes = 0;
    surface.registerToolsChangedCallback!(() => changes++);
    session.turnOff();
    await until(() => changes > 0);
    expect(surface.listTools()).to.deep.equal([]);
    await session.turnOn();
    await until(() => session.getState().status === 'on');
    expect(surface.listTools()).to.have.length(3);
  });

  it('[NAT-4] through the browser\'s own executeTool a failure is the CallToolResult with isError and the envelope\'s code and message', async () => {
    const ok = JSON.parse(await own.executeTool(await ownTool('native_read'), {}));
    expect(JSON.parse(ok.content[0].text)).to.deep.equal({ ok: true, text: 'hello' });
    expect(ok.isError).to.equal(undefined);
    // The browser validates nothing (PLATFORM-NOTES): ai-ops's schema answers.
    const bad = JSON.parse(await own.executeTool(await ownTool('native_read'), { text: 42 }));
    expect(bad.isError).to.equal(true);
    const env = JSON.parse(bad.content[0].text);
    expect(env.ok).to.equal(false);
    expect(env.error.code).to.equal('invalid_input');
    expect(env.error.message).to.be.a('string').and.not.equal('');
  });

  it('[AUDIT-1] the row says the path: the browser\'s own executeTool is webmcp, the relay\'s modelContextTesting is relay, session.call the page', async () => {
    const before = aiOps.log.getState().entries.length;
    await own.executeTool(await ownTool('native_ping'), {});
    await testing()!.executeTool('native_ping', '{}');
    await session.call('native_ping', {});
    const rows = aiOps.log.getState().entries.slice(before);
    expect(rows.map((e) => [e.name, e.via, e.by])).to.deep.equal([
      ['native_ping', 'webmcp', 'agent'], ['native_ping', 'relay', 'agent'], ['native_ping', 'page', 'agent'],
    ]);
    expect(rows.every((e) => Number.isFinite(e.durationMs) && e.durationMs >= 0)).to.equal(true);
  });

  it('[NAT-2] [CONF-8] a call cancelled through the browser\'s signal drops its dialog (shown, then queued) and is logged as declined', async () => {
    const el = await fixture<AiOpsConfirm>(html`<ai-ops-confirm .aiOps=${aiOps}></ai-ops-confirm>`);
    const dialog = () => el.shadowRoot!.querySelector('dialog')!;
    const first = new AbortController();
    const second = new AbortController();
    const tool = await ownTool('native_delete');
    const shown = own.executeTool(tool, { path: 'a.txt' }, { signal: first.signal }).then(String, (e: Error) => e.name);
    await until(() => aiOps.confirmations.getState().current !== null && dialog().open);
    const queued = own.executeTool(tool, { path: 'b.txt' }, { signal: second.signal }).then(String, (e: Error) => e.name);
    await until(() => aiOps.confirmations.getState().queued.length === 1);
    // The queued one first: it leaves the queue and is never shown.
    second.abort();
    expect(await queued).to.equal('AbortError');
    await until(() => aiOps.confirmations.getState().queued.length === 0);
    expect(aiOps.confirmations.getState().current?.content.title).to.contain('a.txt');
    first.abort();
    expect(await shown).to.equal('AbortError');
    await until(() => aiOps.confirmations.getState().current === null && !dialog().open);
    const rows = aiOps.log.getState().entries.slice(-2);
    expect(rows.map((r) => [r.name, r.code])).to.deep.equal([
      ['native_delete', 'declined'],
      ['native_delete', 'declined'],
    ]);
    el.remove();
  });

  it('[REG-1] [NAT-1] off unregisters from the browser\'s own list through the registration\'s signal', async () => {
    session.turnOff();
    await until(async () => (await own.getTools()).every((t) => !t.name.startsWith('native_')));
    expect(testing()!.listTools()).to.deep.equal([]);
  });
});
