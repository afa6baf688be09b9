// The relay connection and vendor-script loading under races and faults (SAFE-5, SAFE-6), with an
// injected clock and loaders that answer late or never. The real relay and embed.js are exercised in
// test/e2e/relay-safe.test.mjs.
import { expect } from '@open-wc/testing';
import type { ToolSession } from '../../src/tool-session.js';
import { createAiOps } from '../../src/runtime.js';
import { defineOperation } from '../../src/definition.js';
import { succeed } from '../../src/result.js';
import { permissionKey } from '../../src/permission-store.js';
import type { ScriptLoader } from '../../src/script-loader.js';
import { FakeClock, FakeModelContext, MemoryStorage, flush } from './helpers.js';
import { pairedStore } from './pairing-helpers.js';

const ops = [
  defineOperation({ name: 'race_ping', description: 'pong を返す', inputSchema: { type: 'object', additionalProperties: false }, execute: async () => succeed({ pong: true }) }),
];

/**
 * A loader that holds each script until the test lets it run. Letting embed.js "run" inserts the
 * widget frame, as the real embed.js does even after its script element was removed (measured in
 * Chromium 156: a removed classic script still runs and fires `load`).
 */
class GatedLoader implements ScriptLoader {
  readonly modelContext = new FakeModelContext();
  readonly waiting: { src: string; run: () => void; fail: () => void }[] = [];
  load(src: string, attributes: Record<string, string> = {}) {
    return new Promise<HTMLScriptElement>((resolve, reject) => {
      const script = document.createElement('script');
      for (const [k, v] of Object.entries(attributes)) script.setAttribute(k, v);
      this.waiting.push({
        src,
        run: () => {
          if (src.endsWith('mcp-b-global.js')) Object.defineProperty(document, 'modelContext', { value: this.modelContext, configurable: true, writable: true });
          if (src.endsWith('embed.js')) {
            const frame = document.createElement('iframe');
            frame.setAttribute('data-webmcp-relay', '1');
            frame.src = 'about:blank';
            document.body.append(frame);
          }
          resolve(script);
        },
        fail: () => reject(new Error(`could not load ${src}`)),
      });
    });
  }
  /** Runs the oldest script waiting whose URL ends with `suffix`. */
  async run(suffix: string) {
    for (let i = 0; i < 100 && !this.waiting.some((w) => w.src.endsWith(suffix)); i++) await flush();
    const index = this.waiting.findIndex((w) => w.src.endsWith(suffix));
    if (index < 0) throw new Error(`${suffix} was never requested`);
    const [entry] = this.waiting.splice(index, 1);
    entry.run();
    await flush();
  }
}

const widgets = () => document.querySelectorAll('[data-webmcp-relay]').length;

function setup(loader: ScriptLoader) {
  const clock = new FakeClock();
  const storage = new MemoryStorage();
  const aiOps = createAiOps({ consent: 'click', clock, storage, loader, embedded: false, browserModelContext: null, autoReconnect: false, assetsBase: '/vendor/', relayPort: 9, consentStore: pairedStore(9) });
  return { clock, storage, aiOps, session: aiOps.provideOperations('race', ops) };
}

/**
 * Clicks on without waiting for the whole start (its scripts are held by the test's loader): until
 * the consent gate stored the permission, which is all the click decides.
 */
async function turnedOn(session: ToolSession) {
  void session.turnOn();
  for (let i = 0; i < 100 && !session.permission.getState().enabled; i++) await flush();
}

describe('the relay connection under races and faults', () => {
  afterEach(() => document.querySelectorAll('[data-webmcp-relay], script[data-ai-ops-relay]').forEach((e) => e.remove()));

  it('[SAFE-5] [SW-7] off while embed.js is still loading: when it runs late, its widget is removed at once', async () => {
    const loader = new GatedLoader();
    const { session, aiOps } = setup(loader);
    await turnedOn(session);
    await loader.run('mcp-b-global.js');
    for (let i = 0; i < 100 && !loader.waiting.length; i++) await flush();
    expect(loader.waiting.map((w) => new URL(w.src, location.href).pathname)).to.deep.equal(['/vendor/relay/embed.js']);
    session.turnOff();
    await loader.run('embed.js');
    await flush();
    expect(widgets()).to.equal(0);
    expect(session.getState().status).to.equal('off');
    expect(aiOps.anyOn()).to.equal(false);
  });

  it('[SAFE-5] off then on again while embed.js is still loading: exactly one widget, and the switch ends on', async () => {
    const loader = new GatedLoader();
    const { session } = setup(loader);
    await turnedOn(session);
    await loader.run('mcp-b-global.js');
    for (let i = 0; i < 100 && !loader.waiting.length; i++) await flush();
    session.turnOff();
    await turnedOn(session);
    await loader.run('embed.js');
    // The late script may have run before the second start asked for the widget: then it asks again.
    for (let i = 0; i < 100 && session.getState().status !== 'on'; i++) {
      if (loader.waiting.length) await loader.run('embed.js');
      await flush();
    }
    expect(session.getState().status).to.equal('on');
    expect(widgets()).to.equal(1);
    session.turnOff();
    expect(widgets()).to.equal(0);
  });

  it('[SAFE-6] [SW-4] a polyfill that never loads: after 15 s the switch is back off with the notice, and the stored "on" is gone', async () => {
    const never: ScriptLoader = { load: () => new Promise(() => {}) };
    const { session, clock, storage } = setup(never);
    await turnedOn(session);
    await flush();
    expect(session.getState().status).to.equal('starting');
    clock.advance(14_999);
    await flush();
    expect(session.getState().status).to.equal('starting');
    clock.advance(1);
    await flush();
    expect(session.getState().status).to.equal('off');
    expect(session.getState().error).to.match(/mcp-b-global\.js/);
    expect(session.getState().error).to.match(/15 s/);
    expect(storage.getItem(permissionKey('race'))).to.equal(null);
  });

  it('[SAFE-6] [SW-4] an embed.js that never loads: after 15 s the switch is back off, nothing stays registered', async () => {
    const loader = new GatedLoader();
    const { session, clock } = setup(loader);
    await turnedOn(session);
    await loader.run('mcp-b-global.js');
    for (let i = 0; i < 100 && !loader.modelContext.tools.size; i++) await flush();
    expect(session.getState().status).to.equal('starting');
    clock.advance(15_000);
    await flush();
    expect(session.getState().status).to.equal('off');
    expect(session.getState().error).to.match(/embed\.js/);
    expect(loader.modelContext.tools.size).to.equal(0);
    // Had it run after all, its widget would not stay.
    await loader.run('embed.js');
    expect(widgets()).to.equal(0);
  });
});

describe('disposing the runtime', () => {
  afterEach(() => document.querySelectorAll('[data-webmcp-relay], script[data-ai-ops-relay]').forEach((e) => e.remove()));

  it('[SAFE-5] [REG-1] dispose: tools unregistered, widget gone, no timer left, no listener answering focus; the stored "on" stays', async () => {
    const loader = new GatedLoader();
    const clock = new FakeClock();
    const storage = new MemoryStorage();
    const aiOps = createAiOps({ consent: 'click', clock, storage, loader, embedded: false, browserModelContext: null, autoReconnect: true, assetsBase: '/vendor/', relayPort: 9, consentStore: pairedStore(9) });
    const session = aiOps.provideOperations('race', ops);
    await turnedOn(session);
    await loader.run('mcp-b-global.js');
    await loader.run('embed.js');
    for (let i = 0; i < 100 && session.getState().status !== 'on'; i++) await flush();
    expect(session.getState().status).to.equal('on');
    expect(loader.modelContext.tools.size).to.equal(1);
    expect(widgets()).to.equal(1);
    aiOps.dispose();
    expect(loader.modelContext.tools.size).to.equal(0);
    expect(widgets()).to.equal(0);
    expect(session.getState().status).to.equal('off');
    expect(storage.getItem(permissionKey('race'))).to.not.equal(null);
    expect(clock.pending).to.equal(0);
    // The focus listener that re-creates the widget (RELAY-5) is gone: nothing asks for embed.js again.
    window.dispatchEvent(new Event('focus'));
    document.dispatchEvent(new Event('visibilitychange'));
    clock.advance(10_000);
    await flush();
    expect(loader.waiting).to.deep.equal([]);
    expect(widgets()).to.equal(0);
  });
});
