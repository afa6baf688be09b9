/**
 * The four Excalidraw operations (EXC-1..EXC-4, IN-6, DOC-1, DOC-2).
 * @module
 */
import { defineOperation, type AnyOperationDefinition } from '../../src/definition.js';
import { ErrorCode, fail, type OperationFailure } from '../../src/result.js';
import { createDocumentGuard, ok } from '../shared.js';
import type { ElementPatch, ElementToAdd, ExcalidrawElementLike, ExcalidrawToolAdapter, NewElementType } from './adapter.js';

/** Elements one `excalidraw_add_elements` call may add (EXC-2). */
export const MAX_NEW_ELEMENTS = 200;

/** `#` and six hex digits (IN-6). */
export const COLOR_PATTERN = '^#[0-9a-fA-F]{6}$';
/** A colour, or `transparent` (IN-6, backgroundColor only). */
export const BACKGROUND_COLOR_PATTERN = '^(?:#[0-9a-fA-F]{6}|transparent)$';

/** `excalidraw_read`'s and `excalidraw_clear`'s input: none (IN-3). */
export const excalidrawEmptySchema = { type: 'object', properties: {}, additionalProperties: false } as const;

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
  excalidraw_read: excalidrawEmptySchema,
  excalidraw_add_elements: addElementsSchema,
  excalidraw_update_element: updateElementSchema,
  excalidraw_clear: excalidrawEmptySchema,
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
  const out: Record<string, unknown> = {
    id: element.id,
    type: element.type,
    x: element.x,
    y: element.y,
    width: element.width,
    height: element.height,
    text: element.text ?? null,
    strokeColor: element.strokeColor,
    backgroundColor: element.backgroundColor,
  };
  if (element.type === 'arrow') {
    out.from = element.from ?? null;
    out.to = element.to ?? null;
  }
  return out;
}

type NewElementInput = {
  type: NewElementType;
  x: number;
  y: number;
  id?: string;
  width?: number;
  height?: number;
  text?: string;
  from?: string;
  to?: string;
};

/**
 * Creates the Excalidraw operations; they act on the drawing open in the page only (DOC-1).
 * @example
 * provideOperations('excalidraw', createExcalidrawOperations(excalidrawAdapter));
 */
export function createExcalidrawOperations(adapter: ExcalidrawToolAdapter, options: ExcalidrawOperationsOptions = {}): AnyOperationDefinition[] {
  const generateId = options.generateId ?? randomId;
  const guard = createDocumentGuard(() => adapter.getOpenDocument(), 'drawing');

  /** The checks of EXC-2 that a schema cannot express; null when the elements can be added. */
  const validateNew = (elements: readonly NewElementInput[]): OperationFailure | null => {
    const scene = new Map(adapter.getElements().map((element) => [element.id, element]));
    const added = new Map<string, NewElementInput>();
    for (const [index, element] of elements.entries()) {
      if (element.type !== 'arrow' && (element.from !== undefined || element.to !== undefined)) {
        return fail(ErrorCode.invalidInput, `/elements/${index}: only an arrow has from and to (this is a ${element.type})`);
      }
      if (element.id === undefined) continue;
      if (scene.has(element.id)) return fail(ErrorCode.invalidInput, `/elements/${index}: the id ${JSON.stringify(element.id)} is already in the drawing`);
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
    return null;
  };

  const read = defineOperation({
    name: 'excalidraw_read',
    description:
      'ページで開いている Excalidraw の図の、要素の一覧(elements)と、図の識別子と名前(document)を返す。要素は id、type、x、y、width、height、text、strokeColor、backgroundColor を持ち、矢印(arrow)は、つないだ図形の id の from と to も持つ。',
    inputSchema: excalidrawEmptySchema,
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    check: async () => guard.require(),
    execute: async () => {
      const document = guard.open();
      if ('error' in document) return document;
      return ok({ document, elements: adapter.getElements().map(readElement) });
    },
  });

  const addElements = defineOperation({
    name: 'excalidraw_add_elements',
    description:
      'ページで開いている図に、図形(rectangle、ellipse、diamond)、文字(text)、図形をつなぐ矢印(arrow)を足し、足した要素の id の配列(ids)を返す。1 回に 200 個まで。矢印の from と to に図形の id を渡すとつなぐ。同じ呼び出しで足す図形の id も指せる。id は省くと作る。id が今の図か同じ呼び出しの要素と重なると invalid_input、from と to の図形が無いと not_found を返す。',
    inputSchema: addElementsSchema,
    check: async (input) => guard.require() ?? validateNew(input.elements),
    execute: async (input) => {
      const document = guard.current(input);
      if ('error' in document) return document;
      const refused = validateNew(input.elements);
      if (refused) return refused;
      const taken = new Set([...adapter.getElements().map((element) => element.id), ...input.elements.flatMap((element) => (element.id === undefined ? [] : [element.id]))]);
      const toAdd: ElementToAdd[] = input.elements.map((element) => {
        let id = element.id;
        while (id === undefined || (element.id === undefined && taken.has(id))) id = generateId();
        taken.add(id);
        const out: { -readonly [K in keyof ElementToAdd]: ElementToAdd[K] } = { id, type: element.type, x: element.x, y: element.y };
        if (element.width !== undefined) out.width = element.width;
        if (element.height !== undefined) out.height = element.height;
        if (element.text !== undefined) out.text = element.text;
        if (element.from !== undefined) out.from = element.from;
        if (element.to !== undefined) out.to = element.to;
        return out;
      });
      await adapter.addElements(toAdd);
      return ok({ ids: toAdd.map((element) => element.id) });
    },
  });

  const exists = (id: string): OperationFailure | null =>
    adapter.getElements().some((element) => element.id === id) ? null : fail(ErrorCode.notFound, `no element with the id ${JSON.stringify(id)} in the drawing`);

  const updateElement = defineOperation({
    name: 'excalidraw_update_element',
    description:
      'ページで開いている図の、id で指した要素の位置(x、y)、大きさ(width、height)、色(strokeColor、backgroundColor)を変え、その id を返す。渡した項目だけを変える。色は # と 6 桁の 16 進で、backgroundColor は transparent も受け付ける。id の要素が無いときは not_found を返す。',
    inputSchema: updateElementSchema,
    check: async (input) => guard.require() ?? exists(input.id),
    execute: async (input) => {
      const document = guard.current(input);
      if ('error' in document) return document;
      const missing = exists(input.id);
      if (missing) return missing;
      const patch: { -readonly [K in keyof ElementPatch]: ElementPatch[K] } = {};
      for (const key of ['x', 'y', 'width', 'height'] as const) if (input[key] !== undefined) patch[key] = input[key];
      if (input.strokeColor !== undefined) patch.strokeColor = input.strokeColor;
      if (input.backgroundColor !== undefined) patch.backgroundColor = input.backgroundColor;
      await adapter.updateElement(input.id, patch);
      return ok({ id: input.id });
    },
  });

  const clear = defineOperation({
    name: 'excalidraw_clear',
    description: 'ページで開いている図の全ての要素を消し、消した要素の数(count)を返す。利用者が確認の画面で確定してから実行する。',
    inputSchema: excalidrawEmptySchema,
    annotations: { consequentialHint: true },
    check: async () => guard.require(),
    confirmation: (input) => {
      const { name } = guard.remember(input);
      const count = adapter.getElements().length;
      return {
        title: `図「${name}」の全ての要素を削除する`,
        summary: `図「${name}」にある ${count} 個の要素を、全て削除します。`,
        actionLabel: '削除する',
        undoable: adapter.undoRestoresAgentChanges === true,
      };
    },
    execute: async (input) => {
      const document = guard.current(input);
      if ('error' in document) return document;
      return ok({ count: await adapter.clear() });
    },
  });

  return [read, addElements, updateElement, clear];
}
