/**
 * Options for the conformance kit (src/conformance.ts) that fit the six tools' operations: how to
 * make a valid value of exactly 1 MB for the fields whose content has a syntax (XML, SQL), so that
 * the kit's "exactly 1 MB is accepted" case is not refused for the filler's sake.
 * @module
 */
import type { ConformanceOptions } from '../src/conformance.js';

/**
 * Pass to `checkConformance(definitions, toolConformanceOptions)` for any of the six tools.
 * @example await assertConformance(createDrawioOperations(adapter), toolConformanceOptions);
 */
export const toolConformanceOptions: ConformanceOptions = {
  wrapText: {
    // An XML comment keeps the cells well-formed whatever the filler; the id is unlikely to exist.
    'drawio_add_cells.cells': (filler) => `<mxCell id="ai-ops-conformance-cell" vertex="1"/><!--${filler}-->`,
    'drawio_write.xml': (filler) => `<mxGraphModel><root><mxCell id="0"/></root></mxGraphModel><!--${filler}-->`,
    // A comment only: valid SQL that changes nothing.
    'sql_run_query.sql': (filler) => `-- ${filler}`,
  },
};
