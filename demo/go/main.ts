/**
 * The Go page's UI: the file tree, the editor, the Run/Test/Stop buttons and the output pane, all
 * rendering state.ts. The AI operations were handed over by state.ts when it was imported.
 * @module
 */
import '../../elements/define.js';
import { FileTree } from '../shared/file-tree.js';
import { embedId, files, run, runState, stop, subscribeOutput, type RunEnd, type RunState } from './state.js';
import type { GoRunMode } from '../../tools/go/adapter.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

document.title = `${embedId} — go — ai-ops`;
$('doc-name').textContent = embedId;

const editor = $<HTMLTextAreaElement>('editor');
const editorLabel = $('editor-label');
const runButton = $<HTMLButtonElement>('run-button');
const testButton = $<HTMLButtonElement>('test-button');
const stopButton = $<HTMLButtonElement>('stop-button');
const runStatus = $('run-status');
const output = $<HTMLPreElement>('output');
const outputCommand = $('output-command');
const notice = $('notice');

// ---- editor ---------------------------------------------------------------------------------

let openPath: string | null = null;

function openFile(path: string | null): void {
  openPath = path;
  const contents = path === null ? null : files.read(path);
  if (path === null || contents === null) {
    openPath = null;
    editor.value = '';
    editor.disabled = true;
    editorLabel.textContent = 'エディタ(ファイルを選んでください)';
    return;
  }
  editor.disabled = false;
  editorLabel.textContent = path;
  if (editor.value !== contents) editor.value = contents;
  editor.scrollTop = 0;
}

editor.addEventListener('input', () => {
  if (openPath === null) return;
  void files.write(openPath, editor.value);
});

// ---- file tree ------------------------------------------------------------------------------

const tree = new FileTree($('file-tree'), { onOpen: (path) => openFile(path) });

function firstFile(): string | null {
  const list = files.list();
  return list.find((e) => e.path === 'main.go')?.path ?? list.find((e) => e.kind === 'file')?.path ?? null;
}

function renderFiles(): void {
  const state = files.getState();
  $('files-loading').hidden = state.status === 'loaded';
  if (state.storageError) {
    notice.hidden = false;
    notice.textContent = `${state.storageError}(このページを開いている間だけ、ファイルを持ちます)`;
  }
  if (state.status !== 'loaded') return;
  tree.setEntries(state.entries);
  if (openPath === null || files.read(openPath) === null) {
    // The open file was deleted (by the user or an agent), or nothing was open yet.
    openFile(firstFile());
    if (openPath !== null) tree.select(openPath);
    return;
  }
  // A change made elsewhere (an agent's go_write_file) shows in the editor like typing would (GO-2).
  const contents = files.read(openPath);
  if (contents !== null && contents !== editor.value) {
    const { selectionStart, selectionEnd } = editor;
    editor.value = contents;
    editor.setSelectionRange(Math.min(selectionStart, contents.length), Math.min(selectionEnd, contents.length));
  }
}

files.subscribe(renderFiles);
renderFiles();

// ---- new file / folder, delete ----------------------------------------------------------------

const form = $<HTMLFormElement>('new-entry');
const formInput = $<HTMLInputElement>('new-entry-path');
const formError = $('new-entry-error');
let formKind: 'file' | 'directory' = 'file';

function selectedDirectory(): string {
  const entry = tree.selectedEntry;
  if (!entry) return '';
  if (entry.kind === 'directory') return `${entry.path}/`;
  return entry.path.includes('/') ? entry.path.slice(0, entry.path.lastIndexOf('/') + 1) : '';
}

function showForm(kind: 'file' | 'directory'): void {
  if (!files.isLoaded()) return;
  formKind = kind;
  $('new-entry-label').textContent = kind === 'file' ? '新しいファイルのパス' : '新しいフォルダのパス';
  formInput.value = selectedDirectory();
  formError.hidden = true;
  form.hidden = false;
  formInput.focus();
}

$('new-file').addEventListener('click', () => showForm('file'));
$('new-dir').addEventListener('click', () => showForm('directory'));
$('new-entry-cancel').addEventListener('click', () => {
  form.hidden = true;
});
form.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') form.hidden = true;
});
form.addEventListener('submit', (event) => {
  event.preventDefault();
  const path = formInput.value.trim().replace(/\/+$/, '');
  try {
    const existing = files.list().find((e) => e.path === path);
    if (existing) throw new Error(`「${path}」はもうあります`);
    if (formKind === 'file') {
      void files.write(path, path.endsWith('.go') ? `package ${packageNameFor(path)}\n` : '');
      form.hidden = true;
      tree.select(path, { focus: true });
      openFile(path);
      editor.focus();
    } else {
      void files.mkdir(path);
      form.hidden = true;
      tree.select(path, { focus: true });
    }
  } catch (error) {
    formError.hidden = false;
    formError.textContent = error instanceof Error ? error.message : String(error);
  }
});

/** The package clause a new .go file starts with: main at the root, else the directory's name. */
function packageNameFor(path: string): string {
  if (!path.includes('/')) return 'main';
  const dir = path.slice(0, path.lastIndexOf('/'));
  return dir.slice(dir.lastIndexOf('/') + 1).replace(/[^A-Za-z0-9_]/g, '_') || 'main';
}

$('delete-entry').addEventListener('click', () => {
  const entry = tree.selectedEntry;
  if (!entry) return;
  const what = entry.kind === 'directory' ? `フォルダ「${entry.path}」とその中身` : `ファイル「${entry.path}」`;
  if (!confirm(`${what}を削除します。元に戻せません。`)) return;
  void (entry.kind === 'directory' ? files.removeDirectory(entry.path) : files.remove(entry.path));
});

// ---- run / test -------------------------------------------------------------------------------

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

function renderRun(state: RunState = runState.getState()): void {
  const busy = state.status !== 'idle';
  const loaded = files.isLoaded();
  // The buttons show running for a run started by an agent too (GO-7).
  for (const [button, mode] of [[runButton, 'run'], [testButton, 'test']] as const) {
    button.disabled = busy || !loaded;
    if (busy && state.mode === mode) button.setAttribute('aria-busy', 'true');
    else button.removeAttribute('aria-busy');
  }
  stopButton.disabled = !busy;
  runStatus.textContent =
    state.status === 'loading'
      ? 'Go を読み込み中…'
      : state.status === 'running'
        ? `${state.mode === 'test' ? 'テスト' : '実行'}中…`
        : state.end
          ? describeEnd(state.end)
          : '';
}

runState.subscribe(() => renderRun());
files.subscribe(() => renderRun());
renderRun();

/** Characters the pane keeps (the last ones); older output is dropped from the screen. */
const PANE_CHARS = 200_000;
let paneLength = 0;
let pendingText = '';
let flushScheduled = false;

/** Writes the chunks received since the last frame at once: one DOM change per frame, whatever the chunk count. */
function flushOutput(): void {
  flushScheduled = false;
  if (!pendingText) return;
  const stick = output.scrollHeight - output.scrollTop - output.clientHeight < 8;
  paneLength += pendingText.length;
  if (paneLength > PANE_CHARS * 2) {
    const text = ((output.textContent ?? '') + pendingText).slice(-PANE_CHARS);
    output.textContent = text;
    paneLength = text.length;
  } else {
    output.append(pendingText);
  }
  pendingText = '';
  if (stick) output.scrollTop = output.scrollHeight;
}

function scheduleFlush(): void {
  if (flushScheduled) return;
  flushScheduled = true;
  // A timer, not requestAnimationFrame: a background tab gets no frames but still shows the output later.
  setTimeout(flushOutput, 16);
}

subscribeOutput((event) => {
  if (event.type === 'start') {
    outputCommand.textContent = COMMANDS[event.mode];
    output.replaceChildren();
    paneLength = 0;
    pendingText = '';
    return;
  }
  if (event.type === 'chunk') {
    pendingText += event.text;
    if (pendingText.length > PANE_CHARS) pendingText = pendingText.slice(-PANE_CHARS);
    scheduleFlush();
    return;
  }
  // The run ended: show the rest now, so the pane and the answer agree.
  flushOutput();
});

const startRun = (mode: GoRunMode) => {
  // Errors are shown by the status line; a button has no one to answer to.
  run(mode).catch(() => {});
};
runButton.addEventListener('click', () => startRun('run'));
testButton.addEventListener('click', () => startRun('test'));
stopButton.addEventListener('click', () => stop());

// Ctrl+Enter runs, Ctrl+Shift+Enter tests, from anywhere on the page.
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey)) return;
  const mode = event.shiftKey ? 'test' : 'run';
  const button = mode === 'run' ? runButton : testButton;
  if (button.disabled) return;
  event.preventDefault();
  startRun(mode);
});
