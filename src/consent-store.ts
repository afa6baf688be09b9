/**
 * Where verified consent keeps what it must trust later (UV-8): the enrolled credential's public
 * part and each tool's receipts. Not localStorage: a program that writes the origin's
 * localStorage, sessionStorage or cookies without running script in the page (CDP `DOMStorage`,
 * Playwright MCP's `browser_localstorage_set`, an extension's storage API) could otherwise plant a
 * key of its own, copy one receipt into the place of another, or put back a receipt the user
 * withdrew. IndexedDB alone is not out of such a program's reach: CDP's `IndexedDB` domain reads
 * and deletes, and Playwright MCP's `browser_set_storage_state` re-creates databases from a file;
 * what makes a record count is the page's own key (`consent-anchor.ts`, UV-14), which no such
 * program can write. Part of the on-demand part, never loaded while the switches are off (PKG-4).
 * @module
 */
import { SUPPORTED_ALGORITHMS, fromBase64Url, type PublicKeyRecord } from './consent-proof.js';

/** The consent store's key of the enrolled credential's public part. */
export const ENROLMENT_KEY = 'enrolment';

/**
 * The stored record, or null for anything that is not exactly `{v:1, credentialId, alg, spki}`.
 * @example parseEnrolment(await store.get(ENROLMENT_KEY))
 */
export function parseEnrolment(value: unknown): PublicKeyRecord | null {
  try {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
    const { v, credentialId, alg, spki, ...rest } = value as Record<string, unknown>;
    if (v !== 1 || Object.keys(rest).length || typeof alg !== 'number' || !SUPPORTED_ALGORITHMS.includes(alg)) return null;
    if (typeof credentialId !== 'string' || typeof spki !== 'string' || !credentialId || !spki) return null;
    fromBase64Url(credentialId);
    fromBase64Url(spki);
    return { credentialId, alg, spki };
  } catch {
    return null;
  }
}

/** A small asynchronous key-value store for consent records. Values are plain, cloneable data. */
export interface ConsentStore {
  /** The value kept under `key`, or undefined. Never rejects: an unreadable store reads as empty. */
  get(key: string): Promise<unknown>;
  /** Keeps `value` under `key`. Never rejects: where the store refuses, the value lasts as long as the page. */
  set(key: string, value: unknown): Promise<void>;
  /** Removes `key`. Never rejects. */
  delete(key: string): Promise<void>;
}

/** The database and object store of {@link createIndexedDbConsentStore}. */
export const CONSENT_DB = { name: 'ai-ops-consent', store: 'records', version: 1 } as const;

/**
 * A store that keeps its values in memory only: for a page without IndexedDB, and for tests.
 * @example const store = createMemoryConsentStore(); await store.set('k', 1);
 */
export function createMemoryConsentStore(): ConsentStore {
  const values = new Map<string, unknown>();
  return {
    get: async (key) => values.get(key),
    set: async (key, value) => void values.set(key, structuredClone(value)),
    delete: async (key) => void values.delete(key),
  };
}

/** A request's result as a promise. */
function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * The page's consent store on IndexedDB (database {@link CONSENT_DB}). Where IndexedDB is missing
 * or refuses (a private window that forbids it, a quota), every value is kept in memory as well, so
 * that the page loses nothing while it is open; a later page then finds nothing and asks again.
 * @example const store = createIndexedDbConsentStore(window);
 */
export function createIndexedDbConsentStore(win: Window): ConsentStore {
  const memory = createMemoryConsentStore();
  let opening: Promise<IDBDatabase | null> | null = null;
  const open = () => (opening ??= (async () => {
    try {
      const request = win.indexedDB.open(CONSENT_DB.name, CONSENT_DB.version);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(CONSENT_DB.store)) request.result.createObjectStore(CONSENT_DB.store);
      };
      const db = await done(request);
      // Another tab deleting the database (or clearing site data) closes this connection: reopen next time.
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      db.onclose = () => {
        opening = null;
      };
      return db;
    } catch {
      return null;
    }
  })());
  const run = async <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T | undefined> => {
    const db = await open();
    if (!db) return undefined;
    try {
      const transaction = db.transaction(CONSENT_DB.store, mode);
      const result = done(work(transaction.objectStore(CONSENT_DB.store)));
      await new Promise<void>((resolve, reject) => {
        transaction.oncomplete = () => resolve();
        transaction.onerror = transaction.onabort = () => reject(transaction.error);
      });
      return await result;
    } catch {
      opening = null;
      return undefined;
    }
  };
  return {
    async get(key) {
      // What this page itself kept stands in where IndexedDB refused it or cannot be read.
      return (await run('readonly', (store) => store.get(key))) ?? memory.get(key);
    },
    async set(key, value) {
      await memory.set(key, value);
      await run('readwrite', (store) => store.put(value, key));
    },
    async delete(key) {
      await memory.delete(key);
      await run('readwrite', (store) => store.delete(key));
    },
  };
}

/**
 * The page's consent store: IndexedDB where the window has it, else memory (the page's life only).
 * @example const store = defaultConsentStore(window);
 */
export function defaultConsentStore(win: Window): ConsentStore {
  return typeof win.indexedDB === 'object' && win.indexedDB ? createIndexedDbConsentStore(win) : createMemoryConsentStore();
}
