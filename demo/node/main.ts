/**
 * The node page's UI: the file tree, the editor with 保存, and the bottom pane with its tabs 端末,
 * コンソール and 「AI からの操作」 (the log in tab mode, LOG-1). All of it renders state.ts, whose
 * import hands the AI operations to the runtime.
 *
 * The bottom pane's selection is stored; while the stored selection is the AI tab and the switch is
 * off (turned off, expired, or off from another tab), the terminal shows, and the stored selection
 * is left as it is (SW-8).
 * @module
 */
import '../../elements/define.js';
import type { AiOpsLog } from '../../elements/ai-ops-log.js';
import { stripTerminalControls } from '../../tools/index.js';
import { FileTree } from '../shared/file-tree.js';
import type { NodeProcess, NodeRuntime, ProcessSummary } from './engine/node-runtime.js';
import { consoleMessages, embedId, logMessage, reboot, runtimeState, subscribeFileChanges } from './state.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

document.title = `${embedId} — node — ai-ops`;
$('doc-name').textContent = embedId;

const editor = $<HTMLTextAreaElement>('editor');
const editorLabel = $('editor-label');
const editorState = $('editor-state');
const saveButton = $<HTMLButtonElement>('save');
const runtimeStatus = $('runtime-status');
const notice = $('notice');
const rebootButton = $<HTMLButtonElement>('reboot');
const processList = $('process-list');
const processTitle = $('process-title');
const processOutput = $<HTMLPreElement>('process-output');
const killButton = $<HTMLButtonElement>('kill');
const commandForm = $<HTMLFormElement>('command-form');
const commandInput = $<HTMLInputElement>('command');
const consoleList = $('console');
const log = document.querySelector<AiOpsLog>('ai-ops-log[tool="node"]')!;

const runtime = (): NodeRuntime | null => runtimeState.getState().runtime;

// ---- runtime status ------------------------------------------------------------------------------

function renderRuntime(): void {
  const { status, error } = runtimeState.getState();
  runtimeStatus.textContent = status === 'booting' ? '起動中…' : status === 'ready' ? '' : '起動に失敗しました';
  notice.hidden = status !== 'failed';
  notice.textContent = status === 'failed' ? `Node の実行環境を起動できませんでした: ${error ?? ''}` : '';
  rebootButton.disabled = status === 'booting';
  commandInput.disabled = status !== 'ready';
}

rebootButton.addEventListener('click', () => void reboot());

// ---- editor --------------------------------------------------------------------------------------

let openPath: string | null = null;
/** The contents as last read or saved; the editor is dirty when it differs. */
let savedContents = '';
let opening = 0;

const isDirty = () => openPath !== null && editor.value !== savedContents;

function renderEditor(): void {
  const dirty = isDirty();
  saveButton.disabled = openPath === null || !dirty || runtime() === null;
  editorState.textContent = openPath === null ? '' : dirty ? '保存していない変更があります' : '';
}

function closeEditor(message = ''): void {
  openPath = null;
  savedContents = '';
  editor.value = '';
  editor.disabled = true;
  editorLabel.textContent = 'エディタ';
  editorState.textContent = message;
  renderEditor();
}

async function openFile(path: string): Promise<void> {
  const rt = runtime();
  if (!rt) return;
  if (isDirty()) {
    // Keep the user's edits: the same file stays as typed; another one only after they agree.
    if (path === openPath) return;
    if (!confirm(`「${openPath}」の保存していない変更を捨てて、「${path}」を開きますか?`)) return;
  }
  const ticket = ++opening;
  const result = await rt.files.read(path);
  if (ticket !== opening) return;
  if (!result.ok) {
    closeEditor(`「${path}」を開けません: ${result.message}`);
    return;
  }
  openPath = path;
  savedContents = result.contents;
  editor.value = result.contents;
  editor.disabled = false;
  editorLabel.textContent = path;
  renderEditor();
}

/** Re-reads the open file unless the user has unsaved changes (a command or an agent changed it). */
async function refreshOpenFile(): Promise<void> {
  const rt = runtime();
  if (!rt || openPath === null || isDirty()) return;
  const path = openPath;
  const result = await rt.files.read(path);
  if (openPath !== path || isDirty()) return;
  if (!result.ok) {
    if (result.code === 'not_found') closeEditor(`「${path}」は削除されました`);
    return;
  }
  if (result.contents !== savedContents) {
    savedContents = result.contents;
    editor.value = result.contents;
    renderEditor();
  }
}

async function save(): Promise<void> {
  const rt = runtime();
  if (!rt || openPath === null) return;
  const path = openPath;
  const contents = editor.value;
  const result = await rt.files.write(path, contents);
  if (!result.ok) {
    logMessage('error', `「${path}」を保存できませんでした: ${result.message}`);
    editorState.textContent = '保存できませんでした(コンソールを見てください)';
    return;
  }
  if (openPath === path) savedContents = contents;
  renderEditor();
}

editor.addEventListener('input', () => {
  // Typing wins over a read still on its way (it would replace what was just typed).
  opening++;
  renderEditor();
});
editor.addEventListener('keydown', (event) => {
  if (event.key === 's' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    void save();
  }
});
saveButton.addEventListener('click', () => void save());

// An agent's node_write_file / node_delete_file shows in the open editor, unless the user has unsaved changes.
subscribeFileChanges((change) => {
  if (change.path !== openPath) return;
  if (change.kind === 'remove') {
    if (!isDirty()) closeEditor(`「${change.path}」は削除されました`);
    return;
  }
  if (isDirty()) {
    editorState.textContent = 'AI のエージェントがこのファイルを書き換えました。保存すると上書きします';
    return;
  }
  savedContents = change.contents;
  editor.value = change.contents;
  renderEditor();
});

// ---- file tree -----------------------------------------------------------------------------------

const tree = new FileTree($('file-tree'), { onOpen: (path) => void openFile(path) });

// ---- terminal ------------------------------------------------------------------------------------

let selectedProcess: string | null = null;
let knownProcesses = new Set<string>();
let stopOutput: () => void = () => {};
let pendingOutput = '';
let flushTimer: ReturnType<typeof setTimeout> | undefined;
/** Characters the output view keeps. */
const VIEW_CHARS = 200_000;

const stateText = (p: ProcessSummary) => (p.status === 'running' ? '実行中' : `終了 ${p.exitCode ?? ''}`.trim());

function flushOutput(): void {
  flushTimer = undefined;
  if (!pendingOutput) return;
  const stick = processOutput.scrollHeight - processOutput.scrollTop - processOutput.clientHeight < 8;
  const text = (processOutput.textContent ?? '') + stripTerminalControls(pendingOutput);
  pendingOutput = '';
  processOutput.textContent = text.length > VIEW_CHARS ? text.slice(-VIEW_CHARS) : text;
  if (stick) processOutput.scrollTop = processOutput.scrollHeight;
}

function showProcess(id: string | null): void {
  if (id === selectedProcess) return;
  selectedProcess = id;
  stopOutput();
  stopOutput = () => {};
  pendingOutput = '';
  processOutput.textContent = '';
  const handle: NodeProcess | undefined = id === null ? undefined : runtime()?.processes.get(id);
  if (handle) {
    // Output batched per 30 ms: a chatty process must not re-render the view per chunk.
    stopOutput = handle.output.subscribe((chunk) => {
      pendingOutput += chunk;
      if (pendingOutput.length > VIEW_CHARS * 2) pendingOutput = pendingOutput.slice(-VIEW_CHARS);
      flushTimer ??= setTimeout(flushOutput, 30);
    });
  }
  renderProcesses();
}

function renderProcesses(): void {
  const rt = runtime();
  const list = rt?.processes.list.getState() ?? [];
  const items = list.map((p) => {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.id = p.id;
    button.setAttribute('aria-pressed', String(p.id === selectedProcess));
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = p.name;
    const state = document.createElement('span');
    state.className = 'state';
    state.textContent = stateText(p);
    button.append(name, state);
    button.addEventListener('click', () => showProcess(p.id));
    item.append(button);
    return item;
  });
  processList.replaceChildren(...items);
  const selected = list.find((p) => p.id === selectedProcess);
  processTitle.textContent = selected ? `${selected.name}(${stateText(selected)})` : 'プロセスはまだありません';
  killButton.disabled = selected?.status !== 'running';
}

function onProcessesChanged(): void {
  const rt = runtime();
  const list = rt?.processes.list.getState() ?? [];
  // A new process (started here or by an agent, NODE-3) is shown at once, like a terminal would.
  const fresh = list.filter((p) => !knownProcesses.has(p.id));
  knownProcesses = new Set(list.map((p) => p.id));
  const exited = list.some((p) => p.status === 'exited' && p.id === selectedProcess);
  if (fresh.length > 0) showProcess(fresh[fresh.length - 1].id);
  else renderProcesses();
  if (exited || fresh.length > 0) void refreshOpenFile();
}

killButton.addEventListener('click', () => {
  const id = selectedProcess;
  const handle = id === null ? undefined : runtime()?.processes.get(id);
  void handle?.kill().catch((error: unknown) => logMessage('error', `停止できませんでした: ${String(error)}`));
});

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

commandForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const rt = runtime();
  const line = commandInput.value.trim();
  const [command, ...args] = splitCommandLine(line);
  if (!rt || !command) return;
  commandInput.value = '';
  rt.processes.start(command, args, { name: line }).catch((error: unknown) => {
    logMessage('error', `「${line}」を実行できませんでした: ${error instanceof Error ? error.message : String(error)}`);
  });
});

// ---- following the runtime instance (a reboot replaces it, NODE-2) -------------------------------

let unfollow: () => void = () => {};
let followed: NodeRuntime | null = null;

function follow(): void {
  renderRuntime();
  const rt = runtime();
  if (rt === followed) return;
  unfollow();
  followed = rt;
  selectedProcess = null;
  knownProcesses = new Set();
  stopOutput();
  stopOutput = () => {};
  processOutput.textContent = '';
  if (!rt) {
    tree.setEntries([]);
    renderProcesses();
    renderEditor();
    return;
  }
  const onTree = () => {
    tree.setEntries(rt.files.tree.getState());
    if (openPath !== null && !rt.files.tree.getState().some((e) => e.path === openPath)) void refreshOpenFile();
  };
  const stopTree = rt.files.tree.subscribe(onTree);
  const stopList = rt.processes.list.subscribe(onProcessesChanged);
  unfollow = () => {
    stopTree();
    stopList();
  };
  onTree();
  knownProcesses = new Set(rt.processes.list.getState().map((p) => p.id));
  renderProcesses();
  if (openPath === null) void openFile('index.js');
  else void refreshOpenFile();
}

runtimeState.subscribe(follow);
follow();

// Files changed by something else (a command in another tab) show when the page gets focus again.
addEventListener('focus', () => {
  void runtime()?.files.tree.refresh().catch(() => {});
  void refreshOpenFile();
});

// ---- console -------------------------------------------------------------------------------------

function renderConsole(): void {
  const stick = consoleList.scrollHeight - consoleList.scrollTop - consoleList.clientHeight < 8;
  consoleList.replaceChildren(
    ...consoleMessages.getState().map((message) => {
      const item = document.createElement('li');
      item.className = message.level;
      const time = document.createElement('time');
      time.dateTime = new Date(message.time).toISOString();
      const at = new Date(message.time);
      time.textContent = [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
      item.append(time, message.text);
      return item;
    }),
  );
  if (stick) consoleList.scrollTop = consoleList.scrollHeight;
}

consoleMessages.subscribe(renderConsole);
renderConsole();

// ---- bottom tabs (SW-8) --------------------------------------------------------------------------

type Tab = 'terminal' | 'console' | 'ai';
const TAB_KEY = 'node-bottom-tab';
const tabs = [...document.querySelectorAll<HTMLButtonElement>('[role="tablist"] [role="tab"]')];
const isTab = (value: unknown): value is Tab => value === 'terminal' || value === 'console' || value === 'ai';

function readStoredTab(): Tab {
  try {
    const value = localStorage.getItem(TAB_KEY);
    return isTab(value) ? value : 'terminal';
  } catch {
    return 'terminal';
  }
}

/** The user's selection; written to storage only when the user picks a tab. */
let selectedTab: Tab = readStoredTab();

/** What shows: the selection, except the AI tab while the log is hidden (switch off), which shows the terminal. */
const shownTab = (): Tab => (selectedTab === 'ai' && !log.visible ? 'terminal' : selectedTab);

function renderTabs(): void {
  const shown = shownTab();
  for (const tab of tabs) {
    const name = tab.dataset.tab as Tab;
    // The AI tab exists only while the switch is on (the log is visible), LOG-1.
    if (name === 'ai') tab.hidden = !log.visible;
    const isShown = name === shown;
    tab.setAttribute('aria-selected', String(isShown));
    tab.tabIndex = isShown ? 0 : -1;
    $(tab.getAttribute('aria-controls') ?? '').hidden = !isShown;
  }
}

function selectTab(tab: Tab): void {
  selectedTab = tab;
  try {
    localStorage.setItem(TAB_KEY, tab);
  } catch {
    // Storage blocked: the selection lasts for this page only.
  }
  renderTabs();
}

for (const tab of tabs) {
  tab.addEventListener('click', () => selectTab(tab.dataset.tab as Tab));
  tab.addEventListener('keydown', (event) => {
    const visible = tabs.filter((t) => !t.hidden);
    const index = visible.indexOf(tab);
    let next: HTMLButtonElement | undefined;
    if (event.key === 'ArrowRight') next = visible[(index + 1) % visible.length];
    else if (event.key === 'ArrowLeft') next = visible[(index + visible.length - 1) % visible.length];
    else if (event.key === 'Home') next = visible[0];
    else if (event.key === 'End') next = visible[visible.length - 1];
    if (!next) return;
    event.preventDefault();
    selectTab(next.dataset.tab as Tab);
    next.focus();
  });
}

// Re-rendered from the log's visibility, never by rewriting the stored selection (SW-8).
log.addEventListener('ai-ops-log-visibility-change', renderTabs);
void customElements.whenDefined('ai-ops-log').then(renderTabs);
renderTabs();
