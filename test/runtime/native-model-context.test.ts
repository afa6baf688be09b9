import { expect } from '@open-wc/testing';
import { createAiOps } from '../../src/runtime.js';
import { defineOperation } from '../../src/definition.js';
import type { ModelContextTool } from '../../src/model-context.js';
import { succeed } from '../../src/result.js';
import { MemoryStorage, startEnded } from './helpers.js';

describe('a browser that already has document.modelContext', function () {
  this.timeout(30000);
  it('[SW-6] the polyfill loads all the same', async () => {
    const native = { registerTool: async () => {} };
    Object.defineProperty(document, 'modelContext', { value: native, configurable: true, writable: true });
    const aiOps = createAiOps({ consent: 'click', storage: new MemoryStorage(), assetsBase: '/dist/site/ai-ops/vendor/', relayPort: 9, embedded: false, autoReconnect: false });
    const session = aiOps.provideOperations('native', []);
    await session.turnOn();
    await startEnded(session);
    expect(document.querySelectorAll('script[src$="mcp-b-global.js"]')).to.have.length(1);
    expect(session.getState().status).to.equal('on');
    session.turnOff();
  });
});

/**
 * A stand-in for the browser's own API as Chrome 160 changes it (PLATFORM-NOTES): `registerTool`
 * answers nothing (not a promise), `getTools()` gives `Tool` objects with `source` instead of
 * `window` and `null` for empty fields, `executeTool(tool, input, {signal})` answers JSON text.
 */
class Chrome160ModelContext {
  readonly registered = new Map<string, { tool: ModelContextTool; annotations: Record<string, boolean> | null }>();
  registerTool(tool: ModelContextTool, options: { signal?: AbortSignal } = {}): void {
    if (this.registered.has(tool.name)) throw new DOMException(`duplicate ${tool.name}`, 'InvalidStateError');
    this.registered.set(tool.name, { tool, annotations: tool.annotations ?? null });
    options.signal?.addEventListener('abort', () => this.registered.delete(tool.name), { once: true });
  }
  async getTools() {
    return [...this.registered.values()].map(({ tool, annotations }) => ({
      name: tool.name, title: null, description: tool.description, inputSchema: tool.inputSchema, outputSchema: null, annotations, source: { origin: location.origin },
    }));
  }
  async executeTool(tool: { name: string }, input: unknown, options: { signal?: AbortSignal } = {}) {
    return JSON.stringify(await this.registered.get(tool.name)!.tool.execute(input, options));
  }
}

describe('the browser\'s own API as it changes (Chrome 160)', function () {
  this.timeout(30000);
  it('[NAT-5] [NAT-1] registration, listing and calls work against Tool objects with source and null fields', async () => {
    const browser = new Chrome160ModelContext();
    const aiOps = createAiOps({ consent: 'click',
      storage: new MemoryStorage(), assetsBase: '/dist/site/ai-ops/vendor/', relayPort: 9, embedded: false, autoReconnect: false,
      browserModelContext: browser,
    });
    const session = aiOps.provideOperations('later', [
      defineOperation({
        name: 'later_read', description: '読む', inputSchema: { type: 'object', properties: {}, additionalProperties: false },
        annotations: { readOnlyHint: true, untrustedContentHint: true, consequentialHint: false },
        execute: async () => succeed({ text: 'hello' }),
      }),
      defineOperation({ name: 'later_ping', description: 'pong', inputSchema: { type: 'object', additionalProperties: false }, execute: async () => succeed({ pong: true }) }),
    ]);
    try {
      await session.turnOn();
      await startEnded(session);
      expect(session.getState()).to.include({ status: 'on', error: null });
      const tools = await browser.getTools();
      expect(tools.map((t) => t.name)).to.deep.equal(['later_read', 'later_ping']);
      expect(tools[0].annotations).to.deep.equal({ readOnlyHint: true, untrustedContentHint: true, consequentialHint: false });
      expect(tools[1].annotations).to.equal(null);
      // Listed and callable where the relay's embed looks (the surface ai-ops installs).
      const testing = (navigator as Navigator & { modelContextTesting?: { listTools(): { name: string }[]; executeTool(n: string, a: string): Promise<string | null> } }).modelContextTesting!;
      expect(testing.listTools().map((t) => t.name)).to.include.members(['later_read', 'later_ping']);
      expect(JSON.parse(JSON.parse((await testing.executeTool('later_read', '{}'))!).content[0].text)).to.deep.equal({ ok: true, text: 'hello' });
      const viaBrowser = JSON.parse(await browser.executeTool(tools[0], {}));
      expect(JSON.parse(viaBrowser.content[0].text)).to.deep.equal({ ok: true, text: 'hello' });
      session.turnOff();
      expect(await browser.getTools()).to.deep.equal([]);
    } finally {
      aiOps.dispose();
    }
  });
});
