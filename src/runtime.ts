/**
 * The page-wide runtime: one confirmation queue, one log, one relay connection, and a session per
 * tool. A page hands its definitions over from a plain module (SHAPE-5):
 * `provideOperations('sql', createSqlOperations(deps))`.
 * @module
 */
import { systemClock, type Clock } from './clock.js';
import { createConfirmationQueue, type ConfirmationQueue } from './confirmation-queue.js';
import { isValidName, type AnyOperationDefinition } from './definition.js';
import { isEmbedded } from './embedding.js';
import { createModelContextProvider, type ModelContextLike, type ModelContextProvider } from './model-context.js';
import { RelayConnection, type RelayConnector, type RelayOptions } from './relay-connection.js';
import { createOperationLog, type OperationLog } from './operation-log.js';
import { createPermissionStore } from './permission-store.js';
import { createDomScriptLoader, type ScriptLoader } from './script-loader.js';
import { createStore, type ReadableStore } from './store.js';
import { createToolSession, type ToolSession } from './tool-session.js';

/** Everything the runtime touches, injectable for tests. */
export interface AiOpsOptions extends RelayOptions {
  window?: Window;
  /** Default `window.localStorage`; null keeps the switches for the page's lifetime only (PERM-8). */
  storage?: Storage | null;
  clock?: Clock;
  loader?: ScriptLoader;
  /** Overrides the embedding check (tests). */
  embedded?: boolean;
  /**
   * Find a relay started after the page (RELAY-5): the widget waits idle until something answers on
   * the relay port, checked every 2 s while a switch is on, the page is visible and no relay answered
   * yet, and re-created when the page becomes visible or focused. Default true; false leaves the
   * widget to search by itself.
   */
  autoReconnect?: boolean;
  /**
   * The browser's own model context; default: detected when a switch first turns on. Null forces the
   * polyfill's path (tests).
   */
  browserModelContext?: ModelContextLike | null;
}

/** The runtime of one page. */
export interface AiOps {
  /** True inside a frame: nothing is read, loaded or registered (SW-5). */
  readonly embedded: boolean;
  readonly confirmations: ConfirmationQueue;
  readonly log: OperationLog;
  readonly relay: RelayConnector;
  /** Where the operations are registered: the browser's own WebMCP, or the polyfill's (NAT-1). */
  readonly modelContext: ModelContextProvider;
  /** The relay port the widget tries first, for the connection instructions (LOG-2). */
  readonly relayPort: number;
  /** The tools of the page, in the order they were provided. */
  readonly sessions: ReadableStore<readonly ToolSession[]>;
  /**
   * Hands a tool's definitions to the runtime; when the stored switch is on, they are registered
   * at once (REG-2). Throws on a programming error: a bad or repeated tool name, a name without the
   * `<tool>_` prefix or outside `[a-z0-9_]` (DEF-2).
   */
  provideOperations(tool: string, definitions: readonly AnyOperationDefinition[]): ToolSession;
  getSession(tool: string): ToolSession | undefined;
  /** True while any switch of the page is on or starting. */
  anyOn(): boolean;
  /**
   * Ends the runtime: every tool is unregistered and its waiting confirmations declined (the stored
   * switches are kept), the relay widget is removed, and every listener and timer it added is gone.
   */
  dispose(): void;
}

/**
 * Creates a runtime. Most pages use the default one through {@link provideOperations}.
 * @example
 * const aiOps = createAiOps({ assetsBase: '/static/ai-ops/', relayPort: 9333 });
 * aiOps.provideOperations('slides', createSlidesOperations(adapter));
 */
export function createAiOps(options: AiOpsOptions = {}): AiOps {
  const win = options.window ?? window;
  const clock = options.clock ?? systemClock;
  const embedded = options.embedded ?? isEmbedded(win);
  const relayPort = options.relayPort ?? 9333;
  const confirmations = createConfirmationQueue({ clock });
  const log = createOperationLog();
  const autoReconnect = !embedded && options.autoReconnect !== false;
  const loader = options.loader ?? createDomScriptLoader(win.document);
  const modelContext = createModelContextProvider({
    loader,
    window: win,
    clock,
    assetsBase: options.assetsBase,
    ...(options.browserModelContext !== undefined ? { browserModelContext: options.browserModelContext } : {}),
  });
  const relay = new RelayConnection({
    assetsBase: options.assetsBase,
    relayPort,
    loader,
    window: win,
    clock,
    discovery: autoReconnect ? 'probe' : 'widget',
  });
  let disposed = false;
  const sessions = createStore<readonly ToolSession[]>([]);

  const anyOn = () => sessions.getState().some((s) => s.getState().status !== 'off');
  const visible = () => win.document.visibilityState === 'visible';
  let poll: unknown = null;
  const check = () => {
    poll = clock.setTimeout(check, 2000);
    if (visible() && !relay.isConnected()) void relay.discover();
  };
  const onStatusChange = () => {
    if (disposed) return;
    // SW-7: the last switch off removes the widget, so nothing talks to the relay port.
    if (!anyOn()) {
      relay.disconnect();
      if (poll !== null) clock.clearTimeout(poll);
      poll = null;
    } else if (autoReconnect && poll === null) poll = clock.setTimeout(check, 2000);
  };

  let last = -Infinity;
  const wake = () => {
    if (disposed || !visible() || !anyOn() || relay.isConnected()) return;
    if (clock.now() - last < 3000) return;
    last = clock.now();
    void relay.reconnect().catch(() => {});
  };
  if (autoReconnect) {
    win.document.addEventListener('visibilitychange', wake);
    win.addEventListener('focus', wake);
  }

  return {
    embedded,
    confirmations,
    log,
    relay,
    modelContext,
    relayPort,
    sessions,
    provideOperations(tool, definitions) {
      if (disposed) throw new Error('ai-ops: this runtime was disposed');
      if (!isValidName(tool)) throw new TypeError(`ai-ops: tool name must match [a-z0-9_]+: ${JSON.stringify(tool)}`);
      if (sessions.getState().some((s) => s.tool === tool)) throw new Error(`ai-ops: operations of ${tool} were provided already`);
      const operations = new Map<string, AnyOperationDefinition>();
      for (const definition of definitions) {
        const { name } = definition;
        if (!isValidName(name) || !name.startsWith(`${tool}_`)) {
          throw new TypeError(`ai-ops: ${JSON.stringify(name)} must start with "${tool}_" and use only [a-z0-9_]`);
        }
        if (operations.has(name)) throw new Error(`ai-ops: ${name} is defined twice`);
        operations.set(name, definition);
      }
      const permission = embedded
        ? createPermissionStore({ tool, storage: null, clock, events: null })
        : createPermissionStore({ tool, storage: options.storage, clock, events: win });
      const session = createToolSession({ tool, definitions: operations, permission, confirmations, log, modelContext, relay, clock, embedded, onStatusChange });
      sessions.setState([...sessions.getState(), session]);
      return session;
    },
    getSession: (tool) => sessions.getState().find((s) => s.tool === tool),
    anyOn,
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const session of sessions.getState()) session.dispose();
      if (poll !== null) clock.clearTimeout(poll);
      poll = null;
      win.document.removeEventListener('visibilitychange', wake);
      win.removeEventListener('focus', wake);
      relay.dispose();
    },
  };
}

let defaultRuntime: AiOps | null = null;
let defaultOptions: AiOpsOptions = {};

/**
 * Sets the options of the default runtime; call it before the first {@link provideOperations}.
 * @example configureAiOps({ assetsBase: '/vendor/ai-ops/', relayPort: 9400 });
 */
export function configureAiOps(options: AiOpsOptions): void {
  if (defaultRuntime) throw new Error('ai-ops: configureAiOps must be called before the default runtime is used');
  defaultOptions = options;
}

/** The page's default runtime, created on first use. */
export function getAiOps(): AiOps {
  defaultRuntime ??= createAiOps(defaultOptions);
  return defaultRuntime;
}

/**
 * Hands a tool's definitions to the default runtime, from a plain module at initialisation (SHAPE-5).
 * @example
 * // sql-state.ts
 * provideOperations('sql', createSqlOperations({ getSql: () => editor.sql, run }));
 */
export function provideOperations(tool: string, definitions: readonly AnyOperationDefinition[]): ToolSession {
  return getAiOps().provideOperations(tool, definitions);
}
