/**
 * A page's saved documents in IndexedDB: one object store of `{ id, name, updatedAt, … }` records.
 * Used by the slides and draw.io pages.
 * @module
 */

/** What every saved document carries. */
export interface SavedDocument {
  /** The key, as in `?doc=<id>`. */
  id: string;
  /** Shown in the header and the page title (DOC-3). */
  name: string;
  /** Epoch ms of the last save. */
  updatedAt: number;
}

/** A store of one page's documents. */
export interface DocumentStore<T extends SavedDocument> {
  get(id: string): Promise<T | undefined>;
  put(document: T): Promise<void>;
  /** Every saved document's id and name, most recently saved first. */
  list(): Promise<SavedDocument[]>;
  /** False when IndexedDB could not be opened: documents then live for the page's lifetime only. */
  readonly persistent: boolean;
}

const STORE = 'documents';

function request<R>(req: IDBRequest<R>): Promise<R> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function openDatabase(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => {
      if (!open.result.objectStoreNames.contains(STORE)) open.result.createObjectStore(STORE, { keyPath: 'id' });
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error('IndexedDB cannot be opened'));
    open.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
  });
}

/** A store kept in memory, used when IndexedDB is unavailable (private windows of some browsers). */
function memoryStore<T extends SavedDocument>(): DocumentStore<T> {
  const documents = new Map<string, T>();
  return {
    persistent: false,
    get: async (id) => (documents.has(id) ? structuredClone(documents.get(id)) : undefined),
    put: async (document) => void documents.set(document.id, structuredClone(document)),
    list: async () => [...documents.values()].map(({ id, name, updatedAt }) => ({ id, name, updatedAt })).sort((a, b) => b.updatedAt - a.updatedAt),
  };
}

/**
 * Opens (creating on first use) the IndexedDB database `name`.
 * @example const store = await openDocumentStore<Deck>('ai-ops-slides');
 */
export async function openDocumentStore<T extends SavedDocument>(name: string): Promise<DocumentStore<T>> {
  let db: IDBDatabase;
  try {
    db = await openDatabase(name);
  } catch {
    return memoryStore<T>();
  }
  const tx = (mode: IDBTransactionMode) => db.transaction(STORE, mode).objectStore(STORE);
  return {
    persistent: true,
    get: async (id) => (await request(tx('readonly').get(id))) as T | undefined,
    async put(document) {
      const transaction = db.transaction(STORE, 'readwrite');
      transaction.objectStore(STORE).put(document);
      await new Promise<void>((resolve, reject) => {
        transaction.oncomplete = () => resolve();
        transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB write failed'));
        transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB write aborted'));
      });
    },
    async list() {
      const all = (await request(tx('readonly').getAll())) as T[];
      return all.map(({ id, name, updatedAt }) => ({ id, name, updatedAt })).sort((a, b) => b.updatedAt - a.updatedAt);
    },
  };
}

/** Ids a page accepts in `?doc=`: short, URL-safe. */
export const DOCUMENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A fresh random document id. */
export function newDocumentId(prefix: string): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
}
