/**
 * What the runtime needs only once a switch is on (or a call arrives): the polyfill and relay
 * loading, the registration and the call path. The runtime and the sessions import this module on
 * demand, so a page whose switches are all off never downloads it (PKG-4).
 * @module
 */
import type { Clock } from './clock.js';
import { createModelContextProvider, type ModelContextLike, type ModelContextProvider } from './model-context.js';
import { RelayConnection } from './relay-connection.js';
import { createDomScriptLoader, type ScriptLoader } from './script-loader.js';

export { createSessionEngine } from './session-engine.js';
export { createConfirmationQueue } from './confirmation-queue.js';

/** What {@link createActiveParts} needs from the runtime's options. */
export interface ActivePartsOptions {
  window: Window;
  clock: Clock;
  loader?: ScriptLoader;
  assetsBase?: string;
  relayPort: number;
  discovery: 'widget' | 'probe';
  browserModelContext?: ModelContextLike | null;
}

/** The model context provider and relay connection of one runtime, sharing one script loader. */
export function createActiveParts(options: ActivePartsOptions): { modelContext: ModelContextProvider; relay: RelayConnection } {
  const { window: win, clock, assetsBase, relayPort, discovery } = options;
  const loader = options.loader ?? createDomScriptLoader(win.document);
  const modelContext = createModelContextProvider({
    loader,
    window: win,
    clock,
    assetsBase,
    ...(options.browserModelContext !== undefined ? { browserModelContext: options.browserModelContext } : {}),
  });
  return { modelContext, relay: new RelayConnection({ assetsBase, relayPort, loader, window: win, clock, discovery }) };
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
