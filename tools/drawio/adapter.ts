/**
 * What the draw.io page hands to {@link createDrawioOperations}: the open diagram's XML, which the
 * page keeps as its source of truth (it renders a preview from it, e.g. with `@maxgraph/core`).
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
  /** True when the page's 「元に戻す」 restores a change an agent made (CONF-2). Default false. */
  readonly undoRestoresAgentChanges?: boolean;
}
