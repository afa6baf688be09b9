/**
 * The node page's state, outside any component (SHAPE-5): the boot promise of the Node runtime
 * (a client of the demo server's localhost runner), the current instance that a reboot replaces,
 * the page's console messages, the open file (editor.ts) and the terminal's process (terminal.ts).
 * {@link startNodePage} boots the runtime and hands the AI operations to ai-ops, once per document,
 * when the page first mounts (APP-3); they read the current instance on every call (NODE-1, NODE-2).
 * @module
 */
import { createStore, provideOperations } from 'ai-ops';
import { createNodeOperations, type NodeRuntimeLike, type NodeToolAdapter } from 'ai-ops/tools/node';
import { NodeRuntime, readRunnerToken } from './engine/node-runtime.js';
import { once } from '../shared/once.js';
import { keepsUndo } from '../shared/page-params.js';

/** Where the runtime is: booting, ready (an instance in use) or failed (NODE-1). */
export interface RuntimeState {
  readonly status: 'booting' | 'ready' | 'failed';
  /** The instance in use; null unless `ready`. */
  readonly runtime: NodeRuntime | null;
  /** Why the last boot failed. */
  readonly error: string | null;
  /** Counts boots, so a slow old boot never replaces a newer one. */
  readonly generation: number;
}

/** The runtime state store; the page's panes follow it. */
export const runtimeState = createStore<RuntimeState>({ status: 'booting', runtime: null, error: null, generation: 0 });

/** One line of the コンソール tab: what the page itself has to say. */
export interface ConsoleMessage {
  readonly id: number;
  readonly time: number;
  readonly level: 'info' | 'error';
  readonly text: string;
}

/** The page's messages (boot, reboot, errors), newest last, at most 500. */
export const consoleMessages = createStore<readonly ConsoleMessage[]>([]);
let nextMessageId = 1;

/** Adds a line to the コンソール tab. */
export function logMessage(level: ConsoleMessage['level'], text: string): void {
  const list = [...consoleMessages.getState(), { id: nextMessageId++, time: Date.now(), level, text }];
  consoleMessages.setState(list.length > 500 ? list.slice(list.length - 500) : list);
}

/** A file the AI operations wrote or removed, so an open editor can follow (NODE-6 uses the runtime's write/remove). */
export type FileChange = { readonly path: string; readonly kind: 'write'; readonly contents: string } | { readonly path: string; readonly kind: 'remove' };

const fileListeners = new Set<(change: FileChange) => void>();

/** Follows the file changes made through the AI operations. */
export function subscribeFileChanges(listener: (change: FileChange) => void): () => void {
  fileListeners.add(listener);
  return () => fileListeners.delete(listener);
}

const fileChanged = (change: FileChange) => {
  for (const listener of [...fileListeners]) listener(change);
};

/**
 * Boots a new runtime instance; the previous one stops being used at once. Resolves with the
 * instance, or null when this boot failed or a newer one started meanwhile.
 */
export async function boot(): Promise<NodeRuntime | null> {
  const generation = runtimeState.getState().generation + 1;
  runtimeState.setState({ status: 'booting', runtime: null, error: null, generation });
  const isCurrent = () => runtimeState.getState().generation === generation;
  // The server puts this start's token into the app's document (the same placeholder as before).
  const token = readRunnerToken(document);
  if (!token) {
    const error = 'このページは、デモのサーバ(npm start)から開いたときだけ、Node を動かせます。';
    runtimeState.setState({ status: 'failed', runtime: null, error, generation });
    logMessage('error', `Node の実行環境を起動できませんでした: ${error}`);
    return null;
  }
  const runtime = new NodeRuntime({ token });
  try {
    await runtime.boot();
  } catch (error) {
    if (!isCurrent()) return null;
    const message = error instanceof Error ? error.message : String(error);
    runtimeState.setState({ status: 'failed', runtime: null, error: message, generation });
    logMessage('error', `Node の実行環境を起動できませんでした: ${message}`);
    return null;
  }
  if (!isCurrent()) return null;
  runtimeState.setState({ status: 'ready', runtime, error: null, generation });
  logMessage('info', 'Node の実行環境を起動しました。');
  return runtime;
}

/**
 * Reboots: stops the processes of the instance in use, then boots a new instance that replaces
 * it (NODE-2). The workspace's files stay.
 */
export async function reboot(): Promise<NodeRuntime | null> {
  const old = runtimeState.getState().runtime;
  logMessage('info', '再起動します。');
  const booting = boot();
  if (old) {
    const running = old.processes.list.getState().filter((p) => p.status === 'running');
    await Promise.all(running.map((p) => old.processes.get(p.id)?.kill().catch(() => {})));
  }
  return booting;
}

/**
 * The runtime instance in use, as the AI operations see it: null while booting or failed (NODE-1),
 * read anew on every call (NODE-2). Writes and removals also tell an open editor.
 */
export function currentRuntime(): NodeRuntimeLike | null {
  const runtime = runtimeState.getState().runtime;
  if (!runtime) return null;
  return {
    files: {
      tree: runtime.files.tree,
      read: (path) => runtime.files.read(path),
      write: async (path, contents) => {
        const result = await runtime.files.write(path, contents);
        if (result.ok) fileChanged({ path, kind: 'write', contents });
        return result;
      },
      remove: async (path) => {
        const result = await runtime.files.remove(path);
        if (result.ok) fileChanged({ path, kind: 'remove' });
        return result;
      },
      // The before-state of an agent's command, held in this page's memory by its undo step (UNDO-1, UNDO-4).
      snapshot: (options) => runtime.files.snapshot(options),
      // The runner holds the before-state; the page gets only what the command changed (issue 24).
      keep: () => runtime.files.keep(),
      changes: (mark) => runtime.files.changes(mark),
      versions: (paths) => runtime.files.versions(paths),
      removeEmptyDirectory: (path) => runtime.files.removeEmptyDirectory(path),
      writeKeeping: async (path, contents) => {
        const result = await runtime.files.writeKeeping(path, contents);
        if (result.ok) fileChanged({ path, kind: 'write', contents });
        return result;
      },
    },
    // The run race (timeout, cancel, kill) is the runtime's, as go's and sql's are their pages' (NODE-4, NAT-6).
    run: (command, args, options) => runtime.run(command, args, options),
    excludes: runtime.excludes,
  };
}

/** What `tools/node` reads. */
export const nodeAdapter: NodeToolAdapter = { getRuntime: currentRuntime };

let booted: Promise<NodeRuntime | null> | undefined;
const handOver = once(() => provideOperations('node', createNodeOperations(nodeAdapter, { undo: keepsUndo() })));

/**
 * The page's first mount: boots the runtime and hands the operations over. Later calls (a
 * remount, StrictMode's second effect) return the same boot.
 */
export function startNodePage(): Promise<NodeRuntime | null> {
  handOver();
  booted ??= boot();
  return booted;
}

/** Writes the page's uncaught errors to the コンソール tab while the page is shown; returns the stop function. */
export function logPageErrors(): () => void {
  const onError = (event: ErrorEvent) => logMessage('error', `ページのエラー: ${event.message}`);
  const onRejection = (event: PromiseRejectionEvent) => {
    const reason: unknown = event.reason;
    logMessage('error', `ページのエラー: ${reason instanceof Error ? reason.message : String(reason)}`);
  };
  addEventListener('error', onError);
  addEventListener('unhandledrejection', onRejection);
  return () => {
    removeEventListener('error', onError);
    removeEventListener('unhandledrejection', onRejection);
  };
}
