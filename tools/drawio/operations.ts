/**
 * The three draw.io operations (DRW-1, DOC-1, DOC-2). XML is read with the browser's DOMParser. The
 * two that change the diagram hand the log an undo step (UNDO-1).
 * @module
 */
import { defineOperation, type AnyOperationDefinition } from '../../src/definition.js';
import { ErrorCode, fail, isFailure, succeed, type OperationFailure, type OperationResult } from '../../src/result.js';
import { createDocumentGuard, documentChange, emptyInputSchema, extend, textBytes, textInputSchema, type OpenDocument } from '../shared.js';
import type { DrawioToolAdapter } from './adapter.js';
import { cellIds, expandFirstPage, modelRoot, parseCells, parseXml } from './xml.js';

/** `drawio_add_cells`'s input (IN-3, IN-4). */
export const addCellsSchema = textInputSchema(
  'cells',
  '足す mxCell を並べた XML(UTF-8 で 1 MB まで)。例: <mxCell id="a1" value="箱" style="rounded=1;" vertex="1" parent="1"><mxGeometry x="40" y="40" width="120" height="60" as="geometry"/></mxCell>',
);

/** `drawio_write`'s input (IN-3, IN-4). */
export const drawioWriteSchema = textInputSchema('xml', '図の全体の XML(<mxfile> か <mxGraphModel>。UTF-8 で 1 MB まで)。');

/** The input schemas of the three operations, by name. */
export const drawioInputSchemas = {
  drawio_read: emptyInputSchema,
  drawio_add_cells: addCellsSchema,
  drawio_write: drawioWriteSchema,
} as const;

/** The cell's own mxCell: itself, or the one a UserObject/object wraps. */
function innerCell(cell: Element): Element {
  if (cell.localName === 'mxCell') return cell;
  return Array.from(cell.children).find((child) => child.localName === 'mxCell') ?? cell;
}

/**
 * Creates the draw.io operations; they act on the diagram open in the page only (DOC-1).
 * @example
 * provideOperations('drawio', createDrawioOperations(drawioAdapter));
 */
export function createDrawioOperations(adapter: DrawioToolAdapter): AnyOperationDefinition[] {
  const openDiagram = createDocumentGuard(() => adapter.getOpenDocument(), 'diagram');

  /**
   * Writes `xml` into the open diagram and answers `result` with the undo step that puts back the
   * XML as it was (UNDO-1), or alone when the XML stayed the same.
   */
  const writeDiagram = async (document: OpenDocument, xml: string, result: OperationResult) => {
    const before = adapter.getXml();
    await adapter.setXml(xml);
    return documentChange(result, adapter.getXml() !== before, { tool: 'drawio', document, adapter, ...xmlNow(before), save: () => xmlNow(adapter.getXml()) });
  };

  /** The diagram's XML `xml`, with how to put it back. */
  const xmlNow = (xml: string) => ({ bytes: textBytes(xml), restore: () => adapter.setXml(xml) });

  /** Parses `cells` against the open diagram: the diagram's XML with the cells added, or why not (DRW-1, DRW-2). */
  const addTo = async (cells: string): Promise<{ xml: string; count: number } | OperationFailure> => {
    const parsedCells = parseCells(cells);
    if (isFailure(parsedCells)) return parsedCells;
    const parsed = parseXml(adapter.getXml());
    if (isFailure(parsed)) return fail(ErrorCode.failed, `the open diagram's XML cannot be read: ${parsed.error.message}`);
    const diagram = await expandFirstPage(parsed);
    if (isFailure(diagram)) return diagram;
    const root = modelRoot(diagram);
    if (!root) return fail(ErrorCode.failed, 'the open diagram has no <mxGraphModel><root> to add cells to');
    const existing = new Set(cellIds(root));
    const added = new Set<string>();
    for (const [index, cell] of parsedCells.entries()) {
      const id = cell.getAttribute('id');
      if (id === null || id === '') return fail(ErrorCode.invalidInput, `cell ${index + 1} (<${cell.localName}>) has no id`);
      if (existing.has(id)) return fail(ErrorCode.invalidInput, `an mxCell with the id ${JSON.stringify(id)} is already in the diagram`);
      if (added.has(id)) return fail(ErrorCode.invalidInput, `the id ${JSON.stringify(id)} is used twice in cells`);
      added.add(id);
    }
    for (const cell of parsedCells) {
      const inner = innerCell(cell);
      for (const reference of ['parent', 'source', 'target']) {
        const target = inner.getAttribute(reference);
        if (target !== null && !existing.has(target) && !added.has(target)) {
          return fail(ErrorCode.notFound, `the ${reference} ${JSON.stringify(target)} of cell ${JSON.stringify(cell.getAttribute('id'))} is not in the diagram or in cells`);
        }
      }
    }
    for (const cell of parsedCells) root.appendChild(diagram.importNode(cell, true));
    return { xml: new XMLSerializer().serializeToString(diagram), count: parsedCells.length };
  };

  /** The whole diagram an agent passed, or why it is not one. */
  const diagramXml = (xml: string): { xml: string } | OperationFailure => {
    const parsed = parseXml(xml);
    if (isFailure(parsed)) return fail(ErrorCode.invalidInput, `xml is not well-formed XML: ${parsed.error.message}`);
    const top = parsed.documentElement.localName;
    if (top !== 'mxfile' && top !== 'mxGraphModel') return fail(ErrorCode.invalidInput, `xml must be an <mxfile> or an <mxGraphModel>, not <${top}>`);
    return { xml };
  };

  const read = defineOperation({
    name: 'drawio_read',
    description: 'ページで開いている draw.io の図の XML の全文(xml)と、図の識別子と名前(document)を返す。',
    inputSchema: emptyInputSchema,
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    prepare: async (_input, call) => openDiagram(call),
    execute: async (_input, { document }) => succeed({ document, xml: adapter.getXml() }),
  });

  const addCells = defineOperation({
    name: 'drawio_add_cells',
    description:
      'ページで開いている図に mxCell を足し、足した mxCell の数(count)を返す。cells には、1 つ以上の <mxCell> 要素(UserObject で包んだものも可)を並べた XML を渡す。どの mxCell も id を持ち、id が今の図か cells のほかの mxCell と重なると invalid_input を返す。XML として読めないときも invalid_input を返す。parent、source、target が指す mxCell が無いときは not_found を返す。最初のページが圧縮されている図は、圧縮を解いた形で書き戻す。',
    inputSchema: addCellsSchema,
    // No dialog: the diagram is read and the cells placed here, right before execute writes them.
    prepare: async (input, call) => extend(openDiagram(call), () => addTo(input.cells)),
    execute: async (_input, { document, xml, count }) => writeDiagram(document, xml, succeed({ count })),
  });

  const write = defineOperation({
    name: 'drawio_write',
    description:
      'ページで開いている図の全体を、渡した XML(<mxfile> か <mxGraphModel>)に置き換える。XML として読めないときは invalid_input を返す。利用者が確認の画面で確定してから実行する。xml は UTF-8 で 1 MB まで。',
    inputSchema: drawioWriteSchema,
    annotations: { consequentialHint: true },
    prepare: async (input, call) => extend(openDiagram(call), () => diagramXml(input.xml)),
    confirmation: (input, { document: { name } }) => ({
      title: `図「${name}」の全体を置き換える`,
      summary: `図「${name}」の全体を、AI のエージェントが渡した XML(${input.xml.length.toLocaleString('ja-JP')} 文字)に置き換えます。`,
      actionLabel: '置き換える',
      detail: input.xml,
      // True: the log's 「元に戻す」 puts the diagram back (UNDO-5).
      undoable: true,
    }),
    execute: async (_input, { document, xml }) => writeDiagram(document, xml, succeed()),
  });

  return [read, addCells, write];
}
