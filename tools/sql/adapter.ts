/**
 * What the SQL page hands to {@link createSqlOperations}. Shaped after the page's engine
 * (playground/sql/engine/sql-engine.ts): its `state` fits {@link SqlEngineStatus} as it is, and its
 * `toRunOutcome` turns a run's result into the run contract's {@link SqlRunOutcome} (tools/run.ts),
 * so the glue is a few lines:
 * ```ts
 * createSqlOperations({
 *   isLoaded: () => project.loaded && savedSql.loaded,
 *   getEditorSql: () => editor.value,
 *   getEngineState: () => engine.state,
 *   // engine.run + the "AI reset the DB" notice; the engine's own timer stops it at timeoutMs.
 *   run: async (sql, { timeoutMs, maxRows, signal }) => toRunOutcome(await page.runFromAgent(sql, { timeoutMs, maxRows, signal })),
 * });
 * ```
 * @module
 */
import type { UndoStep } from '../../src/definition.js';
import type { RunOutcome, RunRequest } from '../run.js';

/** The engine's life cycle; `loading` and `running` make `sql_run_query` answer `not_ready` (SQL-3). */
export type SqlEngineStatus = 'unloaded' | 'loading' | 'ready' | 'running' | 'failed';

/** A result column as the engine describes it. */
export interface SqlFieldLike {
  readonly name: string;
  readonly dataTypeID?: number;
}

/**
 * One statement's result. Each row is an array of values in the order of `fields`, so columns
 * sharing a name keep their values (SQL-7). The definitions cut to 200 rows (SQL-4); an engine
 * given `maxRows` cuts before the rows reach the page and says the full count in `totalRows` (SQL-9).
 */
export interface SqlStatementResultLike {
  readonly fields: readonly SqlFieldLike[];
  readonly rows: readonly (readonly unknown[])[];
  /** The statement's full row count when `rows` was cut already; `rows.length` when absent. */
  readonly totalRows?: number;
  /** Rows changed by this statement alone. */
  readonly affectedRows?: number;
}

/** A failed statement; `sqlState` and `position` only when the engine gave them (SQL-5). */
export interface SqlErrorLike {
  readonly message: string;
  /** SQLSTATE, e.g. `42P01`. */
  readonly sqlState?: string;
  /** 1-based character offset into the SQL of the call. */
  readonly position?: number;
}

/**
 * How a run that ended by itself ended (the `exited` outcome of the run contract, tools/run.ts).
 * - `committed`: every statement committed; `ms` is the engine's time for the transaction;
 *   `undo`, when the run changed the database, puts it back as it was just before the run
 *   (target `sql:database`, UNDO-1); absent or null when it changed nothing (UNDO-4).
 * - `rolled-back`: a statement failed and every statement of the call was rolled back (SQL-5).
 * - `refused`: the SQL holds transaction control (COMMIT, ROLLBACK, BEGIN …); nothing ran (SQL-8).
 */
export type SqlRunEnd =
  | {
      readonly ended: 'committed'; readonly results: readonly SqlStatementResultLike[]; readonly ms: number; readonly undo?: UndoStep | null;
      /** Why a run that changed the database has no step (too large to keep): the answer says so (UNDO-4). */
      readonly undoNote?: string;
    }
  | { readonly ended: 'rolled-back'; readonly error: SqlErrorLike }
  | { readonly ended: 'refused'; readonly error: { readonly message: string; readonly position?: number } };

/**
 * What a run ends with (the run contract, tools/run.ts):
 * - `exited`: the SQL ended by itself, see {@link SqlRunEnd}.
 * - `timeout`: `timeoutMs` passed; the engine replaced its worker, the DB is back to its initial state (SQL-6).
 * - `stopped`: the user reset the DB during the run (the page's stop).
 * - `cancelled`: the call's `signal` was aborted; a run in progress was stopped as for a timeout (NAT-2, NAT-6).
 * - `busy`: another run, or the engine's loading, was in progress (SQL-3).
 *
 * A run rejects when the engine cannot load: the operation answers `failed` (SQL-3).
 * @example const outcome: SqlRunOutcome = { kind: 'exited', ended: 'committed', results: [], ms: 1 };
 */
export type SqlRunOutcome = RunOutcome<SqlRunEnd>;

/** What `sql_run_query` asks of the page's run function. */
export interface SqlRunRequest extends RunRequest {
  /** Rows per statement the answer keeps (200, SQL-4): an engine that can should cut there already (SQL-9). */
  readonly maxRows?: number;
}

/** What the SQL page passes to {@link createSqlOperations}. Every member is read on every call (DEF-6). */
export interface SqlToolAdapter {
  /** True once the project and its saved SQL are loaded (SQL-1). */
  isLoaded(): boolean;
  /** The SQL in the editor now; never changed by the operations (SQL-1). */
  getEditorSql(): string;
  /** The engine's state now. */
  getEngineState(): SqlEngineStatus;
  /**
   * Runs `sql` with the same engine function the Run button uses (SQL-2), loading the engine first
   * when needed (load time not counted in `timeoutMs`, SQL-3). While it runs, the page's Run button
   * shows running; its result table stays as it was; after a `timeout` the page says that an AI
   * operation reset the DB (SQL-6).
   */
  run(sql: string, options: SqlRunRequest): Promise<SqlRunOutcome>;
}
