/**
 * The undo contract (UNDO-1..UNDO-4): a changing call may hand back, with its envelope, how to put
 * back what it changed — `execute` returns `{ result, undo }` instead of the envelope alone. What a
 * step keeps (a file's previous bytes, the database as it was, the document) is its tool's
 * business, behind the tool's adapter; the runtime's part is only this: the log row of that call
 * owns the step, in memory only, within a byte budget across tools (oldest dropped first), and only
 * the user runs it, from the row. The step never reaches the JSON an agent reads.
 *
 * Why a wrapper rather than a field or a symbol on the envelope: the envelope is serialised as it
 * is (RES-1), and a helper in the page's entry would cost bytes every page pays while its switches
 * are off (PKG-4); the call path (on demand) unwraps it with {@link splitUndo}.
 * @module
 */
import type { OperationResult } from './result.js';

/** What one successful changing call changed, and how to put it back. */
export interface UndoStep {
  /**
   * What the call changed, each as a stable key of the tool's own choosing, e.g. `file:src/a.go`,
   * `database`, `document:3`. Two rows whose targets meet are undone newest first (UNDO-2).
   */
  readonly targets: readonly string[];
  /** About how many bytes the before-state holds in memory, for the budget (UNDO-4). */
  readonly bytes: number;
  /** Puts back what the call changed; rejects (or resolves to a failure envelope) when it could not. */
  undo(): Promise<unknown>;
  /**
   * True when a target changed since the call by something the log does not show (the user's own
   * edit): the undo then says that change goes too (UNDO-2). Omitted: only logged calls are known.
   */
  changedSince?(): boolean | Promise<boolean>;
}

/**
 * What `execute` may resolve to instead of the envelope alone: the envelope, and for a successful
 * call that changed the user's data, how to put it back.
 * @example
 * const old = files.read(path);
 * files.write(path, contents);
 * return { result: succeed({ path }), undo: { targets: [`file:${path}`], bytes: old.length, undo: async () => files.write(path, old) } };
 */
export interface UndoableResult {
  readonly result: OperationResult;
  readonly undo?: UndoStep | null;
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
