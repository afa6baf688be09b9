/**
 * The SQL page's saved editor text, one record per embed ID, through the playground's one
 * IndexedDB helper (shared/idb.ts) with the database and store names the page always used, so
 * SQL saved before stays.
 * @module
 */
import { openRecordStore } from '../shared/idb.js';

/** The IndexedDB database and store names (shared by every embed; the record key is the embed ID). */
export const SQL_DB_NAME = 'ai-ops-sql';
export const SQL_STORE_NAME = 'queries';

/** A saved editor text. */
export interface SavedSql {
  /** The embed ID. */
  id: string;
  sql: string;
  /** Epoch ms of the last save. */
  updatedAt: number;
}

/** Reads and writes the saved SQL of the embeds. */
export interface SqlStorage {
  /** The saved record of `id`, or undefined when that embed never saved. */
  load(id: string): Promise<SavedSql | undefined>;
  save(record: SavedSql): Promise<void>;
}

const NOT_PERSISTENT = 'IndexedDB を開けません(このページを開いている間だけ SQL を持ちます)';

/**
 * Opens the page's IndexedDB storage lazily (on the first load or save). Without IndexedDB both
 * reject, so the page says it cannot save.
 * @example
 * const storage = createSqlStorage();
 * const saved = await storage.load('demo');
 */
export function createSqlStorage(factory: IDBFactory = indexedDB): SqlStorage {
  const records = openRecordStore<SavedSql>(SQL_DB_NAME, { storeName: SQL_STORE_NAME, factory });
  return {
    async load(id) {
      const record: unknown = await records.get(id);
      if (!records.persistent) throw new Error(NOT_PERSISTENT);
      return isSavedSql(record) ? record : undefined;
    },
    async save(record) {
      await records.put(record);
      if (!records.persistent) throw new Error(NOT_PERSISTENT);
    },
  };
}

function isSavedSql(value: unknown): value is SavedSql {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.id === 'string' && typeof record.sql === 'string';
}
