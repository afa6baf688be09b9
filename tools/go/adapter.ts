/**
 * What the Go page hands to {@link createGoOperations}: its files module (the one the editor and
 * IndexedDB use, GO-2) and its run function (the one the Run and Test buttons call, GO-3).
 * The run function wraps the engine (playground/go/engine/go-runner.ts): it takes a snapshot of the
 * files, starts the job, writes its output to the output pane as for a button, starts the
 * `timeoutMs` timer once the engine is loaded (GO-4) and stops the job with its stop handle when
 * the timer fires (GO-6), and resolves to the run contract's {@link GoRunOutcome} (tools/run.ts).
 * @module
 */
import type { RunOutcome, RunOutput, RunRequest } from '../run.js';

/** An entry of the files module. Paths are relative to the project root, `/`-separated. */
export interface GoFileEntry {
  readonly path: string;
  readonly kind: 'file' | 'directory';
}

/** The Go page's files module. Read on every call (DEF-6). */
export interface GoFilesModule {
  /** True once the project and its saved files are loaded (GO-1). */
  isLoaded(): boolean;
  /** Every file and directory, empty directories included (GO-2). Ancestors may be left implicit. */
  list(): readonly GoFileEntry[];
  /** A file's contents, or null when no file has that path. */
  read(path: string): string | null;
  /** Writes a file as if the user typed it, creating missing parent directories (FILE-5). */
  write(path: string, contents: string): void | Promise<void>;
  /** Removes a file (never called for a directory, FILE-6). */
  remove(path: string): void | Promise<void>;
  /** Removes a directory and what is under it; called only for an empty one, by an undo of a write that made it. Omitted: it stays. */
  removeDirectory?(path: string): void | Promise<void>;
  /**
   * The module of the project shown now, fixed: an agent's change is undone in the project it was
   * made in, even after the user switched to another (UNDO-1). Omitted: this module is used.
   */
  pin?(): GoFilesModule | null;
}

/** The engine's state: `loading` (Yaegi being fetched) and `running` make runs `not_ready` (GO-4, GO-7). */
export type GoRunnerStatus = 'idle' | 'loading' | 'running';

/** `run` runs the root main package; `test` runs every package's tests (GO-3). */
export type GoRunMode = 'run' | 'test';

/**
 * How a run ended (the run contract, tools/run.ts).
 * - `exited`: the job ended with `exitCode` (compile error or failed test 1, `os.Exit(n)` n, panic 2; GO-5).
 * - `timeout`: `timeoutMs` passed after loading; the job was stopped; `output` is what it wrote so far (GO-6).
 * - `stopped`: the user stopped the job with the page's 停止 (GO-9); `output` so far.
 * - `cancelled`: the call's `signal` was aborted and the job stopped (NAT-2, NAT-6); `output` so far.
 * - `busy`: a run, a test or the engine's loading was in progress (GO-7).
 *
 * A run rejects when the engine cannot load: the operation answers `failed` (GO-4).
 * @example const outcome: GoRunOutcome = { kind: 'exited', exitCode: 0, output: 'hi\n' };
 */
export type GoRunOutcome = RunOutcome<{ readonly exitCode: number } & RunOutput, RunOutput>;

/** What `go_run` / `go_test` ask of the page's run function. */
export type GoRunRequest = RunRequest;

/** What the Go page passes to {@link createGoOperations}. */
export interface GoToolAdapter {
  readonly files: GoFilesModule;
  /** The engine's state now. */
  getRunnerState(): GoRunnerStatus;
  /** The page's Run / Test function. The buttons show running while it runs (GO-7). */
  run(mode: GoRunMode, options: GoRunRequest): Promise<GoRunOutcome>;
}
