/**
 * What the log keeps of a settled call (LOG-3, LOG-4, SAFE-8): its texts, cut, and never the values.
 * Used by the call path only, so the formatting is in the on-demand part with it (`on-demand.ts`).
 * @module
 */
import { DETAIL_CHARS, formatValue, summarizeArgs, summarizeResult, type CutText } from './log-text.js';
import type { LogRow, LogStatus, SettledCall } from './operation-log.js';
import { describeError, type OperationResult } from './result.js';

/**
 * The status a result shows as (LOG-3).
 * @example statusOf(fail('declined', 'no')) // 'declined'
 */
export function statusOf(result: OperationResult): LogStatus {
  if (result.ok) return 'success';
  return result.error.code === 'declined' ? 'declined' : 'failure';
}

/**
 * A copy of `text` that shares no memory with the value it was cut from. V8 represents a slice
 * of a long string as a view that keeps the whole original alive; a 10,000-character view into a
 * 1 MB file would retain the megabyte. Parsing a JSON string literal always allocates a new one.
 */
const detach = (cut: CutText): CutText => ({ text: JSON.parse(JSON.stringify(cut.text)) as string, truncated: cut.truncated });

/** Formats a value for the log; a value that throws while read (a getter, a toJSON) says so. */
const written = (format: () => CutText): CutText => {
  try {
    return detach(format());
  } catch (error) {
    return { text: `[could not be read: ${describeError(error)}]`, truncated: false };
  }
};

/**
 * The row the log keeps of a settled call.
 * @example log.add(describeCall({ time: clock.now(), tool, name, args: input, result }));
 */
export function describeCall({ time, tool, name, args, result, via = 'page', durationMs = 0, undo = null, by = 'agent', receipt, batch }: SettledCall): LogRow {
  return {
    time,
    tool: String(tool),
    name: String(name),
    status: statusOf(result),
    code: result.ok ? null : result.error.code,
    args: written(() => formatValue(args, DETAIL_CHARS)),
    result: written(() => formatValue(result, DETAIL_CHARS)),
    argsSummary: written(() => summarizeArgs(args)),
    resultSummary: written(() => summarizeResult(result)),
    undo,
    via,
    durationMs,
    by,
    receipt: receipt ?? null,
    ...(batch ? { batch } : {}),
  };
}
