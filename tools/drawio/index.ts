/**
 * `ai-ops/tools/drawio`: the drawio tool's definitions factory, its input schemas, and the adapter
 * types a drawio page implements (PKG-3).
 * @module
 */
export * from './operations.js';
export type * from './adapter.js';
// The XML helpers a draw.io page needs to check and render what it shows (the playground's page).
export { parseXml, inflateDiagramText } from './xml.js';
