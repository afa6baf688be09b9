// APP-1, APP-2: in a routed app a tool page (and its <ai-ops-switch>) mounts and unmounts while the
// document stays. The runtime's `attach(tool)`: exposed while a view of the tool is attached, or
// while none ever was; withdrawn a task after the last one goes (the injected clock's 0 ms).
import { expect, fixture, html } from '@open-wc/testing';
import type { AiOpsSwitch } from '../../elements/switch/ai-ops-switch.js';
import { defineAiOpsElements } from '../../elements/define.js';
import { createAiOps } from '../../src/runtime.js';
import { defineOperation } from '../../src/definition.js';
import { succeed } from '../../src/result.js';
import { PERMISSION_TTL_MS, permissionKey } from '../../src/permission-store.js';
import type { ModelContextTool } from '../../src/model-context.js';
import type { ToolSession } from '../../src/tool-session.js';
import { FakeClock, FakeLoader, FakeModelContext, MemoryStorage, flush } from './helpers.js';
import { pairedStore } from './pairing-helpers.js';

/** The fake polyfill's registry, counting every registration it ever took. */
class CountingModelContext extends FakeModelContext {
  registrations: string[] = [];
  override async registerTool(tool: ModelContextTool, options: { signal?: AbortSignal } = {}) {
    this.registrations.push(tool.name);
    return super.registerTool(tool, options);
  }
}

/**
 * Plays the polyfill's transport: a call still executing when its tool is unregistered rejects
 * "Tool unregistered", whatever the tool would have answered.
 */
class TransportModelContext extends CountingModelContext {
  private pending = new Map<string, Set<(error: Error) => void>>();
  override async registerTool(tool: ModelContextTool, options: { signal?: AbortSignal } = {}) {
    await super.registerTool(tool, options);
    options.signal?.addEventListener('abort', () => {
      for (const reject of this.pending.get(tool.name) ?? []) reject(new Error('Tool unregistered'));
    }, { once: true });
  }
  override async execute(name: string, args: unknown) {
    const tool = this.tools.get(name);
    if (!tool) throw new Error(`Tool not found: ${name}`);
    const calls = this.pending.get(name) ?? new Set();
    this.pending.set(name, calls);
    let reject!: (error: Error) => void;
    const unregistered = new Promise<never>((_, r) => (reject = r));
    calls.add(reject);
    try {
      return await Promise.race([tool.execute(args), unregistered]);
    } finally {
      calls.delete(reject);
    }
  }
}

defineAiOpsElements();

const empty = { type: 'object', properties: {}, additionalProperties: false } as const;

function setup(mc = new CountingModelContext()) {
  const clock = new FakeClock();
  const storage = new MemoryStorage();
  const loader = new FakeLoader(mc);
  const aiOps = createAiOps({ consent: 'click', clock, storage, loader, embedded: false, browserModelContext: null, autoReconnect: false, assetsBase: '/vendor/', relayPort: 9, consentStore: pairedStore(9) });
  let release: (() => void) | null = null;
  const slow = defineOperation({
    name: 'page_slow', description: '遅い', inputSchema: empty,
    execute: () => new Promise((resolve) => { release = () => resolve(succeed({ done: true })); }),
  });
  let prepared: (() => void) | null = null;
  const operations = [
    defineOperation({ name: 'page_read', description: '読む', inputSchema: empty, execute: async () => succeed({ text: 'hello' }) }),
    defineOperation({
      name: 'page_delete', description: '消す', inputSchema: empty,
      confirmation: () => ({ title: '消す', summary: 's', actionLabel: '消す' }),
      execute: async () => succeed({ deleted: true }),
    }),
    defineOperation({
      name: 'page_wait', description: '準備に時間がかかる', inputSchema: empty,
      prepare: () => new Promise<void>((resolve) => { prepared = resolve; }),
      confirmation: () => ({ title: '待つ', summary: 's', actionLabel: 'する' }),
      execute: async () => succeed({ waited: true }),
    }),
    slow,
  ];
  const storeOn = (tool = 'page') =>
    storage.setItem(permissionKey(tool), JSON.stringify({ v: 1, enabledUntil: clock.now() + PERMISSION_TTL_MS, skipConfirmUntil: null }));
  return {
    clock, storage, mc, loader, aiOps, operations, storeOn,
    release: () => release!(),
    finishPrepare: () => prepared!(),
  };
}

/** Lets the session's start (loading, registration, relay) run to its end. */
async function settle(session: ToolSession) {
  for (let i = 0; i < 200 && session.getState().status === 'starting'; i++) await flush();
  await flush();
}
const text = async (result: Promise<{ content: { text: string }[] }>) => JSON.parse((await result).content[0].text);
const names = (mc: FakeModelContext) => [...mc.tools.keys()].sort();

describe('a tool page that comes and goes (the runtime\'s attach)', () => {
  afterEach(() => document.querySelectorAll('[data-webmcp-relay]').forEach((e) => e.remove()));

  it('[APP-1] a tool none of whose views ever attached is exposed as before: a stored "on" registers at once', async () => {
    const { aiOps, mc, operations, storeOn } = setup();
    storeOn();
    const session = aiOps.provideOperations('page', operations);
    await settle(session);
    expect(session.getState().status).to.equal('on');
    expect(names(mc)).to.deep.equal(['page_delete', 'page_read', 'page_slow', 'page_wait']);
  });

  it('[APP-1] the last view leaving withdraws a task later, as switching off would, and keeps the stored switch and the log', async () => {
    const { aiOps, mc, clock, storage, operations, storeOn, release } = setup();
    storeOn();
    const detach = aiOps.attach('page');
    const session = aiOps.provideOperations('page', operations);
    await settle(session);
    await text(mc.execute('page_read', {}));
    const running = text(mc.execute('page_slow', {}));
    const waiting = text(mc.execute('page_delete', {}));
    await flush();
    expect(aiOps.confirmations.getState().current?.name).to.equal('page_delete');
    const stored = storage.getItem(permissionKey('page'));

    detach();
    // Not yet: within the same task the page may mount again.
    expect(names(mc)).to.have.length(4);
    expect(aiOps.confirmations.getState().current?.name).to.equal('page_delete');
    clock.advance(0);
    expect(session.getState().status).to.equal('off');
    expect(await waiting).to.deep.include({ ok: false });
    expect((await waiting).error.code).to.equal('declined');
    expect(aiOps.confirmations.getState()).to.deep.equal({ current: null, queued: [] });
    // A call already executing runs to its end and answers through the registration, which stays
    // until then; a new call meanwhile is refused (SAFE-1).
    expect(names(mc)).to.have.length(4);
    expect((await text(mc.execute('page_read', {}))).error.code).to.equal('declined');
    release();
    expect(await running).to.deep.equal({ ok: true, done: true });
    await flush();
    clock.advance(0);
    await flush();
    expect(names(mc)).to.deep.equal([]);
    // The stored switch is as it was; the log keeps every row (LOG-7).
    expect(storage.getItem(permissionKey('page'))).to.equal(stored);
    expect(session.permission.getState().enabled).to.equal(true);
    expect(aiOps.log.getState().entries.map((e) => [e.name, e.status])).to.deep.equal([
      ['page_read', 'success'], ['page_delete', 'declined'], ['page_read', 'declined'], ['page_slow', 'success'],
    ]);
  });

  for (const how of ['the page is left', 'the switch is turned off'] as const) {
    it(`[APP-1] a dialog waiting when ${how} delivers its declined envelope to the caller before the tools are unregistered`, async () => {
      const { aiOps, mc, clock, operations, storeOn } = setup(new TransportModelContext());
      storeOn();
      const detach = aiOps.attach('page');
      const session = aiOps.provideOperations('page', operations);
      await settle(session);
      const waiting = text(mc.execute('page_delete', {}));
      await flush();
      expect(aiOps.confirmations.getState().current?.name).to.equal('page_delete');

      if (how === 'the page is left') {
        detach();
        clock.advance(0);
      } else {
        session.turnOff();
      }
      expect(session.getState().status).to.equal('off');
      // The caller reads the envelope, not the transport's "Tool unregistered".
      const answer = await waiting;
      expect(answer).to.deep.include({ ok: false });
      expect(answer.error.code).to.equal('declined');
      // Then, a task later, the tools go.
      clock.advance(0);
      await flush();
      expect(names(mc)).to.deep.equal([]);
      expect(aiOps.log.getState().entries.map((e) => [e.name, e.status])).to.deep.equal([['page_delete', 'declined']]);
    });
  }

  it('[APP-1] a call that has not reached its dialog when the page goes answers declined and shows none', async () => {
    const { aiOps, mc, clock, operations, storeOn, finishPrepare } = setup();
    storeOn();
    const detach = aiOps.attach('page');
    const session = aiOps.provideOperations('page', operations);
    await settle(session);
    const call = text(mc.execute('page_wait', {}));
    await flush();
    detach();
    clock.advance(0);
    finishPrepare();
    expect((await call).error.code).to.equal('declined');
    expect(aiOps.confirmations.getState().current).to.equal(null);
    // A direct call while the page is away answers declined too, as with the switch off.
    expect(JSON.parse(await session.call('page_read', {})).error.code).to.equal('declined');
  });

  it('[APP-1] coming back with the stored switch still on registers again with no click, the log rows still there', async () => {
    const { aiOps, mc, clock, operations, storeOn } = setup();
    storeOn();
    const detach = aiOps.attach('page');
    const session = aiOps.provideOperations('page', operations);
    await settle(session);
    await text(mc.execute('page_read', {}));
    detach();
    clock.advance(0);
    expect(names(mc)).to.deep.equal([]);
    const again = aiOps.attach('page');
    await settle(session);
    expect(session.getState().status).to.equal('on');
    expect(names(mc)).to.deep.equal(['page_delete', 'page_read', 'page_slow', 'page_wait']);
    expect(aiOps.log.getState().entries.map((e) => e.name)).to.deep.equal(['page_read']);
    again();
  });

  it('[APP-1] coming back after the stored switch expired, or was turned off in the meantime, registers nothing', async () => {
    const { aiOps, mc, clock, operations, storeOn } = setup();
    storeOn();
    const detach = aiOps.attach('page');
    const session = aiOps.provideOperations('page', operations);
    await settle(session);
    detach();
    clock.advance(0);
    clock.advance(PERMISSION_TTL_MS);
    const again = aiOps.attach('page');
    await settle(session);
    expect(session.getState().status).to.equal('off');
    expect(names(mc)).to.deep.equal([]);
    again();
  });

  it('[APP-2] StrictMode\'s unmount–mount within a task changes nothing: no withdrawal, no second registration', async () => {
    const { aiOps, mc, clock, operations, storeOn } = setup();
    storeOn();
    const first = aiOps.attach('page');
    const session = aiOps.provideOperations('page', operations);
    await settle(session);
    expect(mc.registrations).to.have.length(4);
    const timers = clock.pending; // the stored switch's expiry
    first();
    const second = aiOps.attach('page');
    clock.advance(0);
    await settle(session);
    expect(session.getState().status).to.equal('on');
    expect(names(mc)).to.have.length(4);
    expect(mc.registrations).to.have.length(4);
    expect(clock.pending).to.equal(timers);
    second();
  });

  it('[APP-2] 20 rounds of leaving and coming back: each operation registered once per visit, never twice at a time; nothing left behind', async () => {
    const { aiOps, mc, clock, loader, operations, storeOn } = setup();
    storeOn();
    const session = aiOps.provideOperations('page', operations);
    let detach = aiOps.attach('page');
    await settle(session);
    const timers = clock.pending; // the stored switch's expiry
    for (let round = 0; round < 20; round++) {
      detach();
      clock.advance(0);
      expect(names(mc), `away, round ${round}`).to.deep.equal([]);
      detach = aiOps.attach('page');
      await settle(session);
      expect(names(mc), `back, round ${round}`).to.deep.equal(['page_delete', 'page_read', 'page_slow', 'page_wait']);
    }
    expect(mc.registrations).to.have.length(4 * 21);
    // The polyfill loaded once; the relay widget is added on each visit and removed on each leave.
    expect(loader.loaded.filter((src) => src.endsWith('mcp-b-global.js'))).to.have.length(1);
    detach();
    clock.advance(0);
    expect(clock.pending).to.equal(timers);
    expect(document.querySelectorAll('script[data-ai-ops-relay]')).to.have.length(0);
  });

  it('[APP-1] with two views of one tool, the tool stays until the last goes; a release called twice counts once', async () => {
    const { aiOps, mc, clock, operations, storeOn } = setup();
    storeOn();
    const header = aiOps.attach('page');
    const footer = aiOps.attach('page');
    const session = aiOps.provideOperations('page', operations);
    await settle(session);
    header();
    header();
    clock.advance(0);
    expect(names(mc)).to.have.length(4);
    footer();
    clock.advance(0);
    expect(names(mc)).to.deep.equal([]);
  });

  it('[APP-1] a view that attached and left before the operations were provided: they wait for the page to show', async () => {
    const { aiOps, mc, clock, operations, storeOn } = setup();
    storeOn();
    aiOps.attach('page')();
    clock.advance(0);
    const session = aiOps.provideOperations('page', operations);
    await settle(session);
    expect(session.getState().status).to.equal('off');
    expect(names(mc)).to.deep.equal([]);
    const detach = aiOps.attach('page');
    await settle(session);
    expect(names(mc)).to.have.length(4);
    detach();
  });

  it('[APP-1] only the shown page of two tools is exposed when a route changes from one to the other', async () => {
    const { aiOps, mc, clock, operations, storeOn } = setup();
    storeOn('page');
    storeOn('other');
    const leaveFirst = aiOps.attach('page');
    const first = aiOps.provideOperations('page', operations);
    await settle(first);
    // The route changes: the first page unmounts, the other mounts, in one task.
    leaveFirst();
    const other = aiOps.provideOperations('other', [
      defineOperation({ name: 'other_read', description: '読む', inputSchema: empty, execute: async () => succeed({}) }),
    ]);
    const leaveOther = aiOps.attach('other');
    clock.advance(0);
    await settle(other);
    expect(names(mc)).to.deep.equal(['other_read']);
    expect(first.getState().status).to.equal('off');
    expect(other.getState().status).to.equal('on');
    leaveOther();
  });

  describe('from <ai-ops-switch>', () => {
    it('[APP-1] [APP-2] connecting attaches, disconnecting detaches: removed withdraws a task later, put back registers again', async () => {
      const { aiOps, mc, clock, operations, storeOn } = setup();
      storeOn();
      const session = aiOps.provideOperations('page', operations);
      const el = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="page" .aiOps=${aiOps}></ai-ops-switch>`);
      await settle(session);
      expect(names(mc)).to.have.length(4);
      const parent = el.parentElement!;
      el.remove();
      clock.advance(0);
      expect(names(mc)).to.deep.equal([]);
      expect(session.permission.getState().enabled).to.equal(true);
      parent.append(el);
      await el.updateComplete;
      await settle(session);
      expect(names(mc)).to.have.length(4);
      // Moved within the document (removed and added in one task; it attaches again in its
      // update, a microtask, before the withdrawal's task): nothing changes.
      document.body.append(el);
      await el.updateComplete;
      clock.advance(0);
      await settle(session);
      expect(mc.registrations).to.have.length(8);
      el.remove();
      clock.advance(0);
    });

    it('[APP-1] a switch whose tool is set after it connected (as the React wrapper does) attaches then', async () => {
      const { aiOps, mc, clock, operations, storeOn } = setup();
      storeOn();
      const session = aiOps.provideOperations('page', operations);
      await settle(session);
      const el = document.createElement('ai-ops-switch');
      el.aiOps = aiOps;
      document.body.append(el);
      await el.updateComplete;
      el.tool = 'page';
      await el.updateComplete;
      el.remove();
      clock.advance(0);
      expect(names(mc)).to.deep.equal([]);
    });
  });
});
