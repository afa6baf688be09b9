/**
 * One tool's lifecycle and call path: the permission store drives it (on → load scripts and
 * register; off → unregister, decline waiting confirmations), and every call goes through
 * {@link runCall} and lands in the log (SW-2..SW-4, REG-1..REG-5).
 * @module
 */
import type { AnyOperationDefinition } from './definition.js';
import type { Clock } from './clock.js';
import type { ConfirmationQueue } from './confirmation-queue.js';
import type { OperationLog } from './operation-log.js';
import type { PermissionStore } from './permission-store.js';
import { ErrorCode, describeError, fail } from './result.js';
import { createStore, type ReadableStore } from './store.js';
import type { ModelContextProvider } from './model-context.js';
import type { RelayConnector } from './relay-connection.js';
import type { SessionEngine } from './session-engine.js';

/** `off`, `starting` (scripts loading, tools registering) or `on`. */
export type SessionStatus = 'off' | 'starting' | 'on';

/** What a switch renders. */
export interface ToolSessionState {
  readonly tool: string;
  readonly status: SessionStatus;
  /** Why the last start failed (SW-4); cleared when the switch is turned on again. */
  readonly error: string | null;
  /** True inside a frame: nothing renders, loads or registers (SW-5). */
  readonly embedded: boolean;
  /** Names of the operations this tool provides. */
  readonly operations: readonly string[];
}

/** A tool of the page. */
export interface ToolSession extends ReadableStore<ToolSessionState> {
  readonly tool: string;
  readonly permission: PermissionStore;
  /** The user turned the switch on. */
  turnOn(): void;
  /** The user turned the switch off (deletes the stored key, PERM-6). */
  turnOff(): void;
  /**
   * Calls an operation through the whole pipeline, as an agent would; resolves to the JSON
   * envelope. `signal` is the caller's cancellation (NAT-2).
   */
  call(name: string, input: unknown, options?: { signal?: AbortSignal }): Promise<string>;
  /** Unregisters and stops following the permission store; the stored switch is kept (runtime `dispose`). */
  dispose(): void;
}

/** What a session needs from the page-wide runtime. */
export interface ToolSessionDeps {
  tool: string;
  /** The definitions by name; their schemas are compiled once, when first needed. */
  definitions: ReadonlyMap<string, AnyOperationDefinition>;
  permission: PermissionStore;
  confirmations: ConfirmationQueue;
  log: OperationLog;
  /** Where the tools are registered: the browser's own WebMCP or the polyfill's (NAT-1). */
  modelContext: ModelContextProvider;
  relay: RelayConnector;
  clock: Clock;
  embedded: boolean;
  /** Called after every status change, so the runtime can drop the relay when all are off. */
  onStatusChange(): void;
}

/** Creates a session; it starts at once when the stored permission is on (REG-2). */
export function createToolSession(deps: ToolSessionDeps): ToolSession {
  const { tool, definitions, permission, confirmations, log, modelContext: provider, relay, clock, embedded } = deps;
  const store = createStore<ToolSessionState>({
    tool,
    status: 'off',
    error: null,
    embedded,
    operations: [...definitions.keys()],
  });
  // The call path (validator included) is loaded and the schemas compiled once, on the first
  // switch-on or call: a page whose switches stay off never downloads it. It is the runtime's
  // on-demand chunk (src/active.ts), shared with the relay and polyfill loading (PKG-4).
  let engine: Promise<SessionEngine> | null = null;
  const loadEngine = () =>
    (engine ??= import('./active.js').then((active) => active.createSessionEngine({ tool, definitions, permission, confirmations, log, clock }))
      .catch((error) => {
        engine = null;
        throw error;
      }));
  const update = (patch: Partial<ToolSessionState>) => {
    store.setState({ ...store.getState(), ...patch });
    deps.onStatusChange();
  };
  let registration: AbortController | null = null;

  const call = async (name: string, input: unknown, { signal }: { signal?: AbortSignal } = {}) => {
    // SAFE-2: the 50 s of CONF-8 run from here, loading, validation and prepare included.
    const arrivedAt = clock.now();
    if (!definitions.has(name)) return JSON.stringify(fail(ErrorCode.notFound, `${tool} has no operation ${name}`));
    let loaded;
    try {
      loaded = await loadEngine();
    } catch (error) {
      return JSON.stringify(fail(ErrorCode.failed, `the ai-ops call path could not be loaded: ${describeError(error)}`));
    }
    return (await loaded.call(name, input, { signal, arrivedAt })).json;
  };

  const start = async () => {
    const controller = new AbortController();
    registration = controller;
    update({ status: 'starting', error: null });
    try {
      const [modelContext, loaded] = await Promise.all([provider.ensure(), loadEngine()]);
      if (controller.signal.aborted) return;
      await loaded.register(modelContext, controller.signal);
      if (controller.signal.aborted) return;
      await relay.connect();
      if (!controller.signal.aborted) update({ status: 'on' });
    } catch (error) {
      if (controller.signal.aborted) return;
      // SW-4: back off (which deletes the stored key), and say why under the switch.
      controller.abort();
      registration = null;
      store.setState({ ...store.getState(), status: 'off', error: describeError(error) });
      permission.disable();
      deps.onStatusChange();
    }
  };

  const stop = () => {
    registration?.abort(); // REG-1: aborting the signal unregisters every tool of this session
    registration = null;
    confirmations.declineTool(tool); // SW-3: waiting and queued confirmations answer declined
    if (store.getState().status !== 'off') update({ status: 'off' });
  };

  const sync = () => {
    const { enabled } = permission.getState();
    const { status } = store.getState();
    if (enabled && status === 'off' && !registration) void start();
    else if (!enabled && (status !== 'off' || registration)) stop();
  };

  let unsubscribe = () => {};
  if (!embedded) {
    unsubscribe = permission.subscribe(sync);
    sync();
  }

  return {
    tool,
    permission,
    getState: store.getState,
    getSnapshot: store.getSnapshot,
    subscribe: store.subscribe,
    turnOn() {
      if (embedded) return;
      if (store.getState().error) store.setState({ ...store.getState(), error: null });
      if (!permission.getState().enabled) permission.enable();
    },
    turnOff() {
      permission.disable();
    },
    call,
    dispose() {
      unsubscribe();
      // Unregisters and declines like a switch-off, but the stored "on" stays for the next page.
      registration?.abort();
      registration = null;
      confirmations.declineTool(tool);
      if (store.getState().status !== 'off') store.setState({ ...store.getState(), status: 'off' });
      permission.dispose();
    },
  };
}
