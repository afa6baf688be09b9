/**
 * The slide editor page: a Markdown editor, a live Marp preview in a shadow root (so Marp's CSS
 * stays inside it), a theme select, 「元に戻す」, and the deck list. The state and the operations
 * live in state.ts; this module only shows them and turns a person's input into state changes.
 * @module
 */
// Called, not only imported: package.json's "sideEffects" lists the built files only, so a bare
// import of the source module would be dropped by esbuild (defining twice is a no-op).
import { defineAiOpsElements } from '../../elements/define.js';
import { slides, WELCOME_ID, type SlidesChange } from './state.js';
import { renderDeck, sanitizeFragment } from './marp.js';

defineAiOpsElements();

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const editor = $<HTMLTextAreaElement>('markdown');
const nameInput = $<HTMLInputElement>('deck-name');
const themeSelect = $<HTMLSelectElement>('theme');
const undoButton = $<HTMLButtonElement>('undo');
const openSelect = $<HTMLSelectElement>('open-deck');
const newButton = $<HTMLButtonElement>('new-deck');
const docName = $<HTMLSpanElement>('doc-name');
const slideCount = $<HTMLSpanElement>('slide-count');
const notice = $<HTMLParagraphElement>('notice');
const previewHost = $<HTMLDivElement>('preview');

const preview = previewHost.attachShadow({ mode: 'open' });

/** Layout of the preview around Marp's own CSS: one slide per row, scaled to the pane's width. */
const PREVIEW_CSS = `
  :host { display: block; }
  .marpit { display: flex; flex-direction: column; gap: 16px; }
  .marpit > svg[data-marpit-svg] { display: block; width: 100%; height: auto; background: #fff; box-shadow: 0 1px 4px rgb(0 0 0 / .25); }
`;

for (const theme of slides.themes) themeSelect.append(new Option(theme, theme));

let frame = 0;
/** Renders the deck on the next frame: many keystrokes between two frames cost one render. */
function schedulePreview(): void {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    renderPreview();
  });
}

function renderPreview(): void {
  const deck = slides.deck;
  if (!deck) return;
  const rendered = renderDeck(deck.markdown);
  // Parsed in an inert <template>: nothing in it loads or runs until it is sanitised and adopted.
  const template = document.createElement('template');
  template.innerHTML = rendered.html;
  sanitizeFragment(template.content);
  const style = document.createElement('style');
  style.textContent = `${rendered.css}\n${PREVIEW_CSS}`;
  preview.replaceChildren(style, template.content);
  previewHost.dataset.slideCount = String(rendered.slideCount);
  previewHost.dataset.theme = rendered.theme;
  slideCount.textContent = `${rendered.slideCount} 枚`;
  if (themeSelect.value !== rendered.theme) themeSelect.value = rendered.theme;
}

function showDocument(): void {
  const deck = slides.deck;
  if (!deck) return;
  document.title = `${deck.name} — slides — ai-ops`;
  docName.textContent = deck.name;
  if (document.activeElement !== nameInput) nameInput.value = deck.name;
}

function showError(): void {
  const message = slides.error ?? (slides.persistent ? null : 'このブラウザでは保存できません。スライドは、ページを閉じると消えます。');
  notice.hidden = message === null;
  notice.textContent = message ?? '';
}

function onChange(change: SlidesChange): void {
  const deck = slides.deck;
  if (!deck) return;
  if (change.kind === 'document') {
    showDocument();
    showError();
  }
  // A person's own keystrokes are already in the editor; anything else (agent, undo, theme, load)
  // replaces its text. Selection is kept where it still fits.
  if (change.source !== 'typing' && editor.value !== deck.markdown) {
    const { selectionStart, selectionEnd } = editor;
    editor.value = deck.markdown;
    editor.setSelectionRange(Math.min(selectionStart, deck.markdown.length), Math.min(selectionEnd, deck.markdown.length));
  }
  undoButton.disabled = !slides.canUndo;
  schedulePreview();
}

slides.subscribe(onChange);

editor.addEventListener('input', () => void slides.setMarkdown(editor.value, 'typing'));
themeSelect.addEventListener('change', () => void slides.setTheme(themeSelect.value, 'user'));
undoButton.addEventListener('click', () => void slides.undo());
nameInput.addEventListener('change', () => void slides.rename(nameInput.value).then(() => refreshDeckList()));
nameInput.addEventListener('keydown', (event) => {
  if (event.key === 'Enter') nameInput.blur();
  if (event.key === 'Escape') {
    nameInput.value = slides.deck?.name ?? '';
    nameInput.blur();
  }
});
openSelect.addEventListener('change', () => {
  if (openSelect.value && openSelect.value !== slides.deck?.id) location.assign(`?doc=${encodeURIComponent(openSelect.value)}`);
});
newButton.addEventListener('click', async () => {
  const id = await slides.create('新しいスライド');
  await slides.flush();
  location.assign(`?doc=${encodeURIComponent(id)}`);
});
addEventListener('pagehide', () => void slides.flush());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') void slides.flush();
});

async function refreshDeckList(): Promise<void> {
  const decks = await slides.list();
  openSelect.replaceChildren(...decks.map((deck) => new Option(deck.name, deck.id, false, deck.id === slides.deck?.id)));
  openSelect.disabled = decks.length < 2;
}

async function start(): Promise<void> {
  try {
    await slides.open(id);
  } catch (error) {
    notice.hidden = false;
    notice.textContent = `スライドを開けませんでした: ${error instanceof Error ? error.message : String(error)}`;
    return;
  }
  for (const control of [editor, nameInput, themeSelect]) control.disabled = false;
  await refreshDeckList();
}

/** The document `?doc=` asks for. */
const id = new URLSearchParams(location.search).get('doc') ?? WELCOME_ID;
// Until the name is read from IndexedDB the title carries the id: the relay widget copies the title
// into every operation's description when it starts, which can be before the name is known.
document.title = `${id} — slides — ai-ops`;
void start();
