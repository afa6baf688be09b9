/**
 * What the Excalidraw page hands to {@link createExcalidrawOperations}: the open scene, in a small
 * element model of our own. The page maps it onto Excalidraw's API: `getSceneElements()` (skipping
 * deleted elements; a shape's bound text becomes its `text`; an arrow's `startBinding` /
 * `endBinding` become `from` / `to`), `convertToExcalidrawElements` + `updateScene` for additions
 * (arrows bound with `start: {id}` / `end: {id}`), `updateScene` for changes and for clearing. For
 * the log's 「元に戻す」 (UNDO-1) the page saves the whole scene before each change (`saveScene`:
 * e.g. `JSON.stringify(api.getSceneElementsIncludingDeleted())`) and puts it back (`restoreScene`:
 * `updateScene` with the parsed elements).
 * @module
 */
import type { OpenDocument } from '../shared.js';

/** The element types an agent can add. */
export type NewElementType = 'rectangle' | 'ellipse' | 'diamond' | 'text' | 'arrow';

/** An element of the scene as the operations read it (EXC-1). */
export interface ExcalidrawElementLike {
  readonly id: string;
  /** Excalidraw's type: the five above, or any other the user drew (`line`, `freedraw`, `image`…). */
  readonly type: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /** The text of a text element, or a shape's label; null when none. */
  readonly text: string | null;
  readonly strokeColor: string;
  readonly backgroundColor: string;
  /** For arrows: the id of the element the start is bound to, or null. */
  readonly from?: string | null;
  /** For arrows: the id of the element the end is bound to, or null. */
  readonly to?: string | null;
}

/** An element to add, its id decided (given by the agent or generated). */
export interface ElementToAdd {
  readonly id: string;
  readonly type: NewElementType;
  readonly x: number;
  readonly y: number;
  readonly width?: number;
  readonly height?: number;
  readonly text?: string;
  /** For arrows: bind the start to this shape (in the scene, or added in the same call). */
  readonly from?: string;
  /** For arrows: bind the end to this shape (in the scene, or added in the same call). */
  readonly to?: string;
}

/** The fields `excalidraw_update_element` may change; absent fields stay. */
export interface ElementPatch {
  readonly x?: number;
  readonly y?: number;
  readonly width?: number;
  readonly height?: number;
  readonly strokeColor?: string;
  readonly backgroundColor?: string;
}

/** What the Excalidraw page passes to {@link createExcalidrawOperations}. Read on every call (DEF-6). */
export interface ExcalidrawToolAdapter {
  /** The drawing open in the page, or null while the tool loads or nothing is open (DOC-1). */
  getOpenDocument(): OpenDocument | null;
  /** The scene's elements (not deleted ones), in z-order. */
  getElements(): readonly ExcalidrawElementLike[];
  /**
   * Every id the scene holds, including what `getElements` folds away (a shape's bound text label)
   * and deleted elements, so a new element never takes one (EXC-5). With Excalidraw:
   * `api.getSceneElementsIncludingDeleted().map((e) => e.id)`. Default: the ids of `getElements()`.
   */
  getTakenIds?(): Iterable<string>;
  /** Adds the elements in one scene update; arrows bound to their `from` / `to` shapes. Every id is new and valid. */
  addElements(elements: readonly ElementToAdd[]): void | Promise<void>;
  /** Changes one existing element (its bound text and arrows follow, as when the user moves it). */
  updateElement(id: string, patch: ElementPatch): void | Promise<void>;
  /** Deletes every element; resolves to how many were deleted. */
  clear(): number | Promise<number>;
  /**
   * The open drawing as it is now, all that the operations change — every element, deleted ones
   * included, each with all its fields — as a text {@link restoreScene} puts back exactly. Read
   * before each change, kept in memory by the log's 「元に戻す」 (UNDO-1). Needs `restoreScene` too;
   * without both, changes hand no undo step.
   */
  saveScene?(): string;
  /** Puts back a scene {@link saveScene} returned, as one change of the drawing (saved like any other). */
  restoreScene?(scene: string): void | Promise<void>;
  /**
   * The open drawing's revision: a value that changes whenever an element changes, by anyone (with
   * Excalidraw: `hashElementsVersion(api.getSceneElementsIncludingDeleted())`). The log's
   * 「元に戻す」 compares it with the one a call left (UNDO-2), and a call that left it as it was
   * changed nothing. Omitted: only logged calls are known.
   */
  getRevision?(): number | string;
  /**
   * True when Excalidraw's own 「元に戻す」 restores a change an agent made (CONF-2). Default false.
   * With `saveScene` and `restoreScene` the dialog says the change can be undone in any case: the
   * log's 「元に戻す」 puts the drawing back (UNDO-5).
   */
  readonly undoRestoresAgentChanges?: boolean;
}
