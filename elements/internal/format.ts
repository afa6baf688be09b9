/**
 * Text formatting for the log's elements (LOG-3, LOG-4, LOG-6). The formatting of values lives in
 * the runtime (`src/log-format.ts`), because the log stores cut texts rather than values (SAFE-8);
 * it is re-exported here, beside the time format the rows show.
 * @module
 */
export { cutText, DETAIL_CHARS, formatInline, formatValue, SUMMARY_CHARS, summarizeArgs, summarizeResult } from '../../src/log-format.js';
export type { CutText } from '../../src/operation-log.js';

/**
 * Local time as HH:MM:SS (LOG-3).
 * @example formatTime(new Date(2025, 0, 1, 9, 5, 3).getTime()) // '09:05:03'
 */
export function formatTime(epochMs: number): string {
  const date = new Date(epochMs);
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}
