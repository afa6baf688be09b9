/**
 * The operation definition type of the design doc (DEF-1), and `defineOperation`, which infers the
 * input type of `prepare`, `confirmation` and `execute` from the `inputSchema` literal and the
 * context type from what `prepare` resolves to.
 * @module
 */
import type { OperationFailure, OperationResult } from './result.js';

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
 * What every step of one call receives besides its input: the call's cancellation signal (NAT-2).
 * The browser's API passes it as `execute(args, { signal })`; a caller that passes none gets a
 * signal that never aborts.
 */
export interface CallContext {
  /** Aborted when the caller cancelled the call; a running engine should stop on it. */
  readonly signal: AbortSignal;
}

/**
 * What `prepare` receives. After the user approved, `prepare` runs again and `confirmed` holds the
 * context the dialog was built from, so it can tell that the document, file or runtime changed
 * while the dialog was up (DOC-1); on the first run it is undefined. Typed `unknown` on purpose:
 * a parameter typed by the context would stop TypeScript inferring the context from what
 * `prepare` returns; narrow it where it is read.
 */
export interface PrepareContext extends CallContext {
  /** The context `confirmation` showed, when this is the run after approval. */
  readonly confirmed?: unknown;
}

/**
 * One operation (DEF-1). `prepare` runs before any confirmation (DEF-5) and resolves to a failure
 * or to a context (what it found: the document, the resolved path, the runtime); `confirmation`
 * builds the dialog from that context; after the user approves, `prepare` runs again (the page
 * may have changed while the dialog was up) and `execute` gets the context of that second run.
 * Without a confirmation `prepare` runs once. Both must read the tool's current state on every
 * call (DEF-6). The pipeline (`pipeline.ts`) owns this order.
 */
export interface OperationDefinition<Input = unknown, Ctx = void> {
  /** `<tool>_<verb>`, only `[a-z0-9_]` (DEF-2). */
  name: string;
  /** Japanese, says what the operation does (DEF-3). */
  description: string;
  /** Every call is validated against it before `prepare` (IN-1). */
  inputSchema: InputSchema;
  annotations?: OperationAnnotations;
  prepare?: (input: Input, call: PrepareContext) => Promise<Ctx | OperationFailure>;
  confirmation?: (input: Input, ctx: Ctx) => ConfirmationContent;
  /**
   * Does the work. A call that changed the user's data may resolve to `{ result, undo }`: the
   * envelope and how to put the change back (UNDO-1, {@link UndoableResult}); the log row keeps the step.
   */
  execute: (input: Input, ctx: Ctx, call: CallContext) => Promise<OperationResult | UndoableResult>;
}

/*
 * The undo contract (UNDO-1..UNDO-4): a changing call may hand back, with its envelope, how to put
 * back what it changed — `execute` resolves to `{ result, undo }` instead of the envelope alone.
 * What a step keeps (a file's previous bytes, the database as it was, the document) is its tool's
 * business, behind the tool's adapter; the runtime's part is only this: the log row of that call
 * owns the step, in memory only, within a byte budget across tools (oldest dropped first), and only
 * the user runs it, from the row (`undo-keeper.ts`). The step never reaches the JSON an agent reads.
 *
 * Why a wrapper rather than a field or a symbol on the envelope: the envelope is serialised as it
 * is (RES-1), and a helper in the page's entry would cost bytes every page pays while its switches
 * are off (PKG-4); the call path (on demand, `pipeline.ts`) unwraps it.
 */

/** What one successful changing call changed, and how to put it back. */
export interface UndoStep {
  /**
   * What the call changed, each as a stable key of the tool's own choosing, e.g. `file:src/a.go`,
   * `database`, `document:3`. Two rows whose targets meet are undone newest first (UNDO-2).
   */
  readonly targets: readonly string[];
  /** About how many bytes the before-state holds in memory, for the budget (UNDO-4). */
  readonly bytes: number;
  /**
   * Puts back what the call changed; rejects (or resolves to a failure envelope) when it could not.
   * May resolve to `{ result, undo }`, as `execute` does, whose `undo` puts back what this undo took
   * away: the undo's own row can then be undone in turn (UV-17).
   */
  undo(): Promise<unknown>;
  /**
   * True when a target changed since the call by something the log does not show (the user's own
   * edit): the undo then says that change goes too (UNDO-2). Omitted: only logged calls are known.
   */
  changedSince?(): boolean | Promise<boolean>;
}

/**
 * What `execute` may resolve to instead of the envelope alone: the envelope, and for a successful
 * call that changed the user's data, how to put it back.
 * @example
 * const old = files.read(path);
 * files.write(path, contents);
 * return { result: succeed({ path }), undo: { targets: [`file:${path}`], bytes: old.length, undo: async () => files.write(path, old) } };
 */
export interface UndoableResult {
  readonly result: OperationResult;
  readonly undo?: UndoStep | null;
}

/** A definition whose input and context types are erased, as the runtime stores it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperationDefinition = OperationDefinition<any, any>;

/**
 * Declares an operation whose handlers are typed by its schema (a handler that reads a field the
 * schema lacks does not compile) and whose context is what `prepare` resolves to, failures aside.
 * @example
 * const readFile = defineOperation({
 *   name: 'go_read_file',
 *   description: 'ファイルの中身を返す。',
 *   inputSchema: readFileSchema,
 *   prepare: async (input) => filePath(input.path),          // a failure, or { ok: true, path }
 *   execute: async (input, { path }) => succeed({ path, contents: files.read(path) }),
 * });
 */
export function defineOperation<const S extends InputSchema, Ctx = void>(
  definition: Omit<OperationDefinition<InputOf<S>, Ctx>, 'inputSchema'> & { inputSchema: S },
): OperationDefinition<InputOf<S>, Ctx> {
  return definition;
}

const NAME = /^[a-z0-9_]{1,128}$/;

/** True when `name` may name an operation or a tool (DEF-2). */
export function isValidName(name: string): boolean {
  return NAME.test(name);
}
