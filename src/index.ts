/**
 * ai-ops: what a page author needs (SHAPE-1, PKG-3) — hand operations to the runtime, describe
 * them, answer envelopes, and reuse the shared limits and file schemas. The runtime's building
 * blocks (sessions, stores, the relay connector) are under `ai-ops/internals`.
 * @example
 * import { provideOperations, defineOperation, succeed } from 'ai-ops';
 * provideOperations('notes', [defineOperation({
 *   name: 'notes_read', description: 'The note.',
 *   inputSchema: { type: 'object', properties: {}, additionalProperties: false },
 *   execute: async () => succeed({ text: 'hello' }),
 * })]);
 * @module
 */
// Hand operations over.
export { provideOperations, configureAiOps, getAiOps, createAiOps } from './runtime.js';
export type { AiOps, AiOpsOptions } from './runtime.js';
export type { RelayOptions, RelayConnector } from './relay-connection.js';
export type { ToolSession, ToolSessionState, SessionStatus } from './tool-session.js';
export type { ConfirmationQueue, ConfirmationState, ConfirmationRequest } from './confirmation-queue.js';
export type { OperationLog, LogEntry, LogStatus } from './operation-log.js';
export type { Clock } from './clock.js';
export { isEmbedded } from './embedding.js';

// Describe them.
export { defineOperation } from './definition.js';
export type {
  OperationDefinition, AnyOperationDefinition, ConfirmationContent, OperationAnnotations, InputSchema, InputOf,
  CallContext, PrepareContext,
} from './definition.js';

// Answer.
export { ErrorCode, fail, succeed, isFailure, isSuccess, describeError } from './result.js';
export type { OperationFailure, OperationSuccess, OperationResult } from './result.js';

// Limits and file schemas shared by the tools.
export {
  MAX_TEXT_BYTES, MAX_OUTPUT_CHARS, MAX_LIST_ENTRIES, MAX_SQL_ROWS, TIMEOUT_MS,
  utf8ByteLength, textSchema, timeoutSchema, stripTerminalControls, tail, head,
} from './limits.js';
export { listFilesSchema, readFileSchema, writeFileSchema, deleteFileSchema, resolveRelativePath } from './files.js';
export type { FileEntry } from './files.js';

// Page state a React or Lit page reads with the same contract as the runtime's stores.
export { createStore } from './store.js';
export type { ReadableStore, WritableStore } from './store.js';
