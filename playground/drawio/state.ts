/**
 * The draw.io page's state: the open diagram (saved in IndexedDB) as its XML string — the source
 * of truth the preview renders from — and the page's 「元に戻す」 (demo/shared/document-state.ts).
 * Implements the draw.io adapter and hands the operations to the runtime at module initialisation
 * (SHAPE-5).
 * @module
 */
import { provideOperations } from '../../src/index.js';
import type { DrawioToolAdapter } from '../../tools/drawio/adapter.js';
import { createDrawioOperations } from '../../tools/drawio/operations.js';
import type { OpenDocument } from '../../tools/shared.js';
import { createDocumentState, type DocumentChange, type TextDocument } from '../shared/document-state.js';
import { checkDiagram } from './diagram.js';
import { BLANK_XML, WELCOME_NAME, WELCOME_XML } from './sample.js';

export { WELCOME_ID } from '../shared/document-state.js';

/** A saved diagram: the whole draw.io XML, an uncompressed `<mxfile>` or `<mxGraphModel>`. */
export type Diagram = TextDocument<'xml'>;

/** What changed, for subscribers: 'xml' for content changes, 'document' when a diagram was opened or renamed. */
export type DrawioChange = DocumentChange<'xml'>;

const state = createDocumentState({
  storeName: 'ai-ops-drawio',
  field: 'xml',
  idPrefix: 'diagram',
  welcome: { name: WELCOME_NAME, text: WELCOME_XML },
  blank: () => BLANK_XML,
  // Only a diagram (well-formed, `<mxfile>` or `<mxGraphModel>`) is accepted; the editor keeps
  // anything else to itself and shows why.
  check(xml) {
    const checked = checkDiagram(xml);
    if (!checked.ok) throw new Error(checked.message);
  },
});

/** The draw.io page's state, read by the UI and the adapter. */
export const drawio = {
  /** The open diagram, or null while loading. */
  get diagram(): Readonly<Diagram> | null {
    return state.document;
  },
  get error() {
    return state.error;
  },
  get canUndo() {
    return state.canUndo;
  },
  get persistent() {
    return state.persistent;
  },
  subscribe: state.subscribe,
  open: state.open,
  create: state.create,
  list: state.list,
  rename: state.rename,
  undo: state.undo,
  flush: state.flush,
  /** Replaces the open diagram's XML. */
  setXml: state.setText,
};

/** The adapter the draw.io operations read on every call (DEF-6). */
export const drawioAdapter: DrawioToolAdapter = {
  getOpenDocument: (): OpenDocument | null => {
    const diagram = state.document;
    return diagram ? { id: diagram.id, name: diagram.name } : null;
  },
  getXml: () => state.document?.xml ?? '',
  setXml: (xml) => drawio.setXml(xml, 'agent'),
  // The page's 「元に戻す」 restores a diagram an agent replaced or added to, so the dialog says so (CONF-2).
  undoRestoresAgentChanges: true,
};

provideOperations('drawio', createDrawioOperations(drawioAdapter));
