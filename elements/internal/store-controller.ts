/**
 * The one controller the elements read runtime state through (nanostores/lit `StoreController`,
 * with TanStack's selector and equality).
 * @module
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ReadableStore } from '../../src/store.js';

/**
 * Picks what a host renders from a store's state. `get(other)` reads another store's state and
 * follows it too: a selector that reads a session out of the session list, then that session's
 * state, re-renders on either.
 */
export type StoreSelector<S, T> = (state: S, get: <U>(store: ReadableStore<U>) => U) => T;

/**
 * Subscribes its host to a {@link ReadableStore} (and every store its selector read last time)
 * while the host is connected, and asks the host to render again when the selected value changes
 * by `equals` (default `Object.is`). The selector runs on every read of `value`, so one that uses
 * the host's properties follows them. The store can be swapped (a runtime given by a context
 * provider later).
 * @example
 * class ToolStatus extends LitElement {
 *   tool = 'sql';
 *   private session = new StoreController(this, getAiOps().sessions,
 *     (sessions, get) => { const s = sessions.find((x) => x.tool === this.tool); return s && get(s).status; });
 *   render() { return html`${this.session.value}`; }
 * }
 */
export class StoreController<S, T = S> implements ReactiveController {
  private store: ReadableStore<S> | undefined;
  /** The stores followed now, each with how to stop following it. */
  private readonly followed = new Map<ReadableStore<unknown>, () => void>();
  private last: T | undefined;
  private connected = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    store?: ReadableStore<S>,
    private readonly selector: StoreSelector<S, T> = (state) => state as unknown as T,
    private readonly equals: (a: T, b: T) => boolean = Object.is,
  ) {
    this.store = store;
    host.addController(this);
  }

  /** The selected value of the store's current state; undefined while there is no store. */
  get value(): T | undefined {
    return (this.last = this.select());
  }

  /** Reads `store` from now on (undefined: none); does nothing when it is the current one. */
  setStore(store: ReadableStore<S> | undefined): void {
    if (store === this.store) return;
    this.store = store;
    this.refresh();
  }

  hostConnected(): void {
    this.connected = true;
    // The state may have changed while the host was out of the document.
    this.refresh();
  }

  hostDisconnected(): void {
    this.connected = false;
    this.select();
  }

  private refresh(): void {
    this.select();
    this.host.requestUpdate();
  }

  private readonly changed = () => {
    if (!this.equals(this.last as T, this.value as T)) this.host.requestUpdate();
  };

  /**
   * Runs the selector; while connected, follows exactly the stores it read. A store followed
   * before and read again keeps its subscription, so a store notifying its listeners never sees
   * this one leave and come back in the middle of that.
   */
  private select(): T | undefined {
    const read = new Set<ReadableStore<unknown>>();
    const get = <U>(store: ReadableStore<U>): U => {
      read.add(store);
      return store.getState();
    };
    const value = this.store && this.selector(get(this.store), get);
    if (!this.connected) read.clear();
    for (const [store, stop] of this.followed) {
      if (!read.delete(store)) {
        stop();
        this.followed.delete(store);
      }
    }
    for (const store of read) this.followed.set(store, store.subscribe(this.changed));
    return value;
  }
}
