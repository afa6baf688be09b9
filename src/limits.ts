/**
 * Size and time limits shared by the operations (IN-4, IN-5, NODE-5, GO-6, FILE-3).
 * @module
 */
// utf8ByteLength has a module of its own: the call path's validator needs it and nothing else of
// the limits, and neither the limits nor the validator load while every switch is off (PKG-4).
export { utf8ByteLength } from './utf8.js';

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

// ECMA-48 control functions, in the order they must be tried:
// - CSI, 7-bit `ESC [` or 8-bit U+009B, with parameter, intermediate and final bytes;
// - control strings (OSC `ESC ]`, DCS `ESC P`, SOS `ESC X`, PM `ESC ^`, APC `ESC _` and their 8-bit
//   forms) up to BEL or ST (`ESC \`, U+009C); another ESC aborts the string, as in xterm; an
//   unterminated 7-bit one runs to the end of the text, while a lone 8-bit introducer (a stray
//   U+009D in binary output) is dropped alone, so it cannot swallow the rest of the output (its
//   payload is looked for once, at most 1,024 characters, with no backtracking into it);
// - the other escape sequences: `ESC` + intermediates + final (`ESC ( B`, `ESC # 8`), and
//   `ESC` + one final (`ESC 7`, `ESC 8`, `ESC =`, `ESC >`, `ESC c`);
// - any other C1 control, and the C0 controls a terminal acts on, except TAB, LF, CR and BS, which
//   the line rendering below handles.
const TERMINAL_CONTROLS =
  /(?:\u001b\[|\u009b)([0-?]*)[ -/]*([@-~])|\u001b[\]PX^_][^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|[\u0090\u0098\u009d\u009e\u009f](?=([^\u0007\u001b\u009c]{0,1024}))\3(?:\u0007|\u001b\\|\u009c)|\u001b[ -/]+[0-~]|\u001b[0-~]|[\u0080-\u009f]|[\u0000-\u0007\u000b\u000c\u000e-\u001f\u007f]|\u001b/g;

// Erase-in-line (CSI K) survives the first pass as a C0 marker the line rendering acts on; the
// markers cannot come from the text itself, whose C0 controls the same pass removes.
const ERASE_TO_END = '\u0001';
const ERASE_LINE = '\u0002';

/** One line as a terminal shows it: CR returns to its start, BS steps back, later text overwrites. */
function renderLine(line: string): string {
  if (!/[\r\b\u0001\u0002]/.test(line)) return line;
  let cells: string[] = [];
  let cursor = 0;
  for (const ch of line) {
    if (ch === '\r') cursor = 0;
    else if (ch === '\b') cursor = Math.max(0, cursor - 1);
    else if (ch === ERASE_TO_END) cells.length = Math.min(cells.length, cursor);
    else if (ch === ERASE_LINE) cells = Array.from({ length: cursor }, () => ' ');
    else {
      while (cells.length < cursor) cells.push(' ');
      cells[cursor++] = ch;
    }
  }
  return cells.join('');
}

/**
 * Process output as a terminal would show it, as plain text (NODE-5, NODE-7): every ECMA-48
 * control sequence removed (colours, cursor keys mode, charset selection, titles, links, DCS
 * payloads, 8-bit CSI) and each line rendered: `10%\r20%\r30%` is `30%`, `\r\n` a newline.
 * @example stripTerminalControls('\u001b[32mok\u001b(B\u001b[m\n10%\r20%') // 'ok\n20%'
 */
export function stripTerminalControls(text: string): string {
  const plain = text.replace(TERMINAL_CONTROLS, (_match, parameters: string | undefined, final: string | undefined) => {
    if (final !== 'K') return '';
    return parameters === '2' ? ERASE_LINE : parameters === '' || parameters === '0' ? ERASE_TO_END : '';
  });
  return plain.split('\n').map(renderLine).join('\n');
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
