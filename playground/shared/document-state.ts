/**
 * The state of a page whose open document is one text (the slides page's Markdown, the draw.io
 * page's XML): the document saved in IndexedDB, opened by `?doc=<id>`, its 「元に戻す」 history (the
 * agent's changes included), and change notifications for the UI. Typing is saved shortly after;
 * other changes are saved before they resolve, so an agent's result means the document is stored.
 * The one store contract: `getState()` is a new snapshot after each change, `subscribe` tells
 * what changed (React's `useSyncExternalStore` ignores that argument). Pages use this object
 * itself, not a copy of its members, and the shared document bar reads it.
 * @module
 */
import { DOCUMENT_ID, newDocumentId, openDocumentStore, type DocumentStore, type SavedDocument } from './documents.js';
import { createUndoHistory, type ChangeSource } from './history.js';

/** The id a page without `?doc=` opens. */
export const WELCOME_ID = 'welcome';

/** The document `open(id)` opens: `id` when it is `[A-Za-z0-9_-]{1,64}`, else `welcome`. */
export function acceptedDocumentId(id: string): string {
  return DOCUMENT_ID.test(id) ? id : WELCOME_ID;
}

/** How long typing waits before it is saved. */
const SAVE_DELAY_MS = 300;

/** What changed: the text (kind = the field's name), or the document (opened, renamed, a save failed). */
export interface DocumentChange<K extends string> {
  source: ChangeSource;
  kind: K | 'document';
}

/** How one page's documents look. */
export interface DocumentStateOptions<K extends string> {
  /** The IndexedDB database, e.g. `ai-ops-slides`. */
  storeName: string;
  /** The field that holds the text, e.g. `markdown`. */
  field: K;
  /** Prefix of new documents' ids, e.g. `deck`. */
  idPrefix: string;
  /** The sample the `welcome` document starts with. */
  welcome: { name: string; text: string };
  /** The text of a new document called `name`. */
  blank(name: string): string;
  /** Throws when `text` may not become the document's text (the editor keeps it and shows why). */
  check?(text: string): void;
}

/** A saved document with its text under `K`. */
export type TextDocument<K extends string> = SavedDocument & { [P in K]: string };

/** What a page renders from: a new object after every change. */
export interface DocumentSnapshot<D> {
  /** The open document (a copy), or null while loading. */
  readonly document: Readonly<D> | null;
  /** Why the document could not be opened or saved, if it could not. */
  readonly error: string | null;
  /** Whether 「元に戻す」 has something to restore. */
  readonly canUndo: boolean;
  /** True when documents are kept across reloads (IndexedDB works). */
  readonly persistent: boolean;
}

/** The state of one page's documents, as {@link createDocumentState} makes it. */
export type DocumentState<K extends string> = ReturnType<typeof createDocumentState<K>>;

/** Creates the state of one page. */
export function createDocumentState<K extends string>(options: DocumentStateOptions<K>) {
  type Doc = TextDocument<K>;
  const { field } = options;
  let store: DocumentStore<Doc> | null = null;
  let current: Doc | null = null;
  let error: string | null = null;
  /** The id the last `open` asked for: an older `open` still reading IndexedDB does not win. */
  let wanted: string | null = null;
  /** The `open` of `wanted`, in progress or done. */
  let opening: Promise<void> | null = null;
  const history = createUndoHistory();
  /** Each document's revision in this page's life: how many times its text changed (UNDO-2). */
  const revisions = new Map<string, number>();
  const listeners = new Set<(change: DocumentChange<K>) => void>();
  let saveTimer: ReturnType<typeof setTimeout> | undefined;

  const takeSnapshot = (): DocumentSnapshot<Doc> => ({
    document: current ? { ...current } : null,
    error,
    canUndo: history.size > 0,
    persistent: store?.persistent ?? true,
  });
  let snapshot = takeSnapshot();
  const emit = (change: DocumentChange<K>) => {
    snapshot = takeSnapshot();
    for (const listener of [...listeners]) listener(change);
  };
  const getStore = async () => (store ??= openDocumentStore<Doc>(options.storeName));
  const make = (id: string, name: string, text: string) => ({ id, name, [field]: text, updatedAt: Date.now() }) as Doc;

  const saveNow = async () => {
    clearTimeout(saveTimer);
    saveTimer = undefined;
    if (!current) return;
    current.updatedAt = Date.now();
    await (await getStore()).put({ ...current });
  };
  const saveSoon = () => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => {
      saveNow().catch((cause: unknown) => {
        error = `保存できませんでした: ${cause instanceof Error ? cause.message : String(cause)}`;
        emit({ source: 'load', kind: 'document' });
      });
    }, SAVE_DELAY_MS);
  };

  const state = {
    /** The open document, or null while loading. */
    get document(): Readonly<Doc> | null {
      return current;
    },
    /** The open document's id and name, as the operations report it (DOC-2), or null while loading. */
    openDocument(): { id: string; name: string } | null {
      return current ? { id: current.id, name: current.name } : null;
    },
    /** The id of the document open or being opened (`?doc=` as accepted), or null before the first `open`. */
    get wantedId(): string | null {
      return wanted;
    },
    /**
     * The open document's revision: a number that grows with every change of its text, whatever
     * made it (typing, an agent, an undo), and stays while other documents change. The adapters'
     * `getRevision` (UNDO-2). 0 while nothing is open.
     */
    get revision(): number {
      return current ? revisions.get(current.id) ?? 0 : 0;
    },
    /** Why the document could not be opened or saved, if it could not. */
    get error(): string | null {
      return error;
    },
    /** Whether 「元に戻す」 has something to restore. */
    get canUndo(): boolean {
      return history.size > 0;
    },
    /** True when documents are kept across reloads (IndexedDB works). */
    get persistent(): boolean {
      return store?.persistent ?? true;
    },
    /** The state as a snapshot (a new object after each change), for `useSyncExternalStore`. */
    getState(): DocumentSnapshot<Doc> {
      return snapshot;
    },
    /** Calls `listener` with what changed, after every change; returns the unsubscribe. */
    subscribe(listener: (change: DocumentChange<K>) => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },

    /**
     * Opens the document `id`, creating it on first use (`welcome` gets the sample). An id outside
     * `[A-Za-z0-9_-]{1,64}` opens `welcome` instead. Asking again for the document being opened
     * gets the same promise (StrictMode's second effect sees the same outcome).
     */
    open(id: string): Promise<void> {
      const target = acceptedDocumentId(id);
      if (target === wanted && opening) return opening;
      wanted = target;
      opening = (async () => {
        let found: Doc | undefined;
        try {
          // The document open before keeps its last keystrokes.
          await state.flush();
          const documents = await getStore();
          found = await documents.get(target);
          if (!found) {
            found = target === WELCOME_ID
              ? make(target, options.welcome.name, options.welcome.text)
              : make(target, target, options.blank(target));
            await documents.put(found);
          }
        } catch (cause) {
          if (wanted === target) wanted = null; // asking again tries again
          throw cause;
        }
        if (wanted !== target) return;
        current = found;
        error = null;
        history.clear();
        emit({ source: 'load', kind: 'document' });
      })();
      return opening;
    },

    /** Creates a new document and returns its id (the page then navigates to `?doc=<id>`). */
    async create(name: string): Promise<string> {
      const id = newDocumentId(options.idPrefix);
      await (await getStore()).put(make(id, name, options.blank(name)));
      return id;
    },

    /** The saved documents, for the page's 「開く」 list. */
    async list(): Promise<SavedDocument[]> {
      return (await getStore()).list();
    },

    /** Renames the open document (an empty name is ignored). */
    async rename(name: string): Promise<void> {
      const trimmed = name.trim();
      if (!current || trimmed === '' || trimmed === current.name) return;
      current.name = trimmed;
      emit({ source: 'user', kind: 'document' });
      await saveNow();
    },

    /** Replaces the open document's text. */
    async setText(text: string, source: ChangeSource): Promise<void> {
      if (!current) throw new Error('no document is open');
      options.check?.(text);
      if (text === current[field]) return;
      history.record(current[field], source);
      (current as Record<K, string>)[field] = text;
      revisions.set(current.id, (revisions.get(current.id) ?? 0) + 1);
      emit({ source, kind: field });
      if (source === 'typing') saveSoon();
      else await saveNow();
    },

    /** 「元に戻す」: back to the text before the last change, an agent's included. */
    async undo(): Promise<void> {
      const previous = history.pop();
      if (previous === undefined || !current) return;
      await state.setText(previous, 'undo');
    },

    /** Saves pending typing at once (the page calls it when it is hidden). */
    flush(): Promise<void> {
      return saveTimer === undefined ? Promise.resolve() : saveNow();
    },
  };
  return state;
}
