/**
 * The draw.io page: an XML editor (applied while it is a diagram, an error shown while it is not),
 * a live maxGraph preview, 「元に戻す」, and the diagram list. The state and the operations live in
 * state.ts; this module shows them and turns a person's input into state changes.
 * @module
 */
// Called, not only imported: package.json's "sideEffects" lists the built files only, so a bare
// import of the source module would be dropped by esbuild (defining twice is a no-op).
import { defineAiOpsElements } from '../../elements/define.js';
import { checkDiagram } from './diagram.js';
import { createDiagramPreview } from './preview.js';
import { drawio, WELCOME_ID, type DrawioChange } from './state.js';

defineAiOpsElements();

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const editor = $<HTMLTextAreaElement>('xml');
const xmlError = $<HTMLParagraphElement>('xml-error');
const nameInput = $<HTMLInputElement>('diagram-name');
const undoButton = $<HTMLButtonElement>('undo');
const openSelect = $<HTMLSelectElement>('open-diagram');
const newButton = $<HTMLButtonElement>('new-diagram');
const docName = $<HTMLSpanElement>('doc-name');
const cellCount = $<HTMLSpanElement>('cell-count');
const notice = $<HTMLParagraphElement>('notice');
const previewHost = $<HTMLDivElement>('preview');
const previewError = $<HTMLParagraphElement>('preview-error');

const preview = createDiagramPreview(previewHost, new URL('./maxgraph/images', location.href).pathname);

/** How long typing rests before the XML is checked and applied. */
const APPLY_DELAY_MS = 250;

let rendering = Promise.resolve();
/** Renders the current XML after any render in progress. */
function renderPreview(): void {
  rendering = rendering.then(async () => {
    const xml = drawio.diagram?.xml;
    if (xml === undefined) return;
    const result = await preview.render(xml);
    previewError.hidden = result.ok;
    previewError.textContent = result.ok ? '' : result.message;
    if (result.ok) {
      previewHost.dataset.cellCount = String(result.cells);
      cellCount.textContent = `${result.cells} 個`;
    }
    previewHost.dataset.renderedXmlLength = String(xml.length);
  });
}

function showEditorError(message: string | null): void {
  xmlError.hidden = message === null;
  xmlError.textContent = message ?? '';
  if (message === null) editor.removeAttribute('aria-invalid');
  else editor.setAttribute('aria-invalid', 'true');
}

function showDocument(): void {
  const diagram = drawio.diagram;
  if (!diagram) return;
  document.title = `${diagram.name} — drawio — ai-ops`;
  docName.textContent = diagram.name;
  if (document.activeElement !== nameInput) nameInput.value = diagram.name;
  const message = drawio.error ?? (drawio.persistent ? null : 'このブラウザでは保存できません。図は、ページを閉じると消えます。');
  notice.hidden = message === null;
  notice.textContent = message ?? '';
}

function onChange(change: DrawioChange): void {
  const diagram = drawio.diagram;
  if (!diagram) return;
  if (change.kind === 'document') showDocument();
  // A person's edit is already in the editor; anything else (agent, undo, load) replaces the
  // editor's text, an unapplied broken edit included.
  if (change.source !== 'typing' && editor.value !== diagram.xml) {
    const { selectionStart, selectionEnd } = editor;
    clearTimeout(applyTimer);
    editor.value = diagram.xml;
    editor.setSelectionRange(Math.min(selectionStart, diagram.xml.length), Math.min(selectionEnd, diagram.xml.length));
    showEditorError(null);
  }
  undoButton.disabled = !drawio.canUndo;
  if (change.kind === 'xml' || change.source === 'load') renderPreview();
}

drawio.subscribe(onChange);

let applyTimer: ReturnType<typeof setTimeout> | undefined;
/** Applies the editor's text when it is a diagram; otherwise says why and keeps the last diagram. */
function applyEditor(): void {
  clearTimeout(applyTimer);
  const text = editor.value;
  const checked = checkDiagram(text);
  if (!checked.ok) {
    showEditorError(`${checked.message}\n図は、最後に読めた XML のままです。`);
    return;
  }
  showEditorError(null);
  void drawio.setXml(text, 'typing');
}

editor.addEventListener('input', () => {
  clearTimeout(applyTimer);
  applyTimer = setTimeout(applyEditor, APPLY_DELAY_MS);
});
editor.addEventListener('blur', () => {
  if (applyTimer !== undefined) applyEditor();
});
undoButton.addEventListener('click', () => void drawio.undo());
nameInput.addEventListener('change', () => void drawio.rename(nameInput.value).then(() => refreshList()));
nameInput.addEventListener('keydown', (event) => {
  if (event.key === 'Enter') nameInput.blur();
  if (event.key === 'Escape') {
    nameInput.value = drawio.diagram?.name ?? '';
    nameInput.blur();
  }
});
openSelect.addEventListener('change', () => {
  if (openSelect.value && openSelect.value !== drawio.diagram?.id) location.assign(`?doc=${encodeURIComponent(openSelect.value)}`);
});
newButton.addEventListener('click', async () => {
  const id = await drawio.create('新しい図');
  await drawio.flush();
  location.assign(`?doc=${encodeURIComponent(id)}`);
});
addEventListener('pagehide', () => void drawio.flush());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') void drawio.flush();
});

async function refreshList(): Promise<void> {
  const diagrams = await drawio.list();
  openSelect.replaceChildren(...diagrams.map((d) => new Option(d.name, d.id, false, d.id === drawio.diagram?.id)));
  openSelect.disabled = diagrams.length < 2;
}

async function start(): Promise<void> {
  try {
    await drawio.open(id);
  } catch (cause) {
    notice.hidden = false;
    notice.textContent = `図を開けませんでした: ${cause instanceof Error ? cause.message : String(cause)}`;
    return;
  }
  editor.disabled = false;
  nameInput.disabled = false;
  await refreshList();
}

/** The document `?doc=` asks for. */
const id = new URLSearchParams(location.search).get('doc') ?? WELCOME_ID;
// Until the name is read from IndexedDB the title carries the id: the relay widget copies the title
// into every operation's description when it starts, which can be before the name is known.
document.title = `${id} — drawio — ai-ops`;
void start();
