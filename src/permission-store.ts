/**
 * The switch's stored permission, one localStorage key per tool (PERM-1..PERM-8).
 * @module
 */
import { at, systemClock, type Clock } from './clock.js';
import { createStore, readableStore, type ReadableStore } from './store.js';

/** How long a switch stays on, and a skip choice lasts: 7 days (PERM-2). */
export const PERMISSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The stored value (PERM-1). */
export type StoredPermission = { v: 1; enabledUntil: number; skipConfirmUntil: number | null };

/** What the store holds. */
export interface PermissionState {
  /** The switch is on. */
  enabled: boolean;
  /** Epoch ms when the switch turns itself off; null when off. */
  enabledUntil: number | null;
  /** Epoch ms until which confirmations are skipped; null when not chosen. */
  skipConfirmUntil: number | null;
  /**
   * False while localStorage cannot be read, or the last write to it failed: the state then lives
   * as long as the page (PERM-8). Every later write is tried again, and a success sets it back.
   */
  persisted: boolean;
  /**
   * True when turning off could neither remove the stored "on" nor overwrite it (SAFE-3): a reload
   * could come back on. The next turn-off tries again.
   */
  storedOnRemains: boolean;
}

/** A tool's permission. */
export interface PermissionStore extends ReadableStore<PermissionState> {
  /**
   * Turns the switch on until `enabledUntil` (default now + 7 days, PERM-2), without a skip choice.
   * A verified switch-on passes the very end its receipt binds (UV-3).
   */
  enable(enabledUntil?: number): void;
  /** Turns the switch off and deletes the key, skip choice included (PERM-6). */
  disable(): void;
  /**
   * Records 「このページでは今後尋ねない」 until now + 7 days (PERM-2), against the stored value as it
   * is now: when another tab turned off (or off and on again) since this tab last looked, this tab
   * follows that and writes nothing (SAFE-4); after expiry it writes nothing either.
   */
  skipConfirmations(): void;
  /**
   * True while on and not expired. It reads the stored value first, so another tab's "off" counts
   * even before its `storage` event arrives (SAFE-4); an expired permission is turned off here (REG-3).
   */
  isEnabled(): boolean;
  /** True while the switch is on (as {@link isEnabled} sees it) and the skip choice is live (PERM-4). */
  skipsConfirmation(): boolean;
  /** Stops listening to storage events and timers. */
  dispose(): void;
}

/** The storage key of a tool (PERM-1). */
export function permissionKey(tool: string): string {
  return `fd-ai-operations:${tool}`;
}

/** Parses a stored value; null when it is not a `StoredPermission` (PERM-3). */
export function parseStoredPermission(raw: string | null): StoredPermission | null {
  if (raw === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { v, enabledUntil, skipConfirmUntil } = value as Record<string, unknown>;
  const isTime = (t: unknown): t is number => typeof t === 'number' && Number.isFinite(t);
  if (v !== 1 || !isTime(enabledUntil) || !(skipConfirmUntil === null || isTime(skipConfirmUntil))) return null;
  if (Object.keys(value).length !== 3) return null;
  return { v: 1, enabledUntil, skipConfirmUntil };
}

/** Options of {@link createPermissionStore}. */
export interface PermissionStoreOptions {
  tool: string;
  /** Default `window.localStorage`; null or a throwing storage means page-lifetime only (PERM-8). */
  storage?: Storage | null;
  clock?: Clock;
  /** Where `storage` events arrive from other tabs (PERM-7); default `window`. */
  events?: EventTarget | null;
}

const OFF = { enabled: false, enabledUntil: null, skipConfirmUntil: null } as const;

/** A record that reads as off (expired, PERM-3), written when the key cannot be removed (SAFE-3). */
const EXPIRED_RECORD = JSON.stringify({ v: 1, enabledUntil: 0, skipConfirmUntil: null } satisfies StoredPermission);

/**
 * Creates the permission store of one tool, reading the stored value once.
 * @example
 * const permission = createPermissionStore({ tool: 'sql' });
 * permission.enable();
 * permission.getState().enabledUntil; // now + 7 days
 */
export function createPermissionStore(options: PermissionStoreOptions): PermissionStore {
  const { tool, clock = systemClock } = options;
  const key = permissionKey(tool);
  const events = options.events === undefined ? globalThis.window ?? null : options.events;
  let storage: Storage | null = null;
  try {
    storage = options.storage === undefined ? globalThis.localStorage ?? null : options.storage;
  } catch {
    storage = null; // reading window.localStorage itself throws when storage is blocked
  }
  // The stored text as this tab last read or wrote it: a different one now means another tab wrote.
  let lastRaw: string | null = null;
  let readFailed = false;
  let writeFailed = false;
  let storedOnRemains = false;
  const persisted = () => storage !== null && !readFailed && !writeFailed;
  const store = createStore<PermissionState>({ ...OFF, persisted: persisted(), storedOnRemains });
  let cancelExpiry: (() => void) | null = null;

  /** The stored text, or undefined when storage cannot be read. */
  const read = (): string | null | undefined => {
    if (!storage) return undefined;
    try {
      const raw = storage.getItem(key);
      readFailed = false;
      return raw;
    } catch {
      readFailed = true;
      return undefined;
    }
  };
  /** Writes `raw` (null removes the key); never gives up after an earlier failure (SAFE-3). */
  const write = (raw: string | null): boolean => {
    if (!storage) return false;
    try {
      if (raw === null) storage.removeItem(key);
      else storage.setItem(key, raw);
      lastRaw = raw;
      writeFailed = false;
      return true;
    } catch {
      // Quota, private mode, blocked storage: keep working for this page's lifetime (PERM-8).
      writeFailed = true;
      return false;
    }
  };
  /** Removes the stored value; if that fails, overwrites it with one that reads as off (SAFE-3). */
  const removeStored = () => {
    if (write(null) || write(EXPIRED_RECORD)) {
      storedOnRemains = false;
      return;
    }
    const raw = read();
    const left = raw === undefined ? null : parseStoredPermission(raw);
    storedOnRemains = left !== null && left.enabledUntil > clock.now();
    writeFailed = true; // the reads above must not hide that the write failed
  };

  const publish = (value: StoredPermission | null) => {
    const next: PermissionState = value
      ? { enabled: true, enabledUntil: value.enabledUntil, skipConfirmUntil: value.skipConfirmUntil, persisted: persisted(), storedOnRemains }
      : { ...OFF, persisted: persisted(), storedOnRemains };
    const state = store.getState();
    const same = (Object.keys(next) as (keyof PermissionState)[]).every((field) => state[field] === next[field]);
    if (!same) store.setState(next);
  };

  const apply = (value: StoredPermission | null) => {
    cancelExpiry?.();
    cancelExpiry = null;
    publish(value);
    if (!value) return;
    // PERM-5: reaching enabledUntil while the page is open turns the switch off at that moment.
    cancelExpiry = at(clock, value.enabledUntil, () => {
      cancelExpiry = null;
      // Through isEnabled, so a newer "on" another tab stored (its event still on the way) is kept.
      isEnabled();
    });
  };

  const load = (raw: string | null) => {
    lastRaw = raw;
    const value = parseStoredPermission(raw);
    if (!value || value.enabledUntil <= clock.now()) {
      // PERM-3: missing, unreadable, wrong shape or expired: off, and the key is deleted.
      if (raw !== null) removeStored();
      apply(null);
      return;
    }
    apply(value);
  };

  /**
   * Follows the stored value when another tab changed it since this tab last read or wrote it
   * (SAFE-4); returns true when it did. Storage that cannot be read keeps the page's own state.
   */
  const sync = (): boolean => {
    const raw = read();
    if (raw === undefined || raw === lastRaw) return false;
    load(raw);
    return true;
  };

  const disable = () => {
    removeStored();
    apply(null);
  };

  const isEnabled = () => {
    sync();
    const { enabled, enabledUntil } = store.getState();
    if (!enabled || enabledUntil === null) return false;
    if (clock.now() >= enabledUntil) {
      disable();
      return false;
    }
    return true;
  };

  const onStorage = (event: Event) => {
    const { key: changed, storageArea } = event as StorageEvent;
    if (storageArea && storageArea !== storage) return;
    if (changed !== null && changed !== key) return;
    sync(); // PERM-7: another tab turned it on/off or chose to skip
  };
  events?.addEventListener('storage', onStorage);
  const initial = read();
  load(initial ?? null);

  return {
    ...readableStore(store),
    enable(enabledUntil = clock.now() + PERMISSION_TTL_MS) {
      const value: StoredPermission = { v: 1, enabledUntil, skipConfirmUntil: null };
      write(JSON.stringify(value));
      apply(value);
    },
    disable,
    skipConfirmations() {
      // The choice belongs to the "on" the user saw; if that is gone or replaced, follow storage.
      if (sync() || !isEnabled()) return;
      const { enabledUntil } = store.getState();
      const value: StoredPermission = { v: 1, enabledUntil: enabledUntil!, skipConfirmUntil: clock.now() + PERMISSION_TTL_MS };
      write(JSON.stringify(value));
      apply(value);
    },
    isEnabled,
    skipsConfirmation() {
      if (!isEnabled()) return false;
      const { skipConfirmUntil } = store.getState();
      return skipConfirmUntil !== null && clock.now() < skipConfirmUntil;
    },
    dispose() {
      cancelExpiry?.();
      events?.removeEventListener('storage', onStorage);
    },
  };
}
