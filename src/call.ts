/**
 * One call, from the tool's registered `execute` to its envelope (REG-4, RES-1), in the on-demand
 * part (`on-demand.ts`): a session's definitions compiled once (each schema, IN-1), each call run
 * through the pipeline and logged, and the registration in the model context (REG-1). The session
 * itself (`tool-session.ts`) keeps the status and the permission.
 *
 * The pipeline: switch → schema → `prepare` → switch → confirmation (unless skipped) → switch →
 * `prepare` again → switch → `execute`, with every exception turned into `failed` (RES-4) and every
 * outcome into a JSON envelope (RES-1). The switch (and the call's cancellation signal) is read
 * again at each arrow, because each step before it may wait: a `prepare` that makes a round trip, a
 * dialog the user leaves open (SAFE-1, NAT-2). The pipeline ({@link runCall}) knows nothing of
 * switches or dialogs: the session's call ({@link createSessionOperations}) hands it callbacks.
 *
 * Input validation (IN-1, IN-2, IN-4) is here because neither the polyfill nor the relay validates
 * (PLATFORM-NOTES): each schema is compiled once, and every call is checked before `prepare`.
 * @module
 */
import { Validator, type Schema } from '@cfworker/json-schema';
import type { Clock } from './clock.js';
import type { BatchApproval, PageConfirmationQueue } from './confirmation-queue.js';
import type { ConsentGate } from './consent-gate.js';
import type { Receipt } from './consent-proof.js';
import { utf8ByteLength, type AnyOperationDefinition, type CallContext, type ConfirmationContent, type InputSchema, type UndoStep } from './definition.js';
import { describeCall } from './log-entry.js';
import { toCallToolResult, type ModelContextLike } from './model-context.js';
import type { CallVia, OperationLogWriter } from './operation-log.js';
import type { PermissionStore } from './permission-store.js';
import { ErrorCode, describeError, fail, isFailure, isSuccess, type OperationFailure, type OperationResult } from './result.js';
import type { UndoKeeper } from './undo-keeper.js';

// ---- The schema (IN-1, IN-2, IN-4) ----

/** Keywords whose violation means "over a limit" (`too_large`) rather than "malformed". */
const SIZE_KEYWORDS = new Set(['maxLength', 'maxItems', 'maxProperties']);

type SchemaNode = { [key: string]: unknown };

/** Returns a validator for `schema`: null when the input is valid, else the failure to answer. */
export function compileInputValidator(schema: InputSchema): (input: unknown) => OperationFailure | null {
  const validator = new Validator(publishedSchema(schema) as Schema, '2020-12', false);
  const byteCaps = hasByteCaps(schema);
  return (input) => {
    // The validator throws on `undefined` (not a JSON value); JSON has no such input either.
    if (input === undefined) return fail(ErrorCode.invalidInput, 'the input must be a JSON value matching the schema, not undefined');
    const result = validator.validate(input);
    if (!result.valid) {
      // The leaf errors say what is wrong; the "properties"/"items" wrappers only repeat them.
      const leaves = result.errors.filter((e) => !['properties', 'items', 'allOf', 'prefixItems', '$ref'].includes(e.keyword));
      const errors = leaves.length ? leaves : result.errors;
      const onlySize = errors.every((e) => SIZE_KEYWORDS.has(e.keyword));
      const message = errors.slice(0, 5).map((e) => `${e.instanceLocation.replace(/^#/, '') || '/'}: ${e.error}`).join('; ');
      return fail(onlySize ? ErrorCode.tooLarge : ErrorCode.invalidInput, message);
    }
    if (byteCaps) {
      const over = findOverByteCap(schema as SchemaNode, input, '');
      if (over) return fail(ErrorCode.tooLarge, `${over.path}: ${over.bytes} bytes of UTF-8, over the limit of ${over.limit}`);
    }
    return null;
  };
}

function hasByteCaps(schema: unknown): boolean {
  return JSON.stringify(schema).includes('"maxBytes"');
}

function findOverByteCap(schema: SchemaNode, value: unknown, path: string): { path: string; bytes: number; limit: number } | null {
  if (typeof schema !== 'object' || schema === null) return null;
  if (typeof value === 'string' && typeof schema.maxBytes === 'number') {
    // Every UTF-16 unit is at least one byte and at most three, so most strings are decided cheaply.
    if (value.length > schema.maxBytes) return { path: path || '/', bytes: utf8ByteLength(value), limit: schema.maxBytes };
    if (value.length * 3 > schema.maxBytes) {
      const bytes = utf8ByteLength(value);
      if (bytes > schema.maxBytes) return { path: path || '/', bytes, limit: schema.maxBytes };
    }
    return null;
  }
  if (Array.isArray(value) && typeof schema.items === 'object' && schema.items !== null) {
    for (let i = 0; i < value.length; i++) {
      const found = findOverByteCap(schema.items as SchemaNode, value[i], `${path}/${i}`);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null && typeof schema.properties === 'object' && schema.properties !== null) {
    const properties = schema.properties as Record<string, SchemaNode>;
    for (const key of Object.keys(properties)) {
      if (key in value) {
        const found = findOverByteCap(properties[key], (value as Record<string, unknown>)[key], `${path}/${key}`);
        if (found) return found;
      }
    }
  }
  return null;
}

/**
 * The schema as agents see it: our `maxBytes` extension becomes the standard `maxLength` (a byte cap
 * implies the same cap on characters), so strict validators on the client side meet no unknown keyword.
 */
export function publishedSchema(schema: InputSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema), (key, value) => {
    if (value && typeof value === 'object' && !Array.isArray(value) && typeof value.maxBytes === 'number') {
      const { maxBytes, ...rest } = value as { maxBytes: number } & Record<string, unknown>;
      return { ...rest, maxLength: Math.min(maxBytes, typeof rest.maxLength === 'number' ? rest.maxLength : Infinity) };
    }
    return value;
  });
}

// ---- The pipeline (REG-4) ----

/** What a call needs from its surroundings. */
export interface CallHooks {
  /**
   * False when the switch is off or the permission has expired (REG-3); read again before every
   * step that could change something (SAFE-1).
   */
  isEnabled(): boolean;
  /** True when the user chose 「このページでは今後尋ねない」 and it has not expired (CONF-5, PERM-4). */
  skipsConfirmation(): boolean;
  /**
   * Asks the user; resolves with a `done` callback to call when execution ends (so the dialog can
   * show loading until then, CONF-4), or with null when declined (CONF-6, CONF-8, SW-3) or when
   * `signal` aborted while it waited (NAT-2), with `{retryAfterMs}` when the user said no to this
   * same call moments ago and it was not asked again (BATCH-3), or with `{declined}`, the reason
   * the agent is told, when the press was not backed by the user's verification (UV-4, UV-10).
   */
  confirm(request: { name: string; content: ConfirmationContent; input: unknown; signal: AbortSignal }): Promise<null | (() => void) | { retryAfterMs: number } | { declined: string; retryAfterMs?: number }>;
}

/** Options of {@link runCall}. */
export interface CallOptions {
  /** The caller's cancellation signal (the browser's `execute(args, { signal })`, NAT-2). */
  signal?: AbortSignal;
}

/** A definition with its schema compiled once (not per call). */
export interface CompiledOperation {
  definition: AnyOperationDefinition;
  validate: (input: unknown) => ReturnType<ReturnType<typeof compileInputValidator>>;
}

/** Compiles a definition's schema once. */
export function compileOperation(definition: AnyOperationDefinition): CompiledOperation {
  return { definition, validate: compileInputValidator(definition.inputSchema) };
}

/** The settled outcome of one call: the envelope, its JSON text, and the call's undo step, if any. */
export interface CallOutcome {
  result: OperationResult;
  json: string;
  /** How to put back what a successful changing call changed (UNDO-1); null for every other call. */
  undo: UndoStep | null;
}

/**
 * Runs one call through the pipeline. Never rejects.
 * @example
 * const { json } = await runCall(compileOperation(definition), { path: 'a.txt' }, hooks, { signal });
 */
export async function runCall(operation: CompiledOperation, input: unknown, hooks: CallHooks, options: CallOptions = {}): Promise<CallOutcome> {
  return outcomeOf(await settleCall(operation, input, hooks, options));
}

/**
 * {@link runCall} in its two halves, for the session's call ({@link createSessionOperations}), which awaits
 * the first itself: one async layer less per call (NAT-1, each costs a promise and a microtask hop).
 * Never rejects.
 */
export function settleCall(operation: CompiledOperation, input: unknown, hooks: CallHooks, options: CallOptions = {}): Promise<unknown> {
  return settle(operation, input, hooks, { signal: options.signal ?? new AbortController().signal });
}

/** The second half of {@link runCall}: what `execute` (or a failure) resolved to, as the outcome. */
export function outcomeOf(settled: unknown): CallOutcome {
  const { value, undo } = splitUndo(settled);
  const outcome = serialize(value);
  return { ...outcome, undo: outcome.result === value ? undo : null };
}

const EXPIRED = 'AI からの操作がオフになったか、許可が切れています (the switch is off, or the permission has expired)';
const CANCELLED = 'the caller cancelled the call before it ran (its signal was aborted)';
/** BATCH-3: what happened, and what the agent should do, so that it does not simply ask again. */
export const DECLINED =
  'the user declined this call, or did not answer within 50 s; do not call it again unless the user asks for it';
/** BATCH-3: the same call again within 60 s of the user's no. `{s}` is the seconds left. */
const REFUSED_AGAIN = (s: number) =>
  `not asked again: the user declined this same call (same operation, same input) less than 60 s ago; do not call it again unless the user asks for it (retryAfterMs: ${s} ms)`;

/** `declined` when the call may not go on: the switch went off or expired, or the caller cancelled. */
function stopped(hooks: CallHooks, call: CallContext): OperationFailure | null {
  if (call.signal.aborted) return fail(ErrorCode.declined, CANCELLED);
  return hooks.isEnabled() ? null : fail(ErrorCode.declined, EXPIRED);
}

async function prepare(operation: CompiledOperation, input: unknown, call: CallContext, confirmed?: unknown): Promise<unknown> {
  const { definition } = operation;
  if (!definition.prepare) return undefined;
  const ctx: unknown = await definition.prepare(input, confirmed === undefined ? call : { ...call, confirmed });
  // Something shaped like a failure but not one (an unknown code) is a bug of the definition.
  if (typeof ctx === 'object' && ctx !== null && (ctx as { ok?: unknown }).ok === false && !isFailure(ctx)) {
    return fail(ErrorCode.failed, 'prepare returned a malformed failure envelope');
  }
  return ctx;
}

async function settle(operation: CompiledOperation, input: unknown, hooks: CallHooks, call: CallContext): Promise<unknown> {
  const { definition } = operation;
  try {
    const before = stopped(hooks, call);
    if (before) return before;
    const invalid = operation.validate(input);
    if (invalid) return invalid;
    // No `prepare`: no await, so nothing can have changed since the look above, and the look after
    // it is left out too (NAT-1: the hop and the switch's storage read cost every call of such an operation).
    let ctx: unknown;
    if (definition.prepare) {
      ctx = await prepare(operation, input, call);
      if (isFailure(ctx)) return ctx;
      const afterPrepare = stopped(hooks, call);
      if (afterPrepare) return afterPrepare;
    }
    let done: (() => void) | null = null;
    if (definition.confirmation && !hooks.skipsConfirmation()) {
      const content = definition.confirmation(input, ctx);
      const answer = await hooks.confirm({ name: definition.name, content, input, signal: call.signal });
      if (answer && typeof answer === 'object') {
        const { retryAfterMs } = answer;
        const message = 'declined' in answer ? answer.declined : REFUSED_AGAIN(answer.retryAfterMs);
        return fail(ErrorCode.declined, message, retryAfterMs === undefined ? undefined : { retryAfterMs });
      }
      done = answer;
      if (!done) return fail(ErrorCode.declined, call.signal.aborted ? CANCELLED : DECLINED);
    }
    try {
      if (done) {
        // Approved: the page may have changed while the dialog was up, so look again, and let
        // prepare compare with what the dialog showed.
        const afterApproval = stopped(hooks, call);
        if (afterApproval) return afterApproval;
        ctx = await prepare(operation, input, call, ctx);
        if (isFailure(ctx)) return ctx;
        const beforeExecute = stopped(hooks, call);
        if (beforeExecute) return beforeExecute;
      }
      return await definition.execute(input, ctx, call);
    } finally {
      done?.();
    }
  } catch (error) {
    return fail(ErrorCode.failed, describeError(error));
  }
}

/**
 * Serialises an envelope. A result that is not an envelope, or cannot be serialised
 * (cycles, BigInt), becomes `failed`, so a caller always receives a JSON envelope (RES-1). It lives
 * with the call path, in the on-demand part (`on-demand.ts`).
 * @example serialize(succeed({ id: 'a' })).json // '{"id":"a","ok":true}'
 */
export function serialize(value: unknown): { result: OperationResult; json: string } {
  const result: OperationResult = isSuccess(value) || isFailure(value)
    ? value
    : fail(ErrorCode.failed, 'the operation returned something that is not a result envelope');
  try {
    return { result, json: JSON.stringify(result) };
  } catch (error) {
    const failure = fail(ErrorCode.failed, `the result could not be serialised: ${describeError(error)}`);
    return { result: failure, json: JSON.stringify(failure) };
  }
}

/** True when `step` has the shape of an {@link UndoStep}. */
function isUndoStep(step: unknown): step is UndoStep {
  if (typeof step !== 'object' || step === null) return false;
  const s = step as Partial<UndoStep>;
  return Array.isArray(s.targets) && s.targets.length > 0 && s.targets.every((t) => typeof t === 'string') &&
    typeof s.undo === 'function' && typeof s.bytes === 'number' && Number.isFinite(s.bytes) && s.bytes >= 0 &&
    (s.changedSince === undefined || typeof s.changedSince === 'function');
}

/**
 * Splits what `execute` resolved to into the envelope and its undo step. An envelope alone (it has
 * `ok`) has no step; a wrapper's step is kept only with a successful envelope and a valid shape.
 * @example splitUndo({ result: succeed(), undo }) // { value: { ok: true }, undo }
 */
export function splitUndo(value: unknown): { value: unknown; undo: UndoStep | null } {
  if (typeof value !== 'object' || value === null || 'ok' in value || !('result' in value)) return { value, undo: null };
  const { result, undo } = value as { result: unknown; undo?: unknown };
  const ok = typeof result === 'object' && result !== null && (result as { ok?: unknown }).ok === true;
  return { value: result, undo: ok && isUndoStep(undo) ? undo : null };
}

// ---- The session's call and its registration (REG-1, APP-1) ----

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
  const { tool, definitions, permission, isEnabled, confirmations, log, clock, keeper, consent } = deps;
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
          // UV-10: the user's device gave nothing twice in a row: no dialog whose press would ask again.
          const resting = consent.resting(tool);
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
      const entry = log.add(describeCall({ time, tool, name, args: input, result, via, durationMs: time - arrivedAt, undo: undo && 'available', receipt, batch }, via !== 'page'));
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
              const { result, json } = await call(name, args, { signal: options?.signal, arrivedAt: clock.now(), via });
              return toCallToolResult(json, result.ok);
            },
          },
          { signal },
        )));
    },
  };
}
