/**
 * `ai-ops/internals`: the runtime's building blocks, for tests, other element sets and tooling —
 * not for pages (they use `ai-ops`). No compatibility promise: these change with the runtime.
 * The call path (compileOperation, runCall) is here too; the runtime itself loads it on demand
 * (PKG-4), so importing this entry is what a page never does.
 * @example
 * import { createPermissionStore, systemClock } from 'ai-ops/internals';
 * const permission = createPermissionStore({ tool: 'notes', storage: localStorage, clock: systemClock });
 * @module
 */
export { createToolSession } from './tool-session.js';
export { createPermissionStore, permissionKey, parseStoredPermission, PERMISSION_TTL_MS } from './permission-store.js';
export type { PermissionStore, PermissionState, StoredPermission } from './permission-store.js';
export { createConfirmationQueue, CONFIRMATION_DEADLINE_MS } from './confirmation-queue.js';
export type {
  ConfirmationQueue, ConfirmationState, ConfirmationRequest, ConfirmationAnswer, ConfirmationRequestInit, ApproveOptions,
} from './confirmation-queue.js';
export type { PageCapabilities, PageDecisions, PageRelay, PageVerification } from './capabilities.js';
export { createOperationLog, LOG_LIMIT } from './operation-log.js';
export type { OperationLog, LogEntry, LogStatus, SignedInput, UndoState, CallVia } from './operation-log.js';
export { createUndoKeeper, describeLaterChanges, UNDO_BUDGET_BYTES } from './undo-keeper.js';
export type { UndoKeeper, UndoKeeperDeps, UndoAnswer } from './undo-keeper.js';
export { auditFileName, auditLine, auditRecord } from './audit-export.js';
export type { AuditLine } from './audit-export.js';
export { describeCall } from './log-entry.js';
export { statusOf } from './log-format.js';
export { createDomScriptLoader } from './script-loader.js';
export type { ScriptLoader } from './script-loader.js';
export { installToolsChangedShim, toCallToolResult } from './model-context.js';
export type { CallToolResult, ModelContextLike, ModelContextTool } from './model-context.js';
export { createRelayConnector } from './relay-connection.js';
export type { RelayOptions, RelayConnector } from './relay-connection.js';
export { systemClock } from './clock.js';
export type { Clock, TimerHandle } from './clock.js';
export { isEmbedded } from './embedding.js';
export { isValidName } from './definition.js';
export { compileOperation, runCall, serialize } from './pipeline.js';
export type { CallHooks, CallOptions, CompiledOperation, CallOutcome } from './pipeline.js';
