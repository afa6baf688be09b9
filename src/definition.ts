/**
 * The operation definition type of the design doc (DEF-1), and `defineOperation`, which infers the
 * input type of `check`, `confirmation` and `execute` from the `inputSchema` literal.
 * @module
 */
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

/**
 * A JSON Schema as definitions write it: a plain object literal. Our one extension is `maxBytes`,
 * a UTF-8 byte cap on a string (IN-4), published to agents as `maxLength`.
 */
export type InputSchema = { readonly [keyword: string]: unknown };

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type ObjectOf<S> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P as K extends RequiredOf<S> ? K : never]: InputOf<P[K]> } &
      { -readonly [K in keyof P as K extends RequiredOf<S> ? never : K]?: InputOf<P[K]> }
    >
  : Record<string, never>;

type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

/**
 * The input type a schema literal describes, for the subset of JSON Schema definitions use:
 * `type` (string, integer, number, boolean, null, array with `items`, object with `properties` and
 * `required`), `const`, `enum`, `anyOf`/`oneOf`. Kept small on purpose: a general JSON Schema type
 * mapper made the type checker run out of memory on the 23 definitions.
 * @example
 * type In = InputOf<{ type: 'object'; properties: { path: { type: 'string' } }; required: ['path'] }>;
 * // { path: string }
 */
export type InputOf<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly anyOf: readonly (infer A)[] }
      ? InputOf<A>
      : S extends { readonly oneOf: readonly (infer A)[] }
        ? InputOf<A>
        : S extends { readonly type: 'string' }
          ? string
          : S extends { readonly type: 'integer' | 'number' }
            ? number
            : S extends { readonly type: 'boolean' }
              ? boolean
              : S extends { readonly type: 'null' }
                ? null
                : S extends { readonly type: 'array'; readonly items: infer I }
                  ? InputOf<I>[]
                  : S extends { readonly type: 'array' }
                    ? unknown[]
                    : S extends { readonly type: 'object' }
                      ? ObjectOf<S>
                      : unknown;

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
