/**
 * The diagram preview: maxGraph (`@maxgraph/core`) renders the page's draw.io XML, read-only.
 * The XML stays the source of truth; maxGraph only ever gets a safe copy of it (diagram.ts).
 * @module
 */
import { Client, Graph, ModelXmlSerializer, type AbstractGraph, type Cell, type FitPlugin } from '@maxgraph/core';
import { checkDiagram, findModel, previewModel } from './diagram.js';

/** What a render did. */
export type PreviewResult = { ok: true; cells: number } | { ok: false; message: string };

/** The preview of one container. */
export interface DiagramPreview {
  /** Shows `xml`; on failure the previous picture stays and the reason is returned. */
  render(xml: string): Promise<PreviewResult>;
  readonly graph: AbstractGraph;
}

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
export function createDiagramPreview(container: HTMLElement, imageBase: string): DiagramPreview {
  Client.setImageBasePath(imageBase);
  const graph = new Graph(container);
  graph.setEnabled(false);
  graph.setTooltips(false);
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

  let generation = 0;
  return {
    graph,
    async render(xml) {
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
      const dataModel = graph.getDataModel();
      try {
        dataModel.beginUpdate();
        try {
          dataModel.clear();
          new ModelXmlSerializer(dataModel).import(previewModel(model));
        } finally {
          dataModel.endUpdate();
        }
        graph.view.setTranslate(0, 0);
        graph.view.setScale(1);
        fit?.fit({ margin: 12, keepOrigin: false });
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
