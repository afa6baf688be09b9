/**
 * The node page (React): the file tree, the CodeMirror editor (JavaScript, TypeScript or JSON by
 * the file's extension) with 保存, and the bottom pane with its tabs 端末 (the processes and an
 * xterm terminal showing the runner's colours), コンソール and 「AI からの操作」 (the log in tab
 * mode, LOG-1). State lives in state.ts and workbench.ts.
 *
 * The bottom pane's selection is stored; while the stored selection is the AI tab and the switch is
 * off (turned off, expired, or off from another tab), the terminal shows, and the stored selection
 * is left as it is (SW-8).
 * @module
 */
import { memo, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ComponentRef, type FormEvent, type KeyboardEvent } from 'react';
import { createStore, type ReadableStore } from 'ai-ops';
import { AiOpsLog } from 'ai-ops/react';
import { CodeEditor, languageOfPath } from '../shared/code-editor.js';
import { FileTreeView } from '../shared/file-tree-view.js';
import { embedIdOf } from '../shared/page-params.js';
import { TerminalView, type TerminalHandle } from '../shared/terminal.js';
import { ToolHeader } from '../shared/tool-header.js';
import { usePageTitle } from '../shared/use-title.js';
import type { NodeRuntime, ProcessSummary } from './engine/node-runtime.js';
import { consoleMessages, logMessage, logPageErrors, reboot, runtimeState, startNodePage } from './state.js';
import {
  editorNote, editText, isDirty, killShownProcess, openFile, openPath, refreshOpenFile, saveOpenFile, shownProcess, startWorkbench,
} from './workbench.js';

/** The embed id when the URL has none. */

const NOTHING = createStore<readonly never[]>([]);

/** The runtime instance in use, and a list store of it (empty while there is none). */
// The tree is drawn again only when its entries change: the page renders at every process start
// and exit (the open file is read again), and redrawing 2,000 rows showed in the command's time
// (bench 50, one run each at load 5–8: 2,000 files against 10, +42 ms before, +8 ms after; issue 24).
const MemoFileTree = memo(FileTreeView);
const openTreePath = (path: string) => void openPath(path);

function useRuntimeList<T>(pick: (runtime: NodeRuntime) => ReadableStore<readonly T[]>): readonly T[] {
  const runtime = useSyncExternalStore(runtimeState.subscribe, () => runtimeState.getState().runtime);
  const store: ReadableStore<readonly T[]> = runtime ? pick(runtime) : NOTHING;
  return useSyncExternalStore(store.subscribe, store.getState);
}

/**
 * Splits a command line the way a shell would for simple cases: spaces separate words, and '…',
 * "…" and backslashes quote. (node_run_command never splits; this is the person's terminal.)
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

const stateText = (p: ProcessSummary) => (p.status === 'running' ? '実行中' : `終了 ${p.exitCode ?? ''}`.trim());

/** The 端末 tab: the processes, the shown one's output in xterm, and the command line. */
function TerminalPanel({ ready }: { ready: boolean }) {
  const processes = useRuntimeList((runtime) => runtime.processes.list);
  const { id: shownId } = useSyncExternalStore(shownProcess.subscribe, shownProcess.getState);
  const runtime = useSyncExternalStore(runtimeState.subscribe, () => runtimeState.getState().runtime);
  const terminal = useRef<TerminalHandle | null>(null);
  const [command, setCommand] = useState('');
  const shown = processes.find((p) => p.id === shownId);

  // The shown process's output, colours and all, batched per 30 ms: a chatty process must not
  // repaint per chunk.
  useEffect(() => {
    terminal.current?.clear();
    const handle = shownId === null ? undefined : runtime?.processes.get(shownId);
    if (!handle) return;
    let pending = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      terminal.current?.write(pending);
      pending = '';
    };
    const stop = handle.output.subscribe((chunk) => {
      pending += chunk;
      timer ??= setTimeout(flush, 30);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [shownId, runtime]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const line = command.trim();
    const [name, ...args] = splitCommandLine(line);
    if (!runtime || !name) return;
    setCommand('');
    runtime.processes.start(name, args, { name: line }).catch((error: unknown) => {
      logMessage('error', `「${line}」を実行できませんでした: ${error instanceof Error ? error.message : String(error)}`);
    });
  };

  return (
    <>
      <div className="processes">
        <ul id="process-list" className="process-list" aria-label="プロセス">
          {processes.map((p) => (
            <li key={p.id}>
              <button type="button" data-id={p.id} aria-pressed={p.id === shownId} onClick={() => shownProcess.setState({ id: p.id })}>
                <span className="name">{p.name}</span>
                <span className="state">{stateText(p)}</span>
              </button>
            </li>
          ))}
        </ul>
        <div className="process-view">
          <div className="pane-bar">
            <span id="process-title" className="process-title">{shown ? `${shown.name}(${stateText(shown)})` : 'プロセスはまだありません'}</span>
            <button type="button" className="tool-button small" id="kill" disabled={shown?.status !== 'running'} onClick={killShownProcess}>停止</button>
          </div>
          <TerminalView label="プロセスの出力" terminalRef={terminal} className="process-output" />
        </div>
      </div>
      <form id="command-form" className="command" onSubmit={submit}>
        <label htmlFor="command">コマンド</label>
        <input id="command" autoComplete="off" placeholder="node index.js" spellCheck={false} disabled={!ready} value={command} onChange={(event) => setCommand(event.target.value)} />
        <button type="submit" className="tool-button small">実行</button>
      </form>
    </>
  );
}

function ConsoleList() {
  const messages = useSyncExternalStore(consoleMessages.subscribe, consoleMessages.getState);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const box = list.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [messages]);
  return (
    <ol ref={list} id="console" className="console" role="log" aria-label="コンソール" tabIndex={0}>
      {messages.map((message) => {
        const at = new Date(message.time);
        return (
          <li key={message.id} className={message.level}>
            <time dateTime={at.toISOString()}>{[at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':')}</time>
            {message.text}
          </li>
        );
      })}
    </ol>
  );
}

type Tab = 'terminal' | 'console' | 'ai';
const TAB_KEY = 'node-bottom-tab';
const TABS: readonly { tab: Tab; label: string }[] = [
  { tab: 'terminal', label: '端末' },
  { tab: 'console', label: 'コンソール' },
  { tab: 'ai', label: 'AI からの操作' },
];
const isTab = (value: unknown): value is Tab => value === 'terminal' || value === 'console' || value === 'ai';

function readStoredTab(): Tab {
  try {
    const value = localStorage.getItem(TAB_KEY);
    return isTab(value) ? value : 'terminal';
  } catch {
    return 'terminal';
  }
}

/** The bottom pane: its tabs and their panels (SW-8). */
function BottomPane({ ready }: { ready: boolean }) {
  /** The user's selection; written to storage only when the user picks a tab. */
  const [selected, setSelected] = useState<Tab>(readStoredTab);
  const [logVisible, setLogVisible] = useState(false);
  const log = useRef<ComponentRef<typeof AiOpsLog>>(null);
  useEffect(() => {
    let live = true;
    void customElements.whenDefined('ai-ops-log').then(() => {
      if (live) setLogVisible(!!log.current?.visible);
    });
    return () => {
      live = false;
    };
  }, []);
  // The AI tab exists only while the switch is on (the log is visible), LOG-1; while it is hidden
  // a stored AI selection shows the terminal (SW-8).
  const shown: Tab = selected === 'ai' && !logVisible ? 'terminal' : selected;
  const visibleTabs = TABS.filter(({ tab }) => tab !== 'ai' || logVisible);
  const select = (tab: Tab) => {
    setSelected(tab);
    try {
      localStorage.setItem(TAB_KEY, tab);
    } catch {
      // Storage blocked: the selection lasts for this page only.
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, tab: Tab) => {
    const index = visibleTabs.findIndex((t) => t.tab === tab);
    const last = visibleTabs.length - 1;
    const next = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = visibleTabs[next].tab;
    select(target);
    document.getElementById(`tab-${target}`)?.focus();
  };
  return (
    <section className="bottom" aria-label="下のペイン">
      <div role="tablist" aria-label="下のペインのタブ" className="tabs">
        {TABS.map(({ tab, label }) => (
          <button
            key={tab} type="button" role="tab" id={`tab-${tab}`} aria-controls={`panel-${tab}`} data-tab={tab}
            hidden={tab === 'ai' && !logVisible} aria-selected={shown === tab} tabIndex={shown === tab ? 0 : -1}
            onClick={() => select(tab)} onKeyDown={(event) => onKeyDown(event, tab)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="panel-terminal" aria-labelledby="tab-terminal" className="panel terminal" hidden={shown !== 'terminal'}>
        <TerminalPanel ready={ready} />
      </div>
      <div role="tabpanel" id="panel-console" aria-labelledby="tab-console" className="panel" hidden={shown !== 'console'}>
        <ConsoleList />
      </div>
      <div role="tabpanel" id="panel-ai" aria-labelledby="tab-ai" className="panel" hidden={shown !== 'ai'}>
        {/* Re-rendered from the log's visibility, never by rewriting the stored selection (SW-8). */}
        <AiOpsLog tool="node" mode="tab" ref={log} onVisibilityChange={(event) => setLogVisible(event.detail.visible)} />
      </div>
    </section>
  );
}

/** The node page. */
export default function NodePage() {
  // The embed id is read when the page mounts; it names the page (DOC-3), the workspace is the runner's.
  const embedId = useMemo(() => embedIdOf(location.search), []);
  usePageTitle([embedId, 'node']);
  const { status, error } = useSyncExternalStore(runtimeState.subscribe, runtimeState.getState);
  const file = useSyncExternalStore(openFile.subscribe, openFile.getState);
  const entries = useRuntimeList((runtime) => runtime.files.tree);
  const ready = status === 'ready';

  useEffect(() => {
    void startNodePage();
    startWorkbench();
    const stopErrors = logPageErrors();
    // Files changed by something else (a command in another tab) show when the page gets focus again.
    const onFocus = () => {
      void runtimeState.getState().runtime?.files.tree.refresh().catch(() => {});
      void refreshOpenFile();
    };
    addEventListener('focus', onFocus);
    return () => {
      stopErrors();
      removeEventListener('focus', onFocus);
    };
  }, []);

  const keys = useMemo(() => [{ key: 'Mod-s', run: () => (void saveOpenFile(), true) }], []);
  const dirty = isDirty(file);

  return (
    <>
      <link rel="stylesheet" href="/shared/workbench.css" precedence="page" />
      <link rel="stylesheet" href="/node/node.css" precedence="page" />
      <link rel="stylesheet" href="/node/xterm.css" precedence="page" />
      <ToolHeader tool="node" title="Node" documentName={embedId}>
        <span className="runtime-status" id="runtime-status" role="status">{status === 'booting' ? '起動中…' : status === 'ready' ? '' : '起動に失敗しました'}</span>
        <button type="button" className="tool-button small" id="reboot" disabled={status === 'booting'} onClick={() => void reboot()}>再起動</button>
      </ToolHeader>
      {status === 'failed' ? <p className="notice" id="notice" role="alert">Node の実行環境を起動できませんでした: {error ?? ''}</p> : null}
      <main className="page-main node-main">
        <nav className="files" aria-labelledby="files-heading">
          <div className="pane-bar"><h2 id="files-heading">ファイル</h2></div>
          <MemoFileTree id="file-tree" labelledBy="files-heading" entries={entries} onOpen={openTreePath} />
        </nav>
        <section className="editor-pane" aria-labelledby="editor-label">
          <div className="pane-bar">
            <span id="editor-label" className="editor-label">{file.path ?? 'エディタ'}</span>
            <span id="editor-state" className="muted-inline">{editorNote(file)}</span>
            <button type="button" className="tool-button small" id="save" disabled={file.path === null || !dirty || !ready} onClick={() => void saveOpenFile()}>保存</button>
          </div>
          <CodeEditor
            label={file.path ?? 'エディタ'}
            language={file.path === null ? undefined : languageOfPath(file.path)}
            value={file.text}
            documentKey={file.path ?? ''}
            disabled={file.path === null}
            onChange={editText}
            keys={keys}
          />
        </section>
      </main>
      <BottomPane ready={ready} />
    </>
  );
}
