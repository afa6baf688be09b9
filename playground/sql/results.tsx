/**
 * The SQL page's result pane: one section per statement with its table, or the error with its
 * SQLSTATE, position and the line it points at. Shows the user's runs only (SQL-2).
 * @module
 */
import type { StatementResult } from './engine/sql-engine.js';
import type { UserRun } from './sql-page.js';
import { USER_RUN_ROWS } from './sql-page.js';
import { cellText } from './values.js';

const number = (n: number) => n.toLocaleString('ja-JP');

/** SQL-8: why a text with transaction control did not run. */
function refusedText(statement: string): string {
  return `${statement} は書けません。1 回の実行の文は 1 つのトランザクションで動き、全ての文が成功するとまとめて確定し、1 つでも失敗すると全てを取り消します。BEGIN、COMMIT、ROLLBACK、SAVEPOINT などを消してから実行してください。`;
}

function countText(statement: StatementResult): string {
  const command = statement.command ?? '';
  if (statement.fields.length > 0 || command === 'SELECT') return `${number(statement.totalRows)} 行`;
  if (['INSERT', 'UPDATE', 'DELETE', 'MERGE'].includes(command)) return `${number(statement.affectedRows)} 行を変更`;
  return '完了';
}

function Statement({ statement, index, count }: { statement: StatementResult; index: number; count: number }) {
  const headingId = `statement-${index + 1}`;
  const title = `${count > 1 ? `文 ${index + 1}: ` : ''}${statement.command ?? '(空の文)'} — ${countText(statement)}`;
  const names = statement.fields.map((field) => field.name);
  const shown = statement.rows.slice(0, USER_RUN_ROWS);
  return (
    <section className="statement" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      {names.length > 0 ? (
        <>
          {/* A wide or long table scrolls inside its own box, reachable by keyboard. */}
          <div className="table-wrap" tabIndex={0} role="region" aria-labelledby={headingId}>
            <table aria-labelledby={headingId}>
              <thead>
                <tr>{names.map((name, column) => <th key={column} scope="col">{name}</th>)}</tr>
              </thead>
              <tbody>
                {shown.map((row, r) => (
                  <tr key={r}>
                    {/* Rows are arrays in the order of the columns, so two columns named `id` each show their own (SQL-7). */}
                    {names.map((_, column) => {
                      const text = cellText(row[column]);
                      return text === null ? <td key={column} className="null">NULL</td> : <td key={column}>{text}</td>;
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {statement.totalRows > shown.length ? (
            <p className="muted">全 {number(statement.totalRows)} 行のうち、先頭の {number(shown.length)} 行を表示しています。</p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

interface ErrorFacts {
  message: string;
  sqlState?: string;
  position?: number;
  detail?: string;
  hint?: string;
}

/** The error with SQLSTATE, position (as line and column) and the line it points at. */
function SqlError({ sql, error, footer = 'この実行の全ての文の変更を取り消しました。' }: { sql: string; error: ErrorFacts; footer?: string }) {
  let where: { text: string; pointer: string } | undefined;
  if (error.position !== undefined) {
    // Postgres counts characters (code points) from 1.
    const before = Array.from(sql).slice(0, error.position - 1).join('');
    const line = before.split('\n').length;
    const column = Array.from(before.slice(before.lastIndexOf('\n') + 1)).length + 1;
    const lineText = sql.split('\n')[line - 1] ?? '';
    where = { text: `${error.position}(${line} 行目 ${column} 文字目)`, pointer: `${lineText}\n${' '.repeat(Math.max(0, column - 1))}^` };
  }
  const facts = error.sqlState || where || error.detail || error.hint;
  return (
    <div className="sql-error">
      <p className="sql-error-message">エラー: {error.message}</p>
      {facts ? (
        <dl className="sql-error-facts">
          {error.sqlState ? <><dt>SQLSTATE</dt><dd><code>{error.sqlState}</code></dd></> : null}
          {where ? <><dt>位置</dt><dd>{where.text}</dd></> : null}
          {error.detail ? <><dt>詳細</dt><dd>{error.detail}</dd></> : null}
          {error.hint ? <><dt>ヒント</dt><dd>{error.hint}</dd></> : null}
        </dl>
      ) : null}
      {where ? <pre className="sql-error-pointer" aria-hidden="true">{where.pointer}</pre> : null}
      <p className="muted">{footer}</p>
    </div>
  );
}

/** The result of the user's last run, or the placeholder before the first. */
export function RunResults({ run }: { run: UserRun | null }) {
  if (!run) return <p className="muted">「実行」を押すと、ここに文ごとの結果が出ます。</p>;
  const { outcome } = run;
  switch (outcome.kind) {
    case 'results':
      if (outcome.results.length === 0) return <p className="muted">実行する文がありませんでした。</p>;
      return (
        <>
          {outcome.results.map((statement, index) => (
            <Statement key={index} statement={statement} index={index} count={outcome.results.length} />
          ))}
        </>
      );
    case 'error':
      return <SqlError sql={run.sql} error={outcome.error} />;
    case 'refused':
      return <SqlError sql={run.sql} error={{ ...outcome.error, message: refusedText(outcome.error.statement) }} footer="何も実行していません。" />;
    case 'timeout':
    case 'cancelled':
    case 'aborted':
      return <p className="sql-error">実行を止めました。DB は初期の状態に戻りました。</p>;
    case 'load-failed':
      return <p className="sql-error">SQL のエンジンを読み込めませんでした: {outcome.message}</p>;
  }
}
