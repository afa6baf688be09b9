/**
 * AUDIT-1: the log as an audit record, JSON Lines, written only when the user asks (the log's
 * 「記録を保存」 downloads it; nothing here writes anywhere). One line per row, oldest first, with what
 * the row keeps: the arguments and the result as the row's texts (cut at LOG-4's 10,000 characters,
 * as shown), never the values themselves, which the log never kept (SAFE-8). A verified line also
 * carries what its receipt signed of the input (UV-12): `inputJson`, or where that is longer than the
 * row keeps, `inputDigest`; `verifyReceipt` (`ai-ops/verify`) checks the line against it.
 *
 * AUDIT-2: the record is a chain. Each line ends with its number, the record's count of lines, the
 * digest of the line before it (`prev`) and its own digest, the SHA-256 of its text up to that
 * member: so its result, code, time, batch, channel (`via`) and undo state are all bound, and a
 * line edited, deleted, duplicated or moved breaks the chain where it happened.
 * `verifyAuditRecord` (`ai-ops/verify`) and the `ai-ops-verify` command check a whole file.
 * @module
 */
import type { CallVia, LogEntry } from './operation-log.js';
import type { ErrorCode } from './result.js';
import type { PublicKeyRecord, Receipt } from './consent-proof.js';
import type { BatchApproval } from './confirmation-queue.js';
import { sha256Hex } from './sha256.js';

/** One line of the record. */
export interface AuditLine {
  /** When the call settled, ISO 8601 (UTC). */
  readonly time: string;
  readonly tool: string;
  readonly operation: string;
  /** The path the call came by, or `user` for the user's own undo. */
  readonly via: CallVia;
  /**
   * The arguments as the row shows them (LOG-4: text for reading, Markdown's line breaks and quotes
   * as written, cut at 10,000 characters). Not JSON, and not what a receipt binds: that is
   * {@link AuditLine.inputJson} / {@link AuditLine.inputDigest}.
   */
  readonly args: string;
  /** The result envelope as the row keeps it (text, cut the same way). */
  readonly result: string;
  /** The error code, or null for a success. */
  readonly code: ErrorCode | null;
  /** From arrival to the settled result, ms. */
  readonly durationMs: number;
  /** True once the user undid the call from its row. */
  readonly undone: boolean;
  /** True when `args` was cut at 10,000 characters (the reading text only; see `inputJson`). */
  readonly argsTruncated: boolean;
  /** The verified approval's receipt (UV-5): check it with `verifyReceipt` from `ai-ops/verify`. Null when not verified. */
  readonly receipt: Receipt | null;
  /**
   * With a receipt, when the input's canonical JSON (`canonicalJson`: keys sorted, no whitespace) is
   * at most 10,000 characters (UV-12): that JSON, of the input the call ran with. Its SHA-256 (hex)
   * must be the `inputDigest` the receipt's call description binds. Absent otherwise.
   */
  readonly inputJson?: string;
  /**
   * With a receipt, when the input's canonical JSON is longer than 10,000 characters (UV-12), in
   * place of `inputJson`: the hex SHA-256 of that JSON, the `inputDigest` the call description
   * binds. The line alone then cannot show the input was the signed one: `verifyReceipt(line, key,
   * { input })` checks it against the input you hand it. Absent otherwise.
   */
  readonly inputDigest?: string;
  /**
   * Set when the call was approved with others by one 「すべて承認」 (BATCH-4): the batch's id and
   * size, and where verified this call's own description, whose digest is one of those the batch
   * `receipt` binds (`verifyReceipt` checks both). Absent otherwise.
   */
  readonly batch?: BatchApproval;
  /**
   * The public key the page had enrolled when the record was saved, for the credential the receipt
   * names (UV-5); null without a receipt. An auditor checks against a key they hold independently.
   */
  readonly publicKey: PublicKeyRecord | null;
}

/**
 * The record's line of one row.
 * @example auditLine(entry).operation // 'node_write_file'
 */
export function auditLine(entry: LogEntry, publicKey: PublicKeyRecord | null = null): AuditLine {
  const receipt = entry.receipt ?? null;
  return {
    time: new Date(entry.time).toISOString(),
    tool: entry.tool,
    operation: entry.name,
    via: entry.via,
    args: entry.args.text,
    result: entry.result.text,
    code: entry.code,
    durationMs: entry.durationMs,
    undone: entry.undo === 'undone',
    argsTruncated: entry.args.truncated,
    receipt,
    // Only on verified rows and on rows approved together, so every other line keeps its shape.
    ...(entry.signedInput?.json !== undefined ? { inputJson: entry.signedInput.json } : {}),
    ...(entry.signedInput?.digest !== undefined ? { inputDigest: entry.signedInput.digest } : {}),
    ...(entry.batch ? { batch: entry.batch } : {}),
    publicKey: receipt && publicKey?.credentialId === receipt.credentialId ? publicKey : null,
  };
}

/** The `prev` of a record's first line: no line came before it (AUDIT-2). */
export const AUDIT_CHAIN_START = '0'.repeat(64);

/** One line of the record as written: the row's {@link AuditLine} and its place in the chain (AUDIT-2). */
export interface AuditRecordLine extends AuditLine {
  /** Its number in the record, from 1. */
  readonly line: number;
  /** How many lines the record has: a line cut off the end shows on every other. */
  readonly lines: number;
  /** The `digest` of the line before it; {@link AUDIT_CHAIN_START} on the first. */
  readonly prev: string;
  /**
   * Hex SHA-256 of the line's own text (UTF-8) from its `{` up to this member, that is the line
   * with `,"digest":"…"` left out: the line always ends with it, last.
   */
  readonly digest: string;
}

/**
 * The rows as JSON Lines: one object per line, each line ending in `\n`, chained (AUDIT-2: see
 * {@link AuditRecordLine}). A record verifies as a whole with `verifyAuditRecord` (`ai-ops/verify`).
 * @example auditRecord(aiOps.log.getState().entries).split('\n').filter(Boolean).map((l) => JSON.parse(l))
 */
export function auditRecord(entries: readonly LogEntry[], publicKey: PublicKeyRecord | null = null): string {
  let prev = AUDIT_CHAIN_START;
  return entries.map((entry, i) => {
    const body = JSON.stringify({ ...auditLine(entry, publicKey), line: i + 1, lines: entries.length, prev });
    prev = sha256Hex(body);
    // The digest goes last, as a member of the same object: the line is still one JSON object.
    return `${body.slice(0, -1)},"digest":"${prev}"}\n`;
  }).join('');
}

/**
 * The download's file name for a record saved at `time` (epoch ms): `ai-ops-log-<ISO time>.jsonl`,
 * the colons written as `-` so every file system takes it.
 * @example auditFileName(Date.UTC(2026, 11, 1, 20, 5, 9)) // 'ai-ops-log-2026-12-01T20-05-09Z.jsonl'
 */
export function auditFileName(time: number): string {
  return `ai-ops-log-${new Date(time).toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')}.jsonl`;
}
