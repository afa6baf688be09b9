/**
 * The slide editor's state: the open deck (saved in IndexedDB), its Markdown and theme, and its
 * history (playground/shared/document-state.ts). Implements the slides adapter and hands the
 * operations to the runtime when the page is first shown ({@link bootSlides}, SHAPE-5); the deck
 * outlives the page's component.
 * @module
 */
import { provideOperations } from 'ai-ops';
import { createSlidesOperations, type SlidesToolAdapter } from 'ai-ops/tools/slides';
import { createDocumentState } from '../shared/document-state.js';
import type { ChangeSource } from '../shared/history.js';
import { once } from '../shared/once.js';
import { defaultTheme, renderDeck, themeNames, withTheme } from './marp.js';
import { WELCOME_MARKDOWN, WELCOME_NAME, newDeckMarkdown } from './sample.js';

/**
 * The slide editor's decks, read by the UI and the adapter. A deck's theme lives in its Markdown's
 * `theme` directive, as Marp users write it.
 */
export const slides = createDocumentState({
  storeName: 'ai-ops-slides',
  field: 'markdown',
  idPrefix: 'deck',
  welcome: { name: WELCOME_NAME, text: WELCOME_MARKDOWN },
  blank: newDeckMarkdown,
});

/** The themes Marp knows (IN-7), in the select and in `slides_set_theme`'s enum. */
export const themes = themeNames;

/** The open deck's theme: its directive, or the default theme. */
export function deckTheme(): string {
  const deck = slides.document;
  return deck ? renderDeck(deck.markdown).theme : defaultTheme;
}

/** Sets the theme by rewriting the deck's `theme` directive. */
export async function setDeckTheme(theme: string, source: ChangeSource): Promise<void> {
  const deck = slides.document;
  if (!deck) throw new Error('no deck is open');
  if (!themeNames.includes(theme)) throw new Error(`unknown theme: ${theme}`);
  await slides.setText(withTheme(deck.markdown, theme), source);
}

/** The adapter the slides operations read on every call (DEF-6). */
export const slidesAdapter: SlidesToolAdapter = {
  getOpenDocument: slides.openDocument,
  getMarkdown: () => slides.document?.markdown ?? '',
  setMarkdown: (markdown) => slides.setText(markdown, 'agent'),
  getThemes: () => themeNames,
  getTheme: deckTheme,
  setTheme: (theme) => setDeckTheme(theme, 'agent'),
  getSlideCount: () => renderDeck(slides.document?.markdown ?? '').slideCount,
  // The theme is a directive of the Markdown, so the deck's revision is its text's.
  getRevision: () => slides.revision,
  // The page's 「元に戻す」 (and the editor's Ctrl+Z) restores a deck an agent replaced, as the log's does (CONF-2).
  undoRestoresAgentChanges: true,
};

/** Hands the operations over, once per document. */
export const bootSlides = once(() => provideOperations('slides', createSlidesOperations(slidesAdapter)));
