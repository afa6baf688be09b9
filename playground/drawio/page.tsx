/**
 * The draw.io page: an XML editor (applied while it is a diagram, an error shown while it is not),
 * a live maxGraph preview, 「元に戻す」, and the shared document bar. The state and the operations
 * live in ./state.ts; this module shows them and turns a person's input into state changes.
 * @module
 */
import { useEffect, useRef, useState } from 'react';
import { AiOpsLog } from 'ai-ops/react';
import { DocumentBar, DocumentNotice, useOpenDocument } from '../shared/document-bar.js';
import { ToolHeader } from '../shared/tool-header.js';
import { usePageTitle } from '../shared/use-title.js';
import { checkDiagram } from './diagram.js';
import { createDiagramPreview, type DiagramPreview } from './preview.js';
import { bootDrawio, drawio, type DrawioChange } from './state.js';

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
    const show = (change?: DrawioChange) => {
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
      clearTimeout(applyTimer.current);
    };
  }, []);

  const apply = () => {
    clearTimeout(applyTimer.current);
    applyTimer.current = undefined;
    const text = editor.current!.value;
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
          applyTimer.current = setTimeout(apply, APPLY_DELAY_MS);
        }}
        onBlur={() => {
          if (applyTimer.current !== undefined) apply();
        }}
      />
      <p id="xml-error" className="xml-error" aria-live="polite" hidden={error === null}>{error}</p>
    </>
  );
}

/** The maxGraph preview, redrawn whenever the diagram's XML changes. */
function Preview() {
  const host = useRef<HTMLDivElement>(null);
  const [count, setCount] = useState<number | null>(null);
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
          setCount(result.cells);
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
  }, []);

  return (
    <section className="preview-pane" aria-labelledby="preview-title">
      <div className="preview-bar">
        <h2 id="preview-title">プレビュー</h2> <span id="cell-count" className="preview-count" aria-live="polite">{count === null ? '' : `${count} 個`}</span>
      </div>
      <p id="preview-error" className="xml-error" aria-live="polite" hidden={error === null}>{error}</p>
      <div id="preview" ref={host} className="preview" role="img" aria-label="図のプレビュー" />
    </section>
  );
}

/** The page at /drawio/. */
export default function DrawioPage() {
  const view = useOpenDocument(drawio, { boot: bootDrawio, what: '図' });
  usePageTitle([view.name, 'drawio']);
  return (
    <>
      <link rel="stylesheet" href="/shared/document-page.css" precedence="page" />
      <link rel="stylesheet" href="/drawio/maxgraph/common.css" precedence="page" />
      <link rel="stylesheet" href="/drawio/drawio.css" precedence="page" />
      <ToolHeader tool="drawio" title="draw.io" documentName={view.name} />
      <DocumentNotice view={view} what="図" />
      <main className="page-main document-main drawio-main">
        <section className="editor-pane" aria-label="エディタ">
          <DocumentBar documents={drawio} label="図の操作" newName="新しい図">
            <button type="button" className="tool-button" disabled={!view.canUndo} onClick={() => void drawio.undo()}>元に戻す</button>
          </DocumentBar>
          <XmlEditor disabled={!view.shown} />
        </section>
        <Preview />
      </main>
      <footer className="page-footer">
        <AiOpsLog tool="drawio" />
      </footer>
    </>
  );
}
