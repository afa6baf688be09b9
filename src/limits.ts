/**
 * Size and time limits shared by the operations (IN-4, IN-5, NODE-5, GO-6, FILE-3).
 * @module
 */

/** 1 MB of UTF-8: the cap on `markdown`, `xml`, `cells`, `contents` and `sql` (IN-4). */
export const MAX_TEXT_BYTES = 1024 * 1024;
/** Characters of command / Go output kept: the tail (NODE-5, GO-6). */
export const MAX_OUTPUT_CHARS = 100_000;
/** Entries a `*_list_files` answers at most (FILE-3). */
export const MAX_LIST_ENTRIES = 1000;
/** Rows per statement `sql_run_query` answers at most (SQL-4). */
export const MAX_SQL_ROWS = 200;
/** Bounds and default of `timeoutMs` (IN-5). */
export const TIMEOUT_MS = { minimum: 1000, maximum: 120_000, default: 30_000 } as const;

/**
 * UTF-8 length of a string in bytes, counted without allocating. A lone surrogate counts 3 bytes
 * (what TextEncoder writes for U+FFFD).
 * @example utf8ByteLength('あ') // 3
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The JSON Schema of a UTF-8 text field capped at {@link MAX_TEXT_BYTES}. `maxBytes` is read by the
 * runtime (a failing value answers `too_large`); the schema published to agents carries the standard
 * `maxLength` instead, which a byte cap implies.
 * @example const schema = { type: 'object', properties: { sql: textSchema('実行する SQL') } };
 */
export function textSchema<const D extends string>(description: D) {
  return { type: 'string', description, maxBytes: MAX_TEXT_BYTES } as const;
}

/**
 * The JSON Schema of `timeoutMs` (IN-5): an integer from 1,000 to 120,000, default 30,000.
 */
export function timeoutSchema<const D extends string>(description: D) {
  return {
    type: 'integer',
    description,
    minimum: TIMEOUT_MS.minimum,
    maximum: TIMEOUT_MS.maximum,
    default: TIMEOUT_MS.default,
  } as const;
}

// CSI sequences (colours, cursor moves), OSC sequences (titles, links) and other single escapes,
// plus the C0 controls a terminal acts on; newline and tab stay.
const TERMINAL_CONTROLS = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|[\u0000-\u0008\u000b-\u001f\u007f]/g;

/**
 * Removes terminal control sequences from process output (NODE-5). A carriage return is dropped,
 * so `\r\n` becomes `\n`.
 */
export function stripTerminalControls(text: string): string {
  return text.replace(TERMINAL_CONTROLS, '');
}

/**
 * Keeps the last `max` characters of `text` (NODE-5, GO-6).
 * @example tail('abcdef', 3) // { output: 'def', truncated: true }
 */
export function tail(text: string, max = MAX_OUTPUT_CHARS): { output: string; truncated: boolean } {
  if (text.length <= max) return { output: text, truncated: false };
  let start = text.length - max;
  // Do not start on the low half of a surrogate pair.
  const c = text.charCodeAt(start);
  if (c >= 0xdc00 && c <= 0xdfff) start++;
  return { output: text.slice(start), truncated: true };
}

/**
 * Keeps the first `max` items (FILE-3, SQL-4).
 * @example head([1, 2, 3], 2) // { items: [1, 2], truncated: true }
 */
export function head<T>(items: readonly T[], max: number): { items: T[]; truncated: boolean } {
  return items.length <= max ? { items: [...items], truncated: false } : { items: items.slice(0, max), truncated: true };
}
