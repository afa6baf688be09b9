/**
 * `ai-ops/tools/excalidraw`: the excalidraw tool's definitions factory, its input schemas, and the adapter
 * types a excalidraw page implements (PKG-3).
 * @module
 */
export * from './operations.js';
export type * from './adapter.js';
