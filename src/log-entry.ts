/**
 * What the log keeps of a settled call (LOG-3, LOG-4, LOG-6, SAFE-8): its texts, cut, and never the
 * values. The row's summaries are the first 80 characters, its full views are cut at 10,000, and
 * values are written so that the Markdown or XML inside a JSON string reads as written — real line
 * breaks and quotes, never `\n` or `\"`. Everything here returns plain strings that the elements
 * bind as text, never as HTML (`elements/format.ts` re-exports the formatting). Used by the call
 * path only, so it is in the on-demand part with it (`on-demand.ts`).
 * @module
 */
import type { BatchApproval } from './confirmation-queue.js';
import type { Receipt } from './consent-proof.js';
import type { CutText, LogRow, LogStatus, SettledCall, SignedInput } from './operation-log.js';
import { describeError, type OperationResult } from './result.js';

export type { CutText } from './operation-log.js';

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

/**
 * A copy of `text` that shares no memory with the value it was cut from. V8 represents a slice
 * of a long string as a view that keeps the whole original alive; a 10,000-character view into a
 * 1 MB file would retain the megabyte. Parsing a JSON string literal always allocates a new one.
 */
const detach = (cut: CutText): CutText => ({ text: JSON.parse(JSON.stringify(cut.text)) as string, truncated: cut.truncated });

/** Formats a value for the log, not yet detached; a value that throws while read (a getter, a toJSON) says so. */
const formatted = (format: () => CutText): CutText => {
  try {
    return format();
  } catch (error) {
    return { text: `[could not be read: ${describeError(error)}]`, truncated: false };
  }
};

/** Formats a value for the log, detached from it. */
const written = (format: () => CutText): CutText => detach(formatted(format));

/**
 * A row's text written after the call answered (NAT-1's per-call budget): the four texts of a row
 * cost about 6 µs in a warm loop, and about four times that inside an agent's call through the
 * browser's `executeTool` (measured in bench 70: +0.036 ms per call for 9 µs of synchronous work,
 * none when the same work ran in batches). So the texts of an agent's call are written on their
 * first read, else in batches: at the latest {@link WRITE_WITHIN_MS} later, or once
 * {@link WRITE_EVERY} texts wait; then the value is let go (SAFE-8). `text` and `truncated` are
 * getters here (JSON writes them as any other CutText's).
 */
class LaterText implements CutText {
  #format: (() => CutText) | null;
  #text = '';
  #truncated = false;
  constructor(format: () => CutText) {
    this.#format = format;
  }
  get text(): string {
    if (this.#format) this.write();
    return this.#text;
  }
  get truncated(): boolean {
    if (this.#format) this.write();
    return this.#truncated;
  }
  toJSON(): CutText {
    return { text: this.text, truncated: this.truncated };
  }
  /** Writes the text, once, and lets the value go; `detached: false`: the caller detaches it (`writeSome`). */
  write(detached = true): string {
    const format = this.#format;
    if (format) {
      this.#format = null;
      ({ text: this.#text, truncated: this.#truncated } = (detached ? written : formatted)(format));
    }
    return this.#text;
  }
  /** Sets the text detached by `writeSome`. */
  set detachedText(text: string) {
    this.#text = text;
  }
}

/** Texts waiting at most about this long (their values are kept until then). */
const WRITE_WITHIN_MS = 100;
/** Texts written at once when this many wait (4 a row), so at most 16 rows' values are kept. */
const WRITE_EVERY = 64;
let unwritten: LaterText[] = [];

/** Writes the first `count` waiting texts, detached by one JSON round trip for all (see `detach`: one each cost about 1 µs). */
const writeSome = (count: number) => {
  const texts = unwritten.splice(0, count);
  const copies = JSON.parse(JSON.stringify(texts.map((text) => text.write(false)))) as string[];
  texts.forEach((text, i) => (text.detachedText = copies[i]));
};

let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * One timer at a time, not one per batch (a setTimeout cost about 0.001 ms per call in bench 70):
 * it writes what waits when it fires. Not requestIdleCallback: there one idle callback ran per call
 * (between the browser's hops), which cost more main-thread time than the batches.
 */
const schedule = () => {
  timer ??= setTimeout(() => {
    timer = undefined;
    writeSome(unwritten.length);
  }, WRITE_WITHIN_MS);
};

const later = (format: () => CutText): CutText => {
  const text = new LaterText(format);
  if (unwritten.push(text) >= WRITE_EVERY) writeSome(WRITE_EVERY);
  else schedule();
  return text;
};

/**
 * What a verified approval's `receipt` signed of `input`, as the row keeps it (UV-12): the input as
 * JSON in its members' own order, when at most {@link DETAIL_CHARS} characters (computed from the
 * input that ran: an auditor digests its canonical form, which the receipt binds, and rebuilds the
 * row's `args` from it), else the `inputDigest` of the call's
 * description (the receipt's own, or in a batch this call's `batch.call`). Undefined when neither
 * can be given (an input JSON cannot write, which then was never signed either).
 * @example signedInputOf({ path: 'a.txt' }, receipt) // { json: '{"path":"a.txt"}' }
 */
export function signedInputOf(input: unknown, receipt: Receipt, batch?: BatchApproval): SignedInput | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(input);
  } catch {
    // A BigInt or a cycle: JSON.stringify throws, as canonicalJson did when the description was made.
  }
  // Detached as the row's texts are (one allocation, no ropes of the input's pieces kept).
  if (json !== undefined && json.length <= DETAIL_CHARS) return { json: detach({ text: json, truncated: false }).text };
  const description = receipt.description.kind === 'batch' ? batch?.call : receipt.description;
  return description?.kind === 'call' ? { digest: description.inputDigest } : undefined;
}

/**
 * The row the log keeps of a settled call. `deferred`: the texts are written a moment later (see
 * {@link LaterText}); only for an agent's call, whose arguments the browser or the relay made for
 * that call alone, so nothing changes them meanwhile. A page's own call (whose input the page may
 * reuse) is written at once.
 * @example log.add(describeCall({ time: clock.now(), tool, name, args: input, result }));
 */
export function describeCall({ time, tool, name, args, result, via = 'page', durationMs = 0, undo = null, by = 'agent', receipt, batch }: SettledCall, deferred = false): LogRow {
  const text = deferred ? later : written;
  const signedInput = receipt ? signedInputOf(args, receipt, batch) : undefined;
  return {
    time,
    tool: String(tool),
    name: String(name),
    status: statusOf(result),
    code: result.ok ? null : result.error.code,
    args: text(() => formatValue(args, DETAIL_CHARS)),
    result: text(() => formatValue(result, DETAIL_CHARS)),
    argsSummary: text(() => summarizeArgs(args)),
    resultSummary: text(() => summarizeResult(result)),
    undo,
    via,
    durationMs,
    by,
    receipt: receipt ?? null,
    ...(batch ? { batch } : {}),
    // Only with a receipt: computed now, from the input that ran, so the row keeps no value (SAFE-8).
    ...(signedInput ? { signedInput } : {}),
  };
}
