/**
 * The saved drawings of the Excalidraw page, in IndexedDB (through shared/documents.ts and the
 * playground's one helper, shared/idb.ts): one record per drawing, keyed by its id (the page's
 * `?doc=`). The database and store names are the ones the page always used, so saved drawings
 * still open. No Excalidraw import: the elements are stored as Excalidraw gives them.
 * @module
 */
import { openDocumentStore, type SavedDocument } from '../shared/documents.js';

/** The database and its one object store. */
export const DB_NAME = 'ai-ops-excalidraw';
export const STORE = 'drawings';

/** A saved drawing. */
export interface DrawingRecord extends SavedDocument {
  /** Excalidraw's elements (not deleted ones), as `getSceneElements()` returns them. */
  elements: readonly unknown[];
  /** Excalidraw's `BinaryFiles` (images), by file id. */
  files: Record<string, unknown>;
  /** True until the sample has been put into a new `welcome` drawing. */
  needsSample?: boolean;
}

const drawings = openDocumentStore<DrawingRecord>(DB_NAME, { storeName: STORE });

/** The drawing with this id, or undefined. */
export function loadDrawing(id: string): Promise<DrawingRecord | undefined> {
  return drawings.get(id);
}

/** Writes (replaces) a drawing. */
export function saveDrawing(record: DrawingRecord): Promise<void> {
  return drawings.put(record);
}

/** Every saved drawing's id and name, most recently saved first (the page's 「開く」). */
export function listDrawings(): Promise<SavedDocument[]> {
  return drawings.list();
}
