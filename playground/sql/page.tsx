/**
 * The SQL console (React): the CodeMirror editor in SQL mode, 実行 and DB を初期化, the result
 * tables, the status line and the DB notice. Everything it shows comes from the page state of
 * its embed ID (state.ts); the log sits in the footer.
 * @module
 */
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { AiOpsLog } from 'ai-ops/react';
import { CodeEditor } from '../shared/code-editor.js';
import { useSaveOnHide } from '../shared/use-save-on-hide.js';
import { ToolHeader } from '../shared/tool-header.js';
import { usePageTitle } from '../shared/use-title.js';
import { RunResults } from './results.js';
import { showSqlPage, sqlPageFor, type SqlPageState } from './state.js';

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

function formatMs(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms).toLocaleString('ja-JP')} ms`;
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
      // An undo from the log starts a new engine from the kept state (UNDO-1).
      if (state.engine.restoring) return 'DB を元に戻しています…';
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

/** The SQL page. */
export default function SqlConsole() {
  // The embed ID is read when the page mounts (the app's URL changes while modules stay).
  const page = useMemo(() => sqlPageFor(location.search), []);
  const state = useSyncExternalStore(page.store.subscribe, page.store.getState);
  usePageTitle([state.embedId, 'SQL']);

  useEffect(() => showSqlPage(page), [page]);
  // Write a pending edit before the page goes away (hidden, closed, or routed away from).
  useSaveOnHide(useCallback(() => void page.flushSave(), [page]));

  const keys = useMemo(() => [{ key: 'Mod-Enter', run: () => (void page.runEditor(), true) }], [page]);
  const running = state.runningBy !== null;
  const engine = state.engine.state;
  const resetDisabled = engine === 'unloaded' || engine === 'failed' || (engine === 'loading' && !running);

  return (
    <>
      <link rel="stylesheet" href="/sql/sql.css" precedence="page" />
      <ToolHeader tool="sql" title="SQL" documentName={state.embedId} />
      {/* The live region stays in the page so that filling it is announced; its box appears with the text. */}
      <div id="notice-region" role="status">
        {state.notice !== null ? (
          <div className="notice" id="notice">
            <span id="notice-text">{state.notice}</span>
            <button type="button" className="tool-button notice-close" id="notice-close" onClick={() => page.dismissNotice()}>閉じる</button>
          </div>
        ) : null}
      </div>
      <main className="page-main sql-main">
        <section className="sql-editor-pane" aria-label="SQL の入力">
          <div className="sql-toolbar">
            <span className="sql-label" aria-hidden="true">SQL</span>
            <span className="muted" id="save-state" aria-live="polite">{saveText(state)}</span>
            <span className="spacer" />
            <button
              type="button" className="tool-button primary" id="run" aria-describedby="run-help"
              disabled={!state.loaded || running || state.engine.restoring} aria-busy={running} onClick={() => void page.runEditor()}
            >
              {running ? (state.runningBy === 'agent' ? '実行中…(AI)' : '実行中…') : '実行'}
            </button>
            <button type="button" className="tool-button" id="reset" disabled={resetDisabled} onClick={() => void page.resetDatabase()}>
              {running ? '止めて DB を初期化' : 'DB を初期化'}
            </button>
          </div>
          <CodeEditor
            language="sql"
            label="SQL"
            describedBy="run-help"
            value={state.sql}
            // The saved text arrives as a new document: loading it is not a step to undo.
            documentKey={state.loaded ? 'loaded' : 'loading'}
            disabled={!state.loaded}
            onChange={(sql) => page.setSql(sql)}
            keys={keys}
          />
          <p className="muted sql-help" id="run-help">Ctrl+Enter(⌘+Enter)でも実行できます。1 回の実行の文は 1 つのトランザクションで動き、1 つが失敗すると全て取り消されます。</p>
        </section>
        <section className="sql-results-pane" aria-labelledby="results-heading">
          <h2 id="results-heading">結果</h2>
          {/* The table shows the user's runs only; an agent's run leaves it as it was (SQL-2). */}
          <div id="results"><RunResults run={state.userRun} /></div>
        </section>
      </main>
      <p className="sql-status" id="status" role="status">{statusText(state)}</p>
      <footer className="page-footer"><AiOpsLog tool="sql" /></footer>
    </>
  );
}
