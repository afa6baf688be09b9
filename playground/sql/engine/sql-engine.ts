/**
 * The SQL page's engine on the main thread: PGlite in a Web Worker of our own (./worker.ts),
 * loaded lazily, one run at a time, each run one transaction, stopped by replacing the worker.
 *
 * Build the worker and its files first: `node esbuild.config.mjs sql` → dist/site/sql/engine/.
 * @module
 */
import type { ReadableStore } from 'ai-ops';
import type { Clock } from 'ai-ops/internals';
import { systemClock } from '../../shared/clock.js';
import type { SqlRunOutcome } from 'ai-ops/tools/sql';
import type { Segment } from './journal.js';
import { buffersOf, type DataFiles, type FromWorker, type InitMessage, type RefusedStatement, type RestoreReply, type RunReply, type SqlError, type StatementResult, type ToWorker } from './protocol.js';


export type { RefusedStatement, SqlError, SqlField, SqlRow, StatementResult } from './protocol.js';

/** The engine's life cycle. */
export const SqlEngineStates = {
  /** Nothing fetched yet; the first `load()` or `run()` starts loading. */
  unloaded: 'unloaded',
  /** Fetching and compiling PGlite, or starting a worker (first load and every restart). */
  loading: 'loading',
  /** Idle, a database in its worker. */
  ready: 'ready',
  /** A `run()` is executing. */
  running: 'running',
  /** Loading failed; `load()` or `run()` tries again. */
  failed: 'failed',
} as const;

/** One of {@link SqlEngineStates}. */
export type SqlEngineState = (typeof SqlEngineStates)[keyof typeof SqlEngineStates];

/**
 * Why the database went back to its initial state: a run passed its `timeoutMs`, `reset()` was
 * called, the worker died, or a run's `signal` was aborted while it ran.
 */
export type SqlResetReason = 'timeout' | 'explicit' | 'crash' | 'aborted';

/** What `getState()` returns; a new object on each change. */
export interface SqlEngineSnapshot {
  state: SqlEngineState;
  /** How many times the database was reset (worker replaced) since construction. */
  resets: number;
  /** The latest reset, `at` from the injected clock. */
  lastReset: { reason: SqlResetReason; at: number } | null;
  /** Why the last load failed, while `state` is `failed`. */
  loadError: string | null;
  /** True while an undo puts the database back (a new worker starts from the kept state, UNDO-1). */
  restoring: boolean;
}

/**
 * What a committed run that changed the database kept to undo it (UNDO-1): its window in the
 * worker's journal (journal.ts), valid while the engine's `lineage` is the same.
 */
export interface SqlUndoPoint {
  readonly segment: number;
  /** Bytes the window held when the run ended (UNDO-4's budget). */
  readonly bytes: number;
  /** The engine's lineage when the run ended: a reset to the initial state starts a new one. */
  readonly lineage: number;
  /** The database's {@link SqlEngine.version} just before the run: what the undo puts back. */
  readonly before: number;
}

/** What a listener is told besides the new snapshot. */
export type SqlEngineEvent =
  | { type: 'state'; state: SqlEngineState }
  | { type: 'reset'; reason: SqlResetReason; at: number };

/** Called after every change with the new snapshot and what happened. */
export type SqlEngineListener = (snapshot: SqlEngineSnapshot, event: SqlEngineEvent) => void;

/**
 * The outcome of `run()`, discriminated by `kind`:
 * - `results`: every statement succeeded and was committed; one entry per statement, rows cut to
 *   `maxRows` with `totalRows`; `ms` is the engine's time for the transaction.
 * - `error`: a statement failed; every statement of the call was rolled back.
 * - `refused`: the text holds transaction control (COMMIT, ROLLBACK, BEGIN …), which would break
 *   the one-transaction rule (SQL-8); nothing ran.
 * - `timeout`: `timeoutMs` passed; the worker was replaced, the database is back to its initial state.
 * - `cancelled`: `reset()` or `dispose()` was called during the run; same effect as a timeout.
 * - `aborted`: the run's `signal` was aborted. `reset` true: it was running, so the worker was
 *   replaced as for a timeout; false: it had not started (nothing ran, nothing was reset).
 */
export type SqlRunResult =
  | { ok: true; kind: 'results'; results: StatementResult[]; ms: number; undo?: SqlUndoPoint | null; notKept?: number }
  | { ok: false; kind: 'error'; error: SqlError }
  | { ok: false; kind: 'refused'; error: RefusedStatement }
  | { ok: false; kind: 'timeout'; timeoutMs: number }
  | { ok: false; kind: 'cancelled' }
  | { ok: false; kind: 'aborted'; reset: boolean };

/**
 * A run's result in the terms of the run contract that `sql_run_query` answers from
 * (tools/run.ts): `results`/`error`/`refused` ended by themselves (`exited`), `timeout` stays,
 * the page's reset during the run is the user's stop (`stopped`), an aborted signal is the
 * caller's cancel (`cancelled`, NAT-6). The worker already cut the rows and made them JSON-safe (SQL-9).
 * @example toRunOutcome({ ok: false, kind: 'aborted', reset: true }) // { kind: 'cancelled' }
 */
export function toRunOutcome(result: SqlRunResult): SqlRunOutcome {
  switch (result.kind) {
    case 'results':
      return {
        kind: 'exited',
        ended: 'committed',
        ms: result.ms,
        results: result.results.map((statement) => ({
          fields: statement.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID })),
          rows: statement.rows,
          totalRows: statement.totalRows,
          affectedRows: statement.affectedRows,
        })),
      };
    case 'error': {
      const { message, sqlState, position } = result.error;
      return { kind: 'exited', ended: 'rolled-back', error: { message, sqlState, position } };
    }
    case 'refused': {
      const { message, position } = result.error;
      return { kind: 'exited', ended: 'refused', error: { message, position } };
    }
    case 'timeout':
      return { kind: 'timeout' };
    case 'cancelled':
      return { kind: 'stopped' };
    case 'aborted':
      return { kind: 'cancelled' };
  }
}

/** Options of `run()`. */
export interface SqlRunOptions {
  /** Stop the run after this many ms, counted from when the engine is loaded. No limit when absent. */
  timeoutMs?: number;
  /** Rows kept per statement, cut in the worker so the rest never reach the page (SQL-9). All when absent. */
  maxRows?: number;
  /** Aborting it stops the run (NAT-2): before it starts, nothing runs; while it runs, as a timeout does. */
  signal?: AbortSignal;
  /**
   * False: the run keeps nothing to undo it and every kept point is forgotten (the run as it was
   * before undo existed; only the bench's baseline uses it). Kept when absent.
   */
  keep?: boolean;
}

/** Options of the {@link SqlEngine} constructor. */
export interface SqlEngineOptions {
  /**
   * The folder holding worker.js, pglite.wasm, pglite.data.gz, initdb.wasm and pgdata.tar.gz,
   * resolved against `document.baseURI`. Default `'engine/'` (the page is dist/site/sql/index.html).
   */
  engineUrl?: string | URL;
  /** Timers for `timeoutMs` and `now()` for reset times. */
  clock?: Clock;
  /** The undo journal's budget in bytes (UNDO-4); 64 MB by default, smaller in tests. */
  undoLimitBytes?: number;
}

/** Thrown (as a rejection) by `run()` while another run is loading or executing. */
export class SqlEngineBusyError extends Error {
  override name = 'SqlEngineBusyError';
  constructor() {
    super('The SQL engine is already running a query.');
  }
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

async function gunzip(bytes: Uint8Array<ArrayBuffer>): Promise<Blob> {
  if (!isGzip(bytes)) return new Blob([bytes]);
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).blob();
}

interface Assets {
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
  fsBundle: Blob;
  dataDir: Blob;
}

/** What the next worker starts from instead of the build-time dump: a restore's files and windows. */
interface StartFrom {
  files: DataFiles;
  segments: Segment[];
}

interface PendingRestore {
  id: number;
  resolve(reply: RestoreReply): void;
}

interface PendingRun {
  id: number;
  timer: unknown;
  /** Removes the run's abort listener. */
  unlisten: (() => void) | undefined;
  resolve(result: SqlRunResult): void;
}

/**
 * PGlite for the SQL page. Implements the project's store contract (`getState`, `subscribe`).
 * @example
 * const engine = new SqlEngine({ engineUrl: 'engine/' });
 * engine.subscribe((snapshot, event) => {
 *   if (event.type === 'reset') showNotice('The database was reset');
 * });
 * const result = await engine.run('create table t(a int); insert into t values (1); select * from t', { timeoutMs: 30000, maxRows: 200 });
 * if (result.kind === 'results') console.log(result.results[2].rows); // [[1]]
 */
export class SqlEngine implements ReadableStore<SqlEngineSnapshot> {
  #engineUrl: URL;
  #clock: Clock;
  #snapshot: SqlEngineSnapshot = { state: 'unloaded', resets: 0, lastReset: null, loadError: null, restoring: false };
  #listeners = new Set<SqlEngineListener>();
  #assets: Promise<Assets> | undefined;
  #worker: Worker | undefined;
  /** Settles when the current worker is up (or failed to come up); undefined while unloaded or failed. */
  #ready: Promise<void> | undefined;
  #pending: PendingRun | undefined;
  #busy = false;
  #nextId = 1;
  #disposed = false;
  /** Bumped whenever the database goes back to its initial state: kept undo points are then gone. */
  #lineage = 0;
  /**
   * Names the database's state: a new number after every change (a run that wrote, a reset), and
   * after an undo the number of the state it put back, which is that state byte for byte.
   */
  #version = 0;
  #versions = 0;
  #restoring: PendingRestore | undefined;
  readonly #undoLimit: number | undefined;

  constructor(options: SqlEngineOptions = {}) {
    this.#engineUrl = new URL(options.engineUrl ?? 'engine/', document.baseURI);
    this.#clock = options.clock ?? systemClock;
    this.#undoLimit = options.undoLimitBytes;
  }

  /** The undo journal's budget in bytes (UNDO-4). */
  get undoLimitBytes(): number {
    return this.#undoLimit ?? 64 * 1024 * 1024;
  }

  /**
   * The database's state as a number (UNDO-2's changedSince): equal to an earlier reading only when
   * the database is that state again (nothing changed since, or the changes since were undone).
   */
  get version(): number {
    return this.#version;
  }

  /** The current life-cycle state. */
  get state(): SqlEngineState {
    return this.#snapshot.state;
  }

  /** The current snapshot (same object until something changes). */
  getState(): SqlEngineSnapshot {
    return this.#snapshot;
  }

  /** Alias of `getState` for React's `useSyncExternalStore`. */
  getSnapshot = (): SqlEngineSnapshot => this.#snapshot;

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe = (listener: SqlEngineListener): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  /**
   * Loads the engine if needed: fetches and compiles PGlite once, then starts a worker from the
   * build-time data-dir dump. Idempotent while loading or loaded; after a failure (state `failed`,
   * the promise rejects) the next call tries again.
   */
  load(): Promise<void> {
    if (this.#disposed) return Promise.reject(new Error('The SQL engine was disposed.'));
    this.#ready ??= this.#boot();
    return this.#ready;
  }

  /**
   * Runs `sql` (one or more statements separated by `;`) in one transaction: all statements
   * commit, or none does. Loads the engine first if needed; `timeoutMs` starts after loading.
   * Rejects with {@link SqlEngineBusyError} while another run is in progress, and with the load
   * error when the engine cannot load. Statements that Postgres refuses inside a transaction
   * block (VACUUM, CREATE DATABASE …) fail with SQLSTATE 25001; transaction control in the text
   * is `refused` (SQL-8).
   */
  run(sql: string, options: SqlRunOptions = {}): Promise<SqlRunResult> {
    if (this.#disposed) return Promise.reject(new Error('The SQL engine was disposed.'));
    if (this.#busy) return Promise.reject(new SqlEngineBusyError());
    const { signal } = options;
    if (signal?.aborted) return Promise.resolve({ ok: false, kind: 'aborted', reset: false });
    this.#busy = true;
    // When ready, go to `running` synchronously so the page's Run button changes in the same task.
    if (this.#snapshot.state === 'ready') return this.#execute(sql, options);
    return new Promise<SqlRunResult>((resolve, reject) => {
      // Aborted while the engine loads: answer at once; the load goes on for the next run.
      let settled = false;
      const onAbort = () => {
        if (settled) return;
        settled = true;
        this.#busy = false;
        resolve({ ok: false, kind: 'aborted', reset: false });
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.load().then(
        () => {
          signal?.removeEventListener('abort', onAbort);
          if (settled) return;
          settled = true;
          resolve(this.#execute(sql, options));
        },
        (error: unknown) => {
          signal?.removeEventListener('abort', onAbort);
          if (settled) return;
          settled = true;
          this.#busy = false;
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  /**
   * Puts the database back to its initial state by replacing the worker; a run in progress ends
   * with `cancelled`. Resolves when the new worker is ready. Does nothing while `unloaded`; while
   * `loading` the worker being started is already fresh.
   */
  reset(): Promise<void> {
    switch (this.#snapshot.state) {
      case 'unloaded':
        return Promise.resolve();
      case 'loading':
      case 'failed':
        return this.load();
      default:
        this.#restart('explicit', { ok: false, kind: 'cancelled' });
        return this.load();
    }
  }

  /**
   * UNDO-1: puts the database back exactly as it was just before the run that kept `point`
   * (every later change goes too): the worker rewinds its files with its journal and hands them
   * over as a tar, and a new worker starts from it, keeping the older windows so that earlier
   * runs stay undoable. Rejects, changing nothing, while a run or a load is in progress, after a
   * reset to the initial state since that run (the kept point went with the old database), and
   * when the point was dropped (the journal's 64 MB).
   */
  async restore(point: SqlUndoPoint): Promise<void> {
    if (this.#disposed) throw new Error('The SQL engine was disposed.');
    if (point.lineage !== this.#lineage) {
      throw new Error('the DB was reset to its initial state after that call, so what it was before the call is gone');
    }
    const worker = this.#worker;
    if (this.#busy || this.#snapshot.state !== 'ready' || !worker) throw new Error('SQL is running or the engine is loading: undo when it ends');
    this.#busy = true;
    this.#set({ state: 'loading', loadError: null, restoring: true }, { type: 'state', state: 'loading' });
    // The next worker loads its script while this one rewinds its files.
    let next: Worker | undefined = this.#newWorker();
    try {
      const id = this.#nextId++;
      const reply = await new Promise<RestoreReply>((resolve) => {
        this.#restoring = { id, resolve };
        this.#post(worker, { type: 'restore', id, segment: point.segment });
      });
      if (!reply.ok) {
        if (this.#worker === worker) {
          // Failed before the worker changed anything: it goes on as it was; else nothing is left to trust.
          if (reply.intact) this.#setState('ready');
          else this.#restart('crash', { ok: false, kind: 'cancelled' });
        }
        throw new Error(reply.message);
      }
      worker.terminate();
      this.#worker = undefined;
      this.#version = point.before;
      this.#ready = this.#boot({ files: reply.files, segments: reply.segments }, next);
      next = undefined;
      await this.#ready;
    } finally {
      next?.terminate();
      this.#restoring = undefined;
      this.#busy = false;
      if (this.#snapshot.restoring) this.#set({ restoring: false }, { type: 'state', state: this.#snapshot.state });
    }
  }

  /** The step that kept `point` is gone (dropped or its log cleared): its window may be forgotten. */
  release(point: SqlUndoPoint): void {
    if (point.lineage === this.#lineage && this.#worker) this.#post(this.#worker, { type: 'release', segment: point.segment });
  }

  /** Stops the worker for good; a run in progress ends with `cancelled`. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#stopWorker({ ok: false, kind: 'cancelled' });
    this.#ready = undefined;
    this.#set({ state: 'unloaded', loadError: null }, { type: 'state', state: 'unloaded' });
    this.#listeners.clear();
  }

  #set(patch: Partial<SqlEngineSnapshot>, event: SqlEngineEvent): void {
    const next = { ...this.#snapshot, ...patch };
    if (event.type === 'state' && next.state === this.#snapshot.state && next.loadError === this.#snapshot.loadError && next.restoring === this.#snapshot.restoring) return;
    this.#snapshot = next;
    for (const listener of [...this.#listeners]) listener(next, event);
  }

  #setState(state: SqlEngineState, loadError: string | null = null): void {
    this.#set({ state, loadError }, { type: 'state', state });
  }

  #boot(from?: StartFrom, worker?: Worker): Promise<void> {
    this.#setState('loading');
    const ready: Promise<void> = this.#loadAssets()
      .then((assets) => {
        // dispose() during the fetch: start no worker nobody would terminate.
        if (this.#ready !== ready) {
          worker?.terminate();
          throw new Error('The SQL engine was disposed.');
        }
        return this.#spawn(from ? { ...assets, ...from } : assets, worker);
      })
      .then(
        () => {
          if (this.#ready === ready) this.#setState('ready');
        },
        (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          if (this.#ready === ready) {
            this.#stopWorker();
            this.#ready = undefined;
            // The next load starts from the initial state: no kept point is valid any more.
            this.#lineage++;
            this.#version = ++this.#versions;
            this.#setState('failed', message);
          }
          throw error instanceof Error ? error : new Error(message);
        },
      );
    // A restart after a timeout may fail with nobody awaiting it; the state says so.
    ready.catch(() => {});
    return ready;
  }

  /** Fetches and compiles once; later workers get the same modules and blobs (no refetch, no recompile). */
  #loadAssets(): Promise<Assets> {
    this.#assets ??= (async () => {
      const [pgliteWasmModule, initdbWasmModule, fsBundle, dataDir] = await Promise.all([
        this.#compile('pglite.wasm'),
        this.#compile('initdb.wasm'),
        this.#fetchGzip('pglite.data.gz').then(gunzip),
        this.#fetchGzip('pgdata.tar.gz').then((bytes) =>
          // PGlite gunzips a data dir itself when the MIME type says gzip.
          isGzip(bytes) ? new Blob([bytes], { type: 'application/x-gzip' }) : new Blob([bytes], { type: 'application/x-tar' }),
        ),
      ]);
      return { pgliteWasmModule, initdbWasmModule, fsBundle, dataDir };
    })();
    this.#assets.catch(() => {
      this.#assets = undefined;
    });
    return this.#assets;
  }

  async #fetch(name: string): Promise<Response> {
    const url = new URL(name, this.#engineUrl);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`The SQL engine could not fetch ${url.href}: HTTP ${response.status}`);
    return response;
  }

  /** The bytes of a .gz file; already gunzipped when a server sent it with Content-Encoding: gzip. */
  async #fetchGzip(name: string): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await (await this.#fetch(name)).arrayBuffer());
  }

  async #compile(name: string): Promise<WebAssembly.Module> {
    const response = await this.#fetch(name);
    // compileStreaming compiles while downloading but needs the right MIME type.
    if (response.headers.get('content-type')?.startsWith('application/wasm')) return WebAssembly.compileStreaming(response);
    return WebAssembly.compile(await response.arrayBuffer());
  }

  #newWorker(): Worker {
    return new Worker(new URL('worker.js', this.#engineUrl), { type: 'module', name: 'sql-engine' });
  }

  #spawn(assets: Assets & Partial<StartFrom>, worker = this.#newWorker()): Promise<void> {
    this.#worker = worker;
    return new Promise<void>((resolve, reject) => {
      let started = false;
      worker.addEventListener('message', (event: MessageEvent<FromWorker>) => {
        if (this.#worker !== worker) return;
        const message = event.data;
        if (message.type === 'ready') {
          started = true;
          resolve();
        } else if (message.type === 'init-failed') {
          reject(new Error(`The SQL engine failed to start: ${message.message}`));
        } else if (message.type === 'restored') {
          if (this.#restoring?.id === message.id) this.#restoring.resolve(message);
        } else if (message.type === 'result') {
          this.#onResult(message);
        }
      });
      worker.addEventListener('error', (event) => {
        if (this.#worker !== worker) return;
        event.preventDefault();
        const detail = event.message || 'the worker script failed';
        if (!started) reject(new Error(`The SQL engine failed to start: ${detail}`));
        else this.#onCrash(detail);
      });
      const init: InitMessage = { type: 'init', ...assets, ...(this.#undoLimit === undefined ? {} : { journalLimitBytes: this.#undoLimit }) };
      // A restore's files are used once: moved, not copied.
      this.#post(worker, init, assets.files ? buffersOf(assets.files) : []);
    });
  }

  #post(worker: Worker, message: ToWorker, transfer: Transferable[] = []): void {
    worker.postMessage(message, transfer);
  }

  #execute(sql: string, { timeoutMs, maxRows, signal, keep }: SqlRunOptions): Promise<SqlRunResult> {
    const worker = this.#worker;
    if (!worker) {
      this.#busy = false;
      return Promise.reject(new Error('The SQL engine is not loaded.'));
    }
    return new Promise<SqlRunResult>((resolve) => {
      const id = this.#nextId++;
      const pending: PendingRun = { id, timer: undefined, unlisten: undefined, resolve };
      this.#pending = pending;
      this.#setState('running');
      this.#post(worker, { type: 'run', id, sql, ...(maxRows === undefined ? {} : { maxRows }), ...(keep === false ? { keep } : {}) });
      if (signal) {
        // The only way to stop a query is to replace the worker, as a timeout does.
        const onAbort = () => {
          if (this.#pending === pending) this.#restart('aborted', { ok: false, kind: 'aborted', reset: true });
        };
        signal.addEventListener('abort', onAbort, { once: true });
        pending.unlisten = () => signal.removeEventListener('abort', onAbort);
      }
      if (timeoutMs !== undefined) {
        pending.timer = this.#clock.setTimeout(() => {
          if (this.#pending === pending) this.#restart('timeout', { ok: false, kind: 'timeout', timeoutMs });
        }, timeoutMs);
      }
    });
  }

  #onResult(reply: RunReply): void {
    const pending = this.#pending;
    if (!pending || pending.id !== reply.id) return;
    this.#finish(pending);
    this.#setState('ready');
    if (reply.ok) {
      const before = this.#version;
      if (reply.changed) this.#version = ++this.#versions;
      const undo = reply.undo ? { ...reply.undo, lineage: this.#lineage, before } : null;
      pending.resolve({ ok: true, kind: 'results', results: reply.results, ms: reply.ms, undo, ...(reply.notKept === undefined ? {} : { notKept: reply.notKept }) });
    }
    else if ('refused' in reply) pending.resolve({ ok: false, kind: 'refused', error: reply.refused });
    else pending.resolve({ ok: false, kind: 'error', error: reply.error });
  }

  #onCrash(detail: string): void {
    this.#restart('crash', {
      ok: false,
      kind: 'error',
      error: { message: `The SQL engine crashed (${detail}); the database was reset to its initial state.` },
    });
  }

  /** Clears the pending run's timer and the busy flag; the caller resolves it. */
  #finish(pending: PendingRun): void {
    if (pending.timer !== undefined) this.#clock.clearTimeout(pending.timer);
    pending.unlisten?.();
    this.#pending = undefined;
    this.#busy = false;
  }

  /** Terminates the worker, ending a pending run with `result`. */
  #stopWorker(result?: SqlRunResult): void {
    const pending = this.#pending;
    this.#worker?.terminate();
    this.#worker = undefined;
    if (pending) {
      this.#finish(pending);
      if (result) pending.resolve(result);
    }
  }

  /** Replaces the worker (the only way to stop a query), reports the reset, starts a fresh one. */
  #restart(reason: SqlResetReason, result: SqlRunResult): void {
    this.#restoring?.resolve({ type: 'restored', id: this.#restoring.id, ok: false, intact: false, message: 'the SQL engine stopped during the undo; the DB was reset to its initial state' });
    const pending = this.#pending;
    this.#pending = undefined;
    this.#worker?.terminate();
    this.#worker = undefined;
    const at = this.#clock.now();
    this.#lineage++;
    this.#version = ++this.#versions;
    this.#set({ resets: this.#snapshot.resets + 1, lastReset: { reason, at } }, { type: 'reset', reason, at });
    this.#ready = this.#boot();
    if (pending) {
      this.#finish(pending);
      pending.resolve(result);
    }
  }
}
