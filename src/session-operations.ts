/**
 * A session's operations in the on-demand part (`on-demand.ts`): its definitions compiled once,
 * each call run through the pipeline (`pipeline.ts`) with the session's switch, dialog and consent
 * as its hooks, and logged; and their registration in the model context (REG-1, APP-1). The
 * session itself (`tool-session.ts`) keeps the status and the permission.
 * @module
 */
import type { Clock } from './clock.js';
import type { BatchApproval, PageConfirmationQueue } from './confirmation-queue.js';
import type { ConsentGate } from './consent-gate.js';
import type { Receipt } from './consent-proof.js';
import type { AnyOperationDefinition } from './definition.js';
import { describeCall } from './log-entry.js';
import { toCallToolResult, type ModelContextLike } from './model-context.js';
import type { CallVia, OperationLogWriter } from './operation-log.js';
import type { PermissionStore } from './permission-store.js';
import { compileOperation, outcomeOf, serialize, settleCall } from './pipeline.js';
import { ErrorCode, describeError, fail, type OperationResult } from './result.js';
import { publishedSchema } from './schema.js';
import type { UndoKeeper } from './undo-keeper.js';

/** What a session's operations need from the session. */
export interface SessionOperationsDeps {
  tool: string;
  definitions: ReadonlyMap<string, AnyOperationDefinition>;
  permission: PermissionStore;
  /** False once the call may not go on: the switch is off or expired, or the page left (SAFE-1, APP-1). */
  isEnabled(): boolean;
  confirmations: PageConfirmationQueue;
  log: OperationLogWriter;
  clock: Clock;
  /** The runtime's undo keeper: a logged row owns its call's undo step (UNDO-1). */
  keeper: UndoKeeper;
  /** The runtime's consent gate: whether a stored skip choice counts (UV-3). */
  consent: ConsentGate;
  /** Names the channel a registrar reported (DOOR-10: `relay` with the connected agent); default as reported. */
  channel?: (via: CallVia) => CallVia;
}

/** Where and when a call entered the runtime. */
export interface CallEntry {
  signal?: AbortSignal;
  /** Epoch ms of the call's arrival (the runtime's clock). */
  arrivedAt: number;
  /** The path it came by (AUDIT-1); default `page`. */
  via?: CallVia;
}

/** One session's compiled operations, its call path and its registration. */
export interface SessionOperations {
  /**
   * Calls an operation and logs it (a name that is none of the definitions answers `not_found`,
   * unlogged). `arrivedAt` is when the call reached ai-ops: the 50 s of CONF-8 run from there (SAFE-2).
   */
  call(name: string, input: unknown, options: CallEntry): Promise<{ result: OperationResult; json: string }>;
  /**
   * Registers every operation in `modelContext` until `signal` aborts (REG-1), once a withdrawal
   * still delivering its answers ({@link withdraw}) has ended, so no name is registered twice.
   */
  register(modelContext: ModelContextLike, signal: AbortSignal): Promise<void>;
  /**
   * Ends `registration` (switch-off or page left, APP-1) once every call of this tool in flight has
   * answered: its declined confirmations and a call already executing deliver their envelope
   * through the registration before it goes, rather than the transport's "Tool unregistered". With
   * no call in flight it ends at once (SAFE-5). The runtime declines the waiting confirmations first.
   */
  withdraw(registration: AbortController | null): void;
  /** Resolves once no call of this tool is in flight (at once when none is). */
  settled(): Promise<void>;
  /** True while a call of this tool is in flight. */
  busy(): boolean;
}

/** Compiles the definitions' schemas (once) and returns the session's operations. */
export function createSessionOperations(deps: SessionOperationsDeps): SessionOperations {
  const { tool, definitions, permission, isEnabled, confirmations, log, clock, keeper, consent, channel = (via: CallVia) => via } = deps;
  const operations = new Map([...definitions].map(([name, definition]) => [name, compileOperation(definition)]));

  // APP-1: the calls in flight, and who waits for them to have answered.
  let inFlight = 0;
  let waiting: (() => void)[] = [];
  const settled = () => new Promise<void>((resolve) => (inFlight ? waiting.push(resolve) : resolve()));
  // The registration being withdrawn while its calls answer; a new one waits for it.
  let withdrawing: Promise<void> = Promise.resolve();

  // UV-3: where verification applies, only a skip choice whose receipt this page checked counts.
  const skipsConfirmation = () => permission.skipsConfirmation() && consent.trustsSkip(tool);

  // One async function rather than a counting wrapper around another (NAT-1: every promise and
  // microtask hop of an agent's call counts through the browser's executeTool).
  const call: SessionOperations['call'] = async (name, given, { signal, arrivedAt, via = 'page' }) => {
    const operation = operations.get(name);
    if (!operation) return serialize(fail(ErrorCode.notFound, `${tool} has no operation ${name}`));
    // UV-11: what the user is shown, what is signed, prepared and run is one copy taken as the call
    // arrives; the caller's object may change afterwards without changing any of it. Only where a
    // dialog may ask (NAT-1: every other call keeps its zero-copy path).
    let input = given;
    if (operation.definition.confirmation) {
      try {
        input = structuredClone(given);
      } catch (error) {
        return serialize(fail(ErrorCode.invalidInput, `the input cannot be copied: ${describeError(error)}`));
      }
    }
    inFlight++;
    try {
      let receipt: Receipt | undefined;
      let batch: BatchApproval | undefined;
      const { result, json, undo } = outcomeOf(await settleCall(operation, input, {
        // SAFE-1: a switch turned off (or a page left) says so at once; read at every step.
        isEnabled,
        skipsConfirmation,
        async confirm(request) {
          // BATCH-3: the user said no to this very call moments ago: answer at once, no dialog.
          const retryAfterMs = confirmations.refusal(tool, request.name, input);
          if (retryAfterMs > 0) return { retryAfterMs };
          // UV-10, UV-16: no prompt ended with the user's approval twice in a row (in any tab): no dialog whose press would ask again.
          const resting = await consent.resting(tool);
          if (resting) return resting;
          let unverified: string | undefined;
          const answer = await confirmations.request({
            tool, name: request.name, content: request.content, arrivedAt, signal: request.signal, input, unverified: (message) => (unverified = message),
          });
          if (!answer) return unverified === undefined ? null : { declined: unverified };
          receipt = answer.receipt;
          batch = answer.batch;
          // A verified 「今後尋ねない」 is kept with its receipt for this switch period (UV-9).
          if (answer.skipFuture) {
            if (receipt) await consent.keepSkip(tool, receipt);
            permission.skipConfirmations();
          }
          return answer.done;
        },
      }, { signal }));
      const time = clock.now();
      // An agent's call (not the page's own) has its log texts written a moment later (log-entry.ts).
      const entry = log.add(describeCall({ time, tool, name, args: input, result, resultJson: json, via, durationMs: time - arrivedAt, undo: undo && 'available', receipt, batch }, via !== 'page'));
      // UNDO-1: the row owns the step from here; the agent's answer never carries it.
      if (undo) keeper.keep(entry, undo);
      return { result, json };
    } finally {
      if (--inFlight === 0) for (const resolve of waiting.splice(0)) resolve();
    }
  };

  return {
    call,
    settled,
    busy: () => inFlight > 0,
    withdraw(registration) {
      if (!registration) return;
      if (!inFlight) return registration.abort();
      // A task after the last answer, so the transport has passed it on before the tool goes.
      withdrawing = settled()
        .then(() => new Promise<void>((resolve) => clock.setTimeout(resolve, 0)))
        .then(() => registration.abort());
    },
    async register(modelContext, signal) {
      // UV-3: a stored "on" (this tab's, another tab's, or written by a driving program) registers
      // only with a valid receipt where verification applies; the gate throws the reason otherwise,
      // and the session turns off with it.
      await consent.admit(tool, permission);
      await withdrawing;
      if (signal.aborted) return;
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
            // The path is the third argument, passed by model-context.ts's registrars where the
            // call entered; a registry that passes none says no more than the polyfill's does.
            execute: async (args: unknown, options?: { signal?: AbortSignal }, via: CallVia = 'polyfill') => {
              const { result, json } = await call(name, args, { signal: options?.signal, arrivedAt: clock.now(), via: channel(via) });
              return toCallToolResult(json, result.ok);
            },
          },
          { signal },
        )));
    },
  };
}
