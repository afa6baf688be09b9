/**
 * The two SQL operations (SQL-1..SQL-6).
 * @module
 */
import { defineOperation, type AnyOperationDefinition } from '../../src/definition.js';
import { MAX_SQL_ROWS, TIMEOUT_MS, head, textSchema, timeoutSchema } from '../../src/limits.js';
import { ErrorCode, fail, succeed, type OperationFailure, type OperationResult } from '../../src/result.js';
import { createEngineGuard, runAnswer, type RunWording } from '../run.js';
import { RELAY_WAIT_NOTE, emptyInputSchema, jsonSafe } from '../shared.js';
import type { SqlErrorLike, SqlRunEnd, SqlStatementResultLike, SqlToolAdapter } from './adapter.js';

/** `sql_run_query`'s input (IN-3, IN-4, IN-5). */
export const runQuerySchema = {
  type: 'object',
  properties: {
    sql: textSchema('実行する SQL(UTF-8 で 1 MB まで)。; で区切って複数の文を渡せる。'),
    timeoutMs: timeoutSchema('時間の上限(ミリ秒)。1000 から 120000 までの整数。省くと 30000。過ぎると DB の中身が初期の状態に戻る。'),
  },
  required: ['sql'],
  additionalProperties: false,
} as const;

/** The input schemas of the two operations, by name. */
export const sqlInputSchemas = { sql_read_query: emptyInputSchema, sql_run_query: runQuerySchema } as const;

const NOT_LOADED = 'the SQL page has not finished loading the project and its saved SQL';

/**
 * One statement as `sql_run_query` answers it: rows as arrays aligned with `fields` (SQL-7), cut
 * to the first 200 (SQL-4); `totalRows` is the full count, also when the engine cut first (SQL-9).
 */
function statement(result: SqlStatementResultLike) {
  const { items } = head(result.rows, MAX_SQL_ROWS);
  const totalRows = Math.max(result.totalRows ?? 0, result.rows.length);
  return {
    fields: jsonSafe(result.fields),
    rows: jsonSafe(items),
    affectedRows: result.affectedRows ?? 0,
    totalRows,
    truncated: totalRows > items.length,
  };
}

/** `failed` with `sqlState` and `position` beside `error`, each only when the engine gave it (SQL-5). */
function sqlFailure(error: SqlErrorLike): OperationFailure {
  const extra: Record<string, unknown> = {};
  if (typeof error.sqlState === 'string' && error.sqlState !== '') extra.sqlState = error.sqlState;
  if (typeof error.position === 'number' && Number.isFinite(error.position)) extra.position = error.position;
  return fail(ErrorCode.failed, error.message, extra);
}

/** `sql_run_query`'s answer for SQL that ended by itself (SQL-4, SQL-5, SQL-8). */
function sqlEnded(end: SqlRunEnd): OperationResult {
  switch (end.ended) {
    case 'committed':
      return succeed({ results: end.results.map(statement), ms: end.ms, ...(end.undoNote ? { undoNote: end.undoNote } : {}) });
    case 'rolled-back':
      return sqlFailure(end.error);
    case 'refused': {
      const { message, position } = end.error;
      return fail(ErrorCode.invalidInput, message, typeof position === 'number' ? { position } : {});
    }
    default:
      return fail(ErrorCode.failed, 'the SQL engine answered something unexpected');
  }
}

/** `sql_run_query`'s failures in the run contract's terms (tools/run.ts). */
const sqlWording: RunWording<object> = {
  busy: 'SQL is running or the engine is loading; call again when it ends',
  timeout: (_outcome, timeoutMs) => `the SQL did not finish within ${timeoutMs} ms; the DB was reset to its initial state`,
  stopped: () => 'the user reset the DB while the SQL ran: the run was stopped and the DB is back to its initial state',
  cancelled: () => 'the caller cancelled the call: the run was stopped (when it had started, the DB was reset to its initial state)',
};

/**
 * Creates the SQL operations. Neither changes the editor's SQL (SQL-1); `sql_run_query` runs
 * through `adapter.run`, the page's own run function (SQL-2), with no confirmation.
 * @example
 * provideOperations('sql', createSqlOperations({ isLoaded, getEditorSql, getEngineState, run }));
 */
export function createSqlOperations(adapter: SqlToolAdapter): AnyOperationDefinition[] {
  const guard = createEngineGuard({ isLoaded: () => adapter.isLoaded(), getState: () => adapter.getEngineState(), notLoaded: NOT_LOADED, engine: 'the SQL engine', code: 'SQL' });

  const readQuery = defineOperation({
    name: 'sql_read_query',
    description: 'SQL の入力欄にある、今の SQL を返す。入力欄の SQL は変えない。',
    inputSchema: emptyInputSchema,
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    prepare: async () => guard.loaded(() => ({ sql: adapter.getEditorSql() })),
    execute: async (_input, { sql }) => succeed({ sql }),
  });

  const runQuery = defineOperation({
    name: 'sql_run_query',
    description:
      `渡した SQL を実行し、文ごとの結果(results)と、かかった時間(ms)を返す。入力欄の SQL と、画面の結果の表は変えない。確認なしで実行する(DB の中身は保存されない)。複数の文を渡すと、results に文ごとの fields、rows、affectedRows、totalRows、truncated が入る。rows の 1 行は、fields と同じ順に値を並べた配列(同じ名前の列も、それぞれの値を持つ)。rows は文ごとに先頭の 200 行までで、totalRows は全体の行の数、切り詰めたときは truncated が true になる。渡した SQL の全体が 1 つのトランザクションで動き、1 つの文が失敗すると、全ての文の変更を取り消し、failed と、あれば sqlState と position を返す。BEGIN、COMMIT、ROLLBACK、SAVEPOINT などのトランザクションの制御の文は書けず、含むと何も実行せずに invalid_input と position を返す。テーブルとカラムの一覧は information_schema を読む。timeoutMs(1000〜120000、省くと 30000)を過ぎると、実行を止めて timeout を返し、DB の中身は初期の状態に戻る。実行中に呼び出しが取り消されたときと、利用者が画面で DB を初期化したときは、実行を止めて declined を返し、DB の中身は初期の状態に戻る。SQL の実行中と、SQL のエンジンの読み込み中は not_ready を返す。DB を変えた呼び出しは、利用者が画面の記録の「元に戻す」で呼び出しの直前の状態に戻せる(エージェントの操作では戻せない)。変えた量が大きすぎて戻すための状態を保てないときは、答えの undoNote がそう言う。${RELAY_WAIT_NOTE}`,
    inputSchema: runQuerySchema,
    annotations: { consequentialHint: true, untrustedContentHint: true },
    // No dialog: prepare reads the state right before execute runs.
    prepare: async () => guard.idle(),
    // `call` carries the call's signal: aborting it stops the run (NAT-2).
    execute: async (input, _ctx, call) => {
      const timeoutMs = input.timeoutMs ?? TIMEOUT_MS.default;
      const outcome = await adapter.run(input.sql, { timeoutMs, maxRows: MAX_SQL_ROWS, signal: call.signal });
      const result = await runAnswer<SqlRunEnd, object>(outcome, { timeoutMs, wording: sqlWording, exited: sqlEnded });
      // UNDO-1: a committed run that changed the database hands its step to the log row.
      const undo = outcome.kind === 'exited' && outcome.ended === 'committed' ? outcome.undo : null;
      return undo && result.ok ? { result, undo } : result;
    },
  });

  return [readQuery, runQuery];
}
