/**
 * `ai-ops`, for page authors (SHAPE-1, PKG-3): hand a page's operations to the runtime, describe
 * them, answer envelopes, and read the runtime's stores. Nothing else: the kit for writing tools
 * (limits, file schemas and operations, the document guard, the conformance kit) is `ai-ops/tools`,
 * the six tools are `ai-ops/tools/<tool>`, the elements are `ai-ops/elements/define.js` (or
 * `ai-ops/react`), and the runtime's building blocks are `ai-ops/internals`. At most 30 names,
 * types included (test/node/exports.test.mjs pins them).
 * @example
 * import { provideOperations, defineOperation, succeed } from 'ai-ops';
 * provideOperations('notes', [defineOperation({
 *   name: 'notes_read', description: 'The note.',
 *   inputSchema: { type: 'object', properties: {}, additionalProperties: false },
 *   execute: async () => succeed({ text: 'hello' }),
 * })]);
 * @module
 */
// Hand operations over, and the runtime they go to.
export { provideOperations, configureAiOps, getAiOps, createAiOps } from './runtime.js';
export type { AiOps, AiOpsOptions } from './runtime.js';
export type { ToolSession, ToolSessionState, SessionStatus } from './tool-session.js';

// Describe them.
export { defineOperation } from './definition.js';
export type {
  OperationDefinition, AnyOperationDefinition, ConfirmationContent, OperationAnnotations, InputSchema, InputOf,
  CallContext, PrepareContext, UndoStep, UndoableResult,
} from './definition.js';

// Answer.
export { ErrorCode, fail, succeed, isFailure } from './result.js';
export type { OperationFailure, OperationSuccess, OperationResult } from './result.js';

// Page state a React or Lit page reads with the same contract as the runtime's stores.
export { createStore } from './store.js';
export type { ReadableStore, WritableStore } from './store.js';
