/**
 * The saved drawings of the Excalidraw page, in IndexedDB: one record per drawing, keyed by its id
 * (the page's `?doc=`). No Excalidraw import: the elements are stored as Excalidraw gives them.
 * @module
 */

/** The database and its one object store. */
export const DB_NAME = 'ai-ops-excalidraw';
export const STORE = 'drawings';

/** A saved drawing. */
export interface DrawingRecord {
  id: string;
  name: string;
  /** Excalidraw's elements (not deleted ones), as `getSceneElements()` returns them. */
  elements: readonly unknown[];
  /** Excalidraw's `BinaryFiles` (images), by file id. */
  files: Record<string, unknown>;
  /** True until the sample has been put into a new `welcome` drawing. */
  needsSample?: boolean;
  updatedAt: number;
}

let opening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
  opening ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'id' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB open failed'));
  });
  return opening;
}

function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return open().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const tx = db.transaction(STORE, mode);
        const request = work(tx.objectStore(STORE));
        tx.oncomplete = () => resolve(request.result);
        tx.onerror = () => reject(tx.error ?? request.error ?? new Error('IndexedDB transaction failed'));
        tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
      }),
  );
}

/** The drawing with this id, or undefined. */
export function loadDrawing(id: string): Promise<DrawingRecord | undefined> {
  return run('readonly', (store) => store.get(id) as IDBRequest<DrawingRecord | undefined>);
}

/** Writes (replaces) a drawing. */
export async function saveDrawing(record: DrawingRecord): Promise<void> {
  await run('readwrite', (store) => store.put(record));
}
