/**
 * A person's canvas edits written into the diagram's *original* XML. The canvas shows a sanitised
 * copy (diagram.ts `previewModel`), so exporting it would drop what the sanitiser removed (an
 * image URL, a wrapper's attributes); instead each edit patches the cell it names, by id, and
 * everything else in the XML stays as it was. A compressed `<diagram>` page is written back
 * uncompressed (draw.io reads both).
 * @module
 */
import { checkDiagram, findModel } from './diagram.js';

/** A point of an edge's geometry. */
export interface EditPoint { x: number; y: number }

/** A cell's geometry as the canvas has it after an edit. */
export interface EditGeometry {
  x: number;
  y: number;
  width: number;
  height: number;
  relative: boolean;
  points: EditPoint[];
  sourcePoint: EditPoint | null;
  targetPoint: EditPoint | null;
  offset: EditPoint | null;
}

/** One change a person made on the canvas, by cell id. */
export type CanvasEdit =
  | { kind: 'geometry'; id: string; geometry: EditGeometry }
  | { kind: 'value'; id: string; value: string }
  | { kind: 'terminal'; id: string; end: 'source' | 'target'; terminal: string | null }
  | { kind: 'parent'; id: string; parent: string }
  | { kind: 'remove'; id: string }
  | {
      kind: 'add'; id: string; parent: string; vertex: boolean; edge: boolean; value: string; style: string;
      source: string | null; target: string | null; geometry: EditGeometry | null;
    };

/** A cell in the original XML: the element that carries its id (an `<object>` wrapper or the `<mxCell>`) and its `<mxCell>`. */
interface Found { outer: Element; cell: Element }

const isWrapper = (element: Element) => element.localName === 'object' || element.localName === 'UserObject';

/** Every cell of `model` by id. */
function cellsById(model: Element): Map<string, Found> {
  const found = new Map<string, Found>();
  for (const element of Array.from(model.getElementsByTagName('*'))) {
    const id = element.getAttribute('id');
    if (id === null) continue;
    if (isWrapper(element)) {
      const cell = Array.from(element.children).find((child) => child.localName === 'mxCell');
      if (cell) found.set(id, { outer: element, cell });
    } else if (element.localName === 'mxCell') {
      found.set(id, { outer: element, cell: element });
    }
  }
  return found;
}

/** Writes a number attribute the way draw.io does: left out when 0 and not there before. */
function setNumber(element: Element, name: string, value: number): void {
  if (value === 0 && !element.hasAttribute(name)) return;
  element.setAttribute(name, String(Math.round(value * 100) / 100));
}

/** Puts `geometry` into `<mxGeometry>` `element`, keeping its other attributes and children. */
function writeGeometry(element: Element, geometry: EditGeometry): void {
  const doc = element.ownerDocument;
  setNumber(element, 'x', geometry.x);
  setNumber(element, 'y', geometry.y);
  setNumber(element, 'width', geometry.width);
  setNumber(element, 'height', geometry.height);
  if (geometry.relative) element.setAttribute('relative', '1');
  else element.removeAttribute('relative');
  const point = (as: string, p: EditPoint) => {
    const made = doc.createElement('mxPoint');
    made.setAttribute('x', String(p.x));
    made.setAttribute('y', String(p.y));
    made.setAttribute('as', as);
    return made;
  };
  for (const child of Array.from(element.children)) {
    const as = child.getAttribute('as');
    if (as === 'points' || as === 'sourcePoint' || as === 'targetPoint' || as === 'offset') child.remove();
  }
  if (geometry.sourcePoint) element.appendChild(point('sourcePoint', geometry.sourcePoint));
  if (geometry.targetPoint) element.appendChild(point('targetPoint', geometry.targetPoint));
  if (geometry.offset) element.appendChild(point('offset', geometry.offset));
  if (geometry.points.length > 0) {
    const list = doc.createElement('Array');
    list.setAttribute('as', 'points');
    for (const p of geometry.points) {
      const made = point('', p);
      made.removeAttribute('as');
      list.appendChild(made);
    }
    element.appendChild(list);
  }
}

/** The `<mxGeometry as="geometry">` of `cell`, made when it has none. */
function geometryOf(cell: Element): Element {
  const existing = Array.from(cell.children).find((child) => child.localName === 'mxGeometry');
  if (existing) return existing;
  const made = cell.ownerDocument.createElement('mxGeometry');
  made.setAttribute('as', 'geometry');
  cell.appendChild(made);
  return made;
}

/**
 * `xml` with `edits` applied, or null when `xml` is no longer a diagram with a model (the edits
 * then have nothing to patch). Edits naming a cell the XML does not have are skipped.
 * @example await applyCanvasEdits(xml, [{ kind: 'value', id: 'idea', value: '案' }])
 */
export async function applyCanvasEdits(xml: string, edits: readonly CanvasEdit[]): Promise<string | null> {
  const checked = checkDiagram(xml);
  if (!checked.ok) return null;
  const document = checked.document;
  let model = await findModel(document);
  if (!model) return null;
  if (model.ownerDocument !== document) {
    // A compressed page: its model goes back in as XML.
    const page = Array.from(document.documentElement.children).find((child) => child.localName === 'diagram')!;
    page.textContent = '';
    model = page.appendChild(document.importNode(model, true));
  }
  const cells = cellsById(model);
  const root = Array.from(model.children).find((child) => child.localName === 'root') ?? model;
  for (const edit of edits) {
    const found = cells.get(edit.id);
    switch (edit.kind) {
      case 'geometry':
        if (found) writeGeometry(geometryOf(found.cell), edit.geometry);
        break;
      case 'value':
        if (found) found.outer === found.cell ? found.cell.setAttribute('value', edit.value) : found.outer.setAttribute('label', edit.value);
        break;
      case 'terminal':
        if (!found) break;
        if (edit.terminal === null) found.cell.removeAttribute(edit.end);
        else found.cell.setAttribute(edit.end, edit.terminal);
        break;
      case 'parent':
        if (found) found.cell.setAttribute('parent', edit.parent);
        break;
      case 'remove': {
        if (!found) break;
        // The cell and whatever lives inside it (a group's children, their children…).
        const gone = new Set([edit.id]);
        for (let grew = true; grew;) {
          grew = false;
          for (const [id, other] of cells) {
            const parent = other.cell.getAttribute('parent');
            if (!gone.has(id) && parent !== null && gone.has(parent)) {
              gone.add(id);
              grew = true;
            }
          }
        }
        for (const id of gone) {
          cells.get(id)?.outer.remove();
          cells.delete(id);
        }
        break;
      }
      case 'add': {
        if (found) break;
        const cell = document.createElement('mxCell');
        cell.setAttribute('id', edit.id);
        cell.setAttribute('value', edit.value);
        if (edit.style !== '') cell.setAttribute('style', edit.style);
        if (edit.vertex) cell.setAttribute('vertex', '1');
        if (edit.edge) cell.setAttribute('edge', '1');
        cell.setAttribute('parent', edit.parent);
        if (edit.source !== null) cell.setAttribute('source', edit.source);
        if (edit.target !== null) cell.setAttribute('target', edit.target);
        if (edit.geometry) writeGeometry(geometryOf(cell), edit.geometry);
        root.appendChild(cell);
        cells.set(edit.id, { outer: cell, cell });
        break;
      }
    }
  }
  return new XMLSerializer().serializeToString(document);
}
