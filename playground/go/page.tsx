/**
 * The Go runner (React): the file tree, the CodeMirror editor in Go mode, 実行 / テスト / 停止 and
 * the output pane, all rendering the project of the page's embed id (state.ts); the log sits in
 * the footer. An agent's go_write_file reaches the files module, and the open editor shows it as
 * one undoable step (APP-4, GO-2).
 * @module
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import type { EditorView } from '@codemirror/view';
import { AiOpsLog } from 'ai-ops/react';
import type { GoRunMode } from 'ai-ops/tools/go';
import { CodeEditor, languageOfPath } from '../shared/code-editor.js';
import { FileTreeView, type FileTree } from '../shared/file-tree-view.js';
import { useSaveOnHide } from '../shared/use-save-on-hide.js';
import { ToolHeader } from '../shared/tool-header.js';
import { usePageTitle } from '../shared/use-title.js';
import type { GoFiles } from './files.js';
import { goProjectFor, showGoProject, type GoProject, type RunEnd, type RunState } from './state.js';

const COMMANDS: Record<GoRunMode, string> = { run: '$ go run .', test: '$ go test -v ./...' };

function describeEnd(end: RunEnd): string {
  switch (end.kind) {
    case 'exited':
      return `終了コード ${end.exitCode}`;
    case 'timeout':
      return `時間の上限(${end.timeoutMs.toLocaleString('ja-JP')} ミリ秒)を過ぎたので止めました`;
    case 'stopped':
      return '止めました';
    case 'cancelled':
      return 'AI からの呼び出しが取り消されたので止めました';
    case 'failed':
      return end.message;
  }
}

function runStatusText(state: RunState): string {
  if (state.status === 'loading') return 'Go を読み込み中…';
  if (state.status === 'running') return `${state.mode === 'test' ? 'テスト' : '実行'}中…`;
  return state.end ? describeEnd(state.end) : '';
}

function firstFile(files: GoFiles): string | null {
  const list = files.list();
  return list.find((e) => e.path === 'main.go')?.path ?? list.find((e) => e.kind === 'file')?.path ?? null;
}

/** The package clause a new .go file starts with: main at the root, else the directory's name. */
function packageNameFor(path: string): string {
  if (!path.includes('/')) return 'main';
  const dir = path.slice(0, path.lastIndexOf('/'));
  return dir.slice(dir.lastIndexOf('/') + 1).replace(/[^A-Za-z0-9_]/g, '_') || 'main';
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Characters the pane keeps (the last ones); older output is dropped from the screen. */
const PANE_CHARS = 200_000;

/** The output pane: follows every run's output, one DOM change per 16 ms whatever the chunk count. */
function OutputPane({ project }: { project: GoProject }) {
  const output = useRef<HTMLPreElement>(null);
  const [mode, setMode] = useState<GoRunMode | null>(() => project.lastOutput().mode);
  useEffect(() => {
    const pane = output.current;
    if (!pane) return;
    pane.textContent = project.lastOutput().text;
    let paneLength = pane.textContent.length;
    let pending = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      if (!pending) return;
      const stick = pane.scrollHeight - pane.scrollTop - pane.clientHeight < 8;
      paneLength += pending.length;
      if (paneLength > PANE_CHARS * 2) {
        const text = ((pane.textContent ?? '') + pending).slice(-PANE_CHARS);
        pane.textContent = text;
        paneLength = text.length;
      } else {
        pane.append(pending);
      }
      pending = '';
      if (stick) pane.scrollTop = pane.scrollHeight;
    };
    const stop = project.subscribeOutput((event) => {
      if (event.type === 'start') {
        setMode(event.mode);
        pane.replaceChildren();
        paneLength = 0;
        pending = '';
      } else if (event.type === 'chunk') {
        pending += event.text;
        if (pending.length > PANE_CHARS) pending = pending.slice(-PANE_CHARS);
        // A timer, not requestAnimationFrame: a background tab gets no frames but still shows the output later.
        timer ??= setTimeout(flush, 16);
      } else {
        // The run ended: show the rest now, so the pane and the answer agree.
        flush();
      }
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [project]);
  return (
    <>
      <h2 id="output-heading" className="visually-hidden">出力</h2>
      <p id="output-command" className="output-command" aria-hidden="true">{mode ? COMMANDS[mode] : ''}</p>
      <pre ref={output} id="output" className="output" tabIndex={0} aria-labelledby="output-heading" />
    </>
  );
}

/** The form that makes a new file or folder under the selected directory. */
function NewEntryForm({ kind, initial, onCreate, onClose }: {
  kind: 'file' | 'directory';
  initial: string;
  onCreate(path: string): void;
  onClose(): void;
}) {
  const [path, setPath] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const label = kind === 'file' ? '新しいファイルのパス' : '新しいフォルダのパス';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    try {
      onCreate(path.trim().replace(/\/+$/, ''));
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return (
    <form id="new-entry" className="new-entry" onSubmit={submit} onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <label htmlFor="new-entry-path" id="new-entry-label">{label}</label>
      <input id="new-entry-path" autoComplete="off" spellCheck={false} required autoFocus value={path} onChange={(event) => setPath(event.target.value)} />
      <button type="submit" className="tool-button small">作る</button>
      <button type="button" className="tool-button small" id="new-entry-cancel" onClick={onClose}>やめる</button>
      {error ? <p id="new-entry-error" className="error" role="alert">{error}</p> : null}
    </form>
  );
}

/** The Go page. */
export default function GoPage() {
  // The embed id is read when the page mounts (the app's URL changes while modules stay).
  const project = useMemo(() => goProjectFor(location.search), []);
  const { files } = project;
  const filesState = useSyncExternalStore(files.subscribe, files.getState);
  const runState = useSyncExternalStore(project.runState.subscribe, project.runState.getState);
  usePageTitle([project.embedId, 'go']);
  const [openPath, setOpenPath] = useState<string | null>(null);
  const [form, setForm] = useState<{ kind: 'file' | 'directory'; initial: string; key: number } | null>(null);
  const tree = useRef<FileTree | null>(null);
  const editor = useRef<EditorView | null>(null);
  /** An entry just made: selected (and focused) once the tree shows it, after the next render. */
  const made = useRef<{ path: string; openEditor: boolean } | null>(null);
  const loaded = filesState.status === 'loaded';
  const busy = runState.status !== 'idle';

  useEffect(() => showGoProject(project), [project]);
  // Typing saves after a short pause; a page being hidden, closed or left saves at once.
  useSaveOnHide(useCallback(() => void files.flush(), [files]));

  // The tree's entries are set by its own effect, which runs before this one.
  useEffect(() => {
    const entry = made.current;
    if (!entry || !tree.current) return;
    made.current = null;
    tree.current.select(entry.path, { focus: !entry.openEditor });
    if (entry.openEditor) editor.current?.focus();
  });

  // The open file was deleted (by the user or an agent), or nothing is open yet: open the first.
  useEffect(() => {
    if (!loaded || (openPath !== null && files.read(openPath) !== null)) return;
    const first = firstFile(files);
    setOpenPath(first);
    if (first !== null) tree.current?.select(first);
  }, [loaded, filesState, openPath, files]);

  const start = (mode: GoRunMode) => {
    // Errors are shown by the status line; a button has no one to answer to.
    project.run(mode).catch(() => {});
  };
  const latest = useRef({ busy, loaded, start });
  latest.current = { busy, loaded, start };

  // Ctrl+Enter runs, Ctrl+Shift+Enter tests, from anywhere on the page (the editor too).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.defaultPrevented) return;
      if (latest.current.busy || !latest.current.loaded) return;
      event.preventDefault();
      latest.current.start(event.shiftKey ? 'test' : 'run');
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
  const editorKeys = useMemo(
    () =>
      (['run', 'test'] as const).map((mode) => ({
        key: mode === 'run' ? 'Mod-Enter' : 'Shift-Mod-Enter',
        run: () => {
          if (!latest.current.busy && latest.current.loaded) latest.current.start(mode);
          return true;
        },
      })),
    [],
  );

  const contents = openPath === null ? null : files.read(openPath);

  const selectedDirectory = (): string => {
    const entry = tree.current?.selectedEntry;
    if (!entry) return '';
    if (entry.kind === 'directory') return `${entry.path}/`;
    return entry.path.includes('/') ? entry.path.slice(0, entry.path.lastIndexOf('/') + 1) : '';
  };
  const showForm = (kind: 'file' | 'directory') => {
    if (!files.isLoaded()) return;
    setForm({ kind, initial: selectedDirectory(), key: Date.now() });
  };
  const create = (kind: 'file' | 'directory', path: string) => {
    if (files.list().some((e) => e.path === path)) throw new Error(`「${path}」はもうあります`);
    if (kind === 'file') {
      void files.write(path, path.endsWith('.go') ? `package ${packageNameFor(path)}\n` : '');
      setOpenPath(path);
    } else {
      void files.mkdir(path);
    }
    made.current = { path, openEditor: kind === 'file' };
    setForm(null);
  };
  const removeSelected = () => {
    const entry = tree.current?.selectedEntry;
    if (!entry) return;
    const what = entry.kind === 'directory' ? `フォルダ「${entry.path}」とその中身` : `ファイル「${entry.path}」`;
    if (!confirm(`${what}を削除します。元に戻せません。`)) return;
    void (entry.kind === 'directory' ? files.removeDirectory(entry.path) : files.remove(entry.path));
  };
  const edit = (text: string) => {
    if (openPath === null || files.read(openPath) === null) return;
    void files.write(openPath, text).catch(() => {});
  };

  return (
    <>
      <link rel="stylesheet" href="/shared/workbench.css" precedence="page" />
      <link rel="stylesheet" href="/go/go.css" precedence="page" />
      <ToolHeader tool="go" title="Go" documentName={project.embedId} />
      {filesState.storageError ? (
        <p className="notice" id="notice" role="status">{filesState.storageError}(このページを開いている間だけ、ファイルを持ちます)</p>
      ) : null}
      <main className="page-main go-main">
        <nav className="files" aria-labelledby="files-heading">
          <div className="pane-bar">
            <h2 id="files-heading">ファイル</h2>
            <button type="button" className="tool-button small" id="new-file" onClick={() => showForm('file')}>新しいファイル</button>
            <button type="button" className="tool-button small" id="new-dir" onClick={() => showForm('directory')}>新しいフォルダ</button>
            <button type="button" className="tool-button small" id="delete-entry" onClick={removeSelected}>削除</button>
          </div>
          {form ? (
            <NewEntryForm key={form.key} kind={form.kind} initial={form.initial} onCreate={(path) => create(form.kind, path)} onClose={() => setForm(null)} />
          ) : null}
          <FileTreeView id="file-tree" labelledBy="files-heading" entries={loaded ? filesState.entries : []} onOpen={setOpenPath} treeRef={tree} />
          {loaded ? null : <p id="files-loading" className="muted">読み込み中…</p>}
        </nav>
        <section className="editor-pane" aria-labelledby="editor-label">
          <div className="pane-bar"><span id="editor-label" className="editor-label">{openPath ?? 'エディタ(ファイルを選んでください)'}</span></div>
          <CodeEditor
            label={openPath ?? 'エディタ'}
            language={openPath === null ? undefined : languageOfPath(openPath)}
            value={contents ?? ''}
            documentKey={openPath ?? ''}
            disabled={contents === null}
            onChange={edit}
            keys={editorKeys}
            editorRef={editor}
          />
        </section>
        <section className="run-pane" aria-labelledby="output-heading">
          <div className="pane-bar">
            {/* The buttons show running for a run started by an agent too (GO-7). */}
            {(['run', 'test'] as const).map((mode) => (
              <button
                key={mode} type="button" className="tool-button" id={`${mode}-button`}
                disabled={busy || !loaded} aria-busy={busy && runState.mode === mode ? true : undefined}
                onClick={() => start(mode)}
              >
                {mode === 'run' ? '実行' : 'テスト'}
              </button>
            ))}
            <button type="button" className="tool-button" id="stop-button" disabled={!busy} onClick={() => project.stop()}>停止</button>
            <span id="run-status" className="run-status" role="status">{runStatusText(runState)}</span>
          </div>
          <OutputPane project={project} />
        </section>
      </main>
      <footer className="page-footer"><AiOpsLog tool="go" /></footer>
    </>
  );
}
