/**
 * The SQL page's saved SQL: one IndexedDB record per embed ID (`?id=`), so two embeds of the SQL
 * tool keep their own text. IndexedDB rather than localStorage: reading it is asynchronous, like
 * loading a project in the playground, so the operations really have a "not loaded yet" phase
 * (SQL-1) instead of pretending to.
 * @module
 */

/** The database and store names (shared by every embed; the record key is the embed ID). */
export const SQL_DB_NAME = 'ai-ops-sql';
export const SQL_STORE_NAME = 'queries';
const VERSION = 1;

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

function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
  });
}

/**
 * Opens the page's IndexedDB storage lazily (on the first load or save).
 * @example
 * const storage = createSqlStorage();
 * const saved = await storage.load('demo');
 */
export function createSqlStorage(factory: IDBFactory = indexedDB): SqlStorage {
  let db: Promise<IDBDatabase> | undefined;
  const open = (): Promise<IDBDatabase> => {
    db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(SQL_DB_NAME, VERSION);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(SQL_STORE_NAME)) {
          request.result.createObjectStore(SQL_STORE_NAME, { keyPath: 'id' });
        }
      };
      request.onsuccess = () => {
        const opened = request.result;
        // Another tab upgrading the schema: let it, and reopen on the next use.
        opened.onversionchange = () => {
          opened.close();
          db = undefined;
        };
        resolve(opened);
      };
      request.onerror = () => reject(request.error ?? new Error('IndexedDB could not be opened'));
      request.onblocked = () => {
        /* an older tab holds the database open: the request waits until it closes */
      };
    });
    db.catch(() => {
      db = undefined;
    });
    return db;
  };
  return {
    async load(id) {
      const tx = (await open()).transaction(SQL_STORE_NAME, 'readonly');
      const record = await promised<unknown>(tx.objectStore(SQL_STORE_NAME).get(id));
      return isSavedSql(record) ? record : undefined;
    },
    async save(record) {
      const tx = (await open()).transaction(SQL_STORE_NAME, 'readwrite');
      tx.objectStore(SQL_STORE_NAME).put(record);
      await done(tx);
    },
  };
}

function isSavedSql(value: unknown): value is SavedSql {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.id === 'string' && typeof record.sql === 'string';
}
