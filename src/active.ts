/**
 * What the runtime needs only once a switch is on (or a call arrives): the polyfill and relay
 * loading, the registration and the call path. The runtime and the sessions import this module on
 * demand, so a page whose switches are all off never downloads it (PKG-4).
 * @module
 */
import type { Clock } from './clock.js';
import { createConfirmationQueue, type ConfirmationQueue, type ConfirmationState } from './confirmation-queue.js';
import { createModelContextProvider, type ModelContextLike, type ModelContextProvider } from './model-context.js';
import { RelayConnection } from './relay-connection.js';
import { createDomScriptLoader, type ScriptLoader } from './script-loader.js';
import { createSessionEngine } from './session-engine.js';
import type { WritableStore } from './store.js';

export { createSessionEngine, createConfirmationQueue };

/** What {@link createActiveParts} needs from the runtime. */
export interface ActivePartsOptions {
  window: Window;
  clock: Clock;
  loader?: ScriptLoader;
  assetsBase?: string;
  relayPort: number;
  /** Look for a relay started after the page (RELAY-5): the widget idles until the port answers. */
  autoReconnect: boolean;
  browserModelContext?: ModelContextLike | null;
  /** The runtime's confirmation state, which the elements read before this chunk loads. */
  confirmationState: WritableStore<ConfirmationState>;
  /** True while any switch of the page is on or starting. */
  anyOn(): boolean;
}

/** What the runtime hands its sessions once this chunk loaded. */
export interface ActiveParts {
  modelContext: ModelContextProvider;
  relay: RelayConnection;
  queue: ConfirmationQueue;
  createSessionEngine: typeof createSessionEngine;
  /** Follows the switches: the relay checks run while one is on (RELAY-5). */
  update(): void;
  /** Removes the widget, the checks and every listener. */
  dispose(): void;
}

/** The parts of one runtime: one script loader, one model context, one relay, one queue. */
export function createActiveParts(options: ActivePartsOptions): ActiveParts {
  const { window: win, clock, assetsBase, relayPort, autoReconnect } = options;
  const loader = options.loader ?? createDomScriptLoader(win.document);
  const modelContext = createModelContextProvider({
    loader,
    window: win,
    clock,
    assetsBase,
    ...(options.browserModelContext !== undefined ? { browserModelContext: options.browserModelContext } : {}),
  });
  const relay = new RelayConnection({ assetsBase, relayPort, loader, window: win, clock, discovery: autoReconnect ? 'probe' : 'widget' });
  const keeper = autoReconnect ? createRelayKeeper({ window: win, clock, relay, anyOn: options.anyOn }) : null;
  keeper?.update();
  return {
    modelContext,
    relay,
    queue: createConfirmationQueue({ clock, store: options.confirmationState }),
    createSessionEngine,
    update: () => keeper?.update(),
    dispose() {
      keeper?.dispose();
      relay.dispose();
    },
  };
}

/** What {@link createRelayKeeper} answers: follow the switches, and stop. */
export interface RelayKeeper {
  /** Starts the 2 s checks while any switch is on or starting, stops them otherwise. */
  update(): void;
  /** Stops the checks and removes the listeners. */
  dispose(): void;
}

/**
 * Finds a relay started after the page (RELAY-5, the runtime's `autoReconnect`): while a switch is
 * on and the page visible, the relay port is checked every 2 s until a relay answered; the widget
 * is re-created when the page becomes visible or focused (at most every 3 s).
 */
export function createRelayKeeper(options: { window: Window; clock: Clock; relay: RelayConnection; anyOn(): boolean }): RelayKeeper {
  const { window: win, clock, relay, anyOn } = options;
  const visible = () => win.document.visibilityState === 'visible';
  let disposed = false;
  let poll: unknown = null;
  const check = () => {
    poll = clock.setTimeout(check, 2000);
    if (visible() && !relay.isConnected()) void relay.discover();
  };
  let last = -Infinity;
  const wake = () => {
    if (disposed || !visible() || !anyOn() || relay.isConnected()) return;
    if (clock.now() - last < 3000) return;
    last = clock.now();
    void relay.reconnect().catch(() => {});
  };
  win.document.addEventListener('visibilitychange', wake);
  win.addEventListener('focus', wake);
  const stop = () => {
    if (poll !== null) clock.clearTimeout(poll);
    poll = null;
  };
  return {
    update() {
      if (disposed) return;
      if (!anyOn()) stop();
      else if (poll === null) poll = clock.setTimeout(check, 2000);
    },
    dispose() {
      disposed = true;
      stop();
      win.document.removeEventListener('visibilitychange', wake);
      win.removeEventListener('focus', wake);
    },
  };
}
