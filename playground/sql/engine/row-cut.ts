/**
 * SQL-9's cut, made on Postgres's wire bytes before any row becomes a JavaScript value.
 *
 * PGlite's `exec()` turns every DataRow message into a message object and then a row array with
 * parsed values: for `select generate_series(1, 3000000)` Postgres itself writes its 52 MB of
 * messages in ~0.5 s, and the parsing of 3,000,000 rows the page then throws away takes ~8 s
 * more (measured in Node, PGlite 0.5.17). {@link RowCut} reads the stream as Postgres writes
 * it (PGlite's `execProtocolRawStream`), only the messages' 5-byte headers, and keeps every
 * message except the DataRows past the first `maxRows` of each statement, which it only counts;
 * PGlite's own parser and `parseResults` then read the few kept bytes, so the kept rows, the
 * fields, the command tags and the errors are exactly what `exec()` would have given.
 * @module
 */

/** DataRow ('D'): one row of a result. */
const DATA_ROW = 0x44;
/** CommandComplete ('C'): a statement ended; PGlite's `parseResults` starts a new result there. */
const COMMAND_COMPLETE = 0x43;
/** Every message starts with its type byte and an int32 length that counts itself, not the type byte. */
const HEADER = 5;

/**
 * Feeds on the chunks Postgres writes (each chunk valid only while {@link push} runs: PGlite hands
 * a view of the wasm memory) and keeps what a result needs.
 * @example
 * const cut = new RowCut(200);
 * await db.execProtocolRawStream(protocol.serialize.query(sql), { onRawData: (bytes) => cut.push(bytes) });
 * cut.kept(); // the messages to parse; cut.totals[i]: the rows of the i-th completed statement
 */
export class RowCut {
  readonly #maxRows: number;
  /** Rows of each completed statement (one per CommandComplete), before the cut. */
  readonly totals: number[] = [];
  #kept = new Uint8Array(64 * 1024);
  #keptLength = 0;
  /** A message header split across chunks, as far as it has come. */
  readonly #header = new Uint8Array(HEADER);
  #headerLength = 0;
  /** Body bytes of the current message still to come. */
  #remaining = 0;
  #keeping = false;
  /** DataRows of the statement running now. */
  #rows = 0;

  /** @param maxRows DataRows kept per statement; all of them when absent. */
  constructor(maxRows?: number) {
    this.#maxRows = maxRows ?? Infinity;
  }

  /** Reads one chunk of the stream; messages may start and end anywhere in it. */
  push(bytes: Uint8Array): void {
    let at = 0;
    const end = bytes.length;
    while (at < end) {
      if (this.#remaining > 0) {
        const n = Math.min(this.#remaining, end - at);
        if (this.#keeping) this.#keep(bytes, at, n);
        at += n;
        this.#remaining -= n;
        continue;
      }
      let type: number;
      let length: number;
      if (this.#headerLength === 0 && end - at >= HEADER) {
        type = bytes[at];
        length = ((bytes[at + 1] << 24) | (bytes[at + 2] << 16) | (bytes[at + 3] << 8) | bytes[at + 4]) >>> 0;
        this.#begin(type, length);
        if (this.#keeping) this.#keep(bytes, at, HEADER);
        at += HEADER;
      } else {
        const n = Math.min(HEADER - this.#headerLength, end - at);
        this.#header.set(bytes.subarray(at, at + n), this.#headerLength);
        this.#headerLength += n;
        at += n;
        if (this.#headerLength < HEADER) continue;
        const h = this.#header;
        this.#headerLength = 0;
        this.#begin(h[0], ((h[1] << 24) | (h[2] << 16) | (h[3] << 8) | h[4]) >>> 0);
        if (this.#keeping) this.#keep(h, 0, HEADER);
      }
    }
  }

  /** The kept messages, whole, in the order Postgres wrote them. */
  kept(): Uint8Array {
    return this.#kept.subarray(0, this.#keptLength);
  }

  /** A message of `type` whose length field says `length` starts: keep it or only count it. */
  #begin(type: number, length: number): void {
    this.#remaining = length - 4;
    if (type === DATA_ROW) {
      this.#rows++;
      this.#keeping = this.#rows <= this.#maxRows;
    } else {
      if (type === COMMAND_COMPLETE) {
        this.totals.push(this.#rows);
        this.#rows = 0;
      }
      this.#keeping = true;
    }
  }

  #keep(bytes: Uint8Array, from: number, n: number): void {
    const needed = this.#keptLength + n;
    if (needed > this.#kept.length) {
      const grown = new Uint8Array(Math.max(needed, this.#kept.length * 2));
      grown.set(this.#kept.subarray(0, this.#keptLength));
      this.#kept = grown;
    }
    this.#kept.set(bytes.subarray(from, from + n), this.#keptLength);
    this.#keptLength = needed;
  }
}
