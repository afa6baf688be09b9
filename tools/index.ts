/**
 * `ai-ops/tools`, for tool authors (SHAPE-3, PKG-3): what every tool's definitions are built from —
 * the shared limits and their schemas, the file schemas and the file operations over a page's
 * `FileStore`, the open-document guard, and the conformance kit with the options that fit the
 * six tools. Each tool's own factory, schemas and adapter types are its own entry,
 * `ai-ops/tools/<tool>` (tools/<tool>/index.ts): a seventh tool is its operations.ts, its
 * adapter.ts and that entry, nothing here.
 * @example
 * import { provideOperations } from 'ai-ops';
 * import { createFileOperations, assertConformance, toolConformanceOptions } from 'ai-ops/tools';
 * const definitions = createFileOperations({ tool: 'notes', store: () => notesFiles, wording });
 * await assertConformance(definitions, toolConformanceOptions);
 * provideOperations('notes', definitions);
 * @module
 */
// Limits every tool shares, and the schemas and text helpers that apply them.
export {
  MAX_TEXT_BYTES, MAX_OUTPUT_CHARS, MAX_LIST_ENTRIES, MAX_SQL_ROWS, TIMEOUT_MS,
  utf8ByteLength, textSchema, timeoutSchema, stripTerminalControls, tail, head,
} from '../src/limits.js';
export { isSuccess, describeError } from '../src/result.js';

// Files: the schemas, path resolution, and the four operations over a page's file store.
export { listFilesSchema, readFileSchema, writeFileSchema, deleteFileSchema, resolveRelativePath } from '../src/files.js';
export type { FileEntry } from '../src/files.js';
export { createFileOperations } from './files.js';
export type { FileStore, FileOperationsOptions, PathKind } from './files.js';

// Operations on the page's open document.
export { RELAY_WAIT_NOTE, createDocumentGuard, emptyInputSchema } from './shared.js';
export type { OpenDocument, DocumentContext } from './shared.js';

// What runs something (sql, go, node): one outcome type, one answer, one engine guard.
export { runAnswer, outputFields, createEngineGuard } from './run.js';
export type { RunOutcome, RunRequest, RunOutput, RunWording } from './run.js';

// The conformance kit, and its options for the six tools' fields that have a syntax.
export { checkConformance, assertConformance, conformanceCases, ConformanceError } from '../src/conformance.js';
export type {
  ConformanceCase, ConformanceExpectation, ConformanceOptions, ConformanceProblem, ConformanceReport,
} from '../src/conformance.js';
export { toolConformanceOptions } from './conformance-options.js';
