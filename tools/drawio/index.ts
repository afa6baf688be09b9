/**
 * `ai-ops/tools/drawio`: the drawio tool's definitions factory, its input schemas, and the adapter
 * types a drawio page implements (PKG-3).
 * @module
 */
export * from './operations.js';
export type * from './adapter.js';
