/**
 * Pieces the six definitions modules share and `src/` does not hold: the open-document guard of
 * slides/excalidraw/drawio (DOC-1), the empty and one-text input schemas, the relay-wait sentence of
 * the long-running descriptions (DEF-3), the undo step of a document change (UNDO-1), JSON-safe values. Stateless: nothing here remembers a tool
 * or a call; what one call found travels in its context (`prepare` → `execute`).
 * @module
 */
import type { PrepareContext } from '../src/definition.js';
import { textSchema } from '../src/limits.js';
import { ErrorCode, fail, isFailure, succeed, type OperationFailure, type OperationResult } from '../src/result.js';
import type { UndoableResult, UndoStep } from '../src/definition.js';

/** The input schema of an operation that takes nothing (IN-3): `{}` and nothing else. */
export const emptyInputSchema = { type: 'object', properties: {}, additionalProperties: false } as const;

/**
 * The input schema of an operation that takes one text of up to 1 MB (IN-3, IN-4): the whole
 * Markdown, the whole XML, the cells to add.
 * @example textInputSchema('xml', '図の全体の XML。') // input type { xml: string }
 */
export function textInputSchema<const K extends string, const D extends string>(key: K, description: D) {
  return {
    type: 'object',
    properties: { [key]: textSchema(description) } as { readonly [P in K]: ReturnType<typeof textSchema<D>> },
    required: [key] as readonly [K],
    additionalProperties: false,
  } as const;
}

/**
 * The sentence DEF-3 asks for in the descriptions of the operations that take `timeoutMs`: the MCP
 * SDK waits 60 s by default, so an agent behind the relay may give up on a longer call.
 */
export const RELAY_WAIT_NOTE =
  'MCP の SDK がリクエストを待つ時間は、デフォルトで 60 秒である。relay を通して呼ぶエージェントは、60000 を超える timeoutMs を渡すと、結果を受け取る前に待つのをやめることがある。';

/** The document open in a slides/excalidraw/drawio page (DOC-2). */
export interface OpenDocument {
  /** The saved document's identifier. */
  id: string;
  /** Its name, as the page shows it (and puts into `<title>`, DOC-3). */
  name: string;
}

/** The context of an operation on the open document: the document it acts on. */
export interface DocumentContext {
  readonly document: OpenDocument;
}

/**
 * A context built in two steps, as most `prepare`s are: the first failure, or both parts merged.
 * `more` runs only when `first` succeeded.
 * @example prepare: async (input, call) => extend(openDrawing(call), () => toAdd(input.elements))
 */
export async function extend<A extends object, B extends object>(
  first: A | OperationFailure,
  more: () => B | OperationFailure | Promise<B | OperationFailure>,
): Promise<(A & B) | OperationFailure> {
  if (isFailure(first)) return first;
  const second = await more();
  return isFailure(second) ? second : ({ ...first, ...second } as A & B);
}

function isDocumentContext(value: unknown): value is DocumentContext {
  const document = (value as { document?: unknown } | null | undefined)?.document;
  return typeof document === 'object' && document !== null && typeof (document as { id?: unknown }).id === 'string';
}

/**
 * The first step of every `prepare` of a single-document tool (DOC-1): `not_ready` while the tool
 * is loading or nothing is open, and, in the run after approval, `not_ready` when the user switched
 * documents while the dialog was open (the confirmed context names the document the dialog showed),
 * so a confirmation about 「A」 never changes 「B」.
 * @example
 * const openDocument = createDocumentGuard(() => adapter.getOpenDocument(), 'drawing');
 * prepare: async (input, call) => openDocument(call),
 * confirmation: (input, { document }) => ({ title: `図「${document.name}」…`, … }),
 */
export function createDocumentGuard(getOpenDocument: () => OpenDocument | null, what: string) {
  // `what` names the document kind in messages (`no drawing is open…`).
  return (call?: PrepareContext): DocumentContext | OperationFailure => {
    const open = getOpenDocument();
    if (!open) return fail(ErrorCode.notReady, `no ${what} is open in the page, or the page has not finished loading`);
    const shown = isDocumentContext(call?.confirmed) ? call.confirmed.document : undefined;
    if (shown && shown.id !== open.id) {
      return fail(ErrorCode.notReady, `the open ${what} changed while the confirmation was shown; nothing was changed`);
    }
    return { document: { id: open.id, name: open.name } };
  };
}

/** What {@link documentChange} reads of a document tool's adapter. */
export interface RevisedDocuments {
  /** The document open in the page: the undo only writes into the document the call changed. */
  getOpenDocument(): OpenDocument | null;
  /**
   * The open document's revision, when the adapter has one: read right after the change, and again
   * by `changedSince` (UNDO-2). Without it, only logged calls are known to have come later.
   */
  getRevision?(): number | string;
}

/** What {@link documentChange} needs to know about one change to the open document. */
export interface DocumentChangeOptions {
  /** The tool's name, the first part of the step's target (`slides:document:deck-1`). */
  tool: string;
  /** The document the call changed (its context's `document`). */
  document: OpenDocument;
  /** The tool's adapter. */
  adapter: RevisedDocuments;
  /** About how many bytes the before-state holds (UNDO-4). */
  bytes: number;
  /** Puts the before-state back into the open document, as a change of the page like any other. */
  restore(): unknown;
  /**
   * What the document holds now, as `bytes` and `restore` of its own: read just before the undo
   * puts the before-state back, so the undo keeps its own before-state and can itself be undone
   * (UV-17). Without it, the undo's row has nothing to undo.
   */
  save?(): { bytes: number; restore(): unknown };
}

/**
 * The operation's answer with the undo step of a change to the open document (UNDO-1): the
 * envelope alone when the call changed nothing (`changed` false), else `{ result, undo }`. The step
 * puts back the document as it was, and only while that same document is open: with another one
 * open it answers `not_ready` and changes nothing. Call it right after the change, so the revision
 * it keeps is the one the call left.
 * @example
 * const before = adapter.getXml();
 * await adapter.setXml(xml);
 * return documentChange(succeed(), adapter.getXml() !== before, { tool: 'drawio', document, adapter, bytes: textBytes(before), restore: () => adapter.setXml(before) });
 */
export function documentChange(result: OperationResult, changed: boolean, options: DocumentChangeOptions): OperationResult | UndoableResult {
  if (!changed) return result;
  const { tool, document, adapter } = options;
  const left = adapter.getRevision?.();
  const isOpen = () => adapter.getOpenDocument()?.id === document.id;
  const step: UndoStep = {
    targets: [`${tool}:document:${document.id}`],
    bytes: options.bytes,
    async undo() {
      // The log outlives a document switch: never put one document's text into another.
      if (!isOpen()) return fail(ErrorCode.notReady, `「${document.name}」 (${document.id}) is not open in the page; open it to undo this change`);
      const taken = options.save?.();
      await options.restore();
      const done = succeed({ document: { id: document.id, name: document.name } });
      // UV-17: the undo's own step puts back what it took away (a later edit of the user's among it).
      return taken ? documentChange(done, true, { ...options, ...taken }) : done;
    },
    // Another document open: its revision says nothing about this one, and the undo will refuse anyway.
    ...(left !== undefined ? { changedSince: () => isOpen() && adapter.getRevision?.() !== left } : {}),
  };
  return { result, undo: step };
}

/** About how many bytes `text` holds in memory (V8 keeps at most two bytes a UTF-16 unit). */
export function textBytes(...texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + text.length * 2, 0);
}

/**
 * A copy of a value that `JSON.stringify` can write and that says what it held: `bigint` as a
 * decimal string, bytes as Postgres' `\x…` hex, dates as ISO strings (SQL values, SQL-4).
 * @example jsonSafe({ n: 10n, b: new Uint8Array([1, 255]) }) // { n: '10', b: '\\x01ff' }
 */
export function jsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  // JSON writes NaN and ±Infinity as null; Postgres has all three (float8 'NaN', 'infinity').
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (value === null || typeof value !== 'object') return value;
  // An invalid Date is Postgres' 'infinity' / '-infinity' timestamp as JavaScript reads it.
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    let hex = '\\x';
    for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
    return hex;
  }
  if (Array.isArray(value)) return value.map(jsonSafe);
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = jsonSafe(item);
  return copy;
}
