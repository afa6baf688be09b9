/**
 * The auditor's entry (`ai-ops/verify`, UV-5): checks, offline and later, that a line of the audit
 * export (AUDIT-1) was approved by the person who holds the enrolled credential. It runs in a
 * browser or in Node ≥ 20 with no DOM (WebCrypto only), and it trusts nothing in the line but what
 * the signature covers: the key is the one the auditor holds independently (compare its
 * {@link fingerprint} with the one the page shows), never the line's own `publicKey`.
 * @example
 * import { verifyReceipt } from 'ai-ops/verify';
 * for (const line of exportText.split('\n').filter(Boolean)) {
 *   if (!(await verifyReceipt(line, myKey))) console.log('not approved by me:', line);
 * }
 * @module
 */
import { checkReceipt, descriptionDigest, inputDigest, type ConsentDescription, type PublicKeyRecord, type Receipt } from './consent-proof.js';

export { canonicalJson, challengeOf, checkReceipt, fingerprint, inputDigest } from './consent-proof.js';
export type { ConsentDescription, PublicKeyRecord, Receipt } from './consent-proof.js';

/** The fields of one audit export line that a receipt is checked against (the line has more). */
export interface AuditReceiptLine {
  readonly tool: string;
  readonly operation: string;
  /** The call's input as JSON text, possibly cut (see `argsTruncated`). */
  readonly args: string;
  /** True when `args` was cut at its limit: the input digest cannot be recomputed then. */
  readonly argsTruncated: boolean;
  /** The approval's receipt, or null for a call nobody verified. */
  readonly receipt: Receipt | null;
  /** For a call approved in a batch (BATCH-4): the batch's id and this call's own description, whose digest the batch receipt binds. */
  readonly batch?: { readonly id: string; readonly size?: number; readonly call?: ConsentDescription } | null;
  /** The key the page had enrolled, for convenience only: never used to check. */
  readonly publicKey?: PublicKeyRecord | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/**
 * Why `line` is not a receipt-backed approval under `publicKey`, or null when it is: the receipt
 * checks against the key ({@link checkReceipt}); a `call` receipt names the line's tool and
 * operation and, unless `argsTruncated`, the digest of the line's `args`; a `switch` receipt names
 * the line's tool; a `batch` receipt (BATCH-2) must carry the line's own `batch.call`, a call
 * description whose digest is one of the set's, with the batch's id, and which names the line's
 * tool, operation and input as a `call` receipt would. `line` is one JSON Lines line (text or parsed), `publicKey` a
 * {@link PublicKeyRecord} or its JSON. Never rejects.
 * @example
 * const reason = await explainReceipt(line, myKey); // null, or e.g. 'the receipt is for other input'
 */
export async function explainReceipt(line: string | AuditReceiptLine, publicKey: PublicKeyRecord | string): Promise<string | null> {
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
    if (description.kind === 'switch') return description.tool === parsed.tool ? null : 'the receipt is for another tool';
    if (description.kind === 'batch') {
      // The signature covers the set of digests; the line's own call description must be one of them.
      const batch = parsed.batch;
      if (!isRecord(batch) || !isRecord(batch.call)) return 'the line has no call description for its batch receipt';
      if (batch.id !== description.batchId) return 'the receipt is for another batch';
      const calls = description.calls;
      if (!Array.isArray(calls) || !calls.includes(await descriptionDigest(batch.call as unknown as ConsentDescription))) {
        return 'the line\'s call is not in the batch the receipt approved';
      }
      description = batch.call;
    }
    if (description.kind !== 'call') return `a ${String(description.kind)} receipt does not approve one line`;
    if (description.tool !== parsed.tool) return 'the receipt is for another tool';
    if (description.operation !== parsed.operation) return 'the receipt is for another operation';
    if (parsed.argsTruncated === true) return null;
    if (parsed.argsTruncated !== false || typeof parsed.args !== 'string') return 'the line has no args to check';
    return (await inputDigest(JSON.parse(parsed.args))) === description.inputDigest ? null : 'the receipt is for other input';
  } catch (error) {
    return `the line cannot be read: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * True when `line` (one audit export line, text or parsed) carries a receipt that `publicKey` (a
 * key the auditor holds, as a {@link PublicKeyRecord} or its JSON) signed for exactly this line's
 * tool, operation and input; see {@link explainReceipt} for the reason when not. Never rejects.
 * @example
 * await verifyReceipt(line, myKey) // true or false
 */
export async function verifyReceipt(line: string | AuditReceiptLine, publicKey: PublicKeyRecord | string): Promise<boolean> {
  return (await explainReceipt(line, publicKey)) === null;
}
