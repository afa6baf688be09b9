/**
 * The SQL page's state as a factory, outside any UI: the editor's SQL (saved per embed ID), the
 * engine, and the one run function that both the Run button and `sql_run_query` call (SQL-2).
 * state.ts creates the page's instance; tests create their own with a real engine.
 * @module
 */
import { createStore, type ReadableStore, type UndoStep } from 'ai-ops';
import type { SqlEngineStatus, SqlRunOutcome, SqlToolAdapter } from 'ai-ops/tools/sql';
import { SqlEngine, SqlEngineBusyError, toRunOutcome, type SqlEngineSnapshot, type SqlRunResult, type SqlUndoPoint } from './engine/sql-engine.js';
import type { SqlStorage } from './storage.js';

/** The undo steps' target: the one database of the page's engine (UNDO-2 meets on it). */
export const SQL_UNDO_TARGET = 'sql:database';

/** UNDO-4: what the answer says of a change too large to keep. */
export function notKeptNote(bytes: number, limit: number): string {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `this change replaced ${mb(bytes)} of the database, more than the ${mb(limit)} kept to undo changes: it cannot be undone from the log, and neither can the DB's earlier changes`;
}

/** Who started a run. */
export type RunOrigin = 'user' | 'agent';

/** What the run function ends with: the engine's outcome, or why it did not run. */
export type PageRunOutcome =
  | SqlRunResult
  /** Another run, started by the user or an agent, is in progress (SQL-3). */
  | { ok: false; kind: 'busy' }
  /** The engine could not be loaded (SQL-3: the operation answers `failed`). */
  | { ok: false; kind: 'load-failed'; message: string };

/** A run the user started, as the result table shows it. Agent runs never become one (SQL-2). */
export interface UserRun {
  /** The SQL that ran (the editor may have changed since). */
  sql: string;
  outcome: Exclude<PageRunOutcome, { kind: 'busy' }>;
  /** Wall time of the run as the user saw it, engine load included. */
  wallMs: number;
  /** Epoch ms when it ended. */
  at: number;
}

/** How the saved SQL is doing. */
export type SaveStatus = 'loading' | 'saved' | 'pending' | 'saving' | 'error';

/** The page state. A new object on each change. */
export interface SqlPageState {
  /** The embed ID from `?id=` (default `demo`); it names the saved SQL and goes into `<title>` (DOC-3). */
  readonly embedId: string;
  /** True once the saved SQL was read (or found absent): until then the operations answer `not_ready` (SQL-1). */
  readonly loaded: boolean;
  /** The editor's SQL. Only the user changes it (SQL-1). */
  readonly sql: string;
  readonly save: SaveStatus;
  readonly saveError: string | null;
  /** Who is running SQL now; null when nobody. */
  readonly runningBy: RunOrigin | null;
  readonly engine: SqlEngineSnapshot;
  /** The last run the user started; what the result table shows. */
  readonly userRun: UserRun | null;
  /** A notice about the DB, e.g. that an AI operation reset it (SQL-6); null when none. */
  readonly notice: string | null;
}

/** The SQL a new embed starts with. */
export const SAMPLE_SQL = `-- SQL を書いて「実行」を押します(Ctrl+Enter でも実行できます)。
-- 1 回の実行の文は、1 つのトランザクションで動きます。DB の中身は保存されません。
create table if not exists fruits (name text primary key, price int not null);
insert into fruits values ('りんご', 120), ('みかん', 80), ('ぶどう', 300)
  on conflict (name) do nothing;
select name, price from fruits order by price;
`;

/** The notice shown after an agent's run passed its `timeoutMs` (SQL-6). */
export const AI_RESET_NOTICE = 'AI からの操作で DB を初期の状態に戻しました(実行が時間の上限を過ぎたため)。';
/** The notice shown after an agent cancelled its call while the SQL ran (NAT-2). */
export const AI_CANCEL_NOTICE = 'AI からの操作で DB を初期の状態に戻しました(実行中に呼び出しが取り消されたため)。';
/** Rows per statement a user's run brings to the page: what the result table draws (SQL-9). */
export const USER_RUN_ROWS = 1000;
const CRASH_NOTICE = 'SQL のエンジンが止まったため、DB を初期の状態に戻しました。';
const SAVE_DELAY_MS = 300;

/** Options of the page's run function. */
export interface RunOptions {
  by: RunOrigin;
  /** Only an agent's run has a time limit (SQL-6). */
  timeoutMs?: number;
  /** Rows kept per statement, cut in the engine's worker (SQL-9); {@link USER_RUN_ROWS} for a user's run. */
  maxRows?: number;
  /** The agent's call signal: aborting it stops the run (NAT-2). */
  signal?: AbortSignal;
  /** False: keep nothing to undo the run (see {@link SqlPageDeps.keepUndo}). */
  keep?: boolean;
}

/** Everything the page state needs from outside; the defaults are the real ones. */
export interface SqlPageDeps {
  embedId: string;
  engine: SqlEngine;
  storage: SqlStorage;
  now?: () => number;
  /**
   * False: agents' runs keep nothing to undo them, as before undo existed (`?undo=off`: the
   * bench's baseline for the cost of keeping, bench/sections/98-undo-sql.mjs). Default true.
   */
  keepUndo?: boolean;
}

/** The page state and the functions that change it. */
export interface SqlPage {
  readonly store: ReadableStore<SqlPageState>;
  readonly engine: SqlEngine;
  /** The adapter the SQL operations read and run through. */
  readonly adapter: SqlToolAdapter;
  /** The user edited the editor; saved after a short pause. */
  setSql(sql: string): void;
  /** Writes a pending edit now (page hide). */
  flushSave(): Promise<void>;
  /**
   * THE run function (SQL-2): the Run button and `sql_run_query` both call it. Runs `sql` in one
   * transaction; refuses while another run or the engine's load is in progress. A user's run
   * becomes the result table; an agent's run changes nothing the user sees but the Run button's
   * running state and, after a timeout, the reset notice.
   */
  run(sql: string, options: RunOptions): Promise<PageRunOutcome>;
  /** The Run button: runs the editor's SQL as the user. */
  runEditor(): Promise<PageRunOutcome>;
  /** Puts the DB back to its initial state (stops a run in progress). */
  resetDatabase(): Promise<void>;
  dismissNotice(): void;
}

/**
 * Creates the page state and starts reading the saved SQL.
 * @example
 * const page = createSqlPage({ embedId: 'demo', engine: new SqlEngine(), storage: createSqlStorage() });
 * provideOperations('sql', createSqlOperations(page.adapter));
 */
export function createSqlPage(deps: SqlPageDeps): SqlPage {
  const { embedId, engine, storage } = deps;
  const now = deps.now ?? Date.now;
  const keepUndo = deps.keepUndo ?? true;
  // A step the log let go of (dropped, or its row gone) lets the worker forget its window.
  const released = new FinalizationRegistry<SqlUndoPoint>((point) => engine.release(point));
  /** The step of an agent's run that changed the database (UNDO-1). */
  const undoStep = (point: SqlUndoPoint): UndoStep => {
    const after = engine.version;
    const step: UndoStep = {
      targets: [SQL_UNDO_TARGET],
      bytes: point.bytes,
      undo: () => engine.restore(point),
      // Any later change of the DB (the user's run, another call, a reset) moved the version;
      // undoing the later calls puts it back.
      changedSince: () => engine.version !== after,
    };
    released.register(step, point);
    return step;
  };
  const store = createStore<SqlPageState>({
    embedId,
    loaded: false,
    sql: '',
    save: 'loading',
    saveError: null,
    runningBy: null,
    engine: engine.getState(),
    userRun: null,
    notice: null,
  });
  const update = (patch: Partial<SqlPageState>) => store.setState({ ...store.getState(), ...patch });

  engine.subscribe((snapshot, event) => {
    // A worker that died on its own: the DB is gone whoever was running.
    if (event.type === 'reset' && event.reason === 'crash') update({ engine: snapshot, notice: CRASH_NOTICE });
    else update({ engine: snapshot });
  });

  storage.load(embedId).then(
    (saved) => update({ loaded: true, sql: saved ? saved.sql : SAMPLE_SQL, save: 'saved' }),
    (error: unknown) =>
      // Without IndexedDB (private mode, blocked storage) the page still works, unsaved.
      update({ loaded: true, sql: SAMPLE_SQL, save: 'error', saveError: messageOf(error) }),
  );

  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  let saving: Promise<void> = Promise.resolve();
  const writeNow = (): Promise<void> => {
    if (saveTimer !== undefined) clearTimeout(saveTimer);
    saveTimer = undefined;
    if (store.getState().save !== 'pending') return saving;
    const sql = store.getState().sql;
    update({ save: 'saving' });
    saving = saving
      .then(() => storage.save({ id: embedId, sql, updatedAt: now() }))
      .then(
        // A newer edit may have arrived while writing; it keeps its own pending state.
        () => {
          if (store.getState().sql === sql) update({ save: 'saved', saveError: null });
        },
        (error: unknown) => update({ save: 'error', saveError: messageOf(error) }),
      );
    return saving;
  };

  let runningBy: RunOrigin | null = null;

  const run: SqlPage['run'] = async (sql, { by, timeoutMs, maxRows, signal, keep }) => {
    // The engine refuses a second run too, but the flag also covers the engine's load (SQL-3).
    if (runningBy !== null) return { ok: false, kind: 'busy' };
    runningBy = by;
    update({ runningBy: by });
    const started = now();
    let outcome: Exclude<PageRunOutcome, { kind: 'busy' }>;
    try {
      outcome = await engine.run(sql, { timeoutMs, maxRows: maxRows ?? (by === 'user' ? USER_RUN_ROWS : undefined), signal, keep });
    } catch (error) {
      if (error instanceof SqlEngineBusyError) {
        runningBy = null;
        update({ runningBy: null });
        return { ok: false, kind: 'busy' };
      }
      outcome = { ok: false, kind: 'load-failed', message: messageOf(error) };
    }
    runningBy = null;
    // The user's own run is not undone from the log: its window stays only while an older step needs it.
    if (by === 'user' && outcome.kind === 'results' && outcome.undo) engine.release(outcome.undo);
    const patch: { -readonly [K in keyof SqlPageState]?: SqlPageState[K] } = { runningBy: null };
    if (by === 'user') patch.userRun = { sql, outcome, wallMs: now() - started, at: now() };
    // Only an agent's run has a time limit; its timeout reset the DB under the user (SQL-6).
    if (by === 'agent' && outcome.kind === 'timeout') patch.notice = AI_RESET_NOTICE;
    // A call cancelled while its SQL ran reset the DB the same way (NAT-2).
    if (by === 'agent' && outcome.kind === 'aborted' && outcome.reset) patch.notice = AI_CANCEL_NOTICE;
    update(patch);
    return outcome;
  };

  const adapter: SqlToolAdapter = {
    isLoaded: () => store.getState().loaded,
    getEditorSql: () => store.getState().sql,
    getEngineState: (): SqlEngineStatus => {
      const state = engine.state;
      // A user's run waiting for the engine still counts as running.
      if (runningBy !== null && state !== 'loading') return 'running';
      return state;
    },
    async run(sql, { timeoutMs, maxRows, signal }): Promise<SqlRunOutcome> {
      const outcome = await run(sql, { by: 'agent', timeoutMs, maxRows, signal, ...(keepUndo ? {} : { keep: false }) });
      // The operation turns the rejection into `failed` (SQL-3).
      if (outcome.kind === 'load-failed') throw new Error(`The SQL engine could not be loaded: ${outcome.message}`);
      if (outcome.kind === 'busy') return { kind: 'busy' };
      const answer = toRunOutcome(outcome);
      // UNDO-4: only a run that changed the database kept a point.
      if (outcome.kind === 'results' && outcome.undo && answer.kind === 'exited' && answer.ended === 'committed') return { ...answer, undo: undoStep(outcome.undo) };
      if (outcome.kind === 'results' && outcome.notKept !== undefined && answer.kind === 'exited' && answer.ended === 'committed') {
        return { ...answer, undoNote: notKeptNote(outcome.notKept, engine.undoLimitBytes) };
      }
      return answer;
    },
  };

  return {
    store,
    engine,
    adapter,
    setSql(sql) {
      const state = store.getState();
      if (!state.loaded || sql === state.sql) return;
      update({ sql, save: 'pending' });
      if (saveTimer !== undefined) clearTimeout(saveTimer);
      saveTimer = setTimeout(() => void writeNow(), SAVE_DELAY_MS);
    },
    flushSave: writeNow,
    run,
    runEditor() {
      const state = store.getState();
      if (!state.loaded) return Promise.resolve({ ok: false, kind: 'busy' } as const);
      return run(state.sql, { by: 'user' });
    },
    async resetDatabase() {
      update({ notice: null });
      await engine.reset();
    },
    dismissNotice() {
      update({ notice: null });
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
