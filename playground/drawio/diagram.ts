/**
 * draw.io XML as the page reads it: which documents are diagrams, where their `<mxGraphModel>` is
 * (inflating a compressed `<diagram>` the way draw.io writes it), and a copy of the model made
 * safe to render: nothing in it may fetch from another origin or run script.
 * @module
 */
import { isFailure } from 'ai-ops';
import { inflateDiagramText, parseXml } from 'ai-ops/tools/drawio';

/** The useful part of Chromium's parser error ("…errors:error on line 3 at column 1: … Below is a rendering…"). */
function parserMessage(message: string): string {
  const found = /error on line \d+ at column \d+:.*?(?=\s*Below is a rendering|$)/.exec(message);
  return found ? found[0] : message;
}

/** A diagram's XML is usable when it is well-formed and its top element is `<mxfile>` or `<mxGraphModel>`. */
export function checkDiagram(xml: string): { ok: true; document: XMLDocument } | { ok: false; message: string } {
  const parsed = parseXml(xml);
  if (isFailure(parsed)) return { ok: false, message: `XML として読めません: ${parserMessage(parsed.error.message)}` };
  const top = parsed.documentElement.localName;
  if (top !== 'mxfile' && top !== 'mxGraphModel') return { ok: false, message: `一番外の要素は <mxfile> か <mxGraphModel> にします(今は <${top}>)。` };
  return { ok: true, document: parsed };
}

/** The first page's `<mxGraphModel>` of a diagram document, or null when it has none. */
export async function findModel(document: XMLDocument): Promise<Element | null> {
  const top = document.documentElement;
  if (top.localName === 'mxGraphModel') return top;
  const page = Array.from(top.children).find((child) => child.localName === 'diagram');
  if (!page) return null;
  const model = Array.from(page.children).find((child) => child.localName === 'mxGraphModel');
  if (model) return model;
  const packed = page.textContent?.trim() ?? '';
  if (packed === '') return null;
  const parsed = parseXml(await inflateDiagramText(packed));
  return !isFailure(parsed) && parsed.documentElement.localName === 'mxGraphModel' ? parsed.documentElement : null;
}

/** True for a URL that would leave this page's origin (data: stays local). */
function isForeign(url: string): boolean {
  const trimmed = url.trim();
  if (trimmed === '' || /^data:/i.test(trimmed)) return false;
  try {
    return new URL(trimmed, location.href).origin !== location.origin;
  } catch {
    return true;
  }
}

/**
 * A cell style without anything that would be fetched: draw.io puts image URLs in `image=` (and
 * a few other keys); an entry whose value is a URL of another origin (`https://…`, `//…`) or holds
 * `url(…)` is dropped. `data:` images and same-origin paths stay.
 */
export function safeStyle(style: string): string {
  return style
    .split(';')
    .filter((entry) => {
      const value = entry.slice(entry.indexOf('=') + 1);
      if (/url\(/i.test(value)) return false;
      return !(/^\s*(?:[a-z][a-z0-9+.-]*:)?\/\//i.test(value) && isForeign(value));
    })
    .join(';');
}

/** Tags an HTML label may keep: formatting only, nothing that loads, links or runs. */
const LABEL_TAGS = new Set([
  'b', 'strong', 'i', 'em', 'u', 's', 'strike', 'sub', 'sup', 'br', 'hr', 'div', 'span', 'p', 'font', 'ul', 'ol', 'li',
  'pre', 'code', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'td', 'th', 'blockquote', 'small', 'big',
]);

/**
 * An HTML label reduced to formatting: unknown elements are replaced by their text, and the only
 * attributes kept are `style` without `url(` and `<font>`'s `color`/`face`/`size`. The input is
 * parsed in an inert document (nothing loads or runs there).
 * @example safeHtmlLabel('<b>a</b><img src=x onerror=alert(1)>') // '<b>a</b>'
 */
export function safeHtmlLabel(html: string): string {
  const inert = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const out = document.createElement('div');
  const copy = (from: Node, to: Node): void => {
    for (const node of Array.from(from.childNodes)) {
      if (node.nodeType === Node.TEXT_NODE) {
        to.appendChild(document.createTextNode(node.textContent ?? ''));
      } else if (node.nodeType === Node.ELEMENT_NODE) {
        const element = node as Element;
        const tag = element.localName;
        if (tag === 'script' || tag === 'style' || tag === 'template') continue;
        if (!LABEL_TAGS.has(tag)) {
          copy(element, to);
          continue;
        }
        const clean = document.createElement(tag);
        const style = element.getAttribute('style');
        if (style && !/url\(|expression|@import|javascript:/i.test(style)) clean.setAttribute('style', style);
        if (tag === 'font') {
          for (const name of ['color', 'face', 'size']) {
            const value = element.getAttribute(name);
            if (value !== null) clean.setAttribute(name, value);
          }
        }
        copy(element, clean);
        to.appendChild(clean);
      }
    }
  };
  copy(inert.body, out);
  return out.innerHTML;
}

/** True when a style string turns HTML labels on (`html=1`). */
export function isHtmlStyle(style: string | null): boolean {
  return style !== null && /(^|;)html=1(;|$)/.test(style);
}

/**
 * A copy of `model` ready for maxGraph: each `<UserObject>`/`<object>` becomes the plain `<mxCell>`
 * it wraps (with the wrapper's id and `label` as its value), every style is made safe, every
 * HTML label is reduced to formatting.
 */
export function previewModel(model: Element): string {
  const copy = model.cloneNode(true) as Element;
  for (const wrapper of Array.from(copy.getElementsByTagName('*')).filter((e) => e.localName === 'UserObject' || e.localName === 'object')) {
    const inner = Array.from(wrapper.children).find((child) => child.localName === 'mxCell');
    if (!inner) {
      wrapper.remove();
      continue;
    }
    const id = wrapper.getAttribute('id');
    if (id !== null) inner.setAttribute('id', id);
    inner.setAttribute('value', wrapper.getAttribute('label') ?? '');
    wrapper.replaceWith(inner);
  }
  for (const cell of Array.from(copy.getElementsByTagName('mxCell'))) {
    const style = cell.getAttribute('style');
    if (style !== null) cell.setAttribute('style', safeStyle(style));
    const value = cell.getAttribute('value');
    if (value !== null && value !== '') {
      cell.setAttribute('value', isHtmlStyle(style) ? safeHtmlLabel(value) : value);
    }
  }
  return new XMLSerializer().serializeToString(copy);
}
