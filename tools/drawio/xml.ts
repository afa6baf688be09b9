/**
 * draw.io XML, read and changed with the browser's DOMParser and XMLSerializer (DRW-1, DRW-2).
 * @module
 */
import { ErrorCode, describeError, fail, isFailure, type OperationFailure } from '../../src/result.js';

let parserErrorNamespace: string | null | undefined;

/** The namespace the parser puts its error element in (it differs between browsers). */
function errorNamespace(): string | null {
  if (parserErrorNamespace === undefined) {
    const broken = new DOMParser().parseFromString('<', 'application/xml');
    parserErrorNamespace = broken.getElementsByTagName('parsererror')[0]?.namespaceURI ?? null;
  }
  return parserErrorNamespace;
}

/**
 * Parses well-formed XML; `invalid_input` with the parser's message when it is not.
 * @example parseXml('<a/>') // an XMLDocument
 */
export function parseXml(text: string): XMLDocument | OperationFailure {
  const document = new DOMParser().parseFromString(text, 'application/xml');
  const ns = errorNamespace();
  const error = ns === null ? document.getElementsByTagName('parsererror')[0] : document.getElementsByTagNameNS(ns, 'parsererror')[0];
  if (error) {
    // Chromium wraps the parser's one useful line ("error on line 1 at column 7: …") in page prose.
    const text = (error.textContent ?? '').replace(/\s+/g, ' ').trim();
    const line = /error on line \d+ at column \d+: [^.]*?(?= Below is|$)/.exec(text)?.[0];
    return fail(ErrorCode.invalidInput, `not well-formed XML: ${line ?? (text || 'unknown error')}`);
  }
  return document;
}

/** Elements that make one cell: an `mxCell`, or the `UserObject`/`object` that wraps one and carries its id. */
const CELL_ELEMENTS = new Set(['mxCell', 'UserObject', 'object']);

/** The id every cell element of `root` carries, in document order. */
export function cellIds(root: Element): string[] {
  const ids: string[] = [];
  for (const element of Array.from(root.getElementsByTagName('*'))) {
    if (!CELL_ELEMENTS.has(element.localName)) continue;
    // An mxCell inside a UserObject takes the wrapper's id and has none of its own.
    const id = element.getAttribute('id');
    if (id !== null) ids.push(id);
  }
  return ids;
}

/**
 * Inflates draw.io's compressed page: base64 of raw-deflated, URI-encoded XML (what draw.io saves
 * by default). Rejects when the text is not in that form.
 * @example await inflateDiagramText(page.textContent) // '<mxGraphModel>…'
 */
export async function inflateDiagramText(packed: string): Promise<string> {
  const bytes = Uint8Array.from(atob(packed.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return decodeURIComponent(await new Response(stream).text());
}

/**
 * Makes the first page of a diagram editable in place (DRW-2): when its `<diagram>` holds the
 * compressed text instead of an `<mxGraphModel>`, the text is inflated and replaced by the model,
 * so the document is written back uncompressed (draw.io reads both forms). Resolves to the
 * document (changed or, with nothing to do, not), or to `failed` when the text cannot be inflated.
 * @example const expanded = await expandFirstPage(document); if (!isFailure(expanded)) modelRoot(expanded) // now found
 */
export async function expandFirstPage(document: XMLDocument): Promise<XMLDocument | OperationFailure> {
  const unreadable = (message: string) => fail(ErrorCode.failed, `the first <diagram> of the open diagram ${message}`);
  const top = document.documentElement;
  if (top.localName !== 'mxfile') return document;
  const page = Array.from(top.children).find((child) => child.localName === 'diagram');
  if (!page || Array.from(page.children).some((child) => child.localName === 'mxGraphModel')) return document;
  const packed = page.textContent?.trim() ?? '';
  if (packed === '') return document;
  let text: string;
  try {
    text = await inflateDiagramText(packed);
  } catch (error) {
    return unreadable(`holds text that is not draw.io's compressed form: ${describeError(error)}`);
  }
  const model = parseXml(text);
  if (isFailure(model)) return unreadable(`is compressed, and its content is not well-formed XML: ${model.error.message}`);
  if (model.documentElement.localName !== 'mxGraphModel') return unreadable('is compressed, and its content is not an <mxGraphModel>');
  page.textContent = '';
  page.appendChild(document.importNode(model.documentElement, true));
  return document;
}

/** The `<root>` of the first `<mxGraphModel>` of a diagram, or null. */
export function modelRoot(document: XMLDocument): Element | null {
  const top = document.documentElement;
  const model = top.localName === 'mxGraphModel' ? top : top.getElementsByTagName('mxGraphModel')[0];
  if (!model) return null;
  return Array.from(model.children).find((child) => child.localName === 'root') ?? null;
}

/** Reads `cells`: one or more cell elements, written as a fragment; `invalid_input` when it is not that. */
export function parseCells(cells: string): Element[] | OperationFailure {
  const refuse = (message: string) => fail(ErrorCode.invalidInput, message);
  // A fragment has no single document element: wrap it. A leading XML declaration cannot be wrapped.
  const body = cells.replace(/^\uFEFF?\s*<\?xml[^?]*\?>/, '');
  const parsed = parseXml(`<root>${body}</root>`);
  if (isFailure(parsed)) return refuse(`cells is not well-formed XML: ${parsed.error.message}`);
  const elements: Element[] = [];
  for (const node of Array.from(parsed.documentElement.childNodes)) {
    if (node.nodeType === Node.ELEMENT_NODE) {
      const element = node as Element;
      if (!CELL_ELEMENTS.has(element.localName)) {
        return refuse(`cells may hold only <mxCell> elements (or <UserObject>/<object> wrapping one), not <${element.localName}>`);
      }
      elements.push(element);
    } else if (node.nodeType === Node.TEXT_NODE || node.nodeType === Node.CDATA_SECTION_NODE) {
      if ((node.textContent ?? '').trim() !== '') return refuse('cells may hold only <mxCell> elements, not text');
    }
  }
  return elements.length === 0 ? refuse('cells holds no <mxCell> element') : elements;
}
