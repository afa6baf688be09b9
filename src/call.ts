/**
 * The path of one call (REG-4): expiry → schema → `check` → confirmation (unless skipped) →
 * `execute`, with every exception turned into `failed` (RES-4) and every outcome into a JSON
 * envelope (RES-1). It knows nothing of switches or dialogs: the tool session hands it callbacks.
 * @module
 */
import type { AnyOperationDefinition, ConfirmationContent } from './definition.js';
import { ErrorCode, describeError, fail, isFailure, serialize, type OperationResult } from './result.js';
import { compileInputValidator } from './validation.js';

/** What a call needs from its surroundings. */
export interface CallHooks {
  /** False when the permission has expired; the session turns the switch off (REG-3). */
  isEnabled(): boolean;
  /** True when the user chose 「このページでは今後尋ねない」 and it has not expired (CONF-5, PERM-4). */
  skipsConfirmation(): boolean;
  /**
   * Asks the user; resolves with a `done` callback to call when execution ends (so the dialog can
   * show loading until then, CONF-4), or with null when declined (CONF-6, CONF-8, SW-3).
   */
  confirm(request: { name: string; content: ConfirmationContent; input: unknown; signal?: AbortSignal }): Promise<null | (() => void)>;
}

/** Per-call options of {@link runCall}. */
export interface RunCallOptions {
  /** The caller's cancel (the browser's `execute(args, {signal})`, NAT-2): before `execute`, the call answers `declined`. */
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

/** The settled outcome of one call: the envelope and its JSON text. */
export interface CallOutcome {
  result: OperationResult;
  json: string;
}

/**
 * Runs one call through the pipeline. Never rejects.
 * @example
 * const { json } = await runCall(compileOperation(definition), { path: 'a.txt' }, hooks);
 */
export async function runCall(operation: CompiledOperation, input: unknown, hooks: CallHooks, options: RunCallOptions = {}): Promise<CallOutcome> {
  return serialize(await settle(operation, input, hooks, options.signal));
}

const cancelled = () => fail(ErrorCode.declined, 'the caller cancelled the call');

async function settle(operation: CompiledOperation, input: unknown, hooks: CallHooks, signal?: AbortSignal): Promise<OperationResult> {
  const { definition } = operation;
  try {
    if (signal?.aborted) return cancelled();
    if (!hooks.isEnabled()) return fail(ErrorCode.declined, 'AI からの操作の許可が切れています (the permission has expired)');
    const invalid = operation.validate(input);
    if (invalid) return invalid;
    if (definition.check) {
      const failure = await definition.check(input);
      if (failure) return isFailure(failure) ? failure : fail(ErrorCode.failed, 'check returned something that is not a failure envelope');
    }
    let done: (() => void) | null = null;
    if (definition.confirmation && !hooks.skipsConfirmation()) {
      const content = definition.confirmation(input);
      done = await hooks.confirm({ name: definition.name, content, input, ...(signal ? { signal } : {}) });
      if (!done) return signal?.aborted ? cancelled() : fail(ErrorCode.declined, 'the user declined, or did not answer in time');
    }
    if (signal?.aborted) {
      done?.();
      return cancelled();
    }
    try {
      return await definition.execute(input);
    } finally {
      done?.();
    }
  } catch (error) {
    return fail(ErrorCode.failed, describeError(error));
  }
}
