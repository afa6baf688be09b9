/**
 * The playground's one IndexedDB helper: a store of records keyed by their `id`, in a database of
 * its own, opened lazily on first use. Every page that saves (SQL text, Go projects, decks,
 * drawings, diagrams) goes through it. When IndexedDB cannot be opened (some private windows) the
 * records live in memory for the document's lifetime and `persistent` says so.
 * @module
 */

/** A record with its key. */
export interface Keyed {
  id: string;
}

/** Records of one kind, by id. */
export interface RecordStore<T extends Keyed> {
  get(id: string): Promise<T | undefined>;
  put(record: T): Promise<void>;
  delete(id: string): Promise<void>;
  getAll(): Promise<T[]>;
  /** False once IndexedDB could not be opened: records then live in memory only. */
  readonly persistent: boolean;
}

const STORE = 'records';

function settled<R>(request: IDBRequest<R>): Promise<R> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
  });
}

function openDatabase(factory: IDBFactory, name: string, storeName: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = factory.open(name, 1);
    open.onupgradeneeded = () => {
      if (!open.result.objectStoreNames.contains(storeName)) open.result.createObjectStore(storeName, { keyPath: 'id' });
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error('IndexedDB cannot be opened'));
    open.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
  });
}

/**
 * Opens (lazily, on the first call) the store `storeName` of database `dbName`.
 * @example
 * const decks = openRecordStore<Deck>('ai-ops-slides');
 * await decks.put({ id: 'welcome', name: 'welcome', markdown: '# Hi' });
 */
export function openRecordStore<T extends Keyed>(
  dbName: string,
  { storeName = STORE, factory = globalThis.indexedDB }: { storeName?: string; factory?: IDBFactory } = {},
): RecordStore<T> {
  let db: Promise<IDBDatabase | undefined> | undefined;
  const memory = new Map<string, T>();
  const store = {
    persistent: true,
    async get(id: string) {
      const database = await opened();
      if (!database) return memory.has(id) ? structuredClone(memory.get(id)) : undefined;
      return (await settled(database.transaction(storeName, 'readonly').objectStore(storeName).get(id))) as T | undefined;
    },
    async put(record: T) {
      const database = await opened();
      if (!database) return void memory.set(record.id, structuredClone(record));
      const tx = database.transaction(storeName, 'readwrite');
      tx.objectStore(storeName).put(record);
      await committed(tx);
    },
    async delete(id: string) {
      const database = await opened();
      if (!database) return void memory.delete(id);
      const tx = database.transaction(storeName, 'readwrite');
      tx.objectStore(storeName).delete(id);
      await committed(tx);
    },
    async getAll() {
      const database = await opened();
      if (!database) return [...memory.values()].map((record) => structuredClone(record));
      return (await settled(database.transaction(storeName, 'readonly').objectStore(storeName).getAll())) as T[];
    },
  };
  function opened(): Promise<IDBDatabase | undefined> {
    db ??= (factory ? openDatabase(factory, dbName, storeName) : Promise.reject(new Error('no IndexedDB'))).catch(() => {
      store.persistent = false;
      return undefined;
    });
    return db;
  }
  return store;
}
