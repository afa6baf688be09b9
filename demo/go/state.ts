/**
 * The Go page's state, outside any component (SHAPE-5): the files module (files.ts), the engine
 * (GoRunner), and the one run function that the Run and Test buttons and `go_run`/`go_test` call
 * (GO-3). The AI operations are handed to the runtime here, at module initialisation.
 * @module
 */
import { createStore, provideOperations } from '../../src/index.js';
import type { GoRunMode, GoRunOutcome, GoRunnerStatus, GoToolAdapter } from '../../tools/go/adapter.js';
import { createGoOperations } from '../../tools/go/operations.js';
import { GoRunner } from './engine/go-runner.js';
import { createGoFiles, createIndexedDbProjectStorage } from './files.js';

/** The embed id from `?id=` (default `demo`): the project is saved under it and shown in the title (DOC-3). */
export function readEmbedId(search: string): string {
  const id = new URLSearchParams(search).get('id')?.trim();
  return id ? id.slice(0, 100) : 'demo';
}

export const embedId = readEmbedId(location.search);

/** The project's files (GO-2). */
export const files = createGoFiles({ projectId: embedId, storage: createIndexedDbProjectStorage() });

/** Yaegi in a Web Worker; the wasm loads on the first run (GO-4). */
export const runner = new GoRunner({ workerUrl: 'engine/worker.js', wasmUrl: 'engine/yaegi.wasm' });

/** How the last run ended, for the status line. */
export type RunEnd =
  | { readonly kind: 'exited'; readonly exitCode: number }
  | { readonly kind: 'timeout'; readonly timeoutMs: number }
  | { readonly kind: 'stopped' }
  | { readonly kind: 'failed'; readonly message: string };

/** What the Run/Test buttons and the status line render. */
export interface RunState {
  /** `loading` while Yaegi is fetched for a run, `running` while the job runs (GO-7). */
  readonly status: GoRunnerStatus;
  /** The mode of the current or last run. */
  readonly mode: GoRunMode | null;
  /** How the last run ended; null while one runs or before the first. */
  readonly end: RunEnd | null;
}

/** The run state store (the buttons show running from it, for agent runs too: GO-7). */
export const runState = createStore<RunState>({ status: 'idle', mode: null, end: null });

/** Output pane events: a run starts (the pane is cleared), writes a chunk, or ends. */
export type OutputEvent =
  | { readonly type: 'start'; readonly mode: GoRunMode }
  | { readonly type: 'chunk'; readonly text: string }
  | { readonly type: 'end'; readonly end: RunEnd };

const outputListeners = new Set<(event: OutputEvent) => void>();

/** Follows the output of every run, started by a button or an agent alike (GO-4). */
export function subscribeOutput(listener: (event: OutputEvent) => void): () => void {
  outputListeners.add(listener);
  return () => outputListeners.delete(listener);
}

const emit = (event: OutputEvent) => {
  for (const listener of [...outputListeners]) listener(event);
};

/** Characters of a run's output kept for the result: twice what `tools/go` answers (it cuts the tail, GO-6). */
const KEPT_OUTPUT = 200_000;

let stopCurrent: (() => void) | null = null;

const setRun = (next: Partial<RunState>) => runState.setState({ ...runState.getState(), ...next });

/**
 * Runs the root main package (`run`) or every package's tests (`test`) on a snapshot of the files
 * taken now (GO-3). The one function behind the Run and Test buttons and `go_run`/`go_test`.
 *
 * - While a run or the engine's load is in progress, answers `busy` (GO-7).
 * - The output goes to the output pane as it is written (GO-4).
 * - `timeoutMs` counts from the start of the job, after Yaegi is loaded; when it passes, the job is
 *   stopped with its stop handle and `timeout` is answered with the output so far (GO-6).
 * - Rejects when Yaegi cannot be loaded or the engine fails (the operation answers `failed`).
 * @example const outcome = await run('test', { timeoutMs: 30_000 });
 */
export async function run(mode: GoRunMode, options: { timeoutMs?: number } = {}): Promise<GoRunOutcome> {
  if (runState.getState().status !== 'idle' || !files.isLoaded()) return { kind: 'busy' };
  const snapshot = files.snapshot();
  const { timeoutMs } = options;
  setRun({ status: runner.loaded ? 'running' : 'loading', mode, end: null });
  emit({ type: 'start', mode });
  const finish = (end: RunEnd) => {
    stopCurrent = null;
    setRun({ status: 'idle', end });
    emit({ type: 'end', end });
  };
  let stopRequested = false;
  stopCurrent = () => {
    stopRequested = true;
  };
  try {
    await runner.load();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    finish({ kind: 'failed', message: `Go を読み込めませんでした: ${message}` });
    throw new Error(`the Go engine (Yaegi) could not be loaded: ${message}`);
  }
  if (stopRequested) {
    finish({ kind: 'stopped' });
    return { kind: 'exited', exitCode: -1, output: '' };
  }
  setRun({ status: 'running' });
  let output = '';
  let job: ReturnType<GoRunner['start']>;
  try {
    job = runner.start(snapshot, mode, (chunk) => {
      output += chunk;
      if (output.length > KEPT_OUTPUT * 2) output = output.slice(output.length - KEPT_OUTPUT);
      emit({ type: 'chunk', text: chunk });
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    finish({ kind: 'failed', message });
    throw error;
  }
  stopCurrent = () => job.stop();
  let timedOut = false;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          job.stop();
        }, timeoutMs);
  try {
    const result = await job.done;
    if (timedOut) {
      finish({ kind: 'timeout', timeoutMs: timeoutMs ?? 0 });
      return { kind: 'timeout', output };
    }
    finish(result.stopped ? { kind: 'stopped' } : { kind: 'exited', exitCode: result.exitCode });
    return { kind: 'exited', exitCode: result.exitCode, output };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    finish({ kind: 'failed', message: `Go のエンジンが止まりました: ${message}` });
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Stops the current run (the page's 停止 button). No effect when nothing runs. */
export function stop(): void {
  stopCurrent?.();
}

/** What `tools/go` reads: the same files module and the same run function as the page (GO-2, GO-3). */
export const goAdapter: GoToolAdapter = {
  files: {
    isLoaded: () => files.isLoaded(),
    list: () => files.list(),
    read: (path) => files.read(path),
    write: (path, contents) => files.write(path, contents),
    remove: (path) => files.remove(path),
  },
  getRunnerState: () => runState.getState().status,
  run: (mode, { timeoutMs }) => run(mode, { timeoutMs }),
};

provideOperations('go', createGoOperations(goAdapter));

void files.load();

// Typing saves after a short pause; a page being hidden or closed saves at once.
addEventListener('pagehide', () => void files.flush());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') void files.flush();
});
