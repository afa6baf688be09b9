/**
 * Messages between {@link SqlEngine} (main thread) and the SQL worker (`worker.ts`).
 * Kept in one file so both sides are type-checked against the same shapes (and no PGlite import).
 *
 * main → worker: `init` once, then any number of `run` (one at a time).
 * worker → main: `ready` or `init-failed` after `init`; one `result` per `run`.
 * @module
 */

import type { JsonValue } from '../values.js';
import type { Segment } from './journal.js';

/** A result column as the engine describes it. */
export interface SqlField {
  /** Column name; several columns may share one (a join's `id`, SQL-7): rows are arrays, so each keeps its value. */
  name: string;
  /** Postgres type OID, e.g. 23 = int4, 25 = text. */
  dataTypeID: number;
}

/**
 * One row: its values in the order of `fields` (SQL-7), already JSON-safe (made so in the worker
 * by values.ts: bigint → decimal string, Date → ISO string, bytes → `\x…` hex, NaN/±Infinity → text).
 */
export type SqlRow = JsonValue[];

/** The result of one statement of a run. */
export interface StatementResult {
  fields: SqlField[];
  /** The first `maxRows` rows of the run (all of them without `maxRows`); cut in the worker (SQL-9). */
  rows: SqlRow[];
  /** The statement's full row count, before the cut. */
  totalRows: number;
  /** Rows changed by this statement alone (INSERT/UPDATE/DELETE/MERGE), 0 for anything else. */
  affectedRows: number;
  /** The command tag's verb, e.g. `SELECT`, `INSERT`, `CREATE`; absent for an empty statement. */
  command?: string;
}

/** A failed run's error. `sqlState` and `position` are present only when Postgres gave them. */
export interface SqlError {
  message: string;
  /** SQLSTATE, e.g. `42P01` (undefined table). */
  sqlState?: string;
  /** 1-based character offset into the SQL text of the call. */
  position?: number;
  detail?: string;
  hint?: string;
}

/** The assets a worker needs; compiled once by the main thread and cloned into every new worker. */
export interface InitMessage {
  type: 'init';
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
  /** pglite.data (the Emscripten file-system bundle). */
  fsBundle: Blob;
  /** The build-time dump of a freshly initialised data directory (gzip tar). */
  dataDir: Blob;
  /** A restore's files: the data directory starts from them instead of `dataDir` (UNDO-1). */
  files?: DataFiles;
  /** A restore's undo windows older than the restored point (journal.ts), kept by the new worker. */
  segments?: Segment[];
  /** The undo windows' budget in bytes; 64 MB when absent (UNDO-4). */
  journalLimitBytes?: number;
}

/** A data directory's entries by path (relative to it): a file's bytes, or null for a directory; with modes. */
export interface DataFiles {
  entries: Record<string, Uint8Array | null>;
  modes: Record<string, number>;
}

/** Runs `sql` (one or more statements) in one transaction. */
export interface RunMessage {
  type: 'run';
  id: number;
  sql: string;
  /** Rows to send back per statement; the rest are only counted (SQL-9). All when absent. */
  maxRows?: number;
  /**
   * False: run as before undo existed (no window, no check of what it wrote) and forget every
   * kept window — the bench's baseline only. Kept when absent.
   */
  keep?: boolean;
}

/** Puts the files back as they were before run `segment` and answers them as a tar (UNDO-1). */
export interface RestoreMessage {
  type: 'restore';
  id: number;
  segment: number;
}

/** Run `segment`'s step is gone: its window may be forgotten (journal.ts `release`). */
export interface ReleaseMessage {
  type: 'release';
  segment: number;
}

/** Asks for every file of the data directory as it is now (tests compare them byte for byte). */
export interface FilesMessage {
  type: 'files';
  id: number;
}

/** What a committed run kept to undo it: null when it changed nothing (UNDO-4). */
export interface KeptUndo {
  /** The run's window in the worker's journal. */
  segment: number;
  /** Bytes the window held when the run ended. */
  bytes: number;
}

/** Why a text was refused before anything ran (SQL-8). */
export interface RefusedStatement {
  message: string;
  /** The refused statement's leading word(s), e.g. `COMMIT`. */
  statement: string;
  /** 1-based character offset of that statement in the text. */
  position: number;
}

export type ToWorker = InitMessage | RunMessage | RestoreMessage | ReleaseMessage | FilesMessage;

export interface ReadyMessage {
  type: 'ready';
  /** Time the worker spent creating PGlite, for measurements. */
  ms: number;
}

export interface InitFailedMessage {
  type: 'init-failed';
  message: string;
}

export type RunReply =
  | {
      type: 'result'; id: number; ok: true; results: StatementResult[]; ms: number; changed: boolean; undo: KeptUndo | null;
      /** The run changed more than the budget by itself: these bytes were not kept, nor any older window. */
      notKept?: number;
    }
  | { type: 'result'; id: number; ok: false; error: SqlError }
  | { type: 'result'; id: number; ok: false; refused: RefusedStatement };

export type RestoreReply =
  | { type: 'restored'; id: number; ok: true; files: DataFiles; segments: Segment[] }
  /** `intact`: the worker changed nothing and goes on; otherwise its files no longer match its Postgres. */
  | { type: 'restored'; id: number; ok: false; intact: boolean; message: string };

/** The data directory's files as they are now. */
export interface FilesReply {
  type: 'files';
  id: number;
  files: DataFiles;
}

export type FromWorker = ReadyMessage | InitFailedMessage | RunReply | RestoreReply | FilesReply;

/**
 * The buffers under `files`, each once, to transfer rather than copy; `except` (the wasm memory's,
 * which cannot move) is left out, and its views are copied by the structured clone.
 */
export function buffersOf(files: DataFiles, except?: ArrayBufferLike): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const bytes of Object.values(files.entries)) if (bytes && bytes.buffer instanceof ArrayBuffer && bytes.buffer !== except) buffers.add(bytes.buffer);
  return [...buffers];
}
