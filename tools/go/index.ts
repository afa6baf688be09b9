/**
 * `ai-ops/tools/go`: the go tool's definitions factory, its input schemas, and the adapter
 * types a go page implements (PKG-3).
 * @module
 */
export * from './operations.js';
export type * from './adapter.js';
