/**
 * The SQL page's instances: one page state (sql-page.ts) per embed ID, over one engine and one
 * storage. The operations are handed to ai-ops once per document, when the page first mounts
 * (SHAPE-5, APP-3); they read the page shown last.
 * @module
 */
import { provideOperations } from 'ai-ops';
import { createSqlOperations, type SqlToolAdapter } from 'ai-ops/tools/sql';
import { embedIdOf, keepsUndo } from '../shared/page-params.js';
import { once } from '../shared/once.js';
import { SqlEngine } from './engine/sql-engine.js';
import { createSqlPage, type SqlPage } from './sql-page.js';
import { createSqlStorage, type SqlStorage } from './storage.js';

export * from './sql-page.js';

/** The embed ID when the URL has none. */

let engine: SqlEngine | undefined;
let storage: SqlStorage | undefined;
const pages = new Map<string, SqlPage>();
let shown: SqlPage | undefined;

/**
 * The page state for the embed ID of `search` (`?id=`), created on first use: its saved SQL
 * starts loading then. The engine is shared and loads on the first run (SQL-3).
 */
export function sqlPageFor(search: string): SqlPage {
  const embedId = embedIdOf(search);
  let page = pages.get(embedId);
  if (!page) {
    // engine/ at an absolute URL: the document's URL changes as the app routes.
    engine ??= new SqlEngine({ engineUrl: '/sql/engine/' });
    storage ??= createSqlStorage();
    page = createSqlPage({ embedId, engine, storage, keepUndo: keepsUndo(search) });
    pages.set(embedId, page);
  }
  return page;
}

/** What the operations read: the page shown last. */
const adapter: SqlToolAdapter = {
  isLoaded: () => shown?.adapter.isLoaded() ?? false,
  getEditorSql: () => shown?.adapter.getEditorSql() ?? '',
  getEngineState: () => shown?.adapter.getEngineState() ?? 'unloaded',
  run: (sql, request) => (shown ? shown.adapter.run(sql, request) : Promise.resolve({ ok: false, kind: 'busy' })),
};

/** The page is shown: the operations read it; the first call hands them to ai-ops. */
export function showSqlPage(page: SqlPage): void {
  shown = page;
  handOver();
}

const handOver = once(() => provideOperations('sql', createSqlOperations(adapter)));
