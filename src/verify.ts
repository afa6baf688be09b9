/**
 * The auditor's entry (`ai-ops/verify`, UV-5, UV-12): checks, offline and later, that a line of the
 * audit export (AUDIT-1) was approved by the person who holds the enrolled credential, for exactly
 * that line's tool, operation and input. It runs in a browser or in Node ≥ 20 with no DOM
 * (WebCrypto only), and it trusts nothing in the line but what the signature covers: the key is the
 * one the auditor holds independently (compare its {@link fingerprint} with the one the page
 * shows), never the line's own `publicKey`.
 *
 * The input is always checked, never skipped: a line carries the input its receipt signed as JSON
 * (`inputJson`, its canonical form's digest is the signed one), or, where that is longer than the
 * row keeps (10,000 characters), only its digest (`inputDigest`); such a line verifies only against
 * the input you hand it (`{ input }`), and without it {@link verifyReceipt} is false and
 * {@link explainReceipt} answers {@link INPUT_NOT_CHECKED}. The line's `args`, the log's reading
 * text, must be exactly that input as the log writes it: an edit there fails too.
 * @example
 * import { verifyReceipt, explainReceipt } from 'ai-ops/verify';
 * for (const line of exportText.split('\n').filter(Boolean)) {
 *   if (!(await verifyReceipt(line, myKey))) console.log(await explainReceipt(line, myKey), line);
 * }
 * @module
 */
import { checkReceipt, descriptionDigest, inputDigest, type ConsentDescription, type PublicKeyRecord, type Receipt } from './consent-proof.js';
import { DETAIL_CHARS, formatValue } from './log-format.js';

export { canonicalJson, challengeOf, checkReceipt, fingerprint, inputDigest } from './consent-proof.js';
export type { ConsentDescription, PublicKeyRecord, Receipt } from './consent-proof.js';

/** The fields of one audit export line that a receipt is checked against (the line has more: `args`, `result`, …, which it does not bind). */
export interface AuditReceiptLine {
  readonly tool: string;
  readonly operation: string;
  /**
   * The input the receipt signed, as `JSON.stringify` writes it (members in the caller's order, no
   * whitespace), when at most 10,000 characters; the receipt binds the digest of its canonical form
   * ({@link inputDigest}). Exactly one of `inputJson` and `inputDigest` is present.
   */
  readonly inputJson?: string;
  /** The input as the log shows it (the row's arguments), cut at 10,000 characters: checked against the signed input. */
  readonly args?: string;
  /** True when `args` was cut. */
  readonly argsTruncated?: boolean;
  /** In place of `inputJson` for a longer input: hex SHA-256 of its canonical JSON ({@link inputDigest}). */
  readonly inputDigest?: string;
  /** The approval's receipt, or null for a call nobody verified. */
  readonly receipt: Receipt | null;
  /** For a call approved in a batch (BATCH-4): the batch's id and size and this call's own description, whose digest the batch receipt binds. */
  readonly batch?: { readonly id: string; readonly size: number; readonly call?: ConsentDescription } | null;
  /** The key the page had enrolled, for convenience only: never used to check. */
  readonly publicKey?: PublicKeyRecord | null;
}

/** What {@link verifyReceipt} and {@link explainReceipt} may be handed besides the line and the key. */
export interface VerifyReceiptOptions {
  /**
   * The call's input as a value (what the agent passed, e.g. `JSON.parse` of the text you kept), not
   * its JSON text: its {@link inputDigest} must be the one the receipt signed. Needed for a line
   * that carries only `inputDigest`; on a line with `inputJson` it is checked as well. `undefined`
   * means none handed.
   */
  readonly input?: unknown;
}

/**
 * How {@link explainReceipt}'s reason begins when the signature, tool and operation check but the
 * input could not be: the line carries only `inputDigest` and no `input` was handed. Such a line is
 * not verified ({@link verifyReceipt} is false).
 * @example (await explainReceipt(line, key))?.startsWith(INPUT_NOT_CHECKED) // hand { input } and ask again
 */
export const INPUT_NOT_CHECKED = 'input not checked';

const isRecord = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/**
 * Why `line` is not a receipt-backed approval under `publicKey` of exactly its call, or null when it
 * is. The receipt checks against the key ({@link checkReceipt}). A `call` receipt must name the
 * line's tool and operation and bind the line's input: `inputJson` must be canonical JSON whose
 * digest is the description's `inputDigest`, or `inputDigest` must be that digest — and then the
 * line verifies only with `options.input` (else the reason begins with {@link INPUT_NOT_CHECKED});
 * a handed `options.input` must always have that digest. A `batch` receipt (BATCH-2) must carry
 * the line's own `batch.call`, a call description whose digest is one of the set's, with the
 * batch's id and size, which is then checked as a `call` receipt is. A `switch` or `unenrol`
 * receipt never approves a line. `line` is one JSON Lines line (text or parsed), `publicKey` a
 * {@link PublicKeyRecord} or its JSON. Never rejects.
 * @example
 * const reason = await explainReceipt(line, myKey); // null, or e.g. 'the receipt is for other input'
 * await explainReceipt(longLine, myKey, { input: keptInput }) // null when keptInput is the signed input
 */
export async function explainReceipt(line: string | AuditReceiptLine, publicKey: PublicKeyRecord | string, options: VerifyReceiptOptions = {}): Promise<string | null> {
  try {
    const parsed: unknown = typeof line === 'string' ? JSON.parse(line) : line;
    const key: unknown = typeof publicKey === 'string' ? JSON.parse(publicKey) : publicKey;
    if (!isRecord(parsed)) return 'the line is not a JSON object';
    if (!isRecord(key) || typeof key.credentialId !== 'string' || typeof key.alg !== 'number' || typeof key.spki !== 'string') {
      return 'the public key is not {credentialId, alg, spki}';
    }
    const receipt = parsed.receipt;
    if (!isRecord(receipt)) return 'the line has no receipt';
    const reason = await checkReceipt(receipt as unknown as Receipt, { credentialId: key.credentialId, alg: key.alg, spki: key.spki });
    if (reason) return reason;
    let description = receipt.description as Record<string, unknown>;
    // A switch-on is signed for a tool and a time, not for any call: it approves no line (UV-12).
    if (description.kind === 'switch') return 'a switch receipt approves turning a switch on, never a call';
    if (description.kind === 'batch') {
      // The signature covers the set of digests; the line's own call description must be one of them.
      const batch = parsed.batch;
      if (!isRecord(batch) || !isRecord(batch.call)) return 'the line has no call description for its batch receipt';
      if (batch.id !== description.batchId) return 'the receipt is for another batch';
      const calls = description.calls;
      if (!Array.isArray(calls) || !calls.includes(await descriptionDigest(batch.call as unknown as ConsentDescription))) {
        return 'the line\'s call is not in the batch the receipt approved';
      }
      if (batch.size !== calls.length) return 'the line\'s batch size is not the receipt\'s';
      description = batch.call;
    }
    if (description.kind !== 'call') return `a ${String(description.kind)} receipt does not approve a call`;
    if (description.tool !== parsed.tool) return 'the receipt is for another tool';
    if (description.operation !== parsed.operation) return 'the receipt is for another operation';
    // Options that are not an object (null from a JavaScript caller) hand no input.
    return await explainInput(parsed, description.inputDigest, isRecord(options) ? options.input : undefined);
  } catch (error) {
    return `the line cannot be read: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Why the line's input (and the handed one) is not the one whose digest `signed` the receipt binds, or null. */
async function explainInput(line: Record<string, unknown>, signed: unknown, input: unknown): Promise<string | null> {
  if (typeof signed !== 'string') return 'the receipt binds no input digest';
  const { inputJson, inputDigest: digest } = line;
  if (inputJson !== undefined && digest !== undefined) return 'the line carries both inputJson and inputDigest';
  if (inputJson !== undefined) {
    if (typeof inputJson !== 'string') return 'the line\'s inputJson is not text';
    // Only the one text JSON writes: an edit that parses alike (a space, an escape) is still an edit.
    if (JSON.stringify(JSON.parse(inputJson)) !== inputJson) return 'the line\'s inputJson is not as JSON writes it';
    if ((await inputDigest(JSON.parse(inputJson))) !== signed) return 'the receipt is for other input';
  } else if (digest !== undefined) {
    if (digest !== signed) return 'the receipt is for other input (the line\'s inputDigest is not the signed one)';
  } else {
    return 'the line carries no input (inputJson or inputDigest)';
  }
  if (input !== undefined && (await inputDigest(input)) !== signed) return 'the input handed is not the one signed';
  if (inputJson === undefined && input === undefined) {
    return `${INPUT_NOT_CHECKED}: the line carries only the input's digest (its input was longer than the row keeps); hand the input: verifyReceipt(line, key, { input })`;
  }
  // The reading text too: `args` must be the signed input as the log writes it, cut where it cuts.
  const shown = formatValue(inputJson !== undefined ? JSON.parse(inputJson) : input, DETAIL_CHARS);
  if (line.args !== shown.text || line.argsTruncated !== shown.truncated) return 'the line\'s args are not the signed input as the log shows it';
  return null;
}

/**
 * True when `line` (one audit export line, text or parsed) carries a receipt that `publicKey` (a
 * key the auditor holds, as a {@link PublicKeyRecord} or its JSON) signed for exactly this line's
 * tool, operation and input — the line's `inputJson`, or for a line that carries only
 * `inputDigest`, `options.input`. False otherwise, including when the input was not checked (a
 * line with `inputDigest` and no `input` handed); {@link explainReceipt} gives the reason. Never rejects.
 * @example
 * await verifyReceipt(line, myKey) // true or false
 * await verifyReceipt(longLine, myKey, { input }) // a line whose input was longer than the row keeps
 */
export async function verifyReceipt(line: string | AuditReceiptLine, publicKey: PublicKeyRecord | string, options: VerifyReceiptOptions = {}): Promise<boolean> {
  return (await explainReceipt(line, publicKey, options)) === null;
}

/** The `prev` of an audit record's first line (AUDIT-2): no line came before it. */
const CHAIN_START = '0'.repeat(64);
/** How every record line ends: its own digest, the last member (AUDIT-2). */
const DIGEST_END = /,"digest":"([0-9a-f]{64})"\}$/;

/** How a record's chain is broken, at the first line where it shows (AUDIT-2). */
export type AuditProblemKind = 'edited' | 'deleted' | 'duplicated' | 'reordered' | 'unreadable' | 'receipt';

/** What {@link verifyAuditRecord} answers. */
export interface AuditRecordCheck {
  /**
   * True when the chain holds from the first line to the last and every receipt checks under the
   * key. Lines in {@link AuditRecordCheck.inputNotChecked} do not make it false, but their input
   * was not checked: the result is complete only when that list is empty.
   */
  readonly ok: boolean;
  /** The lines read. */
  readonly lines: number;
  /** The last line's digest: compare it with the one you noted when the record was saved. Null for an empty record. */
  readonly head: string | null;
  /** The first problem: the line it names (1-based, as the file holds it), what kind, and why. Null when none. */
  readonly problem: { readonly line: number; readonly kind: AuditProblemKind; readonly reason: string } | null;
  /** The lines whose receipt checked, input included. */
  readonly verified: readonly number[];
  /**
   * The lines whose receipt checked but whose input could not be (it was longer than the row keeps:
   * the line has only `inputDigest`): hand it as `options.inputs[line]` (UV-12).
   */
  readonly inputNotChecked: readonly number[];
}

/** What {@link verifyAuditRecord} may be handed besides the record and the key. */
export interface VerifyAuditRecordOptions {
  /** The inputs of lines that carry only `inputDigest`, by line number (1-based): each is checked as `verifyReceipt`'s `input`. */
  readonly inputs?: Readonly<Record<number, unknown>>;
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
const sha256 = async (text: string) => hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));

/**
 * Checks a whole audit export (AUDIT-2), offline: the chain from the first line to the last —
 * each line's own digest, its number, the record's count and the digest of the line before it —
 * and every receipt on it under `publicKey`, the key the auditor holds ({@link explainReceipt}).
 * Names the first line edited, deleted, duplicated or reordered. A chain holds against any change
 * to a line that leaves its digests as they were; whoever rewrites a line's digests and every later
 * line's can make it hold again, so note the {@link AuditRecordCheck.head} when you save a record,
 * and trust what a receipt signs — that no one but the key's holder can make. Never rejects.
 * @example
 * import { verifyAuditRecord } from 'ai-ops/verify';
 * const check = await verifyAuditRecord(await readFile('ai-ops-log.jsonl', 'utf8'), myKey);
 * if (!check.ok) console.log(`line ${check.problem.line}: ${check.problem.reason}`);
 */
export async function verifyAuditRecord(text: string, publicKey: PublicKeyRecord | string, options: VerifyAuditRecordOptions = {}): Promise<AuditRecordCheck> {
  const verified: number[] = [];
  const inputNotChecked: number[] = [];
  if (typeof text !== 'string') return { ok: false, lines: 0, head: null, problem: { line: 1, kind: 'unreadable', reason: 'the record is not text' }, verified, inputNotChecked };
  // Lines end in \n; a file saved by an editor may have \r\n, which is an edit all the same.
  const texts = text === '' ? [] : (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  const parsed: (Record<string, unknown> | null)[] = texts.map((line) => {
    try {
      const value: unknown = JSON.parse(line);
      return isRecord(value) ? value : null;
    } catch {
      return null;
    }
  });
  const answer = (problem: AuditRecordCheck['problem'], head: string | null): AuditRecordCheck =>
    ({ ok: problem === null, lines: texts.length, head, problem, verified, inputNotChecked });
  const seen = new Map<string, number>();
  let prev = CHAIN_START;
  for (let i = 0; i < texts.length; i++) {
    const at = i + 1;
    const line = parsed[i];
    const end = DIGEST_END.exec(texts[i]);
    if (!line || typeof line.digest !== 'string') {
      return answer({ line: at, kind: 'unreadable', reason: `line ${at} is not a line of an ai-ops audit record (a JSON object with its "digest")` }, null);
    }
    if (!end || typeof line.line !== 'number' || typeof line.prev !== 'string') {
      return answer({ line: at, kind: 'edited', reason: `line ${at} was edited: it no longer ends with its digest, or lacks its number or the digest before it` }, null);
    }
    const digest = end[1];
    const earlier = seen.get(digest);
    if (earlier !== undefined) return answer({ line: at, kind: 'duplicated', reason: `line ${at} duplicates line ${earlier}` }, null);
    if ((await sha256(`${texts[i].slice(0, end.index)}}`)) !== digest) {
      return answer({ line: at, kind: 'edited', reason: `line ${at} was edited: its text is not the one its digest was made of` }, null);
    }
    if (line.line !== at) {
      // Its own number is further on: a line before it is gone, unless that line is still here, later.
      if (line.line > at) {
        const moved = parsed.findIndex((other, j) => j > i && other?.line === at);
        if (moved < 0) {
          const from = at === 1 ? 'the file begins with' : `the file goes from line ${at - 1} to`;
          return answer({ line: at, kind: 'deleted', reason: `line ${at} was deleted: ${from} the record's line ${line.line}` }, null);
        }
      }
      return answer({ line: at, kind: 'reordered', reason: `line ${at} is out of order: it is the record's line ${line.line}` }, null);
    }
    if (line.prev !== prev) {
      // The number is right and this line is as its digest says: what came before it is not what it followed.
      return at === 1
        ? answer({ line: 1, kind: 'deleted', reason: 'line 1 follows another line: the record\'s beginning was deleted' }, null)
        : answer({ line: at - 1, kind: 'edited', reason: `line ${at - 1} was edited: line ${at} follows a line whose digest was ${line.prev}` }, null);
    }
    seen.set(digest, at);
    prev = digest;
  }
  for (let i = 0; i < texts.length; i++) {
    if (parsed[i]!.lines !== texts.length) {
      const said = parsed[i]!.lines;
      return typeof said === 'number' && said > texts.length
        ? answer({ line: texts.length + 1, kind: 'deleted', reason: `line ${texts.length + 1} was deleted: the record had ${said} lines, the file has ${texts.length}` }, prev)
        : answer({ line: i + 1, kind: 'edited', reason: `line ${i + 1} says the record had ${String(said)} lines; the file has ${texts.length}` }, prev);
    }
  }
  const inputs = isRecord(options) && isRecord(options.inputs) ? options.inputs : {};
  for (let i = 0; i < texts.length; i++) {
    const line = parsed[i]!;
    if (line.receipt === null || line.receipt === undefined) continue;
    const at = i + 1;
    const reason = await explainReceipt(line as unknown as AuditReceiptLine, publicKey, at in inputs ? { input: inputs[at] } : {});
    if (reason === null) verified.push(at);
    else if (reason.startsWith(INPUT_NOT_CHECKED)) inputNotChecked.push(at);
    else return answer({ line: at, kind: 'receipt', reason: `line ${at}'s receipt does not check: ${reason}` }, prev);
  }
  return answer(null, texts.length ? prev : null);
}
