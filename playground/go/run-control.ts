/**
 * The Go page's one run function as a factory: the Run and Test buttons, 停止 and `go_run` /
 * `go_test` all go through it (GO-3). state.ts makes the page's instance from the real files
 * module and runner; tests make their own with a real runner.
 * @module
 */
import { createStore, type ReadableStore } from 'ai-ops';
import { systemClock, type Clock } from 'ai-ops/internals';
import type { GoRunMode, GoRunOutcome, GoRunnerStatus } from 'ai-ops/tools/go';
import type { GoRunner } from './engine/go-runner.js';

/** How the last run ended, for the status line. */
export type RunEnd =
  | { readonly kind: 'exited'; readonly exitCode: number }
  | { readonly kind: 'timeout'; readonly timeoutMs: number }
  /** The user's 停止 (GO-9). */
  | { readonly kind: 'stopped' }
  /** The agent's call was cancelled (NAT-2). */
  | { readonly kind: 'cancelled' }
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

/** Output pane events: a run starts (the pane is cleared), writes a chunk, or ends. */
export type OutputEvent =
  | { readonly type: 'start'; readonly mode: GoRunMode }
  | { readonly type: 'chunk'; readonly text: string }
  | { readonly type: 'end'; readonly end: RunEnd };

/** Options of one run. */
export interface GoRunOptions {
  /** Stop the job after this many ms, counted once Yaegi is loaded (GO-4, GO-6). No limit when absent. */
  timeoutMs?: number;
  /** The agent's call signal: aborting it stops the job, as 停止 does, and the run answers `cancelled` (NAT-2). */
  signal?: AbortSignal;
}

/** What the run function needs from the files module. */
export interface RunnableFiles {
  isLoaded(): boolean;
  /** A copy of every file (GO-3: the job runs the files as they were at its start). */
  snapshot(): Record<string, string>;
}

/** The page's run state, output stream, run and stop. */
export interface GoRunControl {
  /** The buttons show running from it, for agent runs too (GO-7). */
  readonly runState: ReadableStore<RunState>;
  /** Follows the output of every run, started by a button or an agent alike (GO-4). */
  subscribeOutput(listener: (event: OutputEvent) => void): () => void;
  /**
   * Runs the root main package (`run`) or every package's tests (`test`) on a snapshot of the
   * files taken now (GO-3). While a run or the engine's load is in progress, answers `busy`
   * (GO-7). A job stopped by 停止 answers `stopped` (GO-9), by the signal `cancelled` (NAT-2),
   * by `timeoutMs` `timeout` (GO-6), each with the output so far. Rejects when Yaegi cannot be
   * loaded or the engine fails.
   */
  run(mode: GoRunMode, options?: GoRunOptions): Promise<GoRunOutcome>;
  /** The page's 停止 button: stops the current run. No effect when nothing runs. */
  stop(): void;
}

/** Characters of a run's output kept for the result: twice what `tools/go` answers (it cuts the tail, GO-6). */
const KEPT_OUTPUT = 200_000;

/**
 * Creates the run function over a runner and a files module.
 * @example
 * const control = createGoRunControl({ runner, files });
 * const outcome = await control.run('test', { timeoutMs: 30_000 });
 */
export function createGoRunControl(deps: { runner: GoRunner; files: RunnableFiles; clock?: Clock }): GoRunControl {
  const { runner, files } = deps;
  const clock = deps.clock ?? systemClock;
  const runState = createStore<RunState>({ status: 'idle', mode: null, end: null });
  const outputListeners = new Set<(event: OutputEvent) => void>();
  const emit = (event: OutputEvent) => {
    for (const listener of [...outputListeners]) listener(event);
  };
  const setRun = (next: Partial<RunState>) => runState.setState({ ...runState.getState(), ...next });
  let stopCurrent: (() => void) | null = null;

  const run = async (mode: GoRunMode, options: GoRunOptions = {}): Promise<GoRunOutcome> => {
    const { timeoutMs, signal } = options;
    if (runState.getState().status !== 'idle' || !files.isLoaded()) return { kind: 'busy' };
    // Cancelled before it started: nothing runs and the page shows nothing.
    if (signal?.aborted) return { kind: 'cancelled', output: '' };
    const snapshot = files.snapshot();
    setRun({ status: runner.loaded ? 'running' : 'loading', mode, end: null });
    emit({ type: 'start', mode });

    let output = '';
    /** Why the job was asked to stop; the first reason wins. */
    let stopReason: 'stopped' | 'cancelled' | 'timeout' | null = null;
    let stopJob: (() => void) | null = null;
    let wakeLoad: (() => void) | null = null;
    const requestStop = (reason: 'stopped' | 'cancelled' | 'timeout') => {
      if (stopReason !== null) return;
      stopReason = reason;
      stopJob?.();
      wakeLoad?.();
    };
    const onAbort = () => requestStop('cancelled');
    signal?.addEventListener('abort', onAbort, { once: true });
    stopCurrent = () => requestStop('stopped');
    let timer: ReturnType<Clock["setTimeout"]> | undefined;

    const finish = (end: RunEnd) => {
      stopCurrent = null;
      signal?.removeEventListener('abort', onAbort);
      if (timer !== undefined) clock.clearTimeout(timer);
      setRun({ status: 'idle', end });
      emit({ type: 'end', end });
    };
    /** The answer for a job stopped on request, with what it wrote so far. */
    const stopped = (): GoRunOutcome => {
      if (stopReason === 'timeout') {
        finish({ kind: 'timeout', timeoutMs: timeoutMs ?? 0 });
        return { kind: 'timeout', output };
      }
      const kind = stopReason === 'cancelled' ? 'cancelled' : 'stopped';
      finish({ kind });
      return { kind, output };
    };

    // Yaegi's load cannot be interrupted, but a stop during it answers at once; the load goes on
    // for the next run. The load ends once a worker has Yaegi ready, so starting a worker is not
    // counted in timeoutMs either (GO-4).
    const loading = runner.warmUp();
    loading.catch(() => {});
    try {
      await Promise.race([loading, new Promise<void>((resolve) => (wakeLoad = resolve))]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      finish({ kind: 'failed', message: `Go を読み込めませんでした: ${message}` });
      throw new Error(`the Go engine (Yaegi) could not be loaded: ${message}`);
    }
    wakeLoad = null;
    if (stopReason !== null) return stopped();
    setRun({ status: 'running' });
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
    stopJob = () => job.stop();
    if (timeoutMs !== undefined) timer = clock.setTimeout(() => requestStop('timeout'), timeoutMs);
    try {
      const result = await job.done;
      if (result.stopped) return stopped();
      finish({ kind: 'exited', exitCode: result.exitCode });
      return { kind: 'exited', exitCode: result.exitCode, output };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      finish({ kind: 'failed', message: `Go のエンジンが止まりました: ${message}` });
      throw error;
    }
  };

  return {
    runState,
    subscribeOutput(listener) {
      outputListeners.add(listener);
      return () => outputListeners.delete(listener);
    },
    run,
    stop: () => stopCurrent?.(),
  };
}
