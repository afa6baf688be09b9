/**
 * The pipeline of one call (REG-4, RES-1): switch → schema → `prepare` → switch → confirmation
 * (unless skipped) → switch → `prepare` again → switch → `execute`, with every exception turned into
 * `failed` (RES-4) and every outcome into a JSON envelope (RES-1). The switch (and the call's
 * cancellation signal) is read again at each arrow, because each step before it may wait: a
 * `prepare` that makes a round trip, a dialog the user leaves open (SAFE-1, NAT-2). It knows nothing
 * of switches or dialogs: its caller (`session-operations.ts`, or the conformance kit) hands it
 * callbacks ({@link CallHooks}).
 * @module
 */
import type { AnyOperationDefinition, CallContext, ConfirmationContent, UndoStep } from './definition.js';
import { ErrorCode, describeError, fail, isFailure, isSuccess, type OperationFailure, type OperationResult } from './result.js';
import { compileInputValidator } from './schema.js';

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

