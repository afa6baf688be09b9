/**
 * The draw.io page's state: the open diagram (saved in IndexedDB) as its XML string — the source
 * of truth the preview renders from — and the page's 「元に戻す」. Implements the draw.io adapter and
 * hands the operations to the runtime at module initialisation (SHAPE-5).
 * @module
 */
import { provideOperations } from '../../src/index.js';
import type { DrawioToolAdapter } from '../../tools/drawio/adapter.js';
import { createDrawioOperations } from '../../tools/drawio/operations.js';
import type { OpenDocument } from '../../tools/shared.js';
import { checkDiagram } from './diagram.js';
import { DOCUMENT_ID, newDocumentId, openDocumentStore, type DocumentStore, type SavedDocument } from '../shared/documents.js';
import { createUndoHistory, type ChangeSource } from '../shared/history.js';
import { BLANK_XML, WELCOME_NAME, WELCOME_XML } from './sample.js';

/** A saved diagram. */
export interface Diagram extends SavedDocument {
  /** The whole draw.io XML: an uncompressed `<mxfile>` or `<mxGraphModel>`. */
  xml: string;
}

/** What changed, for subscribers. */
export interface DrawioChange {
  source: ChangeSource;
  /** 'xml' for content changes, 'document' when a diagram was opened or renamed. */
  kind: 'xml' | 'document';
}

/** The id a page without `?doc=` opens. */
export const WELCOME_ID = 'welcome';

/** How long an edit waits before it is saved. */
const SAVE_DELAY_MS = 300;

let store: DocumentStore<Diagram> | null = null;
let diagram: Diagram | null = null;
let error: string | null = null;
const history = createUndoHistory();
const listeners = new Set<(change: DrawioChange) => void>();
let saveTimer: ReturnType<typeof setTimeout> | undefined;

function emit(change: DrawioChange): void {
  for (const listener of [...listeners]) listener(change);
}

async function getStore(): Promise<DocumentStore<Diagram>> {
  store ??= await openDocumentStore<Diagram>('ai-ops-drawio');
  return store;
}

async function saveNow(): Promise<void> {
  clearTimeout(saveTimer);
  saveTimer = undefined;
  if (!diagram) return;
  diagram.updatedAt = Date.now();
  await (await getStore()).put({ ...diagram });
}

function saveSoon(): void {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    saveNow().catch((cause: unknown) => {
      error = `保存できませんでした: ${cause instanceof Error ? cause.message : String(cause)}`;
      emit({ source: 'load', kind: 'document' });
    });
  }, SAVE_DELAY_MS);
}

/** The draw.io page's state, read by the UI and the adapter. */
export const drawio = {
  /** The open diagram, or null while loading. */
  get diagram(): Readonly<Diagram> | null {
    return diagram;
  },
  /** Why the diagram could not be opened or saved, if it could not. */
  get error(): string | null {
    return error;
  },
  /** Whether 「元に戻す」 has something to restore. */
  get canUndo(): boolean {
    return history.size > 0;
  },
  /** True when documents are kept across reloads (IndexedDB works). */
  get persistent(): boolean {
    return store?.persistent ?? true;
  },
  subscribe(listener: (change: DrawioChange) => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  /** Opens the diagram `id`, creating it on first use (`welcome` gets the sample diagram). */
  async open(id: string): Promise<void> {
    const wanted = DOCUMENT_ID.test(id) ? id : WELCOME_ID;
    const documents = await getStore();
    let found = await documents.get(wanted);
    if (!found) {
      found = wanted === WELCOME_ID
        ? { id: wanted, name: WELCOME_NAME, xml: WELCOME_XML, updatedAt: Date.now() }
        : { id: wanted, name: wanted, xml: BLANK_XML, updatedAt: Date.now() };
      await documents.put(found);
    }
    diagram = found;
    history.clear();
    emit({ source: 'load', kind: 'document' });
  },

  /** Creates a new, blank diagram and returns its id (the page then navigates to `?doc=<id>`). */
  async create(name: string): Promise<string> {
    const id = newDocumentId('diagram');
    await (await getStore()).put({ id, name, xml: BLANK_XML, updatedAt: Date.now() });
    return id;
  },

  /** The saved diagrams, for the page's 「開く」 list. */
  async list(): Promise<SavedDocument[]> {
    return (await getStore()).list();
  },

  /** Renames the open diagram (an empty name is ignored). */
  async rename(name: string): Promise<void> {
    const trimmed = name.trim();
    if (!diagram || trimmed === '' || trimmed === diagram.name) return;
    diagram.name = trimmed;
    emit({ source: 'user', kind: 'document' });
    await saveNow();
  },

  /**
   * Replaces the open diagram's XML. Only a diagram (well-formed, `<mxfile>` or `<mxGraphModel>`)
   * is accepted; the editor keeps anything else to itself and shows why. A person's edits are
   * saved shortly after; other changes before this resolves.
   */
  async setXml(xml: string, source: ChangeSource): Promise<void> {
    if (!diagram) throw new Error('no diagram is open');
    const checked = checkDiagram(xml);
    if (!checked.ok) throw new Error(checked.message);
    if (xml === diagram.xml) return;
    history.record(diagram.xml, source);
    diagram.xml = xml;
    emit({ source, kind: 'xml' });
    if (source === 'typing') saveSoon();
    else await saveNow();
  },

  /** 「元に戻す」: back to the XML before the last change, an agent's included. */
  async undo(): Promise<void> {
    const previous = history.pop();
    if (previous === undefined || !diagram) return;
    await this.setXml(previous, 'undo');
  },

  /** Saves a pending edit at once (the page calls it when it is hidden). */
  flush(): Promise<void> {
    return saveTimer === undefined ? Promise.resolve() : saveNow();
  },
};

/** The adapter the draw.io operations read on every call (DEF-6). */
export const drawioAdapter: DrawioToolAdapter = {
  getOpenDocument: (): OpenDocument | null => (diagram ? { id: diagram.id, name: diagram.name } : null),
  getXml: () => diagram?.xml ?? '',
  setXml: (xml) => drawio.setXml(xml, 'agent'),
  // The page's 「元に戻す」 restores a diagram an agent replaced or added to (history.ts), so the dialog says so (CONF-2).
  undoRestoresAgentChanges: true,
};

provideOperations('drawio', createDrawioOperations(drawioAdapter));
