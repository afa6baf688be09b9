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
