/**
 * The operation log (LOG-7, REG-5): memory only, at most 200 entries, oldest dropped; never written
 * to localStorage or IndexedDB, because arguments and results hold file contents. An entry keeps
 * only what a row can show (SAFE-8): the arguments and the result written as text and cut at
 * LOG-4's 10,000 characters, and their 80-character summaries — never the values themselves, so
 * 200 reads of 1 MB files retain about 200 × 20,000 characters, not 200 MB.
 * @module
 */
import { createStore, readableStore, type ReadableStore } from './store.js';
import type { ErrorCode, OperationResult } from './result.js';
import type { Receipt } from './consent-proof.js';
import type { BatchApproval } from './confirmation-queue.js';

/**
 * Text and whether it was cut.
 * @example const { text, truncated } = cutText(output, 80);
 */
export interface CutText {
  readonly text: string;
  readonly truncated: boolean;
}

/** How many entries the log keeps (LOG-7). */
export const LOG_LIMIT = 200;

/** The badge of a row (LOG-3): 成功 when ok, 中止 for declined, 失敗 for any other code. */
export type LogStatus = 'success' | 'declined' | 'failure';

/** One settled call, as the log shows it. */
export interface LogEntry {
  readonly id: number;
  /** Epoch ms when the result settled. */
  readonly time: number;
  readonly tool: string;
  readonly name: string;
  readonly status: LogStatus;
  /** The error code when the result is a failure, else null. */
  readonly code: ErrorCode | null;
  /** The arguments as the caller passed them, written for reading and cut at 10,000 characters (LOG-4). */
  readonly args: CutText;
  /** The result envelope, written the same way (LOG-4). */
  readonly result: CutText;
  /** The arguments on one line, first 80 characters (LOG-3). */
  readonly argsSummary: CutText;
  /** `code: message`, or the result's fields on one line, first 80 characters (LOG-3). */
  readonly resultSummary: CutText;
  /**
   * Whether the call's change can be taken back from this row (UNDO-1, UNDO-2, UNDO-4): `available`
   * while its before-state is kept, `undone` once the user undid it, `dropped` once the budget let
   * its before-state go; null for a row with nothing to undo (reads, failures, the user's undo rows).
   */
  readonly undo: UndoState | null;
  /** The path the call came by (AUDIT-1), known where it entered the runtime. */
  readonly via: CallVia;
  /** From the call's arrival to its settled result, in ms of the runtime's clock (AUDIT-1). */
  readonly durationMs: number;
  /** `user` for the rows of the user's own undo (UNDO-3), `agent` for every call. */
  readonly by: 'agent' | 'user';
  /** The receipt of the verified approval this call ran after (UV-5); null when it was not verified. */
  readonly receipt: Receipt | null;
  /**
   * With a receipt only (UV-12): what the receipt binds of the input, as the audit line carries it
   * (`inputJson` or `inputDigest`). Absent without a receipt.
   */
  readonly signedInput?: SignedInput;
  /**
   * Set when the call was approved with others by one 「すべて承認」 (BATCH-4): the batch's id, its
   * size, and (verified) this call's own description, whose digest the batch receipt binds. Absent otherwise.
   */
  readonly batch?: BatchApproval;
}

/**
 * What a verified approval signed of a call's input, as its row keeps it (UV-12): `json`, the
 * input's canonical JSON (`canonicalJson`, whose SHA-256 is the call description's `inputDigest`)
 * when it is at most LOG-4's 10,000 characters; else `digest`, that `inputDigest` itself (hex
 * SHA-256), so the row keeps no more than it shows.
 */
export type SignedInput = { readonly json: string; readonly digest?: undefined } | { readonly digest: string; readonly json?: undefined };

/** What a row's undo is: see {@link LogEntry.undo}. */
export type UndoState = 'available' | 'undone' | 'dropped';

/**
 * The path a call came by (AUDIT-1), as far as it is known where the call entered: `webmcp` the
 * browser's own `document.modelContext` (`executeTool`); `relay` a `navigator.modelContextTesting`,
 * the surface the relay's embed reads (ai-ops's own over the browser's API, or the polyfill's);
 * `polyfill` the polyfill's registry by any other way (its `document.modelContext.executeTool`, its
 * tab transport), which does not say who called — a page script or an extension; `page` a script
 * of the page calling `session.call`; `user` the user's undo from the log; `relay <name> <version>`
 * the relay while a paired relay is connected, its MCP client named as it said in `initialize`
 * (DOOR-10).
 */
export type CallVia = 'webmcp' | 'relay' | `relay ${string}` | 'polyfill' | 'page' | 'user';

/** A row before the log numbers it: what {@link describeCall} (src/log-entry.ts) makes of a call. */
export type LogRow = Omit<LogEntry, 'id'>;

/** A settled call as the session hands it to {@link describeCall}; nothing of it is kept but its texts. */
export interface SettledCall {
  /** Epoch ms when the result settled. */
  readonly time: number;
  readonly tool: string;
  readonly name: string;
  /** The arguments as the caller passed them. */
  readonly args: unknown;
  /** The result envelope. */
  readonly result: OperationResult;
  /**
   * The envelope as the caller received it (its JSON). A row written later reads the result from
   * this, never from the live object the tool returned, which the tool may still change (SAFE-8).
   */
  readonly resultJson?: string;
  /** Default `page`. */
  readonly via?: CallVia;
  /** Default 0. */
  readonly durationMs?: number;
  /** Default null: nothing to undo. */
  readonly undo?: UndoState | null;
  /** Default `agent`. */
  readonly by?: 'agent' | 'user';
  /** The verified approval's receipt (UV-5); default none. */
  readonly receipt?: Receipt;
  /** See {@link LogEntry.batch}. */
  readonly batch?: BatchApproval;
}

/** The log as its readers have it (`aiOps.log`, the log element): the store contract, no writes. */
export type OperationLog = ReadableStore<{ readonly entries: readonly LogEntry[] }>;

/**
 * The log with its writes, which only the runtime holds and hands to the on-demand part: the
 * session's call adds rows, the undo keeper sets a row's undo state.
 */
export interface OperationLogWriter {
  /** The log it writes, to read: what the runtime shows as `aiOps.log`. */
  readonly reader: OperationLog;
  /**
   * Adds one settled call's row at the end (LOG-5). The row holds texts only (SAFE-8): the session
   * writes it with `describeCall`, which loads with the call path, not with the page.
   */
  add(row: LogRow): LogEntry;
  /** Sets row `id`'s undo state (UNDO-2, UNDO-4): the undo keeper's one write. */
  setUndo(id: number, undo: UndoState): void;
}

/**
 * Creates a log.
 * @example
 * const log = createOperationLog();
 * log.reader.subscribe(() => render(log.reader.getState().entries));
 * log.add(describeCall({ time: Date.now(), tool: 'sql', name: 'sql_read_query', args: {}, result }));
 */
export function createOperationLog(options: { limit?: number } = {}): OperationLogWriter {
  const { limit = LOG_LIMIT } = options;
  const store = createStore<{ readonly entries: readonly LogEntry[] }>({ entries: [] });
  const { getState, setState } = store;
  const reader = readableStore(store);
  let nextId = 1;
  return {
    reader,
    add(row) {
      const entry: LogEntry = Object.freeze({ ...row, id: nextId++ });
      // One copy of the 200 rows per call, not two (a spread, then the limit's slice): NAT-1's
      // per-call budget, where the second copy's garbage showed as collector time in bench 70.
      const next = getState().entries.slice(1 - limit || Infinity);
      next.push(entry);
      setState({ entries: next });
      return entry;
    },
    setUndo: (id, undo) => setState({ entries: getState().entries.map((e) => (e.id === id ? Object.freeze({ ...e, undo }) : e)) }),
  };
}
