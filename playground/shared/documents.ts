/**
 * A page's saved documents in IndexedDB, through the playground's one helper (./idb.ts): one
 * object store of `{ id, name, updatedAt, … }` records. Used by the slides and draw.io pages; the
 * database is the page's (`ai-ops-slides`, `ai-ops-drawio`) and the store is `documents`, as they
 * always were, so saved documents still open.
 * @module
 */
import { openRecordStore } from './idb.js';

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
  /** False once IndexedDB could not be opened: documents then live for the page's lifetime only. */
  readonly persistent: boolean;
}

/** The object store the slides and draw.io pages keep their documents in. */
const STORE = 'documents';

/**
 * The documents of database `name` (opened on first use), in its store `storeName`.
 * @example const decks = openDocumentStore<Deck>('ai-ops-slides');
 */
export function openDocumentStore<T extends SavedDocument>(
  name: string,
  { storeName = STORE, factory }: { storeName?: string; factory?: IDBFactory } = {},
): DocumentStore<T> {
  const records = openRecordStore<T>(name, { storeName, factory });
  return {
    get: (id) => records.get(id),
    put: (document) => records.put(document),
    async list() {
      const all = await records.getAll();
      return all.map(({ id, name, updatedAt }) => ({ id, name, updatedAt })).sort((a, b) => b.updatedAt - a.updatedAt);
    },
    get persistent() {
      return records.persistent;
    },
  };
}

/** Ids a page accepts in `?doc=`: short, URL-safe. */
export const DOCUMENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A fresh random document id. */
export function newDocumentId(prefix: string): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
}
