import { expect } from '@open-wc/testing';
import { createPermissionStore, permissionKey, PERMISSION_TTL_MS } from '../../src/permission-store.js';
import { createAiOps } from '../../src/runtime.js';
import { defineOperation } from '../../src/definition.js';
import { succeed } from '../../src/result.js';
import { BrokenStorage, FakeClock, FakeLoader, MemoryStorage, flush, decide } from './helpers.js';

const DAY = 24 * 60 * 60 * 1000;

function setup(tool = 'sql') {
  const storage = new MemoryStorage();
  const clock = new FakeClock();
  const events = new EventTarget();
  const make = () => createPermissionStore({ tool, storage, clock, events });
  return { storage, clock, events, make, key: permissionKey(tool) };
}

describe('permission store', () => {
  it('[PERM-1] stores {v:1, enabledUntil, skipConfirmUntil} under fd-ai-operations:<tool>', () => {
    const { storage, clock, make } = setup('slides');
    const store = make();
    store.enable();
    expect(JSON.parse(storage.getItem('fd-ai-operations:slides')!)).to.deep.equal({ v: 1, enabledUntil: clock.now() + 7 * DAY, skipConfirmUntil: null });
  });

  it('[PERM-2] enabledUntil is switch-on time + 7 days, skipConfirmUntil choice time + 7 days; opening a page never extends them', () => {
    const { storage, clock, make, key } = setup();
    const first = make();
    const onAt = clock.now();
    first.enable();
    clock.advance(2 * DAY);
    const choseAt = clock.now();
    first.skipConfirmations();
    expect(PERMISSION_TTL_MS).to.equal(7 * DAY);
    expect(JSON.parse(storage.getItem(key)!)).to.deep.equal({ v: 1, enabledUntil: onAt + 7 * DAY, skipConfirmUntil: choseAt + 7 * DAY });
    clock.advance(DAY);
    const reopened = make();
    expect(reopened.getState()).to.include({ enabled: true, enabledUntil: onAt + 7 * DAY, skipConfirmUntil: choseAt + 7 * DAY });
    expect(JSON.parse(storage.getItem(key)!).enabledUntil).to.equal(onAt + 7 * DAY);
  });

  it('[PERM-3] a missing, non-JSON, wrongly shaped or expired value is off and the key is deleted', () => {
    const { storage, clock, make, key } = setup();
    const bad = [
      'not json', '[]', 'null', '{"v":2,"enabledUntil":99999999999999,"skipConfirmUntil":null}',
      JSON.stringify({ v: 1, enabledUntil: 'soon', skipConfirmUntil: null }),
      JSON.stringify({ v: 1, enabledUntil: clock.now() + DAY }),
      JSON.stringify({ v: 1, enabledUntil: clock.now() + DAY, skipConfirmUntil: null, extra: 1 }),
      JSON.stringify({ v: 1, enabledUntil: clock.now() - 1, skipConfirmUntil: null }),
    ];
    for (const raw of bad) {
      storage.setItem(key, raw);
      const store = make();
      expect(store.getState().enabled, raw).to.equal(false);
      expect(storage.getItem(key), raw).to.equal(null);
    }
    expect(make().getState().enabled).to.equal(false);
  });

  it('[PERM-4] an expired skipConfirmUntil alone brings confirmations back, keeping the switch on and the key', () => {
    const { storage, clock, make, key } = setup();
    storage.setItem(key, JSON.stringify({ v: 1, enabledUntil: clock.now() + DAY, skipConfirmUntil: clock.now() + 1000 }));
    const store = make();
    expect(store.skipsConfirmation()).to.equal(true);
    clock.advance(1000);
    expect(store.skipsConfirmation()).to.equal(false);
    expect(store.isEnabled()).to.equal(true);
    expect(storage.getItem(key)).not.to.equal(null);
    storage.setItem(key, JSON.stringify({ v: 1, enabledUntil: clock.now() + DAY, skipConfirmUntil: clock.now() - 5 }));
    const reopened = make();
    expect(reopened.getState().enabled).to.equal(true);
    expect(reopened.skipsConfirmation()).to.equal(false);
  });

  it('[PERM-5] reaching enabledUntil while the page is open turns the switch off at that moment', () => {
    const { storage, clock, make, key } = setup();
    const store = make();
    store.enable();
    let changes = 0;
    store.subscribe(() => changes++);
    clock.advance(7 * DAY - 1);
    expect(store.getState().enabled).to.equal(true);
    clock.advance(1);
    expect(store.getState().enabled).to.equal(false);
    expect(storage.getItem(key)).to.equal(null);
    expect(changes).to.equal(1);
  });

  it('[PERM-6] turning off deletes the key and the skip choice with it', () => {
    const { storage, make, key } = setup();
    const store = make();
    store.enable();
    store.skipConfirmations();
    store.disable();
    expect(storage.getItem(key)).to.equal(null);
    store.enable();
    expect(store.skipsConfirmation()).to.equal(false);
  });

  it('[PERM-7] another tab turning on, choosing to skip, or turning off is followed through the storage event', () => {
    const { storage, clock, events, make, key } = setup();
    const mine = make();
    const other = make();
    const dispatch = () => events.dispatchEvent(Object.assign(new Event('storage'), { key, storageArea: storage }));
    other.enable();
    dispatch();
    expect(mine.getState().enabled).to.equal(true);
    other.skipConfirmations();
    dispatch();
    expect(mine.skipsConfirmation()).to.equal(true);
    expect(mine.getState().skipConfirmUntil).to.equal(clock.now() + 7 * DAY);
    other.disable();
    dispatch();
    expect(mine.getState().enabled).to.equal(false);
    // another key, or a cleared storage (key null)
    other.enable();
    events.dispatchEvent(Object.assign(new Event('storage'), { key: 'other', storageArea: storage }));
    expect(mine.getState().enabled).to.equal(false);
    events.dispatchEvent(Object.assign(new Event('storage'), { key: null, storageArea: storage }));
    expect(mine.getState().enabled).to.equal(true);
    mine.dispose();
    other.disable();
    dispatch();
    expect(mine.getState().enabled).to.equal(true); // disposed: no longer listening
  });

  it('[PERM-7] the real storage event from another document reaches the store', async () => {
    const key = permissionKey('ai_ops_test_tool');
    localStorage.removeItem(key);
    const store = createPermissionStore({ tool: 'ai_ops_test_tool' });
    const frame = document.createElement('iframe');
    document.body.append(frame);
    const changed = new Promise<void>((resolve) => store.subscribe(() => resolve()));
    frame.contentWindow!.localStorage.setItem(key, JSON.stringify({ v: 1, enabledUntil: Date.now() + 60_000, skipConfirmUntil: null }));
    await changed;
    expect(store.getState().enabled).to.equal(true);
    store.disable();
    store.dispose();
    frame.remove();
  });

  it('[PERM-8] with storage unreadable or unwritable the switch works for the page lifetime only', () => {
    const clock = new FakeClock();
    for (const storage of [new BrokenStorage(), null]) {
      const store = createPermissionStore({ tool: 'go', storage, clock, events: null });
      expect(store.getState()).to.include({ enabled: false, persisted: false });
      store.enable();
      expect(store.isEnabled()).to.equal(true);
      store.skipConfirmations();
      expect(store.skipsConfirmation()).to.equal(true);
      store.disable();
      expect(store.isEnabled()).to.equal(false);
    }
    // Writable reads but failing writes: degrade on the first failed write.
    const storage = new MemoryStorage();
    storage.setItem = () => { throw new DOMException('quota', 'QuotaExceededError'); };
    const store = createPermissionStore({ tool: 'go', storage, clock, events: null });
    store.enable();
    expect(store.getState()).to.include({ enabled: true, persisted: false });
  });

  it('[REG-3] isEnabled after enabledUntil (a late timer) turns the switch off', () => {
    const { storage, clock, key } = setup();
    // A clock whose timers never fire, like a throttled background tab.
    const lateClock = { now: () => clock.now(), setTimeout: () => 0, clearTimeout: () => {} };
    const store = createPermissionStore({ tool: 'sql', storage, clock: lateClock, events: null });
    store.enable();
    clock.time += 7 * DAY;
    expect(store.getState().enabled).to.equal(true);
    expect(store.isEnabled()).to.equal(false);
    expect(store.getState().enabled).to.equal(false);
    expect(storage.getItem(key)).to.equal(null);
  });
});

/** A storage that throws on the calls a test chooses, e.g. `failing.setItem = 2` fails the 2nd setItem. */
class FaultyStorage extends MemoryStorage {
  calls = { getItem: 0, setItem: 0, removeItem: 0 };
  /** Which calls throw, by method and 1-based call number; `'all'` makes every call of it throw. */
  failOn: { getItem?: number[] | 'all'; setItem?: number[] | 'all'; removeItem?: number[] | 'all' } = {};
  private fault(method: 'getItem' | 'setItem' | 'removeItem') {
    const n = ++this.calls[method];
    const rule = this.failOn[method];
    if (rule === 'all' || rule?.includes(n)) throw new DOMException(`${method} #${n}`, 'QuotaExceededError');
  }
  override getItem(key: string) {
    this.fault('getItem');
    return super.getItem(key);
  }
  override setItem(key: string, value: string) {
    this.fault('setItem');
    super.setItem(key, value);
  }
  override removeItem(key: string) {
    this.fault('removeItem');
    super.removeItem(key);
  }
}

/** Two tabs on one storage; each tab's storage events are held until the test delivers them. */
function twoTabs(tool = 'slides') {
  const storage = new MemoryStorage();
  const clock = new FakeClock();
  const key = permissionKey(tool);
  const targets = { a: new EventTarget(), b: new EventTarget() };
  const held: { a: number; b: number } = { a: 0, b: 0 };
  // Like the browser: a write by one tab queues a storage event for the other tab only.
  const tracked = {
    getItem: (k: string) => storage.getItem(k),
    setItem: (k: string, v: string) => { storage.setItem(k, v); },
    removeItem: (k: string) => { storage.removeItem(k); },
  };
  const tabStorage = (self: 'a' | 'b'): Storage => {
    const other = self === 'a' ? 'b' : 'a';
    return Object.assign(Object.create(storage) as Storage, {
      getItem: tracked.getItem,
      setItem: (k: string, v: string) => { tracked.setItem(k, v); held[other]++; },
      removeItem: (k: string) => { tracked.removeItem(k); held[other]++; },
    });
  };
  const storages = { a: tabStorage('a'), b: tabStorage('b') };
  const a = createPermissionStore({ tool, storage: storages.a, clock, events: targets.a });
  const b = createPermissionStore({ tool, storage: storages.b, clock, events: targets.b });
  /** Delivers the storage events held for `tab`. */
  const deliver = (tab: 'a' | 'b') => {
    for (; held[tab] > 0; held[tab]--) targets[tab].dispatchEvent(Object.assign(new Event('storage'), { key, storageArea: storages[tab] }));
  };
  return { storage, clock, key, a, b, deliver, held };
}

describe('permission store under faults and races', () => {
  it('[SAFE-3] after a failed write, turning off still removes the stored "on" and a reload is off', () => {
    const storage = new FaultyStorage();
    const clock = new FakeClock();
    const key = permissionKey('sql');
    const store = createPermissionStore({ tool: 'sql', storage, clock, events: null });
    store.enable();
    storage.failOn.setItem = [2]; // the skip choice hits a full quota
    store.skipConfirmations();
    expect(store.getState()).to.include({ enabled: true, persisted: false });
    store.disable();
    expect(storage.getItem(key)).to.equal(null);
    expect(createPermissionStore({ tool: 'sql', storage, clock, events: null }).getState().enabled).to.equal(false);
  });

  it('[SAFE-3] a failed "on" write does not stop later writes: on, then off, each reaches storage', () => {
    const storage = new FaultyStorage();
    const clock = new FakeClock();
    const key = permissionKey('sql');
    const store = createPermissionStore({ tool: 'sql', storage, clock, events: null });
    storage.failOn.setItem = [1];
    store.enable();
    expect(store.getState()).to.include({ enabled: true, persisted: false });
    expect(storage.getItem(key)).to.equal(null);
    store.disable();
    store.enable(); // the quota has room again
    expect(JSON.parse(storage.getItem(key)!).enabledUntil).to.equal(clock.now() + 7 * DAY);
    expect(store.getState().persisted).to.equal(true);
    store.disable();
    expect(storage.getItem(key)).to.equal(null);
  });

  it('[SAFE-3] when removing fails, an expired record replaces the "on" so a reload is off', () => {
    const storage = new FaultyStorage();
    const clock = new FakeClock();
    const key = permissionKey('go');
    const store = createPermissionStore({ tool: 'go', storage, clock, events: null });
    store.enable();
    storage.failOn.removeItem = 'all';
    store.disable();
    expect(store.getState()).to.include({ enabled: false, storedOnRemains: false });
    expect(createPermissionStore({ tool: 'go', storage, clock, events: null }).getState().enabled).to.equal(false);
    expect(storage.getItem(key), 'the reload deletes or keeps only an off value').not.to.match(/"enabledUntil":[1-9]/);
  });

  it('[SAFE-3] when the stored "on" cannot be removed nor overwritten, the state says so', () => {
    const storage = new FaultyStorage();
    const clock = new FakeClock();
    const store = createPermissionStore({ tool: 'go', storage, clock, events: null });
    store.enable();
    storage.failOn = { removeItem: 'all', setItem: 'all' };
    store.disable();
    expect(store.getState()).to.include({ enabled: false, persisted: false, storedOnRemains: true });
    storage.failOn = {};
    store.disable(); // tried again on every turn-off
    expect(store.getState()).to.include({ enabled: false, persisted: true, storedOnRemains: false });
    expect(createPermissionStore({ tool: 'go', storage, clock, events: null }).getState().enabled).to.equal(false);
  });

  it('[SAFE-4] B turns off; A approves with 今後尋ねない before its storage event: A writes no "on", both stay off', () => {
    const { storage, key, a, b, deliver } = twoTabs();
    a.enable();
    deliver('b');
    expect(b.getState().enabled).to.equal(true);
    b.disable();
    // A has not heard of it yet; the user approves A's dialog with the skip box checked.
    a.skipConfirmations();
    expect(storage.getItem(key)).to.equal(null);
    expect(a.getState().enabled).to.equal(false);
    expect(a.skipsConfirmation()).to.equal(false);
    deliver('a');
    deliver('b');
    expect(a.getState().enabled).to.equal(false);
    expect(b.getState().enabled).to.equal(false);
    expect(storage.getItem(key)).to.equal(null);
  });

  it('[SAFE-4] a tab whose storage event is late reads the stored value: isEnabled follows another tab\'s off', () => {
    const { a, b, deliver } = twoTabs();
    a.enable();
    deliver('b');
    b.disable();
    expect(a.isEnabled()).to.equal(false);
    expect(a.getState().enabled).to.equal(false);
    deliver('a');
    expect(a.getState().enabled).to.equal(false);
  });

  it('[SAFE-4] a skip choice is made against the stored value: when another tab turned off and on again, A follows it and writes nothing', () => {
    const { storage, clock, key, a, b, deliver } = twoTabs();
    a.enable();
    deliver('b');
    clock.advance(DAY);
    b.disable();
    b.enable(); // B turned it off and on again: a new enabledUntil A has not seen
    const bUntil = clock.now() + 7 * DAY;
    const written = storage.getItem(key);
    a.skipConfirmations(); // the skip choice belonged to the "on" B removed
    expect(storage.getItem(key)).to.equal(written);
    expect(a.getState()).to.include({ enabled: true, enabledUntil: bUntil, skipConfirmUntil: null });
    expect(a.skipsConfirmation()).to.equal(false);
    deliver('a');
    deliver('b');
    expect(b.getState()).to.include({ enabled: true, enabledUntil: bUntil });
  });

  it('[SAFE-4] page-lifetime state after a failed write is kept while no other tab changed the stored value', () => {
    const storage = new FaultyStorage();
    const clock = new FakeClock();
    const store = createPermissionStore({ tool: 'sql', storage, clock, events: null });
    store.enable();
    storage.failOn.setItem = 'all';
    store.skipConfirmations();
    expect(store.isEnabled()).to.equal(true);
    expect(store.skipsConfirmation()).to.equal(true);
  });

  it('[REG-3] at enabledUntil with late timers: skipsConfirmation is false and a skip choice writes nothing back', () => {
    const { storage, clock, key } = setup();
    const lateClock = { now: () => clock.now(), setTimeout: () => 0, clearTimeout: () => {} };
    const store = createPermissionStore({ tool: 'sql', storage, clock: lateClock, events: null });
    store.enable();
    clock.time += DAY;
    store.skipConfirmations();
    clock.time += 6 * DAY;
    // The call's dialog was open across the expiry; the user then approves with the box checked.
    expect(store.skipsConfirmation()).to.equal(false);
    store.skipConfirmations();
    expect(storage.getItem(key)).to.equal(null);
    expect(store.getState().enabled).to.equal(false);
  });

  it('[REG-3] expiry at each point of a call, seen through the store: before, during, after a skip choice', () => {
    const { storage, clock, key, make } = setup();
    const store = make();
    store.enable();
    const until = store.getState().enabledUntil!;
    // validation / prepare: 1 ms before expiry still on, at expiry off
    clock.advance(until - clock.now() - 1);
    expect(store.isEnabled()).to.equal(true);
    store.skipConfirmations(); // approved with the box checked just before expiry
    expect(JSON.parse(storage.getItem(key)!).enabledUntil, 'a skip choice never extends the switch').to.equal(until);
    clock.advance(1);
    expect(store.isEnabled()).to.equal(false);
    expect(store.skipsConfirmation()).to.equal(false);
    expect(storage.getItem(key)).to.equal(null);
    // turning on again after expiry starts a fresh 7 days without the old skip choice
    store.enable();
    expect(store.skipsConfirmation()).to.equal(false);
  });
});

describe('permission store expiry against another tab', () => {
  it('[SAFE-4] the old enabledUntil timer does not remove a newer "on" another tab stored before its event arrived', () => {
    const { storage, clock, key, a, b, deliver } = twoTabs();
    a.enable();
    deliver('b');
    clock.advance(3 * DAY);
    b.disable();
    b.enable();
    clock.advance(4 * DAY); // A's timer for the first "on" fires before A hears of B's changes
    expect(JSON.parse(storage.getItem(key)!).enabledUntil).to.equal(b.getState().enabledUntil);
    expect(a.getState()).to.include({ enabled: true, enabledUntil: b.getState().enabledUntil });
    deliver('a');
    expect(b.getState().enabled).to.equal(true);
  });
});

describe('permission store seen through a tool session', () => {
  const empty = { type: 'object', properties: {}, additionalProperties: false } as const;
  const operations = [
    defineOperation({ name: 'demo_read', description: 'read', inputSchema: empty, execute: async () => succeed({ text: 'x' }) }),
    defineOperation({
      name: 'demo_delete', description: 'delete', inputSchema: empty,
      confirmation: () => ({ title: 'ファイル「a」を削除する', summary: 's', actionLabel: '削除する' }),
      execute: async () => succeed(),
    }),
  ];
  const onTab = async () => {
    const clock = new FakeClock();
    const storage = new MemoryStorage();
    // Tab A: a page whose storage events never arrive (a MemoryStorage fires none), the worst case of "late".
    const aiOps = createAiOps({ consent: 'click', clock, storage, loader: new FakeLoader(), embedded: false, browserModelContext: null, autoReconnect: false, assetsBase: '/vendor/' });
    const session = aiOps.provideOperations('demo', operations);
    await session.turnOn();
    for (let i = 0; i < 200 && session.getState().status !== 'on'; i++) await flush();
    // Tab B: the same tool's store on the same storage.
    const other = createPermissionStore({ tool: 'demo', storage, clock, events: null });
    return { aiOps, session, other, storage, key: permissionKey('demo') };
  };
  afterEach(() => document.querySelectorAll('[data-webmcp-relay]').forEach((e) => e.remove()));

  it('[SAFE-4] B turns off; A\'s next call, before A hears of it, is declined and A turns off too', async () => {
    const { session, other, storage, key } = await onTab();
    expect(session.getState().status).to.equal('on');
    other.disable();
    const answer = JSON.parse(await session.call('demo_read', {}));
    expect(answer.error.code).to.equal('declined');
    expect(session.getState().status).to.equal('off');
    expect(storage.getItem(key)).to.equal(null);
  });

  it('[SAFE-4] B turns off while A\'s dialog shows; approving it with 今後尋ねない writes no "on" back', async () => {
    const { aiOps, session, other, storage, key } = await onTab();
    const answer = session.call('demo_delete', {});
    for (let i = 0; i < 50 && !aiOps.confirmations.getState().current; i++) await flush();
    const request = aiOps.confirmations.getState().current!;
    other.disable();
    decide(aiOps).approve(request.id, { skipFuture: true });
    await answer;
    expect(storage.getItem(key)).to.equal(null);
    expect(session.permission.getState().enabled).to.equal(false);
    expect(createPermissionStore({ tool: 'demo', storage, events: null }).getState().enabled, 'a reload is off').to.equal(false);
  });
});
