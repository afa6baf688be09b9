/**
 * The SQL page's engine: PGlite (Postgres compiled to WebAssembly) in a module Web Worker of our
 * own. Not PGliteWorker: that one drops the error's SQLSTATE and position and has no way to stop a
 * query; here stopping is `worker.terminate()` on the main thread and a fresh worker.
 *
 * Bundled by playground/sql/build.mjs to dist/site/sql/engine/worker.js. Protocol: ./protocol.ts.
 * @module
 */
import { PGlite, messages, parse, protocol, type Results } from '@electric-sql/pglite';
import { toJsonRow } from '../values.js';
import { Journal } from './journal.js';
import { DATA_DIR, JournalledMemoryFS, readFiles, type ReadableFs } from './journal-fs.js';
import { buffersOf, type DataFiles, type FromWorker, type InitMessage, type KeptUndo, type RestoreMessage, type RunMessage, type SqlError, type StatementResult, type ToWorker } from './protocol.js';
import { RowCut } from './row-cut.js';
import { findTransactionControl } from './transaction-control.js';

/** At most this many bytes of undo windows are kept by default (UNDO-4: the log's budget across tools is 64 MB too). */
const JOURNAL_LIMIT_BYTES = 64 * 1024 * 1024;
let journalLimit = JOURNAL_LIMIT_BYTES;
/**
 * An undo starts Postgres on the kept files, which replays the WAL written since the last
 * checkpoint; PGlite never checkpoints by itself, so after a run that wrote, one is made once
 * this much WAL piled up (a few ms), keeping an undo's replay short (its ≤ 1 s budget).
 */
const CHECKPOINT_AFTER_WAL_BYTES = 8 * 1024 * 1024;

// The project's tsconfig has the DOM lib, not WebWorker: describe the little of the worker scope we use.
interface WorkerScope {
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ToWorker>) => void): void;
}
const scope = self as unknown as WorkerScope;

let database: Promise<PGlite> | undefined;
let journal = new Journal(DATA_DIR);

scope.addEventListener('message', (event) => {
  const message = event.data;
  if (message.type === 'init') {
    database ??= start(message);
  } else if (message.type === 'run') {
    void run(message);
  } else if (message.type === 'restore') {
    void restore(message);
  } else if (message.type === 'release') {
    journal.release(message.segment);
  } else if (message.type === 'files') {
    void database?.then((db) => {
      const files = filesOf(db);
      scope.postMessage({ type: 'files', id: message.id, files }, buffersOf(files));
    });
  }
});

/** PGlite's Emscripten module, the little of it read here. */
function moduleOf(db: PGlite): { FS: ReadableFs; wasmMemory?: WebAssembly.Memory } {
  return (db as unknown as { mod: { FS: ReadableFs; wasmMemory?: WebAssembly.Memory } }).mod;
}

/** The data directory's files (copies), for the tests' byte-for-byte comparisons. */
function filesOf(db: PGlite): DataFiles {
  return readFiles(moduleOf(db).FS);
}

async function start(init: InitMessage): Promise<PGlite> {
  const started = performance.now();
  journal = new Journal(DATA_DIR, init.segments ?? []);
  journalLimit = init.journalLimitBytes ?? JOURNAL_LIMIT_BYTES;
  try {
    const db = await PGlite.create({
      fs: new JournalledMemoryFS(journal, init.files),
      pgliteWasmModule: init.pgliteWasmModule,
      // Not run (the data dir is loaded from the dump), but PGlite prefetches initdb.wasm unless given one.
      initdbWasmModule: init.initdbWasmModule,
      fsBundle: init.fsBundle,
      // A restore's files are written by the file system itself; PGlite then resumes them.
      ...(init.files ? {} : { loadDataDir: init.dataDir }),
    });
    scope.postMessage({ type: 'ready', ms: performance.now() - started });
    return db;
  } catch (error) {
    scope.postMessage({ type: 'init-failed', message: messageOf(error) });
    throw error;
  }
}

async function run({ id, sql, maxRows, keep = true }: RunMessage): Promise<void> {
  if (!database) {
    scope.postMessage({ type: 'result', id, ok: false, error: { message: 'The SQL engine was not initialised.' } });
    return;
  }
  try {
    const db = await database;
    // SQL-8: a COMMIT, ROLLBACK, BEGIN … in the text would end the run's transaction early, so
    // part of a failing run would stick. Refuse such a text before running any of it. How '…'
    // strings are read depends on the session's setting, which an earlier run may have changed.
    const [settings] = (await db.query<Settings>(keep ? SETTINGS_KEPT : SETTINGS)).rows;
    const control = findTransactionControl(sql, { standardConformingStrings: settings?.scs !== 'off' });
    if (control) {
      const message =
        `${control.statement} at position ${control.position} was refused and nothing ran: every run is one transaction, ` +
        'committed when all its statements succeed and rolled back when one fails, so the text cannot contain ' +
        'BEGIN, START TRANSACTION, COMMIT, END, ROLLBACK, ABORT, SAVEPOINT, RELEASE or PREPARE TRANSACTION.';
      scope.postMessage({ type: 'result', id, ok: false, refused: { message, ...control } });
      return;
    }
    const started = performance.now();
    // The run's undo window: the blocks it overwrites are kept as they were (journal.ts).
    if (keep) journal.open(id);
    else journal.clear();
    let changed = false;
    // One transaction for the whole text: PGlite's transaction() sends BEGIN, our text as one
    // simple-protocol query (so an error's position is relative to our text), then COMMIT, or
    // ROLLBACK when any statement fails, so a failing last statement leaves no trace of the others.
    // Rows as arrays: a join's two `id` columns each keep their value (SQL-7).
    let ran: CutResults;
    try {
      ran = await runInTransaction(db, sql, maxRows);
      if (keep) changed = await wrote(db, id, sql, settings);
    } catch (error) {
      if (keep) journal.mergeLast();
      throw error;
    }
    const ms = performance.now() - started;
    // Inside the run's window, so what the checkpoint overwrites is kept with its step.
    // A failed checkpoint changes nothing the run did: the run stays committed, the next one tries again.
    if (keep && changed) await checkpointIfWalPiledUp(db).catch(() => {});
    let undo: KeptUndo | null = null;
    let notKept: number | undefined;
    const segment = journal.segments.at(-1);
    if (keep && changed && segment?.id === id && segment.bytes > journalLimit) {
      // Over the budget by itself: nothing is kept, and older windows cannot rewind past it either.
      notKept = segment.bytes;
      journal.clear();
    } else if (keep && changed && segment?.id === id) {
      journal.trim(journalLimit);
      undo = { segment: id, bytes: segment.bytes };
    } else if (keep) {
      journal.mergeLast();
    }
    try {
      scope.postMessage({ type: 'result', id, ok: true, results: perStatement(ran), ms, changed, undo, ...(notKept === undefined ? {} : { notKept }) });
    } catch (error) {
      // A value the structured clone cannot copy; the transaction is committed all the same (no step).
      if (undo) journal.release(undo.segment);
      scope.postMessage({ type: 'result', id, ok: false, error: { message: `The result could not be sent: ${messageOf(error)}` } });
    }
  } catch (error) {
    scope.postMessage({ type: 'result', id, ok: false, error: sqlError(error) });
  }
}

/** See {@link CHECKPOINT_AFTER_WAL_BYTES}. */
async function checkpointIfWalPiledUp(db: PGlite): Promise<void> {
  const since = await db.query<[number]>('SELECT (pg_current_wal_lsn() - redo_lsn)::float8 FROM pg_control_checkpoint()', [], { rowMode: 'array' });
  if ((since.rows[0]?.[0] ?? 0) > CHECKPOINT_AFTER_WAL_BYTES) await db.exec('CHECKPOINT');
}

/** A run's results with their rows already cut (SQL-9), and each completed statement's full row count. */
interface CutResults {
  raw: Results[];
  totals: number[];
}

/** What is read before each run, in the one query that reads `standard_conforming_strings` anyway. */
interface Settings {
  scs: string;
  /** With `keep`: the session's synchronous_commit, and the first transaction id not yet assigned. */
  sync?: string;
  next?: string;
}
const SETTINGS = "select current_setting('standard_conforming_strings') as scs";
const SETTINGS_KEPT = `${SETTINGS}, current_setting('synchronous_commit') as sync, pg_snapshot_xmax(pg_current_snapshot())::text as next`;
const NEXT_XID = 'select pg_snapshot_xmax(pg_current_snapshot())::text as next';

/**
 * UNDO-4's question, whether the run wrote anything (its transaction got an id), answered after
 * COMMIT without a statement in the common case, a read (issue 24: asking it in the run's
 * transaction cost every read one more statement, ~2 % of a small one). A committed transaction
 * with an id writes its commit record to the WAL file before COMMIT returns (synchronous_commit
 * `on`), and that write passes the journal: a window whose run left every file of the data
 * directory as it was did not write. A window that changed a file (the commit record, or a read's
 * own hint bits, pruning or sort files) is asked: did the first unassigned transaction id move
 * since the run began? Nothing else in this worker takes an id (no autovacuum in PGlite's single
 * user). With synchronous_commit not `on`, or a text that names it (or set_config), the commit
 * record may stay in memory, so the id is asked whatever the files say. (A function that builds the
 * setting's name at run time is not seen: its run's commit record then reaches the files in a later
 * window, as it did when the question was asked in the transaction; the journal keeps what reaches
 * the files.)
 */
async function wrote(db: PGlite, id: number, sql: string, settings: Settings | undefined): Promise<boolean> {
  const window = journal.segments.at(-1);
  const filesChanged = window?.id !== id || window.paths.size > 0;
  const commitOnDisk = settings?.sync === 'on' && !/synchronous_commit|set_config/i.test(sql);
  if (!filesChanged && commitOnDisk) return false;
  const [after] = (await db.query<{ next: string }>(NEXT_XID)).rows;
  return !!settings?.next && !!after && BigInt(after.next) > BigInt(settings.next);
}

/**
 * The run's transaction as PGlite's `transaction()` sends it (BEGIN, the text as one simple query,
 * COMMIT or ROLLBACK), with its rows cut to `maxRows` on the wire ({@link execCut}): a read with
 * undo on makes exactly the PGlite calls a read with undo off makes ({@link wrote}).
 */
async function runInTransaction(db: PGlite, sql: string, maxRows: number | undefined): Promise<CutResults> {
  await db.exec('BEGIN');
  let open = true;
  try {
    const ran = await execCut(db, sql, maxRows);
    open = false;
    const [commit] = await db.exec('COMMIT', { rowMode: 'array' });
    // A COMMIT that rolled back (its transaction had failed) answers the tag ROLLBACK.
    if (commit?.command === 'ROLLBACK') throw new Error('The transaction was rolled back at COMMIT.');
    return ran;
  } catch (error) {
    if (open) await db.exec('ROLLBACK').catch(() => {});
    throw error;
  }
}

/**
 * `db.exec(sql, { rowMode: 'array' })` with SQL-9's cut made before PGlite parses a row: the
 * same messages PGlite's exec sends (the text as one simple query, then a Sync), read through
 * {@link RowCut}, and only the kept bytes parsed by PGlite's own parser and `parseResults`. The
 * first error Postgres reports is thrown, as exec throws it (its fields: code, position, …).
 */
async function execCut(db: PGlite, sql: string, maxRows: number | undefined): Promise<CutResults> {
  const cut = new RowCut(maxRows);
  const onRawData = (bytes: Uint8Array) => cut.push(bytes);
  await db.execProtocolRawStream(protocol.serialize.query(sql), { syncToFs: false, onRawData });
  await db.execProtocolRawStream(protocol.serialize.sync(), { syncToFs: false, onRawData });
  const backend: messages.BackendMessage[] = [];
  new protocol.Parser().parse(cut.kept(), (message) => backend.push(message));
  const error = backend.find((message) => message instanceof messages.DatabaseError);
  if (error) throw error;
  return { raw: parse.parseResults(backend, db.parsers, { rowMode: 'array' }), totals: cut.totals };
}

/**
 * UNDO-1: puts the files back as they were before run `segment` (every newer window undone,
 * newest first) and sends them; the page replaces this worker with one started from it.
 * This worker's Postgres no longer matches its files after this, so it is never used again.
 */
async function restore({ id, segment }: RestoreMessage): Promise<void> {
  let intact = true;
  try {
    const db = await database;
    if (!db) throw new Error('The SQL engine was not initialised.');
    if (!journal.has(segment)) throw new Error('the database as it was before that call is no longer kept');
    intact = false;
    const older = journal.rewindTo(segment);
    // The files themselves, moved (not copied, nor packed into a tar) to the next worker: this
    // worker ends, so MEMFS's own buffers can go.
    const mod = moduleOf(db);
    const files = readFiles(mod.FS, { copy: false });
    scope.postMessage({ type: 'restored', id, ok: true, files, segments: older }, buffersOf(files, mod.wasmMemory?.buffer));
  } catch (error) {
    scope.postMessage({ type: 'restored', id, ok: false, intact, message: messageOf(error) });
  }
}

/**
 * One result per statement, its rows already cut to `maxRows` on the wire (execCut) and made
 * JSON-safe here, so a statement with millions of rows sends only the kept ones to the page and
 * the page converts nothing (SQL-9). PGlite's `affectedRows` is a running total over the
 * statements of one exec; undone here.
 */
function perStatement({ raw, totals }: CutResults): StatementResult[] {
  let before = 0;
  return raw.map((result, i) => {
    const total = result.affectedRows ?? before;
    const rows = result.rows as unknown[][];
    const statement: StatementResult = {
      fields: result.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID })),
      rows: rows.map(toJsonRow),
      totalRows: totals[i] ?? rows.length,
      affectedRows: Math.max(0, total - before),
    };
    if (result.command) statement.command = result.command;
    before = total;
    return statement;
  });
}

/** PGlite's DatabaseError carries Postgres's fields; `position` arrives as a string. */
function sqlError(error: unknown): SqlError {
  const result: SqlError = { message: messageOf(error) };
  if (typeof error !== 'object' || error === null) return result;
  const fields = error as { code?: unknown; position?: unknown; detail?: unknown; hint?: unknown };
  if (typeof fields.code === 'string' && /^[0-9A-Z]{5}$/.test(fields.code)) result.sqlState = fields.code;
  const position = Number(fields.position);
  if (fields.position !== undefined && fields.position !== '' && Number.isInteger(position) && position > 0) {
    result.position = position;
  }
  if (typeof fields.detail === 'string' && fields.detail) result.detail = fields.detail;
  if (typeof fields.hint === 'string' && fields.hint) result.hint = fields.hint;
  return result;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  // Emscripten may throw plain objects (e.g. an ExitStatus); String() would say [object Object].
  if (typeof error === 'object' && error !== null) {
    try {
      return JSON.stringify(error);
    } catch {
      // fall through
    }
  }
  return String(error);
}
