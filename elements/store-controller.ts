/**
 * The one controller the elements read runtime state through (nanostores/lit `StoreController`).
 * @module
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ReadableStore } from '../src/store.js';

/**
 * Subscribes its host to a {@link ReadableStore} while the host is connected, and asks the host to
 * render again on every change. The store can be swapped (a session that appears later, a runtime
 * given by a context provider).
 * @example
 * class ToolStatus extends LitElement {
 *   private session = new StoreController(this, getAiOps().getSession('sql'));
 *   render() { return html`${this.session.value?.status}`; }
 * }
 */
export class StoreController<T> implements ReactiveController {
  private store: ReadableStore<T> | undefined;
  private unsubscribe: (() => void) | null = null;
  private connected = false;

  constructor(private readonly host: ReactiveControllerHost, store?: ReadableStore<T>) {
    this.store = store;
    host.addController(this);
  }

  /** The store's current state; undefined while there is no store. */
  get value(): T | undefined {
    return this.store?.getState();
  }

  /** Reads `store` from now on (undefined: none); does nothing when it is the current one. */
  setStore(store: ReadableStore<T> | undefined): void {
    if (store === this.store) return;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.store = store;
    if (this.connected) this.listen();
    this.host.requestUpdate();
  }

  hostConnected(): void {
    this.connected = true;
    this.listen();
    // The state may have changed while the host was out of the document.
    this.host.requestUpdate();
  }

  hostDisconnected(): void {
    this.connected = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private listen(): void {
    this.unsubscribe = this.store?.subscribe(() => this.host.requestUpdate()) ?? null;
  }
}
