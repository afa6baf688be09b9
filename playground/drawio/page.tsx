/**
 * The draw.io page: an XML editor (applied while it is a diagram, an error shown while it is not),
 * a live maxGraph preview, 「元に戻す」, and the shared document bar. The state and the operations
 * live in ./state.ts; this module shows them and turns a person's input into state changes.
 * @module
 */
import { useEffect, useRef, useState } from 'react';
import { DocumentPage, useOpenDocument } from '../shared/document-bar.js';
import type { DocumentChange } from '../shared/document-state.js';
import { checkDiagram } from './diagram.js';
import { createDiagramPreview, type DiagramPreview } from './preview.js';
import { bootDrawio, drawio } from './state.js';

/** How long typing rests before the XML is checked and applied. */
const APPLY_DELAY_MS = 250;

/** maxGraph's images, served by ./build.mjs. */
const MAXGRAPH_IMAGES = '/drawio/maxgraph/images';

/**
 * The XML editor: a person's text is applied once it rests and is a diagram; anything else that
 * changes the diagram (an agent, 「元に戻す」, opening another one) replaces the editor's text.
 */
function XmlEditor({ disabled }: { disabled: boolean }) {
  const editor = useRef<HTMLTextAreaElement>(null);
  const applyTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const textarea = editor.current!;
    const show = (change?: DocumentChange<'xml'>) => {
      const xml = drawio.document?.xml;
      if (xml === undefined || change?.source === 'typing' || textarea.value === xml) return;
      const { selectionStart, selectionEnd } = textarea;
      clearTimeout(applyTimer.current);
      applyTimer.current = undefined;
      textarea.value = xml;
      textarea.setSelectionRange(Math.min(selectionStart, xml.length), Math.min(selectionEnd, xml.length));
      setError(null);
    };
    show();
    const stop = drawio.subscribe(show);
    return () => {
      stop();
      // Leaving the page keeps an edit still resting, as a blur would.
      if (applyTimer.current !== undefined) apply(textarea.value);
    };
  }, []);

  const apply = (text = editor.current!.value) => {
    clearTimeout(applyTimer.current);
    applyTimer.current = undefined;
    const checked = checkDiagram(text);
    if (!checked.ok) {
      setError(`${checked.message}\n図は、最後に読めた XML のままです。`);
      return;
    }
    setError(null);
    void drawio.setText(text, 'typing');
  };

  return (
    <>
      <label className="visually-hidden" htmlFor="xml">draw.io の XML</label>
      <textarea
        id="xml"
        ref={editor}
        className="code"
        spellCheck={false}
        wrap="off"
        disabled={disabled}
        aria-invalid={error === null ? undefined : true}
        aria-describedby="xml-error"
        onInput={() => {
          clearTimeout(applyTimer.current);
          applyTimer.current = setTimeout(() => apply(), APPLY_DELAY_MS);
        }}
        onBlur={() => {
          if (applyTimer.current !== undefined) apply();
        }}
      />
      <p id="xml-error" className="xml-error" aria-live="polite" hidden={error === null}>{error}</p>
    </>
  );
}

/** The maxGraph preview, redrawn whenever the diagram's XML changes; `onCount` gets the cells drawn. */
function Preview({ onCount }: { onCount(cells: number): void }) {
  const host = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const container = host.current!;
    const preview: DiagramPreview = createDiagramPreview(container, MAXGRAPH_IMAGES);
    let live = true;
    let rendering = Promise.resolve();
    /** Renders the current XML after any render in progress. */
    const render = () => {
      rendering = rendering.then(async () => {
        const xml = drawio.document?.xml;
        if (xml === undefined || !live) return;
        const result = await preview.render(xml);
        if (!live) return;
        setError(result.ok ? null : result.message);
        if (result.ok) {
          container.dataset.cellCount = String(result.cells);
          onCount(result.cells);
        }
        container.dataset.renderedXmlLength = String(xml.length);
      });
    };
    render();
    const stop = drawio.subscribe((change) => {
      if (change.kind === 'xml' || change.source === 'load') render();
    });
    return () => {
      live = false;
      stop();
      preview.graph.destroy();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <>
      <p id="preview-error" className="xml-error" aria-live="polite" hidden={error === null}>{error}</p>
      <div id="preview" ref={host} className="preview" role="img" aria-label="図のプレビュー" />
    </>
  );
}

/** The page at /drawio/. */
export default function DrawioPage() {
  const view = useOpenDocument(drawio, { boot: bootDrawio, what: '図' });
  const [cells, setCells] = useState<number | null>(null);
  return (
    <DocumentPage
      tool="drawio"
      title="draw.io"
      what="図"
      view={view}
      documents={drawio}
      controls={<button type="button" className="tool-button" disabled={!view.canUndo} onClick={() => void drawio.undo()}>元に戻す</button>}
      editor={<XmlEditor disabled={!view.shown} />}
      count={{ id: 'cell-count', text: cells === null ? '' : `${cells} 個` }}
      preview={<Preview onCount={setCells} />}
      stylesheets={['/drawio/maxgraph/common.css']}
    />
  );
}
