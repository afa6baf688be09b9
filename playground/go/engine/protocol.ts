/**
 * Messages between {@link GoRunner} (main thread) and the engine worker (worker.ts).
 *
 * One worker runs one job: `init` (the compiled Yaegi module) → `ready` → `run` → `output`* →
 * `exit`. The runner sends `init` ahead of time so a worker is warm before the next run.
 */

/** `run` runs the root `main` package; `test` runs every package's tests. */
export type GoMode = 'run' | 'test';

/** Main thread → worker. */
export type ToWorker =
  | { type: 'init'; module: WebAssembly.Module }
  | { type: 'run'; files: Record<string, string>; mode: GoMode };

/** Worker → main thread. */
export type FromWorker =
  /** Yaegi has started and waits for its job. */
  | { type: 'ready' }
  /** Program output (stdout and stderr interleaved, in write order). */
  | { type: 'output'; text: string }
  /** The job ended (or the Go program ended before its job: an engine failure). */
  | { type: 'exit'; exitCode: number }
  /** The engine could not start (instantiation failed). */
  | { type: 'error'; message: string };
