/**
 * `ai-ops/tools/node`: the node tool's definitions factory, its input schemas, and the adapter
 * types a node page implements (PKG-3).
 * @module
 */
export * from './operations.js';
export * from './exclude.js';
export type * from './adapter.js';
