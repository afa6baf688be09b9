/**
 * The SQL page's UI: the editor, the Run and reset buttons, the result tables, the status line and
 * the DB notice. Plain DOM; everything it shows comes from `sqlPage.store` (state.ts).
 * @module
 */
import { defineAiOpsElements } from '../../elements/define.js';
import { embedId, sqlPage, USER_RUN_ROWS, type SqlPageState, type UserRun } from './state.js';
import { cellText } from './values.js';
import type { StatementResult } from './engine/sql-engine.js';

/** Rows a result table renders per statement (all the engine sends); the rest is counted, not drawn. */
const SHOWN_ROWS = USER_RUN_ROWS;

// Called, not only imported: a bare `import '../../elements/define.js'` is dropped by esbuild whenever
// package.json's "sideEffects" list misses that file (it did for a while), leaving no switch at all.
defineAiOpsElements();

const $ = <T extends HTMLElement>(id: string): T => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`sql page: #${id} is missing`);
  return element as T;
};

const editor = $<HTMLTextAreaElement>('sql-editor');
const runButton = $<HTMLButtonElement>('run');
const resetButton = $<HTMLButtonElement>('reset');
const saveState = $('save-state');
const results = $('results');
const statusLine = $('status');
const notice = $('notice');
const noticeText = $('notice-text');
const noticeClose = $<HTMLButtonElement>('notice-close');

// DOC-3: the title carries the embed ID.
document.title = `${embedId} — SQL — ai-ops`;
$('embed-id').textContent = embedId;

editor.addEventListener('input', () => sqlPage.setSql(editor.value));
editor.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    void sqlPage.runEditor();
  }
});
runButton.addEventListener('click', () => void sqlPage.runEditor());
resetButton.addEventListener('click', () => void sqlPage.resetDatabase());
noticeClose.addEventListener('click', () => sqlPage.dismissNotice());
// Write a pending edit before the page goes away.
addEventListener('pagehide', () => void sqlPage.flushSave());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') void sqlPage.flushSave();
});

let shownRun: UserRun | null | undefined;
let editorFilled = false;

function render(state: SqlPageState): void {
  if (state.loaded && !editorFilled) {
    editorFilled = true;
    editor.value = state.sql;
    editor.disabled = false;
    editor.removeAttribute('aria-busy');
  }

  const running = state.runningBy !== null;
  runButton.disabled = !state.loaded || running;
  runButton.setAttribute('aria-busy', String(running));
  runButton.textContent = running ? (state.runningBy === 'agent' ? '実行中…(AI)' : '実行中…') : '実行';
  resetButton.textContent = running ? '止めて DB を初期化' : 'DB を初期化';
  resetButton.disabled = state.engine.state === 'unloaded' || state.engine.state === 'failed' || (state.engine.state === 'loading' && !running);

  saveState.textContent = saveText(state);
  statusLine.textContent = statusText(state);

  notice.hidden = state.notice === null;
  noticeText.textContent = state.notice ?? '';

  // The table shows the user's runs only; an agent's run leaves it as it was (SQL-2).
  if (state.userRun !== shownRun) {
    shownRun = state.userRun;
    results.replaceChildren(...(state.userRun ? renderRun(state.userRun) : [placeholder()]));
  }
}

function saveText(state: SqlPageState): string {
  switch (state.save) {
    case 'loading':
      return '読み込み中…';
    case 'saved':
      return '保存済み';
    case 'pending':
    case 'saving':
      return '保存中…';
    case 'error':
      return `保存できません: ${state.saveError ?? ''}`;
  }
}

function statusText(state: SqlPageState): string {
  if (!state.loaded) return '保存した SQL を読み込んでいます…';
  const engine = state.engine.state;
  if (state.runningBy === 'agent') return engine === 'loading' ? 'AI からの操作: SQL のエンジンを読み込んでいます…' : 'AI からの操作で SQL を実行しています…';
  if (state.runningBy === 'user') return engine === 'loading' ? 'SQL のエンジンを読み込んでいます…' : '実行しています…';
  switch (engine) {
    case 'unloaded':
      return 'SQL のエンジン(PGlite)は、最初の実行のときに読み込みます。';
    case 'loading':
      return state.engine.resets > 0 ? 'DB を初期の状態に戻しています…' : 'SQL のエンジンを読み込んでいます…';
    case 'failed':
      return `SQL のエンジンを読み込めませんでした: ${state.engine.loadError ?? ''}`;
    default:
      break;
  }
  const run = state.userRun;
  if (!run) return '準備ができました。';
  switch (run.outcome.kind) {
    case 'results':
      return `${run.outcome.results.length} 個の文を実行しました(${formatMs(run.outcome.ms)})。`;
    case 'error':
      return `エラー${run.outcome.error.sqlState ? ` ${run.outcome.error.sqlState}` : ''}: 全ての文の変更を取り消しました。`;
    case 'refused':
      return `${run.outcome.error.statement} は書けません: 何も実行していません。`;
    case 'timeout':
    case 'cancelled':
    case 'aborted':
      return '実行を止め、DB を初期の状態に戻しました。';
    case 'load-failed':
      return `SQL のエンジンを読み込めませんでした: ${run.outcome.message}`;
  }
}

function formatMs(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms).toLocaleString('ja-JP')} ms`;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const element = Object.assign(document.createElement(tag), props);
  element.append(...children);
  return element;
}

function placeholder(): HTMLElement {
  return el('p', { className: 'muted' }, '「実行」を押すと、ここに文ごとの結果が出ます。');
}

function renderRun(run: UserRun): HTMLElement[] {
  const { outcome } = run;
  switch (outcome.kind) {
    case 'results':
      if (outcome.results.length === 0) return [el('p', { className: 'muted' }, '実行する文がありませんでした。')];
      return outcome.results.map((statement, index) => renderStatement(statement, index, outcome.results.length));
    case 'error':
      return [renderError(run.sql, outcome.error)];
    case 'refused':
      return [renderError(run.sql, { ...outcome.error, message: refusedText(outcome.error.statement) }, '何も実行していません。')];
    case 'timeout':
    case 'cancelled':
    case 'aborted':
      return [el('p', { className: 'sql-error' }, '実行を止めました。DB は初期の状態に戻りました。')];
    case 'load-failed':
      return [el('p', { className: 'sql-error' }, `SQL のエンジンを読み込めませんでした: ${outcome.message}`)];
  }
}

/** SQL-8: why a text with transaction control did not run. */
function refusedText(statement: string): string {
  return `${statement} は書けません。1 回の実行の文は 1 つのトランザクションで動き、全ての文が成功するとまとめて確定し、1 つでも失敗すると全てを取り消します。BEGIN、COMMIT、ROLLBACK、SAVEPOINT などを消してから実行してください。`;
}

function countText(statement: StatementResult): string {
  const command = statement.command ?? '';
  if (statement.fields.length > 0 || command === 'SELECT') return `${statement.totalRows.toLocaleString('ja-JP')} 行`;
  if (['INSERT', 'UPDATE', 'DELETE', 'MERGE'].includes(command)) return `${statement.affectedRows.toLocaleString('ja-JP')} 行を変更`;
  return '完了';
}

function renderStatement(statement: StatementResult, index: number, count: number): HTMLElement {
  const headingId = `statement-${index + 1}`;
  const title = `${count > 1 ? `文 ${index + 1}: ` : ''}${statement.command ?? '(空の文)'} — ${countText(statement)}`;
  const section = el('section', { className: 'statement' }, el('h3', { id: headingId }, title));
  section.setAttribute('aria-labelledby', headingId);
  if (statement.fields.length === 0) return section;

  const names = statement.fields.map((field) => field.name);
  const table = el('table');
  table.setAttribute('aria-labelledby', headingId);
  table.append(el('thead', {}, el('tr', {}, ...names.map((name) => el('th', { scope: 'col' }, name)))));
  const body = el('tbody');
  const shown = statement.rows.slice(0, SHOWN_ROWS);
  for (const row of shown) {
    const tr = el('tr');
    // Rows are arrays in the order of the columns, so two columns named `id` each show their own (SQL-7).
    for (let column = 0; column < names.length; column++) {
      const text = cellText(row[column]);
      tr.append(text === null ? el('td', { className: 'null' }, 'NULL') : el('td', {}, text));
    }
    body.append(tr);
  }
  table.append(body);
  // A wide or long table scrolls inside its own box, reachable by keyboard.
  const wrap = el('div', { className: 'table-wrap', tabIndex: 0 }, table);
  wrap.setAttribute('role', 'region');
  wrap.setAttribute('aria-labelledby', headingId);
  section.append(wrap);
  if (statement.totalRows > shown.length) {
    section.append(el('p', { className: 'muted' }, `全 ${statement.totalRows.toLocaleString('ja-JP')} 行のうち、先頭の ${shown.length.toLocaleString('ja-JP')} 行を表示しています。`));
  }
  return section;
}

/** The error with SQLSTATE, position (as line and column) and the line it points at. */
function renderError(
  sql: string,
  error: { message: string; sqlState?: string; position?: number; detail?: string; hint?: string },
  footer = 'この実行の全ての文の変更を取り消しました。',
): HTMLElement {
  const box = el('div', { className: 'sql-error' }, el('p', { className: 'sql-error-message' }, `エラー: ${error.message}`));
  const facts = el('dl', { className: 'sql-error-facts' });
  if (error.sqlState) facts.append(el('dt', {}, 'SQLSTATE'), el('dd', {}, el('code', {}, error.sqlState)));
  let pointer: HTMLElement | undefined;
  if (error.position !== undefined) {
    // Postgres counts characters (code points) from 1.
    const chars = Array.from(sql);
    const before = chars.slice(0, error.position - 1).join('');
    const line = before.split('\n').length;
    const column = Array.from(before.slice(before.lastIndexOf('\n') + 1)).length + 1;
    facts.append(el('dt', {}, '位置'), el('dd', {}, `${error.position}(${line} 行目 ${column} 文字目)`));
    const lineText = sql.split('\n')[line - 1] ?? '';
    pointer = el('pre', { className: 'sql-error-pointer' }, `${lineText}\n${' '.repeat(Math.max(0, column - 1))}^`);
    pointer.setAttribute('aria-hidden', 'true');
  }
  if (error.detail) facts.append(el('dt', {}, '詳細'), el('dd', {}, error.detail));
  if (error.hint) facts.append(el('dt', {}, 'ヒント'), el('dd', {}, error.hint));
  if (facts.childElementCount > 0) box.append(facts);
  if (pointer) box.append(pointer);
  box.append(el('p', { className: 'muted' }, footer));
  return box;
}

render(sqlPage.store.getState());
sqlPage.store.subscribe(() => render(sqlPage.store.getState()));
