/**
 * One tool's lifecycle and call path: the permission store drives it (on → load scripts and
 * register; off → unregister, decline waiting confirmations), and every call goes through
 * {@link runCall} and lands in the log (SW-2..SW-4, REG-1..REG-5).
 * @module
 */
import type { CompiledOperation } from './call.js';
import type { AnyOperationDefinition } from './definition.js';
import type { Clock } from './clock.js';
import type { ConfirmationQueue } from './confirmation-queue.js';
import type { OperationLog } from './operation-log.js';
import type { PermissionStore } from './permission-store.js';
import { ErrorCode, describeError, fail, serialize } from './result.js';
import { createStore, type ReadableStore } from './store.js';
import { toCallToolResult, type ModelContextProvider } from './model-context.js';
import type { RelayConnector } from './relay-connection.js';

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
  // switch-on or call: a page whose switches stay off never downloads it.
  let pipeline: Promise<{
    operations: Map<string, CompiledOperation>;
    runCall: typeof import('./call.js').runCall;
    publishedSchema: typeof import('./validation.js').publishedSchema;
  }> | null = null;
  const loadPipeline = () =>
    (pipeline ??= Promise.all([import('./call.js'), import('./validation.js')]).then(([call, validation]) => ({
      operations: new Map([...definitions].map(([name, definition]) => [name, call.compileOperation(definition)])),
      runCall: call.runCall,
      publishedSchema: validation.publishedSchema,
    })).catch((error) => {
      pipeline = null;
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
    if (!definitions.has(name)) return serialize(fail(ErrorCode.notFound, `${tool} has no operation ${name}`));
    let loaded;
    try {
      loaded = await loadPipeline();
    } catch (error) {
      return serialize(fail(ErrorCode.failed, `the ai-ops call path could not be loaded: ${describeError(error)}`));
    }
    const { result, json } = await loaded.runCall(loaded.operations.get(name)!, input, {
      // SAFE-1: a switch turned off leaves `permission` disabled at once; read at every step.
      isEnabled: () => permission.isEnabled(),
      skipsConfirmation: () => permission.skipsConfirmation(),
      async confirm(request) {
        const answer = await confirmations.request({ tool, name: request.name, content: request.content, arrivedAt, signal: request.signal });
        if (!answer) return null;
        if (answer.skipFuture) permission.skipConfirmations();
        return answer.done;
      },
    }, { signal });
    log.add({ time: clock.now(), tool, name, args: input, result });
    return { result, json };
  };

  const start = async () => {
    const controller = new AbortController();
    registration = controller;
    update({ status: 'starting', error: null });
    try {
      const [modelContext, { operations, publishedSchema }] = await Promise.all([provider.ensure(), loadPipeline()]);
      if (controller.signal.aborted) return;
      // All together rather than one after another, so an agent listing the tools while they are
      // being registered does not find a part of them for long.
      await Promise.all([...operations].map(([name, { definition }]) =>
        modelContext.registerTool(
          {
            name,
            description: definition.description,
            inputSchema: publishedSchema(definition.inputSchema),
            // DEF-4, NAT-1: passed as written, even the hints the installed polyfill drops.
            ...(definition.annotations ? { annotations: { ...definition.annotations } } : {}),
            // The browser's own API passes the call's signal (NAT-2); the polyfill passes none.
            execute: async (args: unknown, options?: { signal?: AbortSignal }) => {
              const { result, json } = await call(name, args, { signal: options?.signal });
              return toCallToolResult(json, result.ok);
            },
          },
          { signal: controller.signal },
        )));
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
    async call(name, input, options) {
      return (await call(name, input, options)).json;
    },
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
