/**
 * `ai-ops/tools/sql`: the sql tool's definitions factory, its input schemas, and the adapter
 * types a sql page implements (PKG-3).
 * @module
 */
export * from './operations.js';
export type * from './adapter.js';
