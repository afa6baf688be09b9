/**
 * The switch's stored permission, one localStorage key per tool (PERM-1..PERM-8).
 * @module
 */
import { at, systemClock, type Clock } from './clock.js';
import { createStore, type ReadableStore } from './store.js';

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
  /** False when localStorage cannot be read or written: the state lives as long as the page (PERM-8). */
  persisted: boolean;
}

/** A tool's permission. */
export interface PermissionStore extends ReadableStore<PermissionState> {
  /** Turns the switch on until now + 7 days, without a skip choice. */
  enable(): void;
  /** Turns the switch off and deletes the key, skip choice included (PERM-6). */
  disable(): void;
  /** Records 「このページでは今後尋ねない」 until now + 7 days (PERM-2). */
  skipConfirmations(): void;
  /** True while on and not expired; an expired permission is turned off here (REG-3). */
  isEnabled(): boolean;
  /** True while the skip choice is live (PERM-4). */
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

const OFF: PermissionState = { enabled: false, enabledUntil: null, skipConfirmUntil: null, persisted: true };

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
  let persisted = storage !== null;
  const store = createStore<PermissionState>({ ...OFF, persisted });
  let cancelExpiry: (() => void) | null = null;

  const read = (): string | null => {
    if (!storage) return null;
    try {
      return storage.getItem(key);
    } catch {
      persisted = false;
      return null;
    }
  };
  const write = (value: StoredPermission | null) => {
    if (!storage || !persisted) return;
    try {
      if (value) storage.setItem(key, JSON.stringify(value));
      else storage.removeItem(key);
    } catch {
      // Quota, private mode, blocked storage: keep working for this page's lifetime (PERM-8).
      persisted = false;
    }
  };

  const apply = (value: StoredPermission | null) => {
    cancelExpiry?.();
    cancelExpiry = null;
    if (!value) {
      const state = store.getState();
      if (state.enabled || state.persisted !== persisted) store.setState({ ...OFF, persisted });
      return;
    }
    store.setState({ enabled: true, enabledUntil: value.enabledUntil, skipConfirmUntil: value.skipConfirmUntil, persisted });
    // PERM-5: reaching enabledUntil while the page is open turns the switch off at that moment.
    cancelExpiry = at(clock, value.enabledUntil, () => {
      cancelExpiry = null;
      disable();
    });
  };

  const load = (raw: string | null) => {
    const value = parseStoredPermission(raw);
    if (!value || value.enabledUntil <= clock.now()) {
      // PERM-3: missing, unreadable, wrong shape or expired: off, and the key is deleted.
      if (raw !== null) write(null);
      apply(null);
      return;
    }
    apply(value);
  };

  const disable = () => {
    write(null);
    apply(null);
  };

  const onStorage = (event: Event) => {
    const { key: changed, storageArea } = event as StorageEvent;
    if (storageArea && storageArea !== storage) return;
    if (changed !== null && changed !== key) return;
    load(read()); // PERM-7: another tab turned it on/off or chose to skip
  };
  events?.addEventListener('storage', onStorage);
  load(read());

  return {
    getState: store.getState,
    getSnapshot: store.getSnapshot,
    subscribe: store.subscribe,
    enable() {
      const value: StoredPermission = { v: 1, enabledUntil: clock.now() + PERMISSION_TTL_MS, skipConfirmUntil: null };
      write(value);
      apply(value);
    },
    disable,
    skipConfirmations() {
      const state = store.getState();
      if (!state.enabled || state.enabledUntil === null) return;
      const value: StoredPermission = { v: 1, enabledUntil: state.enabledUntil, skipConfirmUntil: clock.now() + PERMISSION_TTL_MS };
      write(value);
      apply(value);
    },
    isEnabled() {
      const { enabled, enabledUntil } = store.getState();
      if (!enabled || enabledUntil === null) return false;
      if (clock.now() >= enabledUntil) {
        disable();
        return false;
      }
      return true;
    },
    skipsConfirmation() {
      const { enabled, skipConfirmUntil } = store.getState();
      return enabled && skipConfirmUntil !== null && clock.now() < skipConfirmUntil;
    },
    dispose() {
      cancelExpiry?.();
      events?.removeEventListener('storage', onStorage);
    },
  };
}
