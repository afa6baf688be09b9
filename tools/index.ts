/**
 * The six tools' definitions modules (SHAPE-3): each exports one factory that takes the tool's
 * adapter (its state readers and runners) and returns its definitions, and the adapter types a
 * tool page implements. Nothing here holds state.
 * @example
 * import { provideOperations } from 'ai-ops';
 * import { createSqlOperations } from 'ai-ops/tools';
 * provideOperations('sql', createSqlOperations(sqlAdapter));
 * @module
 */
export { createNodeOperations, nodeInputSchemas, runCommandSchema, NODE_COMMAND_LIMITS } from './node/operations.js';
export type {
  NodeToolAdapter, NodeRuntimeLike, NodeRunRequest, NodeRunOutcome, NodeTreeStore, NodeTreeEntry,
  NodeReadResult, NodeChangeResult, NodeFileFailure, NodeFileErrorCode, NodeExcludeRules,
} from './node/adapter.js';
export { createExcludeMatcher } from './node/exclude.js';

export { createSqlOperations, sqlInputSchemas, runQuerySchema } from './sql/operations.js';
export type {
  SqlToolAdapter, SqlRunOutcome, SqlRunEnd, SqlEngineStatus, SqlStatementResultLike, SqlFieldLike, SqlErrorLike,
} from './sql/adapter.js';

export { createGoOperations, goInputSchemas, goRunSchema } from './go/operations.js';
export type { GoToolAdapter, GoFilesModule, GoFileEntry, GoRunOutcome, GoRunMode, GoRunnerStatus } from './go/adapter.js';

export { createSlidesOperations, slidesWriteSchema } from './slides/operations.js';
export type { SlidesSetThemeSchema } from './slides/operations.js';
export type { SlidesToolAdapter } from './slides/adapter.js';

export {
  createExcalidrawOperations, excalidrawInputSchemas, newElementSchema, addElementsSchema, updateElementSchema,
  MAX_NEW_ELEMENTS, COLOR_PATTERN, BACKGROUND_COLOR_PATTERN,
} from './excalidraw/operations.js';
export type { ExcalidrawOperationsOptions } from './excalidraw/operations.js';
export type {
  ExcalidrawToolAdapter, ExcalidrawElementLike, ElementToAdd, ElementPatch, NewElementType,
} from './excalidraw/adapter.js';

export { createDrawioOperations, drawioInputSchemas, addCellsSchema, drawioWriteSchema } from './drawio/operations.js';
export type { DrawioToolAdapter } from './drawio/adapter.js';

export { createFileOperations } from './files.js';
export type { FileStore, FileOperationsOptions, PathKind } from './files.js';

export { RELAY_WAIT_NOTE, createDocumentGuard, emptyInputSchema } from './shared.js';
export type { OpenDocument, DocumentContext } from './shared.js';
export { toolConformanceOptions } from './conformance-options.js';
export { runAnswer, outputFields, createEngineGuard } from './run.js';
export type { RunOutcome, RunRequest, RunOutput, RunWording } from './run.js';
