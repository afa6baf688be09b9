/**
 * The operation definition type of the design doc (DEF-1), and `defineOperation`, which infers the
 * input type of `check`, `confirmation` and `execute` from the `inputSchema` literal.
 * @module
 */
import type { ExtendedJSONSchema, FromExtendedSchema } from 'json-schema-to-ts';
import type { OperationFailure, OperationResult } from './result.js';

/** The six tools that expose operations; their names prefix the operation names (DEF-2). */
export const ToolName = {
  node: 'node',
  sql: 'sql',
  go: 'go',
  slides: 'slides',
  excalidraw: 'excalidraw',
  drawio: 'drawio',
} as const;

/** One of the six tool names. Pages of other tools may use any `[a-z0-9_]+` name. */
export type ToolName = (typeof ToolName)[keyof typeof ToolName];

/** Our one schema extension: `maxBytes`, a UTF-8 byte cap on a string (IN-4). */
export type SchemaExtension = { maxBytes?: number };

/** A JSON Schema as definitions write it (with the `maxBytes` extension). */
export type InputSchema = ExtendedJSONSchema<SchemaExtension> & object;

/** The input type a schema literal describes. */
export type InputOf<S> = S extends InputSchema ? FromExtendedSchema<SchemaExtension, S> : unknown;

/** What the confirmation dialog shows (CONF-1, CONF-2). */
export type ConfirmationContent = {
  /** The dialog's title, e.g. `ファイル「src/a.go」を削除する`. */
  title: string;
  /** What will happen, in a sentence. */
  summary: string;
  /** The danger button's label, e.g. `削除する`. */
  actionLabel: string;
  /** The full content handed in (markdown, xml), shown in a disclosure. */
  detail?: string;
  /**
   * True when the tool's own 「元に戻す」 restores the agent's change; the dialog then says so
   * instead of saying that it cannot be undone (CONF-2). [adapted]
   */
  undoable?: boolean;
};

/** Hints passed to `registerTool` (DEF-4). */
export type OperationAnnotations = {
  readOnlyHint?: boolean;
  untrustedContentHint?: boolean;
  consequentialHint?: boolean;
};

/**
 * One operation (DEF-1). `check` runs before any confirmation (DEF-5) and resolves to a failure or
 * null; only definitions with `confirmation` show a dialog. `check` and `execute` must read the
 * tool's current state on every call (DEF-6).
 */
export interface OperationDefinition<Input = unknown> {
  /** `<tool>_<verb>`, only `[a-z0-9_]` (DEF-2). */
  name: string;
  /** Japanese, says what the operation does (DEF-3). */
  description: string;
  /** Every call is validated against it before `check` (IN-1). */
  inputSchema: InputSchema;
  annotations?: OperationAnnotations;
  check?: (input: Input) => Promise<OperationFailure | null>;
  confirmation?: (input: Input) => ConfirmationContent;
  execute: (input: Input) => Promise<OperationResult>;
}

/** A definition whose input type is erased, as the runtime stores it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperationDefinition = OperationDefinition<any>;

/**
 * Declares an operation whose handlers are typed by its schema: a handler that reads a field the
 * schema lacks does not compile.
 * @example
 * const readQuery = defineOperation({
 *   name: 'sql_read_query',
 *   description: '入力欄の SQL を返す。',
 *   inputSchema: { type: 'object', properties: {}, additionalProperties: false },
 *   execute: async () => succeed({ sql: editor.sql }),
 * });
 */
export function defineOperation<const S extends InputSchema>(
  definition: Omit<OperationDefinition<InputOf<S>>, 'inputSchema'> & { inputSchema: S },
): OperationDefinition<InputOf<S>> {
  return definition;
}

const NAME = /^[a-z0-9_]{1,128}$/;

/** True when `name` may name an operation or a tool (DEF-2). */
export function isValidName(name: string): boolean {
  return NAME.test(name);
}
