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
 * The row the log keeps of a settled call. `deferred`: the texts are written a moment later (see
 * {@link LaterText}); only for an agent's call, whose arguments the browser or the relay made for
 * that call alone, so nothing changes them meanwhile. A page's own call (whose input the page may
 * reuse) is written at once.
 * @example log.add(describeCall({ time: clock.now(), tool, name, args: input, result }));
 */
export function describeCall({ time, tool, name, args, result, via = 'page', durationMs = 0, undo = null, by = 'agent', receipt, batch }: SettledCall, deferred = false): LogRow {
  const text = deferred ? later : written;
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
  };
}
