/**
 * The draw.io page: an XML editor (CodeMirror; applied while it is a diagram, an error shown while
 * it is not), a maxGraph canvas a person edits with the mouse, 「元に戻す」, and the shared document
 * bar. The state and the operations live in ./state.ts; this module shows them and turns a
 * person's input into state changes.
 * @module
 */
import { useEffect, useRef, useState } from 'react';
import { DocumentPage, useOpenDocument } from '../shared/document-bar.js';
import { CodeEditor } from '../shared/code-editor.js';
import { checkDiagram } from './diagram.js';
import { createDiagramPreview, type DiagramPreview } from './preview.js';
import { bootDrawio, drawio } from './state.js';
import { applyCanvasEdits, type CanvasEdit } from './write-back.js';

/**
 * FIRST-7: the page's own undo is named apart from the log rows' 「元に戻す」: it steps back the page's
 * history (the last change, whoever made it), where the log's undoes one chosen agent call after asking.
 */
const UNDO_LAST = '直前の変更を取り消す';

/** How long typing rests before the XML is checked and applied. */
const APPLY_DELAY_MS = 250;

/** maxGraph's images, served by ./build.mjs. */
const MAXGRAPH_IMAGES = '/drawio/maxgraph/images';

/**
 * The XML editor (CodeMirror, the keyboard's way to edit the diagram): a person's text is applied
 * once it rests and is a diagram; anything else that changes the diagram (the canvas, an agent,
 * 「元に戻す」, opening another one) reaches the editor through `xml`.
 */
function XmlEditor({ xml, documentKey, disabled }: { xml: string; documentKey: string | undefined; disabled: boolean }) {
  const applyTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** The editor's text while it differs from the diagram's (typing still resting, or not a diagram). */
  const typed = useRef<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const apply = () => {
    clearTimeout(applyTimer.current);
    applyTimer.current = undefined;
    const text = typed.current;
    if (text === null) return;
    const checked = checkDiagram(text);
    if (!checked.ok) {
      setError(`${checked.message}\n図は、最後に読めた XML のままです。`);
      return;
    }
    setError(null);
    typed.current = null;
    void drawio.setText(text, 'typing');
  };

  // Another diagram opened: the editor starts over with its text, so nothing typed is pending. (A
  // change from elsewhere to the same diagram replaces the editor's text, which calls onChange with
  // the diagram's text: that clears what was pending there.)
  useEffect(() => {
    clearTimeout(applyTimer.current);
    applyTimer.current = undefined;
    typed.current = null;
    setError(null);
  }, [documentKey]);

  // Leaving the page keeps an edit still resting, as a blur would.
  useEffect(() => () => {
    if (applyTimer.current !== undefined) apply();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div
      className="xml-editor"
      onBlur={() => {
        if (applyTimer.current !== undefined) apply();
      }}
    >
      <CodeEditor
        documentKey={documentKey}
        language="xml"
        label="draw.io の XML"
        describedBy="xml-error drawio-help"
        value={xml}
        disabled={disabled}
        invalid={error !== null}
        onChange={(text) => {
          clearTimeout(applyTimer.current);
          applyTimer.current = undefined;
          if (text === drawio.document?.xml) {
            // Back to the diagram as it is (an applied write, or the typing undone): nothing to apply or complain about.
            typed.current = null;
            setError(null);
            return;
          }
          typed.current = text;
          applyTimer.current = setTimeout(apply, APPLY_DELAY_MS);
        }}
      />
      <p id="xml-error" className="xml-error" aria-live="polite" hidden={error === null}>{error}</p>
    </div>
  );
}

/**
 * The maxGraph canvas, redrawn whenever the diagram's XML changes (except by its own edits, which
 * it already shows); `onCount` gets the cells drawn. A person's mouse edits are patched into the
 * original XML (write-back.ts) as one 'user' change each, so 「元に戻す」 undoes them.
 */
function Preview({ onCount }: { onCount(cells: number): void }) {
  const host = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const container = host.current!;
    let live = true;
    /** The XML the canvas's last edit produced: the canvas shows it already. */
    let written: string | null = null;
    /** Edits are patched one after another, each into the XML the previous one left. */
    let writing = Promise.resolve();
    const showCount = (cells: number) => {
      container.dataset.cellCount = String(cells);
      onCount(cells);
    };
    const onEdit = (edits: CanvasEdit[]) => {
      showCount(preview.count());
      writing = writing.then(async () => {
        const xml = drawio.document?.xml;
        if (xml === undefined || !live) return;
        const next = await applyCanvasEdits(xml, edits);
        if (next === null || !live || drawio.document?.xml !== xml) return;
        written = next;
        await drawio.setText(next, 'user');
      }).catch((cause: unknown) => setError(`図に書き戻せません: ${cause instanceof Error ? cause.message : String(cause)}`));
    };
    const preview: DiagramPreview = createDiagramPreview(container, MAXGRAPH_IMAGES, onEdit, (id) => idIsTaken(drawio.document?.xml ?? '', id));
    let rendering = Promise.resolve();
    /** Renders the current XML after any render in progress. */
    const render = (fit: boolean) => {
      rendering = rendering.then(async () => {
        const xml = drawio.document?.xml;
        if (xml === undefined || !live) return;
        const result = await preview.render(xml, { fit });
        if (!live) return;
        setError(result.ok ? null : result.message);
        if (result.ok) showCount(result.cells);
        container.dataset.renderedXmlLength = String(xml.length);
      });
    };
    render(true);
    const stop = drawio.subscribe((change) => {
      if (change.source === 'load') render(true);
      else if (change.kind === 'xml' && !(change.source === 'user' && drawio.document?.xml === written)) render(false);
      else if (change.kind === 'xml') container.dataset.renderedXmlLength = String(written?.length ?? 0);
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
      <p id="drawio-help" className="visually-hidden">
        図のキャンバスはマウスで編集できます(移動、大きさの変更、接続、ダブルクリックでラベル、選んで Delete で削除)。キーボードでは XML エディタで編集します。
      </p>
      <div id="preview" ref={host} className="preview" role="figure" aria-label="図のキャンバス" aria-describedby="drawio-help" />
    </>
  );
}

/** True when `xml` already uses `id` for something (a quick textual check, enough for new ids). */
function idIsTaken(xml: string, id: string): boolean {
  return xml.includes(`id="${id}"`);
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
      controls={<button type="button" className="tool-button" disabled={!view.canUndo} onClick={() => void drawio.undo()}>{UNDO_LAST}</button>}
      editor={<XmlEditor xml={view.shown?.xml ?? ''} documentKey={view.shown?.id} disabled={!view.shown} />}
      count={{ id: 'cell-count', text: cells === null ? '' : `${cells} 個` }}
      preview={<Preview onCount={setCells} />}
      stylesheets={['/drawio/maxgraph/common.css']}
    />
  );
}
