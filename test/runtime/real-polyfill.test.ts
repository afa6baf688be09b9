// The runtime against the real @mcp-b/global polyfill and relay embed from the build output
// (run `npm run build` first; npm test does).
import { expect, waitUntil } from '@open-wc/testing';
import { createAiOps } from '../../src/runtime.js';
import { pairedStore } from './pairing-helpers.js';
import { defineOperation } from '../../src/definition.js';
import { succeed } from '../../src/result.js';
import { MemoryStorage, startEnded } from './helpers.js';

type Testing = EventTarget & {
  listTools(): { name: string; description: string; inputSchema?: string }[];
  executeTool(name: string, args: string): Promise<string | null>;
  registerToolsChangedCallback?: (cb: () => void) => void;
};
const testing = () => (navigator as Navigator & { modelContextTesting?: Testing }).modelContextTesting;
/** Waits until `condition` holds (checked every 10 ms), failing after `ms`. */
const until = (condition: () => boolean, ms = 5000) => waitUntil(condition, 'timed out waiting', { interval: 10, timeout: ms });

const ops = [
  defineOperation({
    name: 'real_echo', description: '入力の text を返す', inputSchema: { type: 'object', properties: { text: { type: 'string', maxBytes: 10 } }, required: ['text'], additionalProperties: false },
    annotations: { readOnlyHint: true, untrustedContentHint: true, consequentialHint: false },
    execute: async ({ text }) => succeed({ text }),
  }),
  defineOperation({ name: 'real_ping', description: 'pong を返す', inputSchema: { type: 'object', additionalProperties: false }, execute: async () => succeed({ pong: true }) }),
];

describe('with the real polyfill and relay scripts from the build', function () {
  this.timeout(30000);
  // The page's relay port points at a closed port so the widget's scan stays on this machine.
  const aiOps = createAiOps({ consent: 'click', storage: new MemoryStorage(), assetsBase: '/dist/site/ai-ops/vendor/', relayPort: 9, embedded: false, autoReconnect: false,
    // DOOR-6: a page the user paired with the relay on port 9 (until then no relay widget loads).
    consentStore: pairedStore(9) });
  const session = aiOps.provideOperations('real', ops);

  it('[SW-7] [VER-1] off: no script element, no widget, no WebMCP API, nothing registered', async () => {
    // A session starts when it is created if its stored switch is on (REG-2), and its start is what
    // loads the scripts: once no start is under way, one begun at creation would have loaded them.
    await startEnded(session);
    expect(document.querySelectorAll('script[src*="vendor"]')).to.have.length(0);
    expect(document.querySelector('[data-webmcp-relay]')).to.equal(null);
    expect(testing()).to.equal(undefined);
    expect(performance.getEntriesByType('resource').filter((e) => e.name.includes('/vendor/'))).to.have.length(0);
  });

  it('[SW-2] [VER-2] on: the polyfill and the relay widget load from the page origin and the tools are listed and callable', async () => {
    await session.turnOn();
    await until(() => session.getState().status === 'on');
    const scripts = [...document.querySelectorAll<HTMLScriptElement>('script[src*="vendor"]')].map((s) => new URL(s.src));
    expect(scripts.map((u) => u.pathname)).to.deep.equal(['/dist/site/ai-ops/vendor/mcp-b-global.js', '/dist/site/ai-ops/vendor/relay/embed.js']);
    expect(scripts.every((u) => u.origin === location.origin)).to.equal(true);
    const widget = document.querySelector<HTMLIFrameElement>('[data-webmcp-relay]');
    expect(new URL(widget!.src).pathname).to.equal('/dist/site/ai-ops/vendor/relay/widget.html');
    expect(new URL(widget!.src).searchParams.get('relayPort')).to.equal('9');
    expect(testing()!.listTools().map((t) => t.name)).to.deep.equal(['real_echo', 'real_ping']);
    const schema = JSON.parse(testing()!.listTools()[0].inputSchema!);
    expect(schema.properties.text).to.deep.equal({ type: 'string', maxLength: 10 });
  });

  it('[RELAY-3] executeTool answers the CallToolResult: the envelope as its single text item, isError when not ok', async () => {
    const ok = JSON.parse((await testing()!.executeTool('real_echo', JSON.stringify({ text: 'hi' })))!);
    expect(ok).to.deep.equal({ content: [{ type: 'text', text: '{"text":"hi","ok":true}' }] });
    const bad = JSON.parse((await testing()!.executeTool('real_echo', JSON.stringify({ text: 'hi', extra: 1 })))!);
    expect(bad.isError).to.equal(true);
    expect(JSON.parse(bad.content[0].text).error.code).to.equal('invalid_input');
    const large = JSON.parse((await testing()!.executeTool('real_echo', JSON.stringify({ text: 'ああああ' })))!);
    expect(JSON.parse(large.content[0].text).error.code).to.equal('too_large');
  });

  it('[AUDIT-1] a call through the polyfill\'s modelContextTesting (the relay embed\'s path) is logged as relay', async () => {
    const before = aiOps.log.getState().entries.length;
    await testing()!.executeTool('real_ping', '{}');
    expect(aiOps.log.getState().entries.slice(before).map((e) => [e.name, e.via])).to.deep.equal([['real_ping', 'relay']]);
  });

  it('[AUDIT-1] a page script\'s executeTool is polyfill through the polyfill (it does not say who called), webmcp through the browser\'s own; never relay', async () => {
    type Listed = { name: string };
    const mc = (document as Document & { modelContext: { getTools(): Promise<Listed[]>; executeTool(tool: Listed, input: unknown): Promise<unknown> } }).modelContext;
    const native = aiOps.capabilities.getState()!.native;
    const before = aiOps.log.getState().entries.length;
    const tool = (await mc.getTools()).find((t) => t.name === 'real_ping')!;
    // The browser's own API takes the input as an object, the polyfill's as JSON text.
    await mc.executeTool(tool, native ? {} : '{}');
    await testing()!.executeTool('real_ping', '{}');
    expect(aiOps.log.getState().entries.slice(before).map((e) => [e.name, e.via])).to.deep.equal([['real_ping', native ? 'webmcp' : 'polyfill'], ['real_ping', 'relay']]);
  });

  it('[DEF-4] annotations are passed to registerTool; the polyfill keeps the hints it knows', async () => {
    const mc = (document as Document & { modelContext: { getTools(): Promise<{ name: string; annotations?: Record<string, boolean> }[]> } }).modelContext;
    const tools = await mc.getTools();
    const echo = tools.find((t) => t.name === 'real_echo')!;
    expect(echo.annotations).to.include({ readOnlyHint: true, untrustedContentHint: true });
  });

  it('[RELAY-4] the shim relays tool changes registered after connect and unregistrations', async () => {
    expect(testing()!.registerToolsChangedCallback).to.be.a('function');
    let changes = 0;
    testing()!.registerToolsChangedCallback!(() => changes++);
    session.turnOff();
    await until(() => changes > 0);
    expect(testing()!.listTools()).to.have.length(0);
    const before = changes;
    await session.turnOn();
    await until(() => session.getState().status === 'on');
    await until(() => changes > before);
  });

  it('[REG-1] [VER-3] off unregisters through the AbortSignal and removes the widget; on again brings them back', async () => {
    session.turnOff();
    expect(testing()!.listTools()).to.have.length(0);
    expect(document.querySelector('[data-webmcp-relay]')).to.equal(null);
    await session.turnOn();
    await until(() => session.getState().status === 'on');
    expect(testing()!.listTools().map((t) => t.name)).to.deep.equal(['real_echo', 'real_ping']);
    expect(document.querySelectorAll('script[src*="mcp-b-global"]')).to.have.length(1); // loaded once
    session.turnOff();
  });
});
