import { expect, oneEvent } from '@open-wc/testing';
import { createAiOps, getAiOps, type AiOpsOptions } from '../../src/runtime.js';
import { defineOperation } from '../../src/definition.js';
import { fail, succeed } from '../../src/result.js';
import { permissionKey } from '../../src/permission-store.js';
import { FakeClock, FakeLoader, MemoryStorage, flush, decide, startEnded as started } from './helpers.js';
import { pairedStore } from './pairing-helpers.js';

const empty = { type: 'object', properties: {}, additionalProperties: false } as const;

function definitions(log: string[] = []) {
  return [
    defineOperation({
      name: 'demo_read',
      description: '読む',
      inputSchema: empty,
      annotations: { readOnlyHint: true, untrustedContentHint: true },
      execute: async () => { log.push('read'); return succeed({ text: 'hello' }); },
    }),
    defineOperation({
      name: 'demo_delete',
      description: '消す',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
      annotations: { consequentialHint: true },
      prepare: async ({ path }) => { log.push('prepare'); return path === 'missing' ? fail('not_found', 'no such file') : { path }; },
      confirmation: (_input, { path }) => { log.push('confirmation'); return { title: `ファイル「${path}」を削除する`, summary: 's', actionLabel: '削除する' }; },
      execute: async (_input, { path }) => { log.push('execute'); return succeed({ path }); },
    }),
  ];
}

function setup(extra: Partial<AiOpsOptions> = {}) {
  const clock = new FakeClock();
  const storage = new MemoryStorage();
  const loader = new FakeLoader();
  const aiOps = createAiOps({ consent: 'click', clock, storage, loader, embedded: false, browserModelContext: null, autoReconnect: false, assetsBase: '/vendor/', consentStore: pairedStore(9333), ...extra });
  return { clock, storage, loader, aiOps, mc: loader.modelContext };
}

const parse = (text: string) => JSON.parse(text);

describe('runtime and tool sessions', () => {
  afterEach(() => document.querySelectorAll('[data-webmcp-relay]').forEach((e) => e.remove()));

  it('[SW-2] [SW-7] on loads the polyfill then the relay embed and registers every definition; nothing before', async () => {
    const { aiOps, loader, mc } = setup();
    const session = aiOps.provideOperations('demo', definitions());
    await flush();
    expect(loader.loaded).to.deep.equal([]);
    expect(mc.tools.size).to.equal(0);
    await session.turnOn();
    await started(session);
    expect(loader.loaded.map((src) => new URL(src).pathname)).to.deep.equal(['/vendor/mcp-b-global.js', '/vendor/relay/embed.js']);
    expect([...mc.tools.keys()]).to.deep.equal(['demo_read', 'demo_delete']);
    expect(session.getState().status).to.equal('on');
    expect(mc.tools.get('demo_read')!.annotations).to.deep.equal({ readOnlyHint: true, untrustedContentHint: true });
  });

  it('[REG-1] [SW-3] off aborts the registrations and declines waiting confirmations; running calls finish and are logged', async () => {
    const { aiOps, mc, clock } = setup();
    let release!: () => void;
    const slow = defineOperation({
      name: 'demo_slow', description: '遅い', inputSchema: empty,
      execute: () => new Promise((resolve) => { release = () => resolve(succeed({ done: true })); }),
    });
    const session = aiOps.provideOperations('demo', [...definitions(), slow]);
    await session.turnOn();
    await started(session);
    const running = mc.execute('demo_slow', {});
    const waiting = mc.execute('demo_delete', { path: 'a.txt' });
    await flush();
    expect(aiOps.confirmations.getState().current?.name).to.equal('demo_delete');
    session.turnOff();
    expect(parse((await waiting).content[0].text).error.code).to.equal('declined');
    expect(aiOps.confirmations.getState().current).to.equal(null);
    // APP-1: the registrations stay until the running call answered through them, then go a task later.
    expect(mc.tools.size).to.equal(3);
    release();
    expect(parse((await running).content[0].text)).to.deep.equal({ ok: true, done: true });
    await flush();
    clock.advance(0);
    await flush();
    expect(mc.tools.size).to.equal(0);
    expect(aiOps.log.getState().entries.map((e) => [e.name, e.status])).to.deep.equal([['demo_delete', 'declined'], ['demo_slow', 'success']]);
  });

  it('[SW-7] the relay widget is removed when the last switch turns off', async () => {
    const { aiOps, storage } = setup();
    const a = aiOps.provideOperations('demo', definitions());
    await a.turnOn();
    await started(a);
    const frame = document.createElement('iframe');
    frame.dataset.webmcpRelay = '1';
    document.body.append(frame);
    a.turnOff();
    expect(document.querySelector('[data-webmcp-relay]')).to.equal(null);
    expect(storage.length).to.equal(0);
  });

  it('[REG-2] a stored "on" registers as soon as the definitions arrive', async () => {
    const { aiOps, storage, clock, mc } = setup();
    storage.setItem(permissionKey('demo'), JSON.stringify({ v: 1, enabledUntil: clock.now() + 1000, skipConfirmUntil: null }));
    const session = aiOps.provideOperations('demo', definitions());
    await started(session);
    expect(mc.tools.size).to.equal(2);
  });

  it('[REG-4] [DEF-1] order per call: switch, schema, prepare, confirmation, prepare again after approval, execute', async () => {
    const { aiOps, mc } = setup();
    const calls: string[] = [];
    const session = aiOps.provideOperations('demo', definitions(calls));
    await session.turnOn();
    await started(session);
    const bad = await mc.execute('demo_delete', { path: 1 });
    expect(parse(bad.content[0].text).error.code).to.equal('invalid_input');
    expect(calls).to.deep.equal([]);
    const missing = await mc.execute('demo_delete', { path: 'missing' });
    expect(parse(missing.content[0].text).error.code).to.equal('not_found');
    expect(calls).to.deep.equal(['prepare']);
    const call = mc.execute('demo_delete', { path: 'a' });
    await flush();
    expect(calls).to.deep.equal(['prepare', 'prepare', 'confirmation']);
    decide(aiOps).approve(aiOps.confirmations.getState().current!.id);
    expect(parse((await call).content[0].text)).to.deep.equal({ ok: true, path: 'a' });
    expect(calls).to.deep.equal(['prepare', 'prepare', 'confirmation', 'prepare', 'execute']);
  });

  it('[DEF-5] prepare runs before any confirmation, and only definitions with confirmation show a dialog', async () => {
    const { aiOps, mc } = setup();
    const session = aiOps.provideOperations('demo', definitions());
    await session.turnOn();
    await started(session);
    let shown = 0;
    aiOps.confirmations.subscribe(() => { if (aiOps.confirmations.getState().current) shown++; });
    await mc.execute('demo_read', {});
    await mc.execute('demo_delete', { path: 'missing' });
    expect(shown).to.equal(0);
  });

  it('[REG-3] a call after enabledUntil turns the switch off and answers declined', async () => {
    const { aiOps, clock, mc } = setup();
    const session = aiOps.provideOperations('demo', definitions());
    await session.turnOn();
    await started(session);
    const { execute } = mc.tools.get('demo_read')!;
    clock.time += 7 * 24 * 3600 * 1000; // the expiry timer has not fired (background tab)
    const answer = await execute({});
    expect(parse(answer.content[0].text).error.code).to.equal('declined');
    expect(session.getState().status).to.equal('off');
    // Unregistered a task after the call that found the switch expired answered (APP-1).
    await flush();
    clock.advance(0);
    await flush();
    expect(mc.tools.size).to.equal(0);
  });

  it('[REG-5] [VER-5] one log entry per settled call, failures and declined included', async () => {
    const { aiOps, mc } = setup();
    const session = aiOps.provideOperations('demo', definitions());
    await session.turnOn();
    await started(session);
    await mc.execute('demo_read', {});
    await mc.execute('demo_read', { nope: 1 });
    const pending = mc.execute('demo_delete', { path: 'x' });
    await flush();
    expect(aiOps.log.getState().entries).to.have.length(2); // the waiting call is not shown
    decide(aiOps).decline(aiOps.confirmations.getState().current!.id);
    await pending;
    const rows = aiOps.log.getState().entries.map((e) => ({ name: e.name, args: e.argsSummary.text, status: e.status, code: e.code }));
    expect(rows).to.deep.equal([
      { name: 'demo_read', args: '{}', status: 'success', code: null },
      { name: 'demo_read', args: '{"nope":1}', status: 'failure', code: 'invalid_input' },
      { name: 'demo_delete', args: '{"path":"x"}', status: 'declined', code: 'declined' },
    ]);
  });

  it('[CONF-5] checked + action: later calls skip the dialog; やめる never saves it', async () => {
    const { aiOps, mc, storage } = setup();
    const session = aiOps.provideOperations('demo', definitions());
    await session.turnOn();
    await started(session);
    const first = mc.execute('demo_delete', { path: 'a' });
    await flush();
    decide(aiOps).decline(aiOps.confirmations.getState().current!.id);
    await first;
    expect(JSON.parse(storage.getItem(permissionKey('demo'))!).skipConfirmUntil).to.equal(null);
    const second = mc.execute('demo_delete', { path: 'b' });
    await flush();
    decide(aiOps).approve(aiOps.confirmations.getState().current!.id, { skipFuture: true });
    await second;
    expect(JSON.parse(storage.getItem(permissionKey('demo'))!).skipConfirmUntil).to.be.a('number');
    const third = await mc.execute('demo_delete', { path: 'c' });
    expect(parse(third.content[0].text)).to.deep.equal({ ok: true, path: 'c' });
  });

  it('[CONF-7] operations without confirmation never wait behind a dialog', async () => {
    const { aiOps, mc } = setup();
    const session = aiOps.provideOperations('demo', definitions());
    await session.turnOn();
    await started(session);
    const waiting = mc.execute('demo_delete', { path: 'a' });
    await flush();
    const read = await mc.execute('demo_read', {});
    expect(parse(read.content[0].text).ok).to.equal(true);
    decide(aiOps).decline(aiOps.confirmations.getState().current!.id);
    await waiting;
  });

  it('[RELAY-3] execute answers a CallToolResult with the JSON text and isError when ok is false', async () => {
    const { aiOps, mc } = setup();
    const session = aiOps.provideOperations('demo', definitions());
    await session.turnOn();
    await started(session);
    const ok = await mc.execute('demo_read', {});
    expect(ok).to.deep.equal({ content: [{ type: 'text', text: '{"text":"hello","ok":true}' }] });
    const bad = await mc.execute('demo_read', { extra: true });
    expect(bad.isError).to.equal(true);
    expect(bad.content).to.have.length(1);
    expect(parse(bad.content[0].text).error.code).to.equal('invalid_input');
  });

  it('[SW-4] a script that fails to load turns the switch back off with the reason', async () => {
    const { aiOps, loader, storage } = setup();
    loader.fail = /embed\.js/;
    const session = aiOps.provideOperations('demo', definitions());
    await session.turnOn();
    await started(session);
    expect(session.getState()).to.include({ status: 'off' });
    expect(session.getState().error).to.contain('embed.js');
    expect(storage.getItem(permissionKey('demo'))).to.equal(null);
    expect(loader.modelContext.tools.size).to.equal(0);
    loader.fail = null;
    await session.turnOn();
    expect(session.getState().error).to.equal(null);
    await started(session);
    expect(session.getState().status).to.equal('on');
  });

  it('[SW-4] a refused registration, also for a stored "on" at page load, turns the switch off', async () => {
    const { aiOps, loader, storage, clock } = setup();
    storage.setItem(permissionKey('demo'), JSON.stringify({ v: 1, enabledUntil: clock.now() + 1000, skipConfirmUntil: null }));
    loader.modelContext.refuse = 'registration refused by policy';
    const session = aiOps.provideOperations('demo', definitions());
    await started(session);
    expect(session.getState().status).to.equal('off');
    expect(session.getState().error).to.contain('refused by policy');
    expect(storage.getItem(permissionKey('demo'))).to.equal(null);
  });

  it('[SW-5] an embedded page reads no stored state, loads nothing and registers nothing', async () => {
    const { storage, clock, loader } = setup();
    storage.setItem(permissionKey('demo'), JSON.stringify({ v: 1, enabledUntil: clock.now() + 1000, skipConfirmUntil: null }));
    const reads: string[] = [];
    const spy = Object.assign(Object.create(storage), { getItem: (k: string) => { reads.push(k); return storage.getItem(k); } });
    const aiOps = createAiOps({ consent: 'click', clock, storage: spy, loader, embedded: true, autoReconnect: false });
    const session = aiOps.provideOperations('demo', definitions());
    await session.turnOn();
    await started(session);
    expect(aiOps.embedded).to.equal(true);
    expect(session.getState()).to.include({ embedded: true, status: 'off' });
    expect(reads).to.deep.equal([]);
    expect(loader.loaded).to.deep.equal([]);
  });

  it('[SW-5] the embedding check is window.self !== window.top', async () => {
    const { isEmbedded } = await import('../../src/embedding.js');
    expect(isEmbedded(window)).to.equal(window.self !== window.top);
    const frame = document.createElement('iframe');
    document.body.append(frame);
    expect(isEmbedded(frame.contentWindow!)).to.equal(true);
    frame.remove();
  });

  it('[DEF-2] [SHAPE-5] provideOperations rejects names outside [a-z0-9_], without the tool prefix, or repeated', () => {
    const { aiOps } = setup();
    const op = (name: string) => defineOperation({ name, description: 'x', inputSchema: empty, execute: async () => succeed() });
    expect(() => aiOps.provideOperations('Bad-Tool', [])).to.throw(/tool name/);
    expect(() => aiOps.provideOperations('demo', [op('other_read')])).to.throw(/must start with "demo_"/);
    expect(() => aiOps.provideOperations('demo', [op('demo_Read')])).to.throw(/\[a-z0-9_\]/);
    expect(() => aiOps.provideOperations('demo', [op('demo_a'), op('demo_a')])).to.throw(/twice/);
    aiOps.provideOperations('demo', [op('demo_a')]);
    expect(() => aiOps.provideOperations('demo', [op('demo_b')])).to.throw(/provided already/);
    expect(aiOps.getSession('demo')?.getState().operations).to.deep.equal(['demo_a']);
  });

  it('[DEF-1] a failure may carry extra top-level fields, passed through', async () => {
    const { aiOps } = setup();
    const session = aiOps.provideOperations('demo', [defineOperation({
      name: 'demo_run', description: '実行', inputSchema: empty,
      execute: async () => fail('failed', 'relation "x" does not exist', { sqlState: '42P01', position: 15 }),
    })]);
    await session.turnOn();
    await started(session);
    expect(parse(await session.call('demo_run', {}))).to.deep.equal({ ok: false, error: { code: 'failed', message: 'relation "x" does not exist' }, sqlState: '42P01', position: 15 });
    expect(parse(await session.call('demo_nothing', {})).error.code).to.equal('not_found');
  });

  it('[SHAPE-6] stores expose subscribe/getSnapshot for useSyncExternalStore and notify only on change', async () => {
    const { aiOps } = setup();
    const session = aiOps.provideOperations('demo', definitions());
    let calls = 0;
    const unsubscribe = session.subscribe(() => calls++);
    const snapshot = session.getSnapshot();
    expect(session.getSnapshot()).to.equal(snapshot);
    session.turnOff(); // already off: no change
    expect(calls).to.equal(0);
    await session.turnOn();
    await started(session);
    expect(calls).to.be.greaterThan(0);
    expect(session.getSnapshot()).not.to.equal(snapshot);
    unsubscribe();
    for (const store of [aiOps.log, aiOps.confirmations, aiOps.sessions, session.permission]) {
      expect(store.getSnapshot).to.be.a('function');
      expect(store.subscribe).to.be.a('function');
    }
  });

  it('[RELAY-5] the widget is re-created when the page becomes visible or focused and no relay answered yet', async () => {
    const { loader } = setup();
    const aiOps = createAiOps({ consent: 'click', clock: new FakeClock(), storage: new MemoryStorage(), loader, embedded: false, browserModelContext: null, assetsBase: '/vendor/', consentStore: pairedStore(9333) });
    const session = aiOps.provideOperations('demo', definitions());
    await session.turnOn();
    await started(session);
    const frame = Object.assign(document.createElement('iframe'), {});
    frame.dataset.webmcpRelay = '1';
    document.body.append(frame);
    const embeds = () => loader.loaded.filter((s) => s.endsWith('embed.js')).length;
    expect(embeds()).to.equal(1);
    window.dispatchEvent(new Event('focus'));
    await flush();
    expect(embeds()).to.equal(2);
    expect(frame.isConnected).to.equal(false);
    // once the widget asked for the tools, it reached a relay: no more re-creation
    // The relay connection's listener was added with it, before this one: once this one heard it, so had it.
    const heard = oneEvent(window, 'message');
    window.postMessage({ type: 'webmcp.tools.list.request', requestId: 'r' }, location.origin);
    await heard;
    expect(aiOps.capabilities.getState()!.relay.isConnected()).to.equal(true);
    window.dispatchEvent(new Event('focus'));
    await flush();
    expect(embeds()).to.equal(2);
    aiOps.getSession('demo')!.turnOff();
  });
});

/** A promise and the function that settles it, so a test decides when a step ends. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

/**
 * A confirmed delete whose prepare waits for the test on every run (as node_delete_file's round
 * trip to the runner does), recording the steps and the signal execute received.
 */
function slowDelete() {
  const steps: string[] = [];
  const prepares: ReturnType<typeof deferred<void>>[] = [];
  let executeSignal: AbortSignal | null = null;
  let finishExecute: (() => void) | null = null;
  const definition = defineOperation({
    name: 'demo_delete',
    description: '消す',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
    annotations: { consequentialHint: true },
    prepare: async ({ path }) => {
      steps.push('prepare');
      const step = deferred<void>();
      prepares.push(step);
      await step.promise;
      return { path };
    },
    confirmation: (_input, { path }) => ({ title: `ファイル「${path}」を削除する`, summary: 's', actionLabel: '削除する' }),
    execute: async (_input, { path }, call) => {
      steps.push('execute');
      executeSignal = call.signal;
      await new Promise<void>((resolve) => { finishExecute = resolve; });
      return succeed({ path });
    },
  });
  /** Lets the n-th prepare (0-based) finish, once it has started. */
  const finishPrepare = async (n: number) => {
    for (let i = 0; i < 100 && !prepares[n]; i++) await flush();
    prepares[n].resolve();
    await flush();
  };
  return {
    definition, steps, finishPrepare,
    get executeSignal() { return executeSignal; },
    finishExecute: async () => {
      for (let i = 0; i < 100 && !finishExecute; i++) await flush();
      finishExecute!();
    },
  };
}

describe('consent at the moment of execution (SAFE-1, SAFE-2) and the call signal (NAT-2)', () => {
  async function on(op: ReturnType<typeof slowDelete>) {
    const env = setup();
    const session = env.aiOps.provideOperations('demo', [op.definition]);
    await session.turnOn();
    await started(session);
    let shown = 0;
    env.aiOps.confirmations.subscribe(() => { if (env.aiOps.confirmations.getState().current) shown++; });
    return { ...env, session, shown: () => shown };
  }
  const code = (json: string) => parse(json).error?.code ?? 'ok';

  it('[SAFE-1] off while the call path loads and validates: declined, nothing runs', async () => {
    const op = slowDelete();
    const { session } = await on(op);
    const call = session.call('demo_delete', { path: 'a' });
    session.turnOff();
    expect(code(await call)).to.equal('declined');
    expect(op.steps).to.deep.equal([]);
  });

  it('[SAFE-1] off while prepare runs: the dialog is never shown and the call answers declined', async () => {
    const op = slowDelete();
    const { session, shown } = await on(op);
    const call = session.call('demo_delete', { path: 'a' });
    await flush();
    session.turnOff();
    await op.finishPrepare(0);
    expect(code(await call)).to.equal('declined');
    expect(shown()).to.equal(0);
    expect(op.steps).to.deep.equal(['prepare']);
  });

  it('[SAFE-1] off while queued or shown: both declined, neither executes', async () => {
    const op = slowDelete();
    const { session, aiOps } = await on(op);
    const first = session.call('demo_delete', { path: 'a' });
    const second = session.call('demo_delete', { path: 'b' });
    await op.finishPrepare(0);
    await op.finishPrepare(1);
    expect(aiOps.confirmations.getState().queued).to.have.length(1);
    session.turnOff();
    expect([code(await first), code(await second)]).to.deep.equal(['declined', 'declined']);
    expect(op.steps).to.deep.equal(['prepare', 'prepare']);
  });

  it('[SAFE-1] off after approval, while prepare runs again: declined, nothing executes', async () => {
    const op = slowDelete();
    const { session, aiOps } = await on(op);
    const call = session.call('demo_delete', { path: 'a' });
    await op.finishPrepare(0);
    decide(aiOps).approve(aiOps.confirmations.getState().current!.id);
    await flush();
    session.turnOff();
    await op.finishPrepare(1);
    expect(code(await call)).to.equal('declined');
    expect(op.steps).to.deep.equal(['prepare', 'prepare']);
    expect(aiOps.confirmations.getState().current).to.equal(null); // the loading dialog closed
  });

  it('[SAFE-1] off while executing: the running call finishes; nothing new starts', async () => {
    const op = slowDelete();
    const { session, aiOps } = await on(op);
    const call = session.call('demo_delete', { path: 'a' });
    await op.finishPrepare(0);
    decide(aiOps).approve(aiOps.confirmations.getState().current!.id);
    await op.finishPrepare(1);
    expect(op.steps).to.deep.equal(['prepare', 'prepare', 'execute']);
    session.turnOff();
    await op.finishExecute();
    expect(parse(await call)).to.deep.equal({ ok: true, path: 'a' });
    expect(code(await session.call('demo_delete', { path: 'b' }))).to.equal('declined');
    expect(op.steps).to.deep.equal(['prepare', 'prepare', 'execute']);
  });

  it('[SAFE-1] expiry at each point (prepare, queued, shown, after approval) answers declined and nothing executes', async () => {
    const expireAt = async (point: 'prepare' | 'shown' | 'queued' | 'approved') => {
      const op = slowDelete();
      const { session, aiOps, clock } = await on(op);
      const until = session.permission.getState().enabledUntil!;
      const expire = () => clock.advance(until - clock.now() + 1);
      const blocker = point === 'queued' ? session.call('demo_delete', { path: 'first' }) : null;
      if (blocker) await op.finishPrepare(0);
      const call = session.call('demo_delete', { path: 'a' });
      const mine = blocker ? 1 : 0;
      if (point === 'prepare') {
        await flush();
        expire();
        await op.finishPrepare(mine);
      } else {
        await op.finishPrepare(mine);
        if (point === 'approved') {
          decide(aiOps).approve(aiOps.confirmations.getState().current!.id);
          await flush();
          expire();
          await op.finishPrepare(mine + 1);
        } else expire();
      }
      expect(code(await call), point).to.equal('declined');
      if (blocker) expect(code(await blocker)).to.equal('declined');
      expect(op.steps, point).to.not.include('execute');
      expect(session.permission.getState().enabled, point).to.equal(false);
    };
    for (const point of ['prepare', 'queued', 'shown', 'approved'] as const) await expireAt(point);
  });

  it('[SAFE-1] isEnabled is read again at each point: a permission that reads as off after prepare stops the call', async () => {
    // No switch event at all: only the hook's answer changes (e.g. the expiry timer has not fired yet).
    const { compileOperation, runCall } = await import('../../src/pipeline.js');
    const op = slowDelete();
    let enabled = true;
    const confirmAnswers: string[] = [];
    const hooks = {
      isEnabled: () => enabled,
      skipsConfirmation: () => false,
      confirm: async () => { confirmAnswers.push('asked'); return () => {}; },
    };
    const run = runCall(compileOperation(op.definition), { path: 'a' }, hooks);
    await flush();
    enabled = false;
    await op.finishPrepare(0);
    expect((await run).result).to.deep.include({ ok: false });
    expect(confirmAnswers).to.deep.equal([]);
    enabled = true;
    const approved = runCall(compileOperation(op.definition), { path: 'a' }, hooks);
    await op.finishPrepare(1);
    enabled = false; // after approval, before execute
    await op.finishPrepare(2);
    expect(JSON.parse((await approved).json).error.code).to.equal('declined');
    expect(op.steps).to.not.include('execute');
  });

  it('[SAFE-2] the 50 s run from arrival: a 40 s prepare leaves the dialog 10 s, and it is declined 50 s after the call arrived', async () => {
    const op = slowDelete();
    const { session, aiOps, clock } = await on(op);
    const arrived = clock.now();
    const call = session.call('demo_delete', { path: 'a' });
    await flush();
    clock.advance(40_000);
    await op.finishPrepare(0);
    expect(aiOps.confirmations.getState().current?.arrivedAt).to.equal(arrived);
    clock.advance(9_999);
    await flush();
    expect(aiOps.confirmations.getState().current).to.not.equal(null);
    clock.advance(1);
    expect(code(await call)).to.equal('declined');
    expect(clock.now() - arrived).to.equal(50_000);
    expect(aiOps.confirmations.getState().current).to.equal(null);
    expect(op.steps).to.deep.equal(['prepare']);
  });

  it('[SAFE-2] a prepare that outlasts the 50 s: the dialog is never shown, declined at once', async () => {
    const op = slowDelete();
    const { session, clock, shown } = await on(op);
    const call = session.call('demo_delete', { path: 'a' });
    await flush();
    clock.advance(55_000);
    await op.finishPrepare(0);
    expect(code(await call)).to.equal('declined');
    expect(shown()).to.equal(0);
  });

  it('[NAT-2] a call cancelled while its dialog is shown, or queued, drops it and answers declined; both are logged', async () => {
    const op = slowDelete();
    const { session, aiOps } = await on(op);
    const shownCall = new AbortController();
    const queuedCall = new AbortController();
    const first = session.call('demo_delete', { path: 'a' }, { signal: shownCall.signal });
    const second = session.call('demo_delete', { path: 'b' }, { signal: queuedCall.signal });
    const third = session.call('demo_delete', { path: 'c' });
    for (const n of [0, 1, 2]) await op.finishPrepare(n);
    expect(aiOps.confirmations.getState().queued).to.have.length(2);
    queuedCall.abort();
    expect(code(await second)).to.equal('declined');
    expect(aiOps.confirmations.getState().queued.map((r) => r.content.title)).to.deep.equal(['ファイル「c」を削除する']);
    shownCall.abort();
    expect(code(await first)).to.equal('declined');
    // The next one moves up; the cancelled ones were never executed.
    expect(aiOps.confirmations.getState().current?.content.title).to.equal('ファイル「c」を削除する');
    decide(aiOps).decline(aiOps.confirmations.getState().current!.id);
    await third;
    expect(op.steps).to.not.include('execute');
    expect(aiOps.log.getState().entries.filter((e) => e.status === 'declined')).to.have.length(3);
  });

  it('[NAT-2] cancelled during prepare or after approval: declined before execute; during execute the signal reaches it', async () => {
    const op = slowDelete();
    const { session, aiOps, shown } = await on(op);
    const early = new AbortController();
    const a = session.call('demo_delete', { path: 'a' }, { signal: early.signal });
    await flush();
    early.abort();
    await op.finishPrepare(0);
    expect(code(await a)).to.equal('declined');
    expect(shown()).to.equal(0);

    const late = new AbortController();
    const b = session.call('demo_delete', { path: 'b' }, { signal: late.signal });
    await op.finishPrepare(1);
    decide(aiOps).approve(aiOps.confirmations.getState().current!.id);
    await flush();
    late.abort();
    await op.finishPrepare(2);
    expect(code(await b)).to.equal('declined');
    expect(op.steps).to.not.include('execute');

    const running = new AbortController();
    const c = session.call('demo_delete', { path: 'c' }, { signal: running.signal });
    await op.finishPrepare(3);
    decide(aiOps).approve(aiOps.confirmations.getState().current!.id);
    await op.finishPrepare(4);
    expect(op.executeSignal?.aborted).to.equal(false);
    running.abort();
    expect(op.executeSignal?.aborted).to.equal(true);
    await op.finishExecute();
    expect(parse(await c)).to.deep.equal({ ok: true, path: 'c' });
  });

  it('[SHAPE-1] the runtime lends out no writable store: sessions are read through getState/subscribe only', () => {
    const { aiOps } = setup();
    const session = aiOps.provideOperations('demo', definitions());
    expect(Object.keys(aiOps.sessions).sort()).to.deep.equal(['getSnapshot', 'getState', 'subscribe']);
    expect('setState' in aiOps.sessions).to.equal(false);
    expect('setState' in getAiOps().sessions, 'the page\'s default runtime').to.equal(false);
    expect(aiOps.sessions.getState()).to.deep.equal([session]);
    let heard = 0;
    const off = aiOps.sessions.subscribe(() => heard++);
    aiOps.provideOperations('more', []);
    off();
    expect(heard).to.equal(1);
    expect(aiOps.sessions.getState().map((s) => s.tool)).to.deep.equal(['demo', 'more']);
  });

  it('[SHAPE-1] getAiOps() has no onDemand and lends no part: the dialog\'s state is read-only, and what the elements may do is named functions only', async () => {
    expect('onDemand' in getAiOps()).to.equal(false);
    const { aiOps } = setup();
    for (const gone of ['onDemand', 'relay', 'modelContext']) expect(gone in aiOps, gone).to.equal(false);
    const readOnly = ['getSnapshot', 'getState', 'subscribe'];
    expect(Object.keys(aiOps.confirmations).sort()).to.deep.equal(readOnly);
    expect(Object.keys(aiOps.capabilities).sort()).to.deep.equal(readOnly);
    expect(aiOps.capabilities.getState()).to.equal(null);
    const session = aiOps.provideOperations('demo', definitions());
    await session.turnOn();
    await started(session);
    const capabilities = aiOps.capabilities.getState()!;
    expect(Object.keys(capabilities).sort()).to.deep.equal(['decide', 'native', 'relay', 'verification']);
    expect(Object.keys(capabilities.decide).sort()).to.deep.equal(['approve', 'approveAll', 'decline', 'declineAll']);
    // DOOR-6, DOOR-10: pair, unpair and the status store beside them, each a function or a read-only store.
    expect(Object.keys(capabilities.relay).sort()).to.deep.equal(['isConnected', 'pair', 'reconnect', 'refused', 'status', 'unpair']);
    expect(Object.keys(capabilities.relay.refused).sort()).to.deep.equal(readOnly);
    expect(Object.keys(capabilities.relay.status).sort()).to.deep.equal(readOnly);
    expect(capabilities.native).to.equal(false);
    // This runtime's verifier (consent 'click' still makes the default one) lends three functions only.
    expect(Object.keys(capabilities.verification ?? {}).sort()).to.deep.equal(['fingerprint', 'publicKey', 'unenrol']);
    // Every function is the page's own: none is the queue's, the connection's or the verifier's method.
    for (const part of [capabilities.decide, capabilities.relay]) {
      for (const value of Object.values(part)) if (typeof value === 'function') expect(value.name).to.not.match(/^(request|declineTool|connect|disconnect|verify)$/);
    }
  });
});
