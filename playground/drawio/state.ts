/**
 * The draw.io page's state: the open diagram (saved in IndexedDB) as its XML string — the source
 * of truth the preview renders from — and the page's 「元に戻す」 (playground/shared/document-state.ts).
 * Implements the draw.io adapter and hands the operations to the runtime when the page is first
 * shown ({@link bootDrawio}, SHAPE-5); the diagram outlives the page's component.
 * @module
 */
import { provideOperations } from 'ai-ops';
import { createDrawioOperations, type DrawioToolAdapter } from 'ai-ops/tools/drawio';
import { createDocumentState } from '../shared/document-state.js';
import { once } from '../shared/once.js';
import { checkDiagram } from './diagram.js';
import { BLANK_XML, WELCOME_NAME, WELCOME_XML } from './sample.js';

/**
 * The draw.io page's diagrams, read by the UI and the adapter. A diagram's text (`xml`) is the whole
 * draw.io XML, an `<mxfile>` (its pages possibly compressed) or an `<mxGraphModel>`.
 */
export const drawio = createDocumentState({
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

/** The adapter the draw.io operations read on every call (DEF-6). */
export const drawioAdapter: DrawioToolAdapter = {
  getOpenDocument: drawio.openDocument,
  getXml: () => drawio.document?.xml ?? '',
  setXml: (xml) => drawio.setText(xml, 'agent'),
  getRevision: () => drawio.revision,
  // The page's 「元に戻す」 restores a diagram an agent replaced or added to, as the log's does (CONF-2).
  undoRestoresAgentChanges: true,
};

/** Hands the operations over, once per document. */
export const bootDrawio = once(() => provideOperations('drawio', createDrawioOperations(drawioAdapter)));
