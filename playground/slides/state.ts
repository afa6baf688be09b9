/**
 * The slide editor's state: the open deck (saved in IndexedDB), its Markdown and theme, and the
 * page's 「元に戻す」 (demo/shared/document-state.ts). Implements the slides adapter and hands the
 * operations to the runtime at module initialisation (SHAPE-5); the UI (main.ts) subscribes to it
 * like any other reader.
 * @module
 */
import { provideOperations } from '../../src/index.js';
import type { SlidesToolAdapter } from '../../tools/slides/adapter.js';
import { createSlidesOperations } from '../../tools/slides/operations.js';
import type { OpenDocument } from '../../tools/shared.js';
import { createDocumentState, type DocumentChange, type TextDocument } from '../../playground/shared/document-state.js';
import type { ChangeSource } from '../../playground/shared/history.js';
import { defaultTheme, renderDeck, themeNames, withTheme } from './marp.js';
import { WELCOME_MARKDOWN, WELCOME_NAME, newDeckMarkdown } from './sample.js';

export { WELCOME_ID } from '../../playground/shared/document-state.js';

/** A saved deck. The theme lives in the Markdown's `theme` directive, as Marp users write it. */
export type Deck = TextDocument<'markdown'>;

/** What changed, for subscribers: 'markdown' for text/theme changes, 'document' when a deck was opened or renamed. */
export type SlidesChange = DocumentChange<'markdown'>;

const state = createDocumentState({
  storeName: 'ai-ops-slides',
  field: 'markdown',
  idPrefix: 'deck',
  welcome: { name: WELCOME_NAME, text: WELCOME_MARKDOWN },
  blank: newDeckMarkdown,
});

/** The slide editor's state, read by the UI and the adapter. */
export const slides = {
  /** The open deck, or null while loading. */
  get deck(): Readonly<Deck> | null {
    return state.document;
  },
  get error() {
    return state.error;
  },
  get canUndo() {
    return state.canUndo;
  },
  get persistent() {
    return state.persistent;
  },
  themes: themeNames,
  subscribe: state.subscribe,
  open: state.open,
  create: state.create,
  list: state.list,
  rename: state.rename,
  undo: state.undo,
  flush: state.flush,
  /** Replaces the open deck's Markdown. */
  setMarkdown: state.setText,

  /** The open deck's theme: its directive, or the default theme. */
  get theme(): string {
    const deck = state.document;
    return deck ? renderDeck(deck.markdown).theme : defaultTheme;
  },

  /** Sets the theme by rewriting the deck's `theme` directive. */
  async setTheme(theme: string, source: ChangeSource): Promise<void> {
    const deck = state.document;
    if (!deck) throw new Error('no deck is open');
    if (!themeNames.includes(theme)) throw new Error(`unknown theme: ${theme}`);
    await state.setText(withTheme(deck.markdown, theme), source);
  },
};

/** The adapter the slides operations read on every call (DEF-6). */
export const slidesAdapter: SlidesToolAdapter = {
  getOpenDocument: (): OpenDocument | null => {
    const deck = state.document;
    return deck ? { id: deck.id, name: deck.name } : null;
  },
  getMarkdown: () => state.document?.markdown ?? '',
  setMarkdown: (markdown) => slides.setMarkdown(markdown, 'agent'),
  getThemes: () => themeNames,
  getTheme: () => slides.theme,
  setTheme: (theme) => slides.setTheme(theme, 'agent'),
  getSlideCount: () => renderDeck(state.document?.markdown ?? '').slideCount,
  // The page's 「元に戻す」 restores a deck an agent replaced, so the dialog says so (CONF-2).
  undoRestoresAgentChanges: true,
};

provideOperations('slides', createSlidesOperations(slidesAdapter));
