/**
 * What the log keeps of a settled call (LOG-3, LOG-4, LOG-6, SAFE-8): its texts, cut
 * (`log-format.ts`), and never the values; for an agent's call written a moment after it answered
 * (the deferred write below). Used by the call path only, so it is in the on-demand part with it
 * (`on-demand.ts`).
 * @module
 */
import type { BatchApproval } from './confirmation-queue.js';
import type { Receipt } from './consent-proof.js';
import type { CutText, LogRow, LogStatus, SettledCall, SignedInput } from './operation-log.js';
import { describeError, type OperationResult } from './result.js';
import { DETAIL_CHARS, formatValue, statusOf, summarizeArgs, summarizeResult } from './log-format.js';

export type { CutText } from './operation-log.js';

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
export function describeCall({ time, tool, name, args, result, resultJson, via = 'page', durationMs = 0, undo = null, by = 'agent', receipt, batch }: SettledCall, deferred = false): LogRow {
  const text = deferred ? later : written;
  // The result as the agent got it: a later write reads its JSON, not the object the tool may keep changing.
  let answered: OperationResult | undefined;
  const shown = () => (answered ??= resultJson === undefined ? result : JSON.parse(resultJson) as OperationResult);
  const signedInput = receipt ? signedInputOf(args, receipt, batch) : undefined;
  return {
    time,
    tool: String(tool),
    name: String(name),
    status: statusOf(result),
    code: result.ok ? null : result.error.code,
    args: text(() => formatValue(args, DETAIL_CHARS)),
    result: text(() => formatValue(shown(), DETAIL_CHARS)),
    argsSummary: text(() => summarizeArgs(args)),
    resultSummary: text(() => summarizeResult(shown())),
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
