/**
 * ai-ops: the framework-free operations runtime (SHAPE-1).
 * @module
 */
export { ErrorCode, fail, succeed, isFailure, isSuccess, serialize, describeError } from './result.js';
export type { OperationFailure, OperationSuccess, OperationResult } from './result.js';
export { ToolName, defineOperation, isValidName } from './definition.js';
export type {
  OperationDefinition, AnyOperationDefinition, ConfirmationContent, OperationAnnotations, InputSchema, InputOf,
  CallContext, PrepareContext,
} from './definition.js';
export {
  MAX_TEXT_BYTES, MAX_OUTPUT_CHARS, MAX_LIST_ENTRIES, MAX_SQL_ROWS, TIMEOUT_MS,
  utf8ByteLength, textSchema, timeoutSchema, stripTerminalControls, tail, head,
} from './limits.js';
export { listFilesSchema, readFileSchema, writeFileSchema, deleteFileSchema, resolveRelativePath } from './files.js';
export type { FileEntry } from './files.js';
// The call path (runCall, compileOperation, the validator) is loaded on demand by the sessions;
// import it directly from 'ai-ops/call' when you need it (tests, the conformance kit).
export type { CallHooks, CallOptions, CompiledOperation, CallOutcome } from './call.js';
export { createStore } from './store.js';
export type { ReadableStore, WritableStore } from './store.js';
export { systemClock } from './clock.js';
export type { Clock } from './clock.js';
export { isEmbedded } from './embedding.js';
export { createPermissionStore, permissionKey, parseStoredPermission, PERMISSION_TTL_MS } from './permission-store.js';
export type { PermissionStore, PermissionState, StoredPermission } from './permission-store.js';
export { createConfirmationQueue, CONFIRMATION_DEADLINE_MS } from './confirmation-queue.js';
export type { ConfirmationQueue, ConfirmationRequest, ConfirmationRequestInit, ConfirmationState, ConfirmationAnswer } from './confirmation-queue.js';
export { createOperationLog, statusOf, LOG_LIMIT } from './operation-log.js';
export type { OperationLog, LogEntry, LogStatus } from './operation-log.js';
export { createDomScriptLoader } from './script-loader.js';
export type { ScriptLoader } from './script-loader.js';
export { installToolsChangedShim, toCallToolResult } from './model-context.js';
export type { CallToolResult, ModelContextLike, ModelContextTool } from './model-context.js';
export { createRelayConnector } from './relay-connection.js';
export type { RelayConnector, RelayOptions } from './relay-connection.js';
export { createToolSession } from './tool-session.js';
export type { ToolSession, ToolSessionState, SessionStatus } from './tool-session.js';
export { createAiOps, configureAiOps, getAiOps, provideOperations } from './runtime.js';
export type { AiOps, AiOpsOptions } from './runtime.js';
