import { expect } from '@open-wc/testing';
import { createPermissionStore, permissionKey, PERMISSION_TTL_MS } from '../../src/permission-store.js';
import { BrokenStorage, FakeClock, MemoryStorage } from './helpers.js';

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
