/**
 * The document pages' shared pieces: the document bar (the document's name, 「開く」 and 「新しい…」
 * around the page's own controls; slides, draw.io and Excalidraw), and for the pages whose state
 * is a {@link DocumentState} (slides, draw.io) the hook that opens the document `?doc=` names and
 * follows it, the notice saying why a document cannot be opened or kept, and the page's frame
 * (header, editor pane, preview pane, log). Written once.
 * @module
 */
import { useEffect, useState, useSyncExternalStore, type KeyboardEvent, type ReactNode } from 'react';
import { AiOpsLog } from 'ai-ops/react';
import { navigate, useSearch } from './router.js';
import { acceptedDocumentId, WELCOME_ID, type DocumentSnapshot, type DocumentState } from './document-state.js';
import type { SavedDocument } from './documents.js';
import { documentIdOf } from './page-params.js';
import { ToolHeader } from './tool-header.js';
import type { ToolName } from './tools.js';
import { useSaveOnHide } from './use-save-on-hide.js';
import { usePageTitle } from './use-title.js';

/** What a page gets from {@link useOpenDocument}. */
export interface OpenDocumentView<D> extends DocumentSnapshot<D> {
  /** The document `?doc=` asks for, once it is open (null while it loads). */
  readonly shown: Readonly<D> | null;
  /** The name the header and the title show: the document's, or the id asked for until it is open. */
  readonly name: string;
  /** Why the document could not be opened, if it could not. */
  readonly failure: string | null;
}

const message = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));

/**
 * Opens the document `?doc=` names (`welcome` without one) when the page mounts and whenever the
 * app navigates to another `?doc=`, after `boot` (the page's one-time start: its operations);
 * saves pending typing when the page is hidden or left.
 * @param what the document's kind in messages: `スライド`, `図`
 */
export function useOpenDocument<K extends string>(
  documents: DocumentState<K>,
  { boot, what }: { boot: () => void; what: string },
): OpenDocumentView<DocumentState<K>['document'] & object> {
  const snapshot = useSyncExternalStore(documents.subscribe, documents.getState);
  const wanted = acceptedDocumentId(documentIdOf(useSearch(), WELCOME_ID));
  const [failure, setFailure] = useState<{ id: string; text: string } | null>(null);
  useEffect(() => {
    boot();
    let live = true;
    documents.open(wanted).catch((cause: unknown) => {
      if (live) setFailure({ id: wanted, text: `${what}を開けませんでした: ${message(cause)}` });
    });
    return () => {
      live = false;
    };
  }, [documents, boot, what, wanted]);
  useSaveOnHide(documents.flush);
  const shown = snapshot.document?.id === wanted ? snapshot.document : null;
  return {
    ...snapshot,
    shown,
    name: shown?.name ?? wanted,
    failure: failure?.id === wanted ? failure.text : null,
  } as OpenDocumentView<DocumentState<K>['document'] & object>;
}

/** The page's notice: why the document could not be opened or saved, or that nothing is kept. */
export function DocumentNotice({ view, what }: { view: OpenDocumentView<unknown>; what: string }) {
  const text = view.failure ?? view.error ?? (view.persistent ? null : `このブラウザでは保存できません。${what}は、ページを閉じると消えます。`);
  return text === null ? null : <p className="notice" role="status">{text}</p>;
}

/** What the document bar reads and calls: a {@link DocumentState}, or any store of named documents. */
export interface DocumentBarSource {
  getState(): { readonly document: { readonly id: string; readonly name: string } | null };
  subscribe(listener: () => void): () => void;
  rename(name: string): Promise<void>;
  list(): Promise<SavedDocument[]>;
  /** Creates a document called `name` and returns its id. */
  create(name: string): Promise<string>;
  /** Saves what is pending (before the page goes to another document). */
  flush(): Promise<void>;
}

/** Props of {@link DocumentBar}. */
export interface DocumentBarProps {
  documents: DocumentBarSource;
  /** The toolbar's accessible name, e.g. `スライドの操作`. */
  label: string;
  /** The 「新しい…」 button's text, also the new document's name, e.g. `新しいスライド`. */
  newName: string;
  /** The page's own controls, between the name and 「開く」. */
  children?: ReactNode;
}

/**
 * The document bar: 「名前」 (renamed on Enter or when it loses focus; Escape puts the name back),
 * the page's controls, 「開く」 (the saved documents, most recent first) and 「新しい…」. Opening
 * and creating go to `?doc=<id>` within the app.
 */
export function DocumentBar({ documents, label, newName, children }: DocumentBarProps) {
  const { document: open } = useSyncExternalStore(documents.subscribe, documents.getState);
  const [draft, setDraft] = useState<string | null>(null);
  const [saved, setSaved] = useState<readonly SavedDocument[]>([]);
  const [creating, setCreating] = useState(false);
  useEffect(() => {
    let live = true;
    documents.list().then((list) => live && setSaved(list), () => {});
    return () => {
      live = false;
    };
  }, [documents, open?.id, open?.name]);

  const commit = () => {
    if (draft !== null) void documents.rename(draft);
    setDraft(null);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') event.currentTarget.blur();
    if (event.key === 'Escape') {
      setDraft(null);
      // The blur that follows must not rename: the draft is gone by then.
      const input = event.currentTarget;
      queueMicrotask(() => input.blur());
    }
  };
  const create = async () => {
    setCreating(true);
    try {
      const id = await documents.create(newName);
      await documents.flush();
      navigate(`?doc=${encodeURIComponent(id)}`);
    } finally {
      setCreating(false);
    }
  };
  return (
    <div className="toolbar document-bar" role="toolbar" aria-label={label}>
      <label className="field">
        名前{' '}
        <input
          type="text"
          autoComplete="off"
          maxLength={200}
          disabled={!open}
          value={draft ?? open?.name ?? ''}
          onChange={(event) => setDraft(event.currentTarget.value)}
          onBlur={commit}
          onKeyDown={onKeyDown}
        />
      </label>
      {children}
      <span className="spacer" />
      <label className="field">
        開く{' '}
        <select
          disabled={saved.length < 2}
          value={open?.id ?? ''}
          onChange={(event) => {
            const id = event.currentTarget.value;
            if (id && id !== open?.id) navigate(`?doc=${encodeURIComponent(id)}`);
          }}
        >
          {saved.map((entry) => (
            <option key={entry.id} value={entry.id}>{entry.name}</option>
          ))}
        </select>
      </label>
      <button type="button" className="tool-button" aria-busy={creating} onClick={() => void create()}>{newName}</button>
    </div>
  );
}

/** Props of {@link DocumentPage}. */
export interface DocumentPageProps {
  tool: ToolName;
  /** The page's name in the header, e.g. `スライド`. */
  title: string;
  /**
   * The document's kind, e.g. `スライド`, `図`: in messages, the bar's name (`図の操作`) and its
   * 「新しい…」 button (`新しい図`, also the new document's name).
   */
  what: string;
  view: OpenDocumentView<unknown>;
  documents: DocumentBarSource;
  /** The page's own controls in the document bar. */
  controls: ReactNode;
  /** The editor, under the document bar. */
  editor: ReactNode;
  /** The count beside 「プレビュー」: its element id and text. */
  count: { id: string; text: string };
  /** The rendered document (and its error, if any), under the preview's title. */
  preview: ReactNode;
  /** Stylesheets the page needs besides the shared one and its own /<tool>/<tool>.css. */
  stylesheets?: readonly string[];
}

/**
 * A document page: the header, the notice, the editor (under the document bar) beside the
 * preview, the log in the footer. `<main>` has the class `<tool>-main` for the page's own CSS.
 */
export function DocumentPage({ tool, title, what, view, documents, controls, editor, count, preview, stylesheets = [] }: DocumentPageProps) {
  usePageTitle([view.name, tool]);
  return (
    <>
      {['/shared/document-page.css', ...stylesheets, `/${tool}/${tool}.css`].map((href) => (
        <link key={href} rel="stylesheet" href={href} precedence="page" />
      ))}
      <ToolHeader tool={tool} title={title} documentName={view.name} />
      <DocumentNotice view={view} what={what} />
      <main className={`page-main document-main ${tool}-main`}>
        <section className="editor-pane" aria-label="エディタ">
          <DocumentBar documents={documents} label={`${what}の操作`} newName={`新しい${what}`}>{controls}</DocumentBar>
          {editor}
        </section>
        <section className="preview-pane" aria-labelledby="preview-title">
          <div className="preview-bar">
            <h2 id="preview-title">プレビュー</h2>{' '}
            <span id={count.id} className="preview-count" aria-live="polite">{count.text}</span>
          </div>
          {preview}
        </section>
      </main>
      <footer className="page-footer">
        <AiOpsLog tool={tool} />
      </footer>
    </>
  );
}
