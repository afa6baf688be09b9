/**
 * The slide editor's state: the open deck (saved in IndexedDB), its Markdown and theme, and the
 * page's 「元に戻す」. Implements the slides adapter and hands the operations to the runtime at module
 * initialisation (SHAPE-5); the UI (main.ts) subscribes to it like any other reader.
 * @module
 */
import { provideOperations } from '../../src/index.js';
import type { SlidesToolAdapter } from '../../tools/slides/adapter.js';
import { createSlidesOperations } from '../../tools/slides/operations.js';
import type { OpenDocument } from '../../tools/shared.js';
import { DOCUMENT_ID, newDocumentId, openDocumentStore, type DocumentStore, type SavedDocument } from '../shared/documents.js';
import { createUndoHistory, type ChangeSource } from '../shared/history.js';
import { defaultTheme, renderDeck, themeNames, withTheme } from './marp.js';
import { WELCOME_MARKDOWN, WELCOME_NAME, newDeckMarkdown } from './sample.js';

/** A saved deck. The theme lives in the Markdown's `theme` directive, as Marp users write it. */
export interface Deck extends SavedDocument {
  markdown: string;
}

/** What changed, for subscribers. */
export interface SlidesChange {
  source: ChangeSource;
  /** 'markdown' for text/theme changes, 'document' when a deck was opened or renamed. */
  kind: 'markdown' | 'document';
}

/** The id a page without `?doc=` opens. */
export const WELCOME_ID = 'welcome';

/** How long typing waits before it is saved. */
const SAVE_DELAY_MS = 300;

let store: DocumentStore<Deck> | null = null;
let deck: Deck | null = null;
let loadError: string | null = null;
const history = createUndoHistory();
const listeners = new Set<(change: SlidesChange) => void>();
let saveTimer: ReturnType<typeof setTimeout> | undefined;

function emit(change: SlidesChange): void {
  for (const listener of [...listeners]) listener(change);
}

async function getStore(): Promise<DocumentStore<Deck>> {
  store ??= await openDocumentStore<Deck>('ai-ops-slides');
  return store;
}

async function saveNow(): Promise<void> {
  clearTimeout(saveTimer);
  saveTimer = undefined;
  if (!deck) return;
  deck.updatedAt = Date.now();
  await (await getStore()).put({ ...deck });
}

function saveSoon(): void {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => void saveNow().catch(reportSaveError), SAVE_DELAY_MS);
}

function reportSaveError(error: unknown): void {
  loadError = `保存できませんでした: ${error instanceof Error ? error.message : String(error)}`;
  emit({ source: 'load', kind: 'document' });
}

/** The slide editor's state, read by the UI and the adapter. */
export const slides = {
  /** The open deck, or null while loading. */
  get deck(): Readonly<Deck> | null {
    return deck;
  },
  /** Why the deck could not be opened or saved, if it could not. */
  get error(): string | null {
    return loadError;
  },
  /** Whether 「元に戻す」 has something to restore. */
  get canUndo(): boolean {
    return history.size > 0;
  },
  /** True when documents are kept across reloads (IndexedDB works). */
  get persistent(): boolean {
    return store?.persistent ?? true;
  },
  themes: themeNames,
  subscribe(listener: (change: SlidesChange) => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  /**
   * Opens the deck `id`, creating it on first use (`welcome` gets the sample deck).
   * An id outside `[A-Za-z0-9_-]{1,64}` opens `welcome` instead.
   */
  async open(id: string): Promise<void> {
    const wanted = DOCUMENT_ID.test(id) ? id : WELCOME_ID;
    const documents = await getStore();
    let found = await documents.get(wanted);
    if (!found) {
      found = wanted === WELCOME_ID
        ? { id: wanted, name: WELCOME_NAME, markdown: WELCOME_MARKDOWN, updatedAt: Date.now() }
        : { id: wanted, name: wanted, markdown: newDeckMarkdown(wanted), updatedAt: Date.now() };
      await documents.put(found);
    }
    deck = found;
    history.clear();
    emit({ source: 'load', kind: 'document' });
  },

  /** Creates a new deck and returns its id (the page then navigates to `?doc=<id>`). */
  async create(name: string): Promise<string> {
    const id = newDocumentId('deck');
    await (await getStore()).put({ id, name, markdown: newDeckMarkdown(name), updatedAt: Date.now() });
    return id;
  },

  /** The saved decks, for the page's 「開く」 list. */
  async list(): Promise<SavedDocument[]> {
    return (await getStore()).list();
  },

  /** Renames the open deck (an empty name is ignored). */
  async rename(name: string): Promise<void> {
    const trimmed = name.trim();
    if (!deck || trimmed === '' || trimmed === deck.name) return;
    deck.name = trimmed;
    emit({ source: 'user', kind: 'document' });
    await saveNow();
  },

  /**
   * Replaces the open deck's Markdown. Typing is saved shortly after; other changes are saved
   * before this resolves, so an agent's result means the deck is stored.
   */
  async setMarkdown(markdown: string, source: ChangeSource): Promise<void> {
    if (!deck) throw new Error('no deck is open');
    if (markdown === deck.markdown) return;
    history.record(deck.markdown, source);
    deck.markdown = markdown;
    emit({ source, kind: 'markdown' });
    if (source === 'typing') saveSoon();
    else await saveNow();
  },

  /** The open deck's theme: its directive, or the default theme. */
  get theme(): string {
    return deck ? renderDeck(deck.markdown).theme : defaultTheme;
  },

  /** Sets the theme by rewriting the deck's `theme` directive. */
  async setTheme(theme: string, source: ChangeSource): Promise<void> {
    if (!deck) throw new Error('no deck is open');
    if (!themeNames.includes(theme)) throw new Error(`unknown theme: ${theme}`);
    await this.setMarkdown(withTheme(deck.markdown, theme), source);
  },

  /** 「元に戻す」: back to the Markdown before the last change, an agent's included. */
  async undo(): Promise<void> {
    const previous = history.pop();
    if (previous === undefined || !deck) return;
    await this.setMarkdown(previous, 'undo');
  },

  /** Saves pending typing at once (the page calls it when it is hidden). */
  flush(): Promise<void> {
    return saveTimer === undefined ? Promise.resolve() : saveNow();
  },
};

/** The adapter the slides operations read on every call (DEF-6). */
export const slidesAdapter: SlidesToolAdapter = {
  getOpenDocument: (): OpenDocument | null => (deck ? { id: deck.id, name: deck.name } : null),
  getMarkdown: () => deck?.markdown ?? '',
  setMarkdown: (markdown) => slides.setMarkdown(markdown, 'agent'),
  getThemes: () => themeNames,
  getTheme: () => slides.theme,
  setTheme: (theme) => slides.setTheme(theme, 'agent'),
  getSlideCount: () => renderDeck(deck?.markdown ?? '').slideCount,
  // The page's 「元に戻す」 restores a deck an agent replaced (history.ts), so the dialog says so (CONF-2).
  undoRestoresAgentChanges: true,
};

provideOperations('slides', createSlidesOperations(slidesAdapter));
