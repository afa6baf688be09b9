/**
 * The SQL page's instance: its state (page.ts) with the real engine and storage. The operations
 * are handed to ai-ops here, at module initialisation (SHAPE-5).
 * @module
 */
import { provideOperations } from '../../src/index.js';
import { createSqlOperations } from '../../tools/sql/operations.js';
import { SqlEngine } from './engine/sql-engine.js';
import { createSqlPage, embedIdOf } from './page.js';
import { createSqlStorage } from './storage.js';

export * from './page.js';

/** The embed ID of this page. */
export const embedId = embedIdOf(location.search);

/** The page's state; `main.ts` renders it. */
export const sqlPage = createSqlPage({
  embedId,
  // engine/ beside the page (dist/site/sql/engine/), loaded on the first run (SQL-3).
  engine: new SqlEngine({ engineUrl: 'engine/' }),
  storage: createSqlStorage(),
});

// SHAPE-5: the definitions are handed over when this module initialises, not from a component.
provideOperations('sql', createSqlOperations(sqlPage.adapter));
