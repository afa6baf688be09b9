/**
 * What the draw.io page hands to {@link createDrawioOperations}: the open diagram's XML, which the
 * page keeps as its source of truth (it renders a preview from it, e.g. with `@maxgraph/core`). The
 * log's 「元に戻す」 of a change puts back the XML read just before it (UNDO-1).
 * @module
 */
import type { OpenDocument } from '../shared.js';

/** What the draw.io page passes to {@link createDrawioOperations}. Read on every call (DEF-6). */
export interface DrawioToolAdapter {
  /** The diagram open in the page, or null while the tool loads or nothing is open (DOC-1). */
  getOpenDocument(): OpenDocument | null;
  /** The open diagram's whole XML: an `<mxfile>` (its pages compressed or not) or an `<mxGraphModel>`. */
  getXml(): string;
  /** Replaces the open diagram's whole XML, as an edit in the page would. */
  setXml(xml: string): void | Promise<void>;
  /**
   * The open diagram's revision: a value that changes whenever its XML changes, by anyone (the
   * user's edit, an agent, an undo). The log's 「元に戻す」 compares it with the one a call left, to
   * say that a later change goes too (UNDO-2). Omitted: only logged calls are known.
   */
  getRevision?(): number | string;
  /**
   * True when the page's own 「元に戻す」 restores a change an agent made. The operations' dialog
   * says the change can be undone in any case: the log's 「元に戻す」 puts back the XML as it was
   * (UNDO-5), through `setXml`.
   */
  readonly undoRestoresAgentChanges?: boolean;
}
