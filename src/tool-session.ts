/**
 * One tool of the page: its status and its permission (SW-2..SW-4, REG-1..REG-5, APP-1). The stored
 * switch and the page being shown drive it: on → the runtime's on-demand part (`on-demand.ts`)
 * loads the scripts and registers the session's operations (`session-operations.ts`); off, or the
 * page left → they are unregistered and its waiting confirmations declined.
 * @module
 */
import type { AnyOperationDefinition } from './definition.js';
import type { Clock } from './clock.js';
import type { OperationLogWriter } from './operation-log.js';
import type { PermissionStore } from './permission-store.js';
import { ErrorCode, describeError, fail } from './result.js';
import { createStore, readableStore, type ReadableStore } from './store.js';
import type { ConsentNotice } from './consent-words.js';
import type { OnDemandParts } from './on-demand.js';
import type { SessionOperations } from './session-operations.js';

/** `off`, `starting` (scripts loading, tools registering) or `on`. */
export type SessionStatus = 'off' | 'starting' | 'on';

/** What a switch renders. */
export interface ToolSessionState {
  readonly tool: string;
  readonly status: SessionStatus;
  /** Why the last start failed (SW-4), for the developer (English); cleared when the switch is turned on again. */
  readonly error: string | null;
  /**
   * Why consent kept the switch off (UV-4), for the person: a code and values the switch words
   * from its strings; absent when the failure was not consent's (then `error` is all there is).
   */
  readonly reason?: ConsentNotice;
  /** True inside a frame: nothing renders, loads or registers (SW-5). */
  readonly embedded: boolean;
  /** Names of the operations this tool provides. */
  readonly operations: readonly string[];
}

/** A tool of the page. */
export interface ToolSession extends ReadableStore<ToolSessionState> {
  readonly tool: string;
  readonly permission: PermissionStore;
  /**
   * The user turned the switch on. Where user verification applies (UV-1) the on-demand part asks
   * the platform authenticator first, and the switch stays off (with the reason as `error`) unless
   * it verified; resolves once that is decided. Never rejects.
   */
  turnOn(): Promise<void>;
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
  log: OperationLogWriter;
  clock: Clock;
  embedded: boolean;
  /** Called after every status change, so the runtime can drop the relay when all are off. */
  onStatusChange(): void;
  /** Whether the tool's page is shown (APP-1, the runtime's `attach`): the operations are exposed only then. */
  shown: ReadableStore<boolean>;
  /** The runtime's on-demand part (`on-demand.ts`), loaded once per runtime on the first switch-on or call. */
  load(): Promise<OnDemandParts>;
}

/** Creates a session; it starts at once when the stored permission is on (REG-2). */
export function createToolSession(deps: ToolSessionDeps): ToolSession {
  const { tool, definitions, permission, log, clock, embedded, shown, load } = deps;
  // SAFE-1, APP-1: a call goes on only while the switch is on and the page shown.
  const isEnabled = () => permission.isEnabled() && shown.getState();
  const store = createStore<ToolSessionState>({
    tool,
    status: 'off',
    error: null,
    embedded,
    operations: [...definitions.keys()],
  });
  // The on-demand part once this session used it, and the session's compiled operations in it.
  let active: OnDemandParts | null = null;
  let operations: SessionOperations | null = null;
  const operationsIn = (parts: OnDemandParts) => {
    active = parts;
    return (operations ??= parts.createSessionOperations({ tool, definitions, permission, isEnabled, confirmations: parts.queue, log, clock }));
  };
  const update = (patch: Partial<ToolSessionState>) => {
    store.setState({ ...store.getState(), ...patch });
    deps.onStatusChange();
  };
  let registration: AbortController | null = null;

  const call = async (name: string, input: unknown, { signal }: { signal?: AbortSignal } = {}) => {
    // SAFE-2: the 50 s of CONF-8 run from here, loading, validation and prepare included.
    const arrivedAt = clock.now();
    let loaded;
    try {
      loaded = operationsIn(await load());
    } catch (error) {
      return JSON.stringify(fail(ErrorCode.failed, `could not load the ai-ops call path: ${describeError(error)}`));
    }
    return (await loaded.call(name, input, { signal, arrivedAt })).json;
  };

  // `asked`: the user's switch-on, which the consent gate turns into the stored permission first,
  // verified where that applies (UV-1); meanwhile the switch is starting, and a turn-off aborts it.
  const start = async (asked?: boolean) => {
    const controller = new AbortController();
    registration = controller;
    update({ status: 'starting', error: null, reason: undefined });
    try {
      const parts = await load();
      if (asked) await parts.consent.permit(tool, permission, controller.signal);
      const loaded = operationsIn(parts);
      const modelContext = await parts.modelContext.ensure();
      if (controller.signal.aborted) return;
      await loaded.register(modelContext, controller.signal);
      if (controller.signal.aborted) return;
      // The loaded connection itself, with no wait after the check above: a switch-off cannot slip in.
      await parts.relay.connect();
      if (!controller.signal.aborted) update({ status: 'on' });
    } catch (error) {
      if (controller.signal.aborted) return;
      // SW-4: back off (which deletes the stored key), and say why under the switch.
      controller.abort();
      registration = null;
      // A refused consent carries its notice (consent-words.ts), read without importing it (PKG-4).
      update({ status: 'off', error: describeError(error), reason: (error as { notice?: ConsentNotice }).notice });
      permission.disable();
    }
  };

  const stop = () => {
    active?.queue.declineTool(tool); // SW-3: waiting and queued confirmations answer declined
    // REG-1: aborting the signal unregisters every tool of this session, once its calls answered (APP-1).
    if (operations) operations.withdraw(registration);
    else registration?.abort();
    registration = null;
    if (store.getState().status !== 'off') update({ status: 'off' });
  };

  // Exposed while the switch is on and the page shown; withdrawn otherwise, as switching off does
  // (APP-1: a page left keeps its stored switch, so coming back registers again with no click).
  const sync = () => {
    const wanted = permission.getState().enabled && shown.getState();
    const { status } = store.getState();
    if (wanted && status === 'off' && !registration) void start();
    else if (!wanted && (status !== 'off' || registration)) stop();
  };

  let unsubscribe = () => {};
  if (!embedded) {
    const offPermission = permission.subscribe(sync);
    const offShown = shown.subscribe(sync);
    unsubscribe = () => {
      offPermission();
      offShown();
    };
    sync();
  }

  return {
    tool,
    permission,
    ...readableStore(store),
    turnOn: () => (embedded || registration || permission.getState().enabled ? Promise.resolve() : start(true)),
    turnOff() {
      permission.disable();
      sync(); // a switch-on still being verified has no stored value to remove: stop it here
    },
    call,
    dispose() {
      unsubscribe();
      // Unregisters and declines as a switch-off does, but the stored "on" stays for the next page.
      stop();
      permission.dispose();
    },
  };
}
