/**
 * The page-wide runtime: one log, a session per tool, which tool pages are shown (`attach`,
 * APP-1), and the one on-demand part (`on-demand.ts`: the relay connection, the confirmation queue,
 * the call path), loaded once and handed to the sessions. A page hands its definitions over from a
 * plain module (SHAPE-5): `provideOperations('sql', createSqlOperations(deps))`.
 * @module
 */
import { systemClock, type Clock } from './clock.js';
import type { PageCapabilities } from './capabilities.js';
import type { ConfirmationState } from './confirmation-queue.js';
import { DEFAULT_RELAY_PORT } from './defaults.js';
import { isValidName, type AnyOperationDefinition } from './definition.js';
import { isEmbedded } from './embedding.js';
import type { ModelContextLike } from './model-context.js';
import type { RelayOptions } from './relay-connection.js';
import type { OnDemandParts } from './on-demand.js';
import { createOperationLog, type OperationLog } from './operation-log.js';
import { createPermissionStore } from './permission-store.js';
import type { ScriptLoader } from './script-loader.js';
import { createStore, readableStore, type ReadableStore, type WritableStore } from './store.js';
import { createToolSession, type ToolSession } from './tool-session.js';
import type { UndoAnswer } from './undo-keeper.js';
import type { ConsentStore } from './consent-store.js';
import type { ConsentOption, UserVerifier } from './user-verifier.js';
import { nativeWebAuthn } from './native-webauthn.js';

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
  /** What the kept before-states of all tools may hold together (UNDO-4); default 64 MB (tests pass less). */
  undoBudgetBytes?: number;
  /**
   * Whose consent counts (UV-2): `auto` (default) and `verified` ask the platform's user
   * verification (WebAuthn) for every switch-on and approval, whoever drives the browser; where it
   * cannot happen the switch stays off and says why (UV-4). `click` never asks — the page author's
   * explicit opt-out, for their own test rigs. One mode for every tool, or per tool: `{ sample: 'click' }`.
   */
  consent?: ConsentOption;
  /** The page's verifier (tests); default WebAuthn on this origin, loaded on demand. Null: none. */
  verifier?: UserVerifier | null;
  /** Where the enrolment and the receipts are kept (UV-8; tests); default IndexedDB, out of reach of a program that only writes storage. */
  consentStore?: ConsentStore;
  /** Overrides `navigator.webdriver` (tests). */
  automated?: boolean;
  /**
   * How long one platform verification may wait for the user before it counts as their "no"
   * (UV-10); default 50 s, CONF-8's. Tests pass seconds, as they pass a clock.
   */
  verificationTimeoutMs?: number;
}

/** The runtime of one page. */
export interface AiOps {
  /** True inside a frame: nothing is read, loaded or registered (SW-5). */
  readonly embedded: boolean;
  /** What the dialog shows: the request it asks about and those waiting behind it (read-only). */
  readonly confirmations: ReadableStore<ConfirmationState>;
  readonly log: OperationLog;
  /**
   * What the page's elements may do once the on-demand part loaded (the first switch-on or call):
   * decide the dialog's requests, reconnect the relay, show and remove the enrolled key, say where
   * the operations are registered. Null before.
   */
  readonly capabilities: ReadableStore<PageCapabilities | null>;
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
  /**
   * Says that a view of `tool` — its `<ai-ops-switch>`, which calls this when it connects — is in the
   * document, until the returned function is called (APP-1, APP-2). A tool's operations are exposed
   * while at least one view is attached, or while none ever was (a page that never attaches one
   * behaves as before). When the last view goes, the tool is withdrawn a task later (the injected
   * clock's 0 ms), so React StrictMode's unmount–mount, or a route that mounts the page again at
   * once, changes nothing: withdrawn is what switching off does to its registrations and to its
   * waiting or queued confirmations (they answer `declined`; a call already executing runs to its
   * end), while its stored switch and its log rows stay. When a view attaches again and the stored
   * switch is still on, the operations are registered again with no click. Calling the returned
   * function more than once does nothing.
   * @example
   * const detach = aiOps.attach('sql'); // the SQL page mounted
   * detach();                           // it unmounted: withdrawn a task later unless it came back
   */
  attach(tool: string): () => void;
  /** True while any switch of the page is on or starting. */
  anyOn(): boolean;
  /**
   * The user's 「元に戻す」 of log row `id` (UNDO-1..UNDO-3; the log element calls it on a trusted
   * click): refuses a row that is not `available`, asks in the page's dialog when later changes of
   * the same target would go too, undoes newest first and logs each undo as the user's own row.
   * Resolves to what happened; never rejects. No operation can reach it.
   * @example const answer = await aiOps.undo(entry.id); // { status: 'undone', undone: [7] }
   */
  undo(id: number): Promise<UndoAnswer>;
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
  const relayPort = options.relayPort ?? DEFAULT_RELAY_PORT;
  const log = createOperationLog();
  const autoReconnect = !embedded && options.autoReconnect !== false;
  let disposed = false;

  // The on-demand part (PKG-4, see on-demand.ts), loaded once, on the first switch-on or call, and
  // handed to the sessions.
  let parts: OnDemandParts | null = null;
  let loading: Promise<OnDemandParts> | null = null;
  const confirmationState = createStore<ConfirmationState>({ current: null, queued: [] });
  const capabilities = createStore<PageCapabilities | null>(null);
  const load = () =>
    (loading ??= (loadingOnDemand(), import('./on-demand.js')).then((onDemand) => {
      // UV-15: the platform's WebAuthn as it was when the runtime loaded, before an agent's later replacement.
      parts ??= onDemand.createOnDemandParts({ ...options, window: win, clock, relayPort, autoReconnect, confirmationState, anyOn, anyEnabled, log, nativeWebAuthn });
      if (disposed) parts.dispose();
      capabilities.setState(parts.capabilities);
      return parts;
    }).catch((error: unknown) => {
      loading = null;
      throw error;
    }));

  const sessions = createStore<readonly ToolSession[]>([]);
  // APP-1: per tool, how many views are attached, and whether its page counts as shown.
  const pages = new Map<string, { views: number; shown: WritableStore<boolean> }>();
  const pageOf = (tool: string) => {
    let page = pages.get(tool);
    if (!page) pages.set(tool, (page = { views: 0, shown: createStore(true) }));
    return page;
  };

  const anyOn = () => sessions.getState().some((s) => s.getState().status !== 'off');
  // DOOR-6: a switch that is on while its page is not shown (APP-1) keeps the relay pairing.
  const anyEnabled = () => sessions.getState().some((s) => s.permission.getState().enabled);
  const onStatusChange = () => {
    // SW-7: the last switch off removes the widget (on-demand.ts), so nothing talks to the relay port.
    if (!disposed) parts?.update();
  };

  return {
    embedded,
    // Read-only: the decisions are the dialog's, through capabilities (nothing forwards them).
    confirmations: readableStore(confirmationState),
    capabilities: readableStore(capabilities),
    // Read-only: the writes stay with the runtime's parts (the session's call, the undo keeper).
    log: log.reader,
    relayPort,
    // Read-only too: the list changes only through provideOperations and dispose.
    sessions: readableStore(sessions),
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
      // SW-5: an embedded page reads and writes no stored state, nor follows other tabs.
      const permission = createPermissionStore({ tool, storage: embedded ? null : options.storage, clock, events: embedded ? null : win });
      const session = createToolSession({
        tool, definitions: operations, permission, log, clock, embedded, onStatusChange, shown: pageOf(tool).shown, load,
      });
      sessions.setState([...sessions.getState(), session]);
      return session;
    },
    getSession: (tool) => sessions.getState().find((s) => s.tool === tool),
    attach(tool) {
      const page = pageOf(tool);
      page.views++;
      page.shown.setState(true);
      let attached = true;
      return () => {
        if (!attached) return;
        attached = false;
        page.views--;
        clock.setTimeout(() => page.shown.setState(page.views > 0), 0);
      };
    },
    anyOn,
    undo: (id) => load().then((p) => p.undo(id)),
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const session of sessions.getState()) session.dispose();
      parts?.dispose();
    },
  };
}

// What loads with the on-demand part besides the runtime's own (the elements' dialog and log,
// elements/define.ts); null once a runtime of this page has begun to load it.
let alsoOnDemand: (() => void)[] | null = [];
const loadingOnDemand = () => {
  const listeners = alsoOnDemand;
  alsoOnDemand = null;
  listeners?.forEach((listener) => listener());
};

/**
 * Runs `listener` once, when a runtime of this page first loads its on-demand part (its first
 * switch-on or call), or at once if one has: the page's one moment for what a page whose switches
 * are all off does not download (PKG-4). `elements/define.ts` loads the dialog and the log with it.
 * @example whenOnDemand(() => void import('./my-panel.js'));
 */
export function whenOnDemand(listener: () => void): void {
  if (alsoOnDemand) alsoOnDemand.push(listener);
  else listener();
}

let defaultRuntime: AiOps | null = null;
let defaultOptions: AiOpsOptions = {};

/**
 * Sets the options of the default runtime; call it before the first {@link provideOperations}.
 * @example configureAiOps({ assetsBase: '/vendor/ai-ops/', relayPort: 9400 });
 */
export function configureAiOps(options: AiOpsOptions): void {
  if (defaultRuntime) throw new Error('ai-ops: call configureAiOps before the default runtime is used');
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
