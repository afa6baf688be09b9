/**
 * `ai-ops/tools/slides`: the slides tool's definitions factory, its input schemas, and the adapter
 * types a slides page implements (PKG-3).
 * @module
 */
export * from './operations.js';
export type * from './adapter.js';
