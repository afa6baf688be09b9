/**
 * The Excalidraw page's state, outside React (SHAPE-5): the drawing open in the page (`?doc=`,
 * IndexedDB, default `welcome` with a sample), the Excalidraw API while the canvas is mounted,
 * debounced saving, and the adapter of `tools/excalidraw` — handed to the runtime once, when the
 * page is first shown ({@link bootExcalidraw}), so the operations exist before Excalidraw has
 * loaded (they answer `not_ready` meanwhile). The drawing outlives the page's component: leaving
 * the page by navigation saves it, coming back shows it again.
 *
 * Why not `createDocumentState` (playground/shared/document-state.ts), which the slides and draw.io
 * pages use: that state owns its document as one text and owns its 「元に戻す」 history. Here the
 * document lives in Excalidraw's scene — elements and image files that Excalidraw itself changes
 * (a drag is hundreds of scene updates), with Excalidraw's own undo history that a person's Ctrl+Z
 * and an agent's change share (CONF-2, {@link UNDO_RESTORES_AGENT_CHANGES}). Holding the scene as
 * a text beside it would serialise the scene on every pointer move and keep two histories that
 * disagree. What is shared is what fits: the document bar's contract (`drawingDocuments`, a
 * `DocumentBarSource`), `?doc=` through page-params, ids through shared/documents.
 * @module
 */
import { CaptureUpdateAction, convertToExcalidrawElements, hashElementsVersion, newElementWith } from '@excalidraw/excalidraw';
import type { ExcalidrawElementSkeleton } from '@excalidraw/excalidraw/data/transform';
import type {
  ExcalidrawArrowElement, ExcalidrawElement, ExcalidrawLinearElement, ExcalidrawTextElement, PointBinding,
} from '@excalidraw/excalidraw/element/types';
import type { ExcalidrawImperativeAPI } from '@excalidraw/excalidraw/types';
import { createStore, provideOperations, type ReadableStore } from 'ai-ops';
import type { OpenDocument } from 'ai-ops/tools';
import {
  createExcalidrawOperations, type ElementPatch, type ElementToAdd, type ExcalidrawElementLike, type ExcalidrawToolAdapter,
} from 'ai-ops/tools/excalidraw';
import type { DocumentBarSource } from '../shared/document-bar.js';
import { newDocumentId } from '../shared/documents.js';
import { documentIdOf } from '../shared/page-params.js';
import { setLocalExcalidrawAssetPath } from './asset-path.js';
import { listDrawings, loadDrawing, saveDrawing, type DrawingRecord } from './drawings.js';
import { BINDING_GAP, absolutePoints, centre, centredAt, midpoint, routeArrow, toLinear, type Box, type Point } from './geometry.js';

/** The drawing opened when the URL has no `?doc=`. */
export const DEFAULT_DRAWING_ID = 'welcome';
/** The name of the default drawing. */
export const DEFAULT_DRAWING_NAME = 'ようこそ';
/** Quiet time after the last change before the drawing is written to IndexedDB. */
export const SAVE_DELAY_MS = 300;

/**
 * Measured (test/e2e/excalidraw-page.test.mjs, "[CONF-2] Ctrl+Z after excalidraw_clear"): a change
 * made with `updateScene({ captureUpdate: CaptureUpdateAction.IMMEDIATELY })` is one entry of
 * Excalidraw's own history, and its 「元に戻す」 (Ctrl+Z) brings the cleared elements back.
 */
export const UNDO_RESTORES_AGENT_CHANGES = true;

/** The sample a new `welcome` drawing starts with: a labelled rectangle, an arrow, a labelled ellipse. */
export const SAMPLE_ELEMENTS: readonly ElementToAdd[] = [
  { id: 'welcome-box', type: 'rectangle', x: 100, y: 140, width: 220, height: 90, text: 'AI のエージェント' },
  { id: 'welcome-ellipse', type: 'ellipse', x: 480, y: 125, width: 220, height: 120, text: 'この図' },
  { id: 'welcome-arrow', type: 'arrow', x: 330, y: 185, from: 'welcome-box', to: 'welcome-ellipse' },
];

/** What the React page renders from. */
export interface PageState {
  /** `loading`: reading IndexedDB or Excalidraw not initialised yet; `ready`: operations can run. */
  readonly status: 'loading' | 'ready' | 'failed';
  /** The open drawing; null while reading IndexedDB. Its scene is {@link initialScene}. */
  readonly document: Pick<DrawingRecord, 'id' | 'name'> | null;
  readonly error: string | null;
}

const store = createStore<PageState>({ status: 'loading', document: null, error: null });

/** The page state, for `useSyncExternalStore` (SHAPE-6). */
export const pageState: ReadableStore<PageState> = store;

const update = (patch: Partial<PageState>) => store.setState({ ...store.getState(), ...patch });

/** The longest drawing id kept from `?doc=`. */
const MAX_DRAWING_ID = 128;

/** The drawing id the URL asks for (`?doc=`), or `welcome`. */
export function requestedDrawingId(search: string = location.search): string {
  return documentIdOf(search, DEFAULT_DRAWING_ID).slice(0, MAX_DRAWING_ID);
}

let record: DrawingRecord | null = null;
let api: ExcalidrawImperativeAPI | null = null;
/** Excalidraw has loaded the drawing: the scene can be read and changed. */
let sceneLoaded = false;
/** The drawing is open for the operations (after the sample, if any, is in). */
let ready = false;
let saveTimer: ReturnType<typeof setTimeout> | undefined;
let savedVersion: number | null = null;
let saving: Promise<void> = Promise.resolve();

/** The drawing being opened (the last one asked for wins). */
let opening: string | null = null;

/**
 * Opens drawing `id` (creating it on first use; `welcome` gets the sample), unless it is open
 * already. The drawing open before is saved first.
 */
export async function openDrawing(id: string): Promise<void> {
  if (opening === id || (opening === null && record?.id === id)) return;
  opening = id;
  await flushSave();
  try {
    let found = await loadDrawing(id);
    if (!found) {
      found = {
        id,
        name: id === DEFAULT_DRAWING_ID ? DEFAULT_DRAWING_NAME : id,
        elements: [],
        files: {},
        needsSample: id === DEFAULT_DRAWING_ID,
        updatedAt: Date.now(),
      };
      await saveDrawing(found);
    }
    if (opening !== id) return;
    // The canvas showing the previous drawing must not save into this one.
    setApi(null);
    record = found;
    update({ status: 'loading', error: null, document: { id: found.id, name: found.name } });
  } catch (error) {
    if (opening === id) update({ status: 'failed', error: `図を開けません: ${error instanceof Error ? error.message : String(error)}` });
  } finally {
    if (opening === id) opening = null;
  }
}

/**
 * What Excalidraw starts from when the canvas mounts: the open drawing as last saved or changed
 * (not as first loaded: the canvas may be mounted again after navigation).
 */
export function initialScene(): Pick<DrawingRecord, 'elements' | 'files'> {
  return { elements: record?.elements ?? [], files: record?.files ?? {} };
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

const isArrow = (element: ExcalidrawElement): element is ExcalidrawArrowElement => element.type === 'arrow';
const isLinear = (element: ExcalidrawElement): element is ExcalidrawLinearElement => element.type === 'arrow' || element.type === 'line';
const isText = (element: ExcalidrawElement): element is ExcalidrawTextElement => element.type === 'text';

function requireApi(): ExcalidrawImperativeAPI {
  if (!api || !sceneLoaded) throw new Error('Excalidraw is not ready');
  return api;
}

/** The label (bound text) of a container, if any. */
function labelOf(element: ExcalidrawElement, byId: ReadonlyMap<string, ExcalidrawElement>): ExcalidrawTextElement | undefined {
  for (const bound of element.boundElements ?? []) {
    if (bound.type !== 'text') continue;
    const text = byId.get(bound.id);
    if (text && !text.isDeleted && isText(text)) return text;
  }
  return undefined;
}

/** A label is part of its shape, not an element of its own in the operations' view. */
function isLabel(element: ExcalidrawElement, byId: ReadonlyMap<string, ExcalidrawElement>): boolean {
  if (!isText(element) || !element.containerId) return false;
  const container = byId.get(element.containerId);
  return container !== undefined && !container.isDeleted;
}

function readElements(): ExcalidrawElementLike[] {
  if (!api) return [];
  const scene = api.getSceneElements();
  const byId = new Map(scene.map((element) => [element.id, element]));
  const out: ExcalidrawElementLike[] = [];
  for (const element of scene) {
    if (isLabel(element, byId)) continue;
    const label = isText(element) ? element : labelOf(element, byId);
    const item: Writable<ExcalidrawElementLike> = {
      id: element.id,
      type: element.type,
      x: element.x,
      y: element.y,
      width: element.width,
      height: element.height,
      text: label ? label.originalText ?? label.text : null,
      strokeColor: element.strokeColor,
      backgroundColor: element.backgroundColor,
    };
    if (isArrow(element)) {
      item.from = element.startBinding?.elementId ?? null;
      item.to = element.endBinding?.elementId ?? null;
    }
    out.push(item);
  }
  return out;
}

/** Moves a label to the middle of its container (an arrow's: the middle of its path). */
function placeLabel(label: ExcalidrawTextElement, container: ExcalidrawElement): Point {
  if (isLinear(container)) return centredAt(midpoint(absolutePoints(container)), label);
  const c = centre(container);
  const x = label.textAlign === 'left' ? container.x + 5 : label.textAlign === 'right' ? container.x + container.width - label.width - 5 : c.x - label.width / 2;
  const y = label.verticalAlign === 'top' ? container.y + 5 : label.verticalAlign === 'bottom' ? container.y + container.height - label.height - 5 : c.y - label.height / 2;
  return { x, y };
}

const binding = (elementId: string, gap = BINDING_GAP): PointBinding => ({ elementId, focus: 0, gap });

/** Re-routes an arrow's bound ends onto its shapes as they are in `lookup`. */
function reroute<T extends ExcalidrawLinearElement>(arrow: T, lookup: (id: string) => ExcalidrawElement | undefined) {
  const start = arrow.startBinding ? (lookup(arrow.startBinding.elementId) as Box | undefined) ?? null : null;
  const end = arrow.endBinding ? (lookup(arrow.endBinding.elementId) as Box | undefined) ?? null : null;
  return toLinear(routeArrow(absolutePoints(arrow), start, end, { start: arrow.startBinding?.gap, end: arrow.endBinding?.gap }));
}

/**
 * Adds the elements in one `updateScene`. Shapes, texts and labels are made by
 * `convertToExcalidrawElements`; arrows are then bound here — both sides: the arrow's
 * `startBinding`/`endBinding` and the shapes' `boundElements` — with ends on the shapes' outlines.
 */
async function addToScene(elements: readonly ElementToAdd[], captureUpdate: 'IMMEDIATELY' | 'NEVER'): Promise<void> {
  const excalidraw = requireApi();
  // Text is measured while converting; with Excalifont not loaded yet the boxes come out wrong.
  if (elements.some((element) => element.text)) await document.fonts.load('20px Excalifont');
  const newIds = new Set(elements.map((element) => element.id));
  // A deleted element may still hold an id the agent reuses: the new element replaces it.
  const scene = excalidraw.getSceneElementsIncludingDeleted().filter((element) => !(element.isDeleted && newIds.has(element.id)));
  if (scene.some((element) => newIds.has(element.id))) throw new Error('an id is already used by a label in the drawing');

  const skeletons = elements.map((element) => {
    const label = element.text ? { label: { text: element.text } } : {};
    switch (element.type) {
      case 'text':
        return { type: 'text', id: element.id, x: element.x, y: element.y, text: element.text ?? '' };
      case 'arrow':
        return { type: 'arrow', id: element.id, x: element.x, y: element.y, width: element.width ?? 100, height: element.height ?? 0, ...label };
      default: {
        const size = element.width !== undefined || element.height !== undefined || !element.text ? { width: element.width ?? 100, height: element.height ?? 100 } : {};
        return { type: element.type, id: element.id, x: element.x, y: element.y, ...size, ...label };
      }
    }
  }) as ExcalidrawElementSkeleton[];
  const created = convertToExcalidrawElements(skeletons, { regenerateIds: false }) as Writable<ExcalidrawElement>[];

  const createdById = new Map(created.map((element) => [element.id, element]));
  const changed = new Map<string, ExcalidrawElement>();
  const sceneById = new Map(scene.map((element) => [element.id, element]));
  const lookup = (id: string): ExcalidrawElement | undefined => createdById.get(id) ?? changed.get(id) ?? sceneById.get(id);
  const addBound = (shapeId: string, arrowId: string) => {
    const own = createdById.get(shapeId);
    const boundElements = [...(lookup(shapeId)?.boundElements ?? []), { id: arrowId, type: 'arrow' as const }];
    if (own) own.boundElements = boundElements;
    else changed.set(shapeId, newElementWith(lookup(shapeId)!, { boundElements }));
  };

  for (const element of elements) {
    if (element.type !== 'arrow' || (element.from === undefined && element.to === undefined)) continue;
    const arrow = createdById.get(element.id) as Writable<ExcalidrawArrowElement>;
    arrow.startBinding = element.from !== undefined ? binding(element.from) : null;
    arrow.endBinding = element.to !== undefined ? binding(element.to) : null;
    Object.assign(arrow, reroute(arrow, lookup));
    if (element.from !== undefined) addBound(element.from, arrow.id);
    if (element.to !== undefined && element.to !== element.from) addBound(element.to, arrow.id);
    const label = labelOf(arrow, createdById);
    if (label) Object.assign(label, placeLabel(label, arrow));
  }

  excalidraw.updateScene({
    elements: [...scene.map((element) => changed.get(element.id) ?? element), ...created],
    captureUpdate: CaptureUpdateAction[captureUpdate],
  });
}

/** Changes one element; its label and the arrows bound to it follow. */
function updateInScene(id: string, patch: ElementPatch): void {
  const excalidraw = requireApi();
  const scene = excalidraw.getSceneElementsIncludingDeleted();
  const byId = new Map(scene.map((element) => [element.id, element]));
  const target = byId.get(id);
  if (!target || target.isDeleted) throw new Error(`no element ${id}`);
  const changed = new Map<string, ExcalidrawElement>();
  const lookup = (key: string) => changed.get(key) ?? byId.get(key);

  const updates: Writable<Partial<ExcalidrawLinearElement>> = {};
  for (const key of ['x', 'y', 'width', 'height', 'strokeColor', 'backgroundColor'] as const) {
    if (patch[key] !== undefined) (updates as Record<string, unknown>)[key] = patch[key];
  }
  if (isLinear(target) && (patch.width !== undefined || patch.height !== undefined)) {
    // A line's size is its points' extent: scale the points rather than the box.
    const sx = patch.width !== undefined && target.width > 0 ? patch.width / target.width : 1;
    const sy = patch.height !== undefined && target.height > 0 ? patch.height / target.height : 1;
    updates.points = target.points.map(([px, py]) => [px * sx, py * sy]) as unknown as ExcalidrawLinearElement['points'];
    updates.width = target.width * sx;
    updates.height = target.height * sy;
  }
  const moved = newElementWith(target, updates as Parameters<typeof newElementWith>[1]);
  changed.set(id, moved);

  // Arrows bound to the element: their bound ends go back onto the outlines.
  for (const bound of moved.boundElements ?? []) {
    if (bound.type !== 'arrow') continue;
    const arrow = lookup(bound.id);
    if (!arrow || arrow.isDeleted || !isArrow(arrow) || arrow.elbowed) continue;
    changed.set(arrow.id, newElementWith(arrow, reroute(arrow, lookup) as unknown as Partial<ExcalidrawArrowElement>));
  }
  // Labels: the element's own, and those of the arrows just re-routed.
  for (const container of [...changed.values()]) {
    const label = labelOf(container, byId);
    if (!label) continue;
    const follow: Writable<Partial<ExcalidrawTextElement>> = { ...placeLabel(label, container) };
    if (container.id === id && patch.strokeColor !== undefined) follow.strokeColor = patch.strokeColor;
    changed.set(label.id, newElementWith(label, follow));
  }
  excalidraw.updateScene({ elements: scene.map((element) => changed.get(element.id) ?? element), captureUpdate: CaptureUpdateAction.IMMEDIATELY });
}

/** Deletes every element (one undoable step); the count is what `excalidraw_read` lists. */
function clearScene(): number {
  const excalidraw = requireApi();
  const count = readElements().length;
  const scene = excalidraw.getSceneElementsIncludingDeleted();
  excalidraw.updateScene({
    elements: scene.map((element) => (element.isDeleted ? element : newElementWith(element, { isDeleted: true }))),
    captureUpdate: CaptureUpdateAction.IMMEDIATELY,
  });
  return count;
}

/**
 * The whole scene as text, for the log's 「元に戻す」 (UNDO-1): every element, deleted ones included,
 * with all its fields (a copy: Excalidraw changes some element objects in place while the user drags).
 * The app state and the files are not part of it: no operation changes them.
 */
function saveScene(): string {
  return JSON.stringify(requireApi().getSceneElementsIncludingDeleted());
}

/** Puts back a scene {@link saveScene} returned, as one entry of Excalidraw's own history; saved like any change. */
function restoreScene(scene: string): void {
  requireApi().updateScene({ elements: JSON.parse(scene) as ExcalidrawElement[], captureUpdate: CaptureUpdateAction.IMMEDIATELY });
}

/** The scene's revision: changes with any element's version (each change gives it a new random nonce). */
function sceneRevision(): number {
  return api ? hashElementsVersion(api.getSceneElementsIncludingDeleted()) : 0;
}

/** The adapter `tools/excalidraw` reads on every call (DEF-6). */
export const excalidrawAdapter: ExcalidrawToolAdapter = {
  getOpenDocument(): OpenDocument | null {
    return ready && record ? { id: record.id, name: record.name } : null;
  },
  getElements: readElements,
  getTakenIds: () => (api ? api.getSceneElementsIncludingDeleted().map((element) => element.id) : []),
  addElements: (elements) => addToScene(elements, 'IMMEDIATELY'),
  updateElement: updateInScene,
  clear: clearScene,
  saveScene,
  restoreScene,
  getRevision: sceneRevision,
  undoRestoresAgentChanges: UNDO_RESTORES_AGENT_CHANGES,
};

async function save(): Promise<void> {
  if (!api || !sceneLoaded || !record) return;
  const elements = api.getSceneElements();
  const files = api.getFiles();
  const version = hashElementsVersion(elements) ^ Object.keys(files).length;
  if (version === savedVersion && !record.needsSample) return;
  savedVersion = version;
  record = { ...record, elements, files: files as Record<string, unknown>, needsSample: false, updatedAt: Date.now() };
  await persist(record);
}

/** Writes `snapshot` after the writes before it, so the last change is the one kept. */
function persist(snapshot: DrawingRecord): Promise<void> {
  saving = saving.then(() => saveDrawing(snapshot)).catch((error) => console.error('excalidraw: saving the drawing failed', error));
  return saving;
}

function scheduleSave(): void {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => void save(), SAVE_DELAY_MS);
}

/** Writes pending changes now (the page is being hidden or closed). */
export function flushSave(): Promise<void> {
  clearTimeout(saveTimer);
  return save();
}

async function initialise(excalidraw: ExcalidrawImperativeAPI): Promise<void> {
  if (excalidraw !== api) return;
  sceneLoaded = true;
  try {
    if (record?.needsSample) {
      // Not undoable: the sample is where the drawing starts, not a change.
      await addToScene(SAMPLE_ELEMENTS, 'NEVER');
      excalidraw.scrollToContent(undefined, { fitToContent: false, animate: false });
      await flushSave();
    }
  } catch (error) {
    console.error('excalidraw: adding the sample failed', error);
  }
  if (excalidraw !== api) return;
  ready = true;
  update({ status: 'ready' });
}

/**
 * Called by the canvas with Excalidraw's API when it mounts; the function returned detaches it
 * (pending changes are saved first) when it unmounts. The operations answer `not_ready` until
 * Excalidraw has loaded the drawing: its first `onChange` comes after that.
 */
export function attachExcalidrawApi(next: ExcalidrawImperativeAPI): () => void {
  setApi(next);
  return () => {
    if (api === next) setApi(null);
  };
}

/** No scene change seen yet from the attached canvas: the first one means it has loaded. */
let awaitingLoad = false;

function setApi(next: ExcalidrawImperativeAPI | null): void {
  if (next === api) return;
  if (api) void flushSave();
  api = next;
  ready = false;
  sceneLoaded = false;
  savedVersion = null;
  awaitingLoad = next !== null;
  if (store.getState().status === 'ready') update({ status: 'loading' });
}

/**
 * Called by the canvas on each of Excalidraw's `onChange` (its prop, not `api.onChange`: Excalidraw
 * clears those listeners when it unmounts, which StrictMode does once in development). The first
 * change comes when Excalidraw has loaded the drawing.
 */
export function sceneChanged(): void {
  const current = api;
  if (!current) return;
  if (awaitingLoad) {
    awaitingLoad = false;
    // Outside Excalidraw's componentDidUpdate, which is where onChange is called from.
    setTimeout(() => void initialise(current), 0);
    return;
  }
  if (sceneLoaded) scheduleSave();
}

/** The drawings as the shared document bar reads and changes them (名前, 開く, 新しい図). */
export const drawingDocuments: DocumentBarSource = {
  getState: store.getState,
  subscribe: store.subscribe,
  async rename(name) {
    const trimmed = name.trim();
    if (!record || trimmed === '' || trimmed === record.name) return;
    record = { ...record, name: trimmed };
    update({ document: { id: record.id, name: trimmed } });
    await persist(record);
  },
  list: listDrawings,
  async create(name) {
    const id = newDocumentId('drawing');
    await saveDrawing({ id, name, elements: [], files: {}, updatedAt: Date.now() });
    return id;
  },
  flush: flushSave,
};

let boot: Promise<void> | undefined;

/**
 * Starts the page once per document (StrictMode's second effect and later visits reuse it): the
 * font path and the operations.
 */
export function bootExcalidraw(): Promise<void> {
  boot ??= start();
  return boot;
}

async function start(): Promise<void> {
  setLocalExcalidrawAssetPath();
  provideOperations('excalidraw', createExcalidrawOperations(excalidrawAdapter));
}
