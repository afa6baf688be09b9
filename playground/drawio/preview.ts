/**
 * The diagram canvas: maxGraph (`@maxgraph/core`) renders the page's draw.io XML and lets a person
 * move, resize, connect, relabel and delete cells with the mouse (Delete removes the selection).
 * The XML stays the source of truth; maxGraph only ever gets a safe copy of it (diagram.ts), and a
 * person's edits leave the canvas as {@link CanvasEdit}s by cell id, for write-back.ts to patch
 * into the original XML. The person's keyboard path is the XML editor.
 * @module
 */
import {
  Client, Graph, ImageBox, InternalEvent, ModelXmlSerializer,
  type AbstractGraph, type Cell, type CellEditorHandler, type ConnectionHandler, type EventObject, type FitPlugin,
  type Geometry, type Point,
} from '@maxgraph/core';
import { checkDiagram, findModel, previewModel } from './diagram.js';
import type { CanvasEdit, EditGeometry } from './write-back.js';

/** What a render did. */
export type PreviewResult = { ok: true; cells: number } | { ok: false; message: string };

/** The canvas of one container. */
export interface DiagramPreview {
  /**
   * Shows `xml`; on failure the previous picture stays and the reason is returned. `fit` zooms
   * and scrolls to the whole diagram (a newly opened one); otherwise the view stays where the
   * person left it (an agent's write, an undo).
   */
  render(xml: string, options?: { fit?: boolean }): Promise<PreviewResult>;
  /** Vertices and edges on the canvas now. */
  count(): number;
  readonly graph: AbstractGraph;
}

/** The connection handle shown in a hovered cell: a small blue ring, inline (nothing is fetched). */
const CONNECT_IMAGE = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="6" fill="#dbeafe" stroke="#1d4ed8" stroke-width="2"/></svg>',
)}`;

/** Named styles draw.io writes as a bare word at the start of a style (`ellipse;whiteSpace=wrap;…`). */
const NAMED_STYLES: Record<string, Record<string, string | number>> = {
  ellipse: { shape: 'ellipse', perimeter: 'ellipsePerimeter' },
  doubleEllipse: { shape: 'doubleEllipse', perimeter: 'ellipsePerimeter' },
  rhombus: { shape: 'rhombus', perimeter: 'rhombusPerimeter' },
  triangle: { shape: 'triangle', perimeter: 'trianglePerimeter' },
  hexagon: { shape: 'hexagon', perimeter: 'hexagonPerimeter' },
  cylinder: { shape: 'cylinder' },
  cloud: { shape: 'cloud' },
  actor: { shape: 'actor' },
  swimlane: { shape: 'swimlane', startSize: 23 },
  line: { shape: 'line' },
  image: { shape: 'image' },
  label: { shape: 'label' },
  text: { fillColor: 'none', strokeColor: 'none' },
  edgeLabel: { labelBackgroundColor: '#ffffff' },
};

/**
 * Creates a read-only maxGraph view in `container`. maxGraph's own images (folding icons and the
 * like) are served from this page's origin (`imageBase`); nothing is fetched from elsewhere.
 */
export function createDiagramPreview(
  container: HTMLElement,
  imageBase: string,
  onEdit: (edits: CanvasEdit[]) => void,
  isTaken: (id: string) => boolean = () => false,
): DiagramPreview {
  Client.setImageBasePath(imageBase);
  const graph = new Graph(container);
  graph.setTooltips(false);
  graph.setConnectable(true);
  graph.setAllowDanglingEdges(false);
  graph.setDisconnectOnMove(false);
  graph.setEnterStopsCellEditing(true);
  graph.setDropEnabled(false);
  const connections = graph.getPlugin<ConnectionHandler>('ConnectionHandler');
  if (connections) connections.connectImage = new ImageBox(CONNECT_IMAGE, 16, 16);
  // A label being edited is kept when the person clicks anywhere else, inside the canvas or not.
  const cellEditor = graph.getPlugin<CellEditorHandler>('CellEditorHandler');
  if (cellEditor) cellEditor.blurEnabled = true;
  // draw.io's look rather than maxGraph's blue defaults.
  const stylesheet = graph.getStylesheet();
  Object.assign(stylesheet.getDefaultVertexStyle(), { fillColor: '#ffffff', strokeColor: '#000000', fontColor: '#000000', fontSize: 12, fontFamily: 'Helvetica, Arial, sans-serif' });
  Object.assign(stylesheet.getDefaultEdgeStyle(), { strokeColor: '#000000', fontColor: '#000000', fontSize: 11, labelBackgroundColor: '#ffffff', endArrow: 'classic' });
  for (const [name, style] of Object.entries(NAMED_STYLES)) stylesheet.putCellStyle(name, style);
  // A label is HTML only when its style says html=1, as in draw.io; those values were reduced to
  // formatting by previewModel, so no markup in them can load or run anything.
  // (`html` is not in maxGraph's CellStateStyle type, but the mxGraph style codec keeps every key.)
  graph.isHtmlLabel = (cell: Cell) => Number((graph.getCurrentCellStyle(cell) as { html?: unknown }).html ?? 0) === 1;

  const fit = graph.getPlugin<FitPlugin>('fit');
  if (fit) fit.maxFitScale = 1;

  // Delete (or Backspace) removes the selected cells and their edges. The canvas takes focus when
  // pressed (it is not a tab stop: the XML editor is the keyboard's way), so these keys never
  // reach it while a person types elsewhere.
  container.tabIndex = -1;
  container.addEventListener('pointerdown', () => container.focus({ preventScroll: true }));
  container.addEventListener('keydown', (event) => {
    if ((event.key !== 'Delete' && event.key !== 'Backspace') || graph.isEditing() || graph.isSelectionEmpty()) return;
    event.preventDefault();
    graph.removeCells(graph.getSelectionCells(), true);
  });

  const dataModel = graph.getDataModel();
  // A new cell (a connection) gets an id neither the canvas nor the original XML has: the
  // original may hold cells the safe copy left out.
  let nextId = 1;
  dataModel.createId = () => {
    let id: string;
    do id = `cell-${nextId++}`;
    while (dataModel.getCell(id) || isTaken(id));
    return id;
  };
  /** True while render() imports the XML: those changes are not a person's. */
  let importing = false;
  dataModel.addListener(InternalEvent.CHANGE, (_sender: unknown, event: EventObject) => {
    if (importing) return;
    const changes = (event.getProperty('edit')?.changes ?? []) as unknown[];
    const edits = editsOf(changes);
    if (edits.length > 0) onEdit(edits);
  });

  let generation = 0;
  return {
    graph,
    count: () => countCells(graph),
    async render(xml, { fit: fitView = false } = {}) {
      const mine = ++generation;
      const checked = checkDiagram(xml);
      if (!checked.ok) return checked;
      let model: Element | null;
      try {
        model = await findModel(checked.document);
      } catch (error) {
        return { ok: false, message: `圧縮された図を開けません: ${error instanceof Error ? error.message : String(error)}` };
      }
      // A newer render started while this one inflated a page: let it win.
      if (mine !== generation) return { ok: true, cells: countCells(graph) };
      if (!model) return { ok: false, message: '図に <mxGraphModel> がありません。' };
      try {
        // A cell being edited or a gesture in progress belongs to the picture being replaced.
        graph.stopEditing(true);
        importing = true;
        dataModel.beginUpdate();
        try {
          dataModel.clear();
          new ModelXmlSerializer(dataModel).import(previewModel(model));
        } finally {
          dataModel.endUpdate();
          importing = false;
        }
        if (fitView) {
          graph.view.setTranslate(0, 0);
          graph.view.setScale(1);
          fit?.fit({ margin: 12, keepOrigin: false });
        }
      } catch (error) {
        return { ok: false, message: `図を描けません: ${error instanceof Error ? error.message : String(error)}` };
      }
      return { ok: true, cells: countCells(graph) };
    },
  };
}

/** Vertices and edges in the graph (not the root and layers). */
function countCells(graph: AbstractGraph): number {
  const model = graph.getDataModel();
  let count = 0;
  const visit = (cell: Cell) => {
    if (cell.isVertex() || cell.isEdge()) count++;
    for (const child of cell.getChildren()) visit(child);
  };
  const root = model.getRoot();
  if (root) visit(root);
  return count;
}

const point = (p: Point | null | undefined) => (p ? { x: p.x, y: p.y } : null);

/** A maxGraph geometry as plain numbers. */
function plainGeometry(geometry: Geometry): EditGeometry {
  return {
    x: geometry.x,
    y: geometry.y,
    width: geometry.width,
    height: geometry.height,
    relative: geometry.relative,
    points: (geometry.points ?? []).map((p) => ({ x: p.x, y: p.y })),
    sourcePoint: point(geometry.sourcePoint),
    targetPoint: point(geometry.targetPoint),
    // (0, 0) is where every label sits unless moved: not worth writing.
    offset: geometry.offset && (geometry.offset.x !== 0 || geometry.offset.y !== 0) ? point(geometry.offset) : null,
  };
}

/** A cell's style as draw.io writes it (`ellipse;fillColor=#fff;`). */
function styleText(cell: Cell): string {
  const { baseStyleNames = [], ...entries } = cell.getStyle() as Record<string, unknown> & { baseStyleNames?: string[] };
  const parts = [...baseStyleNames, ...Object.entries(entries).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${String(v)}`)];
  return parts.length === 0 ? '' : `${parts.join(';')};`;
}

/**
 * The edits a person's change on the canvas amounts to, read from the cells as they are now (the
 * change objects have already swapped their before and after). Recognised by shape, not by class,
 * as maxGraph's bundled classes may be minified.
 */
function editsOf(changes: unknown[]): CanvasEdit[] {
  const edits: CanvasEdit[] = [];
  for (const change of changes as Record<string, unknown>[]) {
    const cell = (change.child ?? change.cell) as Cell | undefined;
    const id = cell?.getId();
    if (!cell || id == null) continue;
    if ('child' in change && 'previous' in change && 'index' in change) {
      const parent = change.parent as Cell | null;
      if (parent === null) edits.push({ kind: 'remove', id });
      else if (change.previous === null) {
        const geometry = cell.getGeometry();
        edits.push({
          kind: 'add', id, parent: parent.getId() ?? '1', vertex: cell.isVertex(), edge: cell.isEdge(),
          value: typeof cell.getValue() === 'string' ? (cell.getValue() as string) : '', style: styleText(cell),
          source: cell.getTerminal(true)?.getId() ?? null, target: cell.getTerminal(false)?.getId() ?? null,
          geometry: geometry ? plainGeometry(geometry) : null,
        });
      } else edits.push({ kind: 'parent', id, parent: parent.getId() ?? '1' });
    } else if ('geometry' in change) {
      const geometry = cell.getGeometry();
      if (geometry) edits.push({ kind: 'geometry', id, geometry: plainGeometry(geometry) });
    } else if ('value' in change && 'previous' in change) {
      const value = cell.getValue();
      edits.push({ kind: 'value', id, value: typeof value === 'string' ? value : String(value ?? '') });
    } else if ('terminal' in change && 'source' in change) {
      const end = change.source ? 'source' : 'target';
      edits.push({ kind: 'terminal', id, end, terminal: cell.getTerminal(end === 'source')?.getId() ?? null });
    }
  }
  return edits;
}
