/**
 * What the node page shows of the runtime, kept outside any component so it survives navigation:
 * the open file (its saved text and the text being edited) and the process the terminal shows.
 * It follows the runtime instance in use (a reboot replaces it, NODE-2), an agent's writes and
 * removals (the open editor follows unless the user has unsaved changes), and new processes
 * (shown at once, like a terminal would, NODE-3).
 * @module
 */
import { createStore } from 'ai-ops';
import type { NodeRuntime } from './engine/node-runtime.js';
import { logMessage, runtimeState, subscribeFileChanges } from './state.js';

/** The open file. `text` is what the editor shows; it differs from `saved` while unsaved. */
export interface OpenFileState {
  readonly path: string | null;
  readonly saved: string;
  readonly text: string;
  /** A note beside the editor's name (the file was deleted, an agent rewrote it…); '' when none. */
  readonly note: string;
}

/** The open file's store. */
export const openFile = createStore<OpenFileState>({ path: null, saved: '', text: '', note: '' });

/** The process the terminal shows, by id; null when none. */
export const shownProcess = createStore<{ readonly id: string | null }>({ id: null });

const runtime = (): NodeRuntime | null => runtimeState.getState().runtime;
const update = (patch: Partial<OpenFileState>) => openFile.setState({ ...openFile.getState(), ...patch });

/** True while the editor holds changes not saved. */
export function isDirty(state: OpenFileState = openFile.getState()): boolean {
  return state.path !== null && state.text !== state.saved;
}

/** What the editor's state line says. */
export function editorNote(state: OpenFileState): string {
  if (state.note) return state.note;
  return isDirty(state) ? '保存していない変更があります' : '';
}

/** Counts reads: typing or a newer open wins over a read still on its way. */
let opening = 0;

function closeFile(note = ''): void {
  openFile.setState({ path: null, saved: '', text: '', note });
}

/**
 * Opens `path` in the editor. With unsaved changes the same file stays as typed, and another one
 * opens only after `confirmDiscard` agrees.
 */
export async function openPath(path: string, confirmDiscard: (message: string) => boolean = (m) => confirm(m)): Promise<void> {
  const rt = runtime();
  if (!rt) return;
  const current = openFile.getState();
  if (isDirty(current)) {
    if (path === current.path) return;
    if (!confirmDiscard(`「${current.path}」の保存していない変更を捨てて、「${path}」を開きますか?`)) return;
  }
  const ticket = ++opening;
  const result = await rt.files.read(path);
  if (ticket !== opening) return;
  if (!result.ok) {
    closeFile(`「${path}」を開けません: ${result.message}`);
    return;
  }
  openFile.setState({ path, saved: result.contents, text: result.contents, note: '' });
}

/** Re-reads the open file unless the user has unsaved changes (a command or an agent changed it). */
export async function refreshOpenFile(): Promise<void> {
  const rt = runtime();
  const { path } = openFile.getState();
  if (!rt || path === null || isDirty()) return;
  const result = await rt.files.read(path);
  if (openFile.getState().path !== path || isDirty()) return;
  if (!result.ok) {
    if (result.code === 'not_found') closeFile(`「${path}」は削除されました`);
    return;
  }
  if (result.contents !== openFile.getState().saved) update({ saved: result.contents, text: result.contents });
}

/** The user edited the text. */
export function editText(text: string): void {
  const state = openFile.getState();
  if (state.path === null || text === state.text) return;
  opening++;
  update({ text, note: '' });
}

/** Saves the open file (保存, Ctrl+S). */
export async function saveOpenFile(): Promise<void> {
  const rt = runtime();
  const { path, text } = openFile.getState();
  if (!rt || path === null) return;
  const result = await rt.files.write(path, text);
  if (!result.ok) {
    logMessage('error', `「${path}」を保存できませんでした: ${result.message}`);
    update({ note: '保存できませんでした(コンソールを見てください)' });
    return;
  }
  if (openFile.getState().path === path) update({ saved: text, note: '' });
}

/** Kills the process the terminal shows. */
export function killShownProcess(): void {
  const { id } = shownProcess.getState();
  const handle = id === null ? undefined : runtime()?.processes.get(id);
  void handle?.kill().catch((error: unknown) => logMessage('error', `停止できませんでした: ${String(error)}`));
}

let followed: NodeRuntime | null = null;
let unfollow: () => void = () => {};

/** Follows the instance in use: its tree, its processes. */
function follow(): void {
  const rt = runtime();
  if (rt === followed) return;
  unfollow();
  unfollow = () => {};
  followed = rt;
  shownProcess.setState({ id: null });
  if (!rt) return;
  let known = new Set(rt.processes.list.getState().map((p) => p.id));
  const onTree = () => {
    const { path } = openFile.getState();
    if (path !== null && !rt.files.tree.getState().some((e) => e.path === path)) void refreshOpenFile();
  };
  const onProcesses = () => {
    const list = rt.processes.list.getState();
    // A new process (started here or by an agent, NODE-3) is shown at once.
    const fresh = list.filter((p) => !known.has(p.id));
    known = new Set(list.map((p) => p.id));
    const exited = list.some((p) => p.status === 'exited' && p.id === shownProcess.getState().id);
    if (fresh.length > 0) shownProcess.setState({ id: fresh[fresh.length - 1].id });
    if (exited || fresh.length > 0) void refreshOpenFile();
  };
  const stopTree = rt.files.tree.subscribe(onTree);
  const stopList = rt.processes.list.subscribe(onProcesses);
  unfollow = () => {
    stopTree();
    stopList();
  };
  if (openFile.getState().path === null) void openPath('index.js');
  else void refreshOpenFile();
}

let started = false;

/** Starts following the runtime and the agent's file changes (once per document). */
export function startWorkbench(): void {
  if (started) return;
  started = true;
  runtimeState.subscribe(follow);
  follow();
  // An agent's node_write_file / node_delete_file shows in the open editor, unless the user has unsaved changes.
  subscribeFileChanges((change) => {
    const state = openFile.getState();
    if (change.path !== state.path) return;
    if (change.kind === 'remove') {
      if (!isDirty(state)) closeFile(`「${change.path}」は削除されました`);
      return;
    }
    if (isDirty(state)) {
      update({ note: 'AI のエージェントがこのファイルを書き換えました。保存すると上書きします' });
      return;
    }
    update({ saved: change.contents, text: change.contents, note: '' });
  });
}
