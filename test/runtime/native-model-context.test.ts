import { expect } from '@open-wc/testing';
import { createAiOps } from '../../src/runtime.js';
import { MemoryStorage } from './helpers.js';

describe('a browser that already has document.modelContext', function () {
  this.timeout(30000);
  it('[SW-6] the polyfill loads all the same', async () => {
    const native = { registerTool: async () => {} };
    Object.defineProperty(document, 'modelContext', { value: native, configurable: true, writable: true });
    const aiOps = createAiOps({ storage: new MemoryStorage(), assetsBase: '/dist/site/ai-ops/vendor/', relayPort: 9, embedded: false, autoReconnect: false });
    const session = aiOps.provideOperations('native', []);
    session.turnOn();
    const end = Date.now() + 10000;
    while (session.getState().status !== 'on' && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    expect(document.querySelectorAll('script[src$="mcp-b-global.js"]')).to.have.length(1);
    expect(session.getState().status).to.equal('on');
    session.turnOff();
  });
});
