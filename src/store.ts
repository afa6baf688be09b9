/**
 * The one store contract (zustand vanilla): `getState()`, `subscribe(listener) → unsubscribe`, a
 * new snapshot object on each change and no notification when nothing changed. `getSnapshot` is the
 * same function under the name React's `useSyncExternalStore` expects (SHAPE-6).
 * @module
 */

/** A readable store. */
export interface ReadableStore<T> {
  getState(): T;
  /** Alias of `getState` for `useSyncExternalStore(store.subscribe, store.getSnapshot)`. */
  getSnapshot(): T;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

/** A store its owner can write. */
export interface WritableStore<T> extends ReadableStore<T> {
  setState(next: T): void;
}

/**
 * Creates a store holding `initial`.
 * @example
 * const store = createStore({ count: 0 });
 * const stop = store.subscribe(() => console.log(store.getState().count));
 * store.setState({ count: 1 });
 */
export function createStore<T>(initial: T): WritableStore<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  const getState = () => state;
  return {
    getState,
    getSnapshot: getState,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setState(next) {
      if (Object.is(next, state)) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
  };
}

/**
 * The store without its `setState`: what an owner hands to its readers, so that only it writes.
 * @example
 * const store = createStore({ count: 0 });
 * export const count = readableStore(store); // getState, getSnapshot, subscribe
 */
export function readableStore<T>({ setState: _ownersOnly, ...readable }: WritableStore<T>): ReadableStore<T> {
  return readable;
}
