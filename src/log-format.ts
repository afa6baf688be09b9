/**
 * How the log writes values (LOG-3, LOG-4): the row's summaries are the first 80 characters, its
 * full views are cut at 10,000, and values are written so that the Markdown or XML inside a JSON
 * string reads as written — real line breaks and quotes, never `\n` or `\"`. Plain strings that the
 * elements bind as text, never as HTML (`elements/internal/format.ts` re-exports them), and that an auditor
 * rebuilds a line's `args` with (`verify.ts`). Pure: no DOM, no timers.
 * @module
 */
import type { CutText, LogStatus } from './operation-log.js';
import type { OperationResult } from './result.js';

/**
 * Characters of a row's argument and result summaries (LOG-3).
 * @example summarizeArgs(args).text.length <= SUMMARY_CHARS // true
 */
export const SUMMARY_CHARS = 80;
/**
 * Characters of an expanded row's arguments and result (LOG-4).
 * @example formatValue(result, DETAIL_CHARS)
 */
export const DETAIL_CHARS = 10_000;


/**
 * The first `max` characters (UTF-16 units) of `text`; a surrogate pair at the cut is dropped
 * whole rather than split.
 * @example cutText('abcdef', 3) // { text: 'abc', truncated: true }
 */
export function cutText(text: string, max: number): CutText {
  if (text.length <= max) return { text, truncated: false };
  let end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { text: text.slice(0, end), truncated: true };
}

const FULL = Symbol('full');

/** Collects text up to a budget, then stops the walk: a 1 MB argument costs no more than its cut. */
class Writer {
  text = '';
  truncated = false;
  constructor(private readonly limit: number) {}
  /** Characters that still fit. */
  get room(): number {
    return this.limit - this.text.length;
  }
  write(part: string): void {
    const room = this.limit - this.text.length;
    if (part.length <= room) {
      this.text += part;
      return;
    }
    this.text = cutText(this.text + part.slice(0, room + 1), this.limit).text;
    this.truncated = true;
    throw FULL;
  }
}

type Walk = (value: unknown, writer: Writer, indent: string, seen: Set<object>, top: boolean) => void;

function run(walk: Walk, value: unknown, limit: number): CutText {
  const writer = new Writer(limit);
  try {
    walk(value, writer, '', new Set(), true);
  } catch (error) {
    if (error !== FULL) throw error;
  }
  return { text: writer.text, truncated: writer.truncated };
}

/** Scalars are written alike by both walks; returns false for strings and objects. */
function writeScalar(value: unknown, writer: Writer): boolean {
  switch (typeof value) {
    case 'number':
      writer.write(Number.isFinite(value) ? JSON.stringify(value) : String(value));
      return true;
    case 'boolean':
    case 'symbol':
      writer.write(String(value));
      return true;
    case 'bigint':
      writer.write(`${value}n`);
      return true;
    case 'undefined':
      writer.write('undefined');
      return true;
    case 'function':
      writer.write(`[function ${value.name || 'anonymous'}]`);
      return true;
    default:
      if (value === null) {
        writer.write('null');
        return true;
      }
      return false;
  }
}

/** Object entries as JSON would write them: `toJSON` honoured, undefined and functions left out. */
function entriesOf(value: object): [string, unknown][] {
  return Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol');
}

function viaToJSON(value: object): unknown {
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  return typeof toJSON === 'function' ? (toJSON as () => unknown).call(value) : value;
}

const pretty: Walk = (input, writer, indent, seen, top) => {
  if (writeScalar(input, writer)) return;
  if (typeof input === 'string') {
    // A multi-line string is written as a block between """ lines, unindented, so the Markdown or
    // XML inside reads (and copies) exactly as written.
    if (top) writer.write(input);
    else if (input.includes('\n')) writer.write(`"""\n${input}\n"""`);
    else writer.write(`"${input}"`);
    return;
  }
  const value = viaToJSON(input as object);
  if (value !== input) return pretty(value, writer, indent, seen, top);
  const object = value as object;
  if (seen.has(object)) return writer.write('[Circular]');
  seen.add(object);
  const inner = `${indent}  `;
  if (Array.isArray(object)) {
    if (object.length === 0) writer.write('[]');
    else {
      writer.write('[');
      object.forEach((item, index) => {
        writer.write(`${index ? ',' : ''}\n${inner}`);
        pretty(item, writer, inner, seen, false);
      });
      writer.write(`\n${indent}]`);
    }
  } else {
    const entries = entriesOf(object);
    if (entries.length === 0) writer.write('{}');
    else {
      writer.write('{');
      entries.forEach(([key, item], index) => {
        writer.write(`${index ? ',' : ''}\n${inner}"${key}": `);
        pretty(item, writer, inner, seen, false);
      });
      writer.write(`\n${indent}}`);
    }
  }
  seen.delete(object);
};

const oneLine = (text: string) => text.replace(/\s+/g, ' ');

/**
 * `oneLine` of a prefix of `text` long enough to fill `room` characters and show that it was cut:
 * a 1 MB string costs a few times `room`, not a pass over the whole string. Collapsing whitespace
 * keeps prefixes, so the result starts like `oneLine(text)`.
 */
function oneLinePrefix(text: string, room: number): string {
  for (let end = Math.max(room + 2, 64); ; end *= 2) {
    if (end >= text.length) return oneLine(text);
    const line = oneLine(text.slice(0, end));
    if (line.length > room + 1) return line;
  }
}

const inline: Walk = (input, writer, indent, seen, top) => {
  if (writeScalar(input, writer)) return;
  if (typeof input === 'string') {
    writer.write(top ? oneLinePrefix(input, writer.room) : `"${oneLinePrefix(input, writer.room)}"`);
    return;
  }
  const value = viaToJSON(input as object);
  if (value !== input) return inline(value, writer, indent, seen, top);
  const object = value as object;
  if (seen.has(object)) return writer.write('[Circular]');
  seen.add(object);
  if (Array.isArray(object)) {
    writer.write('[');
    object.forEach((item, index) => {
      if (index) writer.write(',');
      inline(item, writer, indent, seen, false);
    });
    writer.write(']');
  } else {
    writer.write('{');
    entriesOf(object).forEach(([key, item], index) => {
      writer.write(`${index ? ',' : ''}"${oneLine(key)}":`);
      inline(item, writer, indent, seen, false);
    });
    writer.write('}');
  }
  seen.delete(object);
};

/**
 * Writes a value for reading (LOG-4, LOG-6): JSON-like with two-space indentation, but strings
 * unescaped — a one-line string between plain quotes, a multi-line one as a `"""` block — so
 * Markdown and XML keep their real line breaks and quotes. Cut at `limit` characters.
 * @example
 * formatValue({ markdown: '# A\n"b"' }).text
 * // '{\n  "markdown": """\n# A\n"b"\n"""\n}'
 */
export function formatValue(value: unknown, limit: number = DETAIL_CHARS): CutText {
  return run(pretty, value, limit);
}

/**
 * Writes a value on one line, compact, with whitespace runs inside strings shown as one space,
 * cut at `limit` characters (LOG-3).
 * @example formatInline({ path: 'a.txt', n: 1 }).text // '{"path":"a.txt","n":1}'
 */
export function formatInline(value: unknown, limit: number = SUMMARY_CHARS): CutText {
  return run(inline, value, limit);
}

/**
 * A row's argument summary: the arguments on one line, first 80 characters (LOG-3).
 * @example summarizeArgs({ path: 'src/main.go' }).text // '{"path":"src/main.go"}'
 */
export function summarizeArgs(args: unknown): CutText {
  return formatInline(args, SUMMARY_CHARS);
}

/**
 * A row's result summary, first 80 characters (LOG-3): `code: message` for a failure; for a
 * success, the fields besides `ok` on one line (empty when there are none — the badge says it).
 * @example summarizeResult({ ok: false, error: { code: 'not_found', message: 'no a.txt' } }).text
 * // 'not_found: no a.txt'
 */
export function summarizeResult(result: OperationResult): CutText {
  if (!result.ok) return formatInline(`${result.error.code}: ${result.error.message}`, SUMMARY_CHARS);
  const { ok: _ok, ...fields } = result;
  return Object.keys(fields).length ? formatInline(fields, SUMMARY_CHARS) : { text: '', truncated: false };
}

/**
 * The status a result shows as (LOG-3).
 * @example statusOf(fail('declined', 'no')) // 'declined'
 */
export function statusOf(result: OperationResult): LogStatus {
  if (result.ok) return 'success';
  return result.error.code === 'declined' ? 'declined' : 'failure';
}
