/**
 * The four Excalidraw operations (EXC-1..EXC-4, IN-6, DOC-1, DOC-2); the three that change the
 * drawing hand the log an undo step when the page can save and restore its scene (UNDO-1).
 * @module
 */
import { defineOperation, type AnyOperationDefinition, type PrepareContext } from '../../src/definition.js';
import { ErrorCode, fail, succeed, type OperationFailure, type OperationResult } from '../../src/result.js';
import { createDocumentGuard, documentChange, emptyInputSchema, extend, textBytes, type OpenDocument } from '../shared.js';
import type { ElementPatch, ElementToAdd, ExcalidrawElementLike, ExcalidrawToolAdapter, NewElementType } from './adapter.js';

/** Elements one `excalidraw_add_elements` call may add (EXC-2). */
export const MAX_NEW_ELEMENTS = 200;

/** `#` and six hex digits (IN-6). */
export const COLOR_PATTERN = '^#[0-9a-fA-F]{6}$';
/** A colour, or `transparent` (IN-6, backgroundColor only). */
export const BACKGROUND_COLOR_PATTERN = '^(?:#[0-9a-fA-F]{6}|transparent)$';

/** One `NewElement` of the design doc (IN-3). */
export const newElementSchema = {
  type: 'object',
  properties: {
    type: {
      type: 'string',
      enum: ['rectangle', 'ellipse', 'diamond', 'text', 'arrow'],
      description: '要素の種類。図形(rectangle、ellipse、diamond)、文字(text)、矢印(arrow)。',
    },
    x: { type: 'number', description: '左上の x 座標。' },
    y: { type: 'number', description: '左上の y 座標。' },
    id: { type: 'string', minLength: 1, description: '要素の識別子。今の図と、同じ呼び出しのほかの要素と重ならない値。省くと作る。' },
    width: { type: 'number', minimum: 0, description: '幅。' },
    height: { type: 'number', minimum: 0, description: '高さ。' },
    text: { type: 'string', description: '文字。text では中身、図形ではラベル。' },
    from: { type: 'string', minLength: 1, description: '矢印だけ。始点をつなぐ図形の id(今の図か、同じ呼び出しで足す図形)。' },
    to: { type: 'string', minLength: 1, description: '矢印だけ。終点をつなぐ図形の id(今の図か、同じ呼び出しで足す図形)。' },
  },
  required: ['type', 'x', 'y'],
  additionalProperties: false,
} as const;

/** `excalidraw_add_elements`'s input (IN-3, EXC-2). */
export const addElementsSchema = {
  type: 'object',
  properties: {
    elements: {
      type: 'array',
      items: newElementSchema,
      maxItems: MAX_NEW_ELEMENTS,
      description: '足す要素の配列。1 回に 200 個まで。',
    },
  },
  required: ['elements'],
  additionalProperties: false,
} as const;

/** `excalidraw_update_element`'s input (IN-3, IN-6). */
export const updateElementSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', minLength: 1, description: '変える要素の識別子。' },
    x: { type: 'number', description: '左上の x 座標。' },
    y: { type: 'number', description: '左上の y 座標。' },
    width: { type: 'number', minimum: 0, description: '幅。' },
    height: { type: 'number', minimum: 0, description: '高さ。' },
    strokeColor: { type: 'string', pattern: COLOR_PATTERN, description: '線の色。# と 6 桁の 16 進(例: #1e1e1e)。' },
    backgroundColor: {
      type: 'string',
      pattern: BACKGROUND_COLOR_PATTERN,
      description: '塗りの色。# と 6 桁の 16 進(例: #a5d8ff)か、transparent。',
    },
  },
  required: ['id'],
  additionalProperties: false,
} as const;

/** The input schemas of the four operations, by name. */
export const excalidrawInputSchemas = {
  excalidraw_read: emptyInputSchema,
  excalidraw_add_elements: addElementsSchema,
  excalidraw_update_element: updateElementSchema,
  excalidraw_clear: emptyInputSchema,
} as const;

/** Options of {@link createExcalidrawOperations}. */
export interface ExcalidrawOperationsOptions {
  /** Makes an id for an element given without one; random by default. Clashes are retried. */
  generateId?: () => string;
}

/** Types an arrow cannot be bound to. */
const UNBINDABLE = new Set(['arrow', 'line', 'freedraw', 'selection']);

function randomId(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-';
  const bytes = crypto.getRandomValues(new Uint8Array(21));
  let id = '';
  for (const byte of bytes) id += alphabet[byte & 63];
  return id;
}

/** An element of `excalidraw_read`: exactly the fields of EXC-1. */
function readElement(element: ExcalidrawElementLike) {
  const { id, type, x, y, width, height, strokeColor, backgroundColor } = element;
  const out = { id, type, x, y, width, height, text: element.text ?? null, strokeColor, backgroundColor };
  return type === 'arrow' ? { ...out, from: element.from ?? null, to: element.to ?? null } : out;
}

/** A `NewElement` of the input: an element to add whose id may be left to us. */
type NewElementInput = Omit<ElementToAdd, 'id'> & { readonly id?: string };

/**
 * Creates the Excalidraw operations; they act on the drawing open in the page only (DOC-1).
 * @example
 * provideOperations('excalidraw', createExcalidrawOperations(excalidrawAdapter));
 */
export function createExcalidrawOperations(adapter: ExcalidrawToolAdapter, options: ExcalidrawOperationsOptions = {}): AnyOperationDefinition[] {
  const generateId = options.generateId ?? randomId;
  const openDrawing = createDocumentGuard(() => adapter.getOpenDocument(), 'drawing');
  const prepareOpen = async (_input: unknown, call: PrepareContext) => openDrawing(call);
  /** The log's 「元に戻す」 can put the drawing back: the page saves and restores its scene (UNDO-1, UNDO-5). */
  const undoable = typeof adapter.saveScene === 'function' && typeof adapter.restoreScene === 'function';

  /**
   * Runs `change` on the open drawing and answers its result with the undo step that puts back the
   * scene saved just before (UNDO-1); alone when the page cannot save scenes, when `changes` says
   * the call changes nothing, or when the drawing's revision stayed the same.
   */
  const changeDrawing = async <T>(document: OpenDocument, change: () => T | Promise<T>, answer: (value: T) => OperationResult, changes = true) => {
    if (!undoable) return answer(await change());
    const scene = adapter.saveScene!();
    const revision = adapter.getRevision?.();
    const value = await change();
    const changed = changes && (revision === undefined || adapter.getRevision!() !== revision);
    return documentChange(answer(value), changed, { tool: 'excalidraw', document, adapter, ...sceneNow(scene), save: () => sceneNow(adapter.saveScene!()) });
  };

  /** A scene saved by the page, with how to put it back (UV-17: the undo keeps the scene it replaces the same way). */
  const sceneNow = (scene: ReturnType<NonNullable<ExcalidrawToolAdapter['saveScene']>>) => ({ bytes: textBytes(scene), restore: () => adapter.restoreScene!(scene) });

  /** EXC-5: every id the scene holds — bound text labels and deleted elements too — is taken. */
  const takenIds = () => new Set<string>(adapter.getTakenIds?.() ?? adapter.getElements().map((element) => element.id));

  /** The checks of EXC-2 that a schema cannot express, then the elements as they will be added. */
  const toAdd = (elements: readonly NewElementInput[]): { elements: ElementToAdd[] } | OperationFailure => {
    const scene = new Map(adapter.getElements().map((element) => [element.id, element]));
    const taken = takenIds();
    const added = new Map<string, NewElementInput>();
    for (const [index, element] of elements.entries()) {
      if (element.type !== 'arrow' && (element.from !== undefined || element.to !== undefined)) {
        return fail(ErrorCode.invalidInput, `/elements/${index}: only an arrow has from and to (this is a ${element.type})`);
      }
      if (element.id === undefined) continue;
      if (taken.has(element.id)) return fail(ErrorCode.invalidInput, `/elements/${index}: the id ${JSON.stringify(element.id)} is already in the drawing (an element or a shape's label)`);
      if (added.has(element.id)) return fail(ErrorCode.invalidInput, `/elements/${index}: the id ${JSON.stringify(element.id)} is used twice in this call`);
      added.set(element.id, element);
    }
    for (const [index, element] of elements.entries()) {
      for (const end of ['from', 'to'] as const) {
        const target = element[end];
        if (target === undefined) continue;
        const type = scene.get(target)?.type ?? added.get(target)?.type;
        if (type === undefined) return fail(ErrorCode.notFound, `/elements/${index}/${end}: no shape with the id ${JSON.stringify(target)} in the drawing or in this call`);
        if (UNBINDABLE.has(type)) return fail(ErrorCode.invalidInput, `/elements/${index}/${end}: ${JSON.stringify(target)} is a ${type}, not a shape an arrow can connect`);
      }
    }
    for (const id of added.keys()) taken.add(id);
    return { elements: elements.map((element) => {
      let id = element.id;
      while (id === undefined || (element.id === undefined && taken.has(id))) id = generateId();
      taken.add(id);
      const out: { -readonly [K in keyof ElementToAdd]: ElementToAdd[K] } = { id, type: element.type, x: element.x, y: element.y };
      for (const key of ['width', 'height', 'text', 'from', 'to'] as const) if (element[key] !== undefined) Object.assign(out, { [key]: element[key] });
      return out;
    }) };
  };

  const read = defineOperation({
    name: 'excalidraw_read',
    description:
      'ページで開いている Excalidraw の図の、要素の一覧(elements)と、図の識別子と名前(document)を返す。要素は id、type、x、y、width、height、text、strokeColor、backgroundColor を持ち、矢印(arrow)は、つないだ図形の id の from と to も持つ。',
    inputSchema: emptyInputSchema,
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    prepare: prepareOpen,
    execute: async (_input, { document }) => succeed({ document, elements: adapter.getElements().map(readElement) }),
  });

  const addElements = defineOperation({
    name: 'excalidraw_add_elements',
    description:
      'ページで開いている図に、図形(rectangle、ellipse、diamond)、文字(text)、図形をつなぐ矢印(arrow)を足し、足した要素の id の配列(ids)を返す。1 回に 200 個まで。矢印の from と to に図形の id を渡すとつなぐ。同じ呼び出しで足す図形の id も指せる。id は省くと作る。id が今の図(図形のラベルも含む)か同じ呼び出しの要素と重なると invalid_input、from と to の図形が無いと not_found を返す。',
    inputSchema: addElementsSchema,
    prepare: async (input, call) => extend(openDrawing(call), () => toAdd(input.elements)),
    execute: async (_input, { document, elements }) => {
      const answer = () => succeed({ ids: elements.map((element) => element.id) });
      // Nothing to add changes nothing: no scene update, no undo step.
      if (elements.length === 0) return answer();
      return changeDrawing(document, () => adapter.addElements(elements), answer);
    },
  });

  const updateElement = defineOperation({
    name: 'excalidraw_update_element',
    description:
      'ページで開いている図の、id で指した要素の位置(x、y)、大きさ(width、height)、色(strokeColor、backgroundColor)を変え、その id を返す。渡した項目だけを変える。色は # と 6 桁の 16 進で、backgroundColor は transparent も受け付ける。id の要素が無いときは not_found を返す。',
    inputSchema: updateElementSchema,
    prepare: async (input, call) =>
      extend(openDrawing(call), () =>
        adapter.getElements().some((element) => element.id === input.id) ? { id: input.id } : fail(ErrorCode.notFound, `no element with the id ${JSON.stringify(input.id)} in the drawing`)),
    execute: async (input, { document }) => {
      const patch: { -readonly [K in keyof ElementPatch]: ElementPatch[K] } = {};
      const current = adapter.getElements().find((element) => element.id === input.id);
      let differs = false;
      for (const key of ['x', 'y', 'width', 'height', 'strokeColor', 'backgroundColor'] as const) {
        if (input[key] === undefined) continue;
        Object.assign(patch, { [key]: input[key] });
        differs ||= current?.[key] !== input[key];
      }
      // The element already has every value given: nothing to change, so no scene update and no undo step.
      if (!differs) return succeed({ id: input.id });
      return changeDrawing(document, () => adapter.updateElement(input.id, patch), () => succeed({ id: input.id }));
    },
  });

  const clear = defineOperation({
    name: 'excalidraw_clear',
    description: 'ページで開いている図の全ての要素を消し、消した要素の数(count)を返す。利用者が確認の画面で確定してから実行する。',
    inputSchema: emptyInputSchema,
    annotations: { consequentialHint: true },
    prepare: prepareOpen,
    confirmation: (_input, { document: { name } }) => ({
      title: `図「${name}」の全ての要素を削除する`,
      summary: `図「${name}」にある ${adapter.getElements().length} 個の要素を、全て削除します。`,
      actionLabel: '削除する',
      undoable: undoable || adapter.undoRestoresAgentChanges === true,
    }),
    // Clearing an empty drawing changes nothing: no undo step.
    execute: async (_input, { document }) => changeDrawing(document, () => adapter.clear(), (count) => succeed({ count }), adapter.getElements().length > 0),
  });

  return [read, addElements, updateElement, clear];
}
