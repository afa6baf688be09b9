/**
 * GoRunner: runs the Go page's files in Yaegi (Go interpreter compiled to WebAssembly) inside a
 * Web Worker. Main-thread side; the worker is playground/go/engine/worker.ts.
 *
 * - The wasm is fetched and compiled once, lazily ({@link GoRunner.load}); every job gets a fresh
 *   worker that instantiates the already compiled module, so stopping (worker.terminate()) and
 *   running again needs no new download or compile.
 * - One job at a time; a job runs a snapshot of the files taken at {@link GoRunner.start}.
 * - After a job, the next worker is started in the background ("warm"), so the next start does
 *   not wait for Yaegi's own start-up.
 */
import type { FromWorker, GoMode, ToWorker } from './protocol.js';

export type { GoMode } from './protocol.js';

/** `idle`: no job and no load in progress; `loading`: fetching/compiling the wasm; `running`: a job runs. */
export const GoRunnerState = { idle: 'idle', loading: 'loading', running: 'running' } as const;
export type GoRunnerState = (typeof GoRunnerState)[keyof typeof GoRunnerState];

/** Where the engine's built files are served (playground/go/build.mjs puts them in `<site>/go/engine/`). */
export interface GoRunnerOptions {
  /** URL of the bundled worker, e.g. `engine/worker.js`. Loaded as a module worker. */
  workerUrl: string | URL;
  /** URL of yaegi.wasm, e.g. `engine/yaegi.wasm`. */
  wasmUrl: string | URL;
  /** Keep a started worker ready for the next job (default true). */
  warm?: boolean;
}

/** How a job ended. */
export interface GoRunResult {
  /**
   * `go run` / `go test` exit code: 0 success; 1 compile error or failed test; n for os.Exit(n)
   * (run mode); 2 panic (run mode). -1 when the job was stopped.
   */
  exitCode: number;
  /** True when {@link GoRun.stop} ended the job. */
  stopped: boolean;
}

/** A started job. */
export interface GoRun {
  /**
   * Resolves when the job ends (or is stopped). Rejects when the engine itself failed: the wasm
   * could not be loaded or the worker could not start.
   */
  done: Promise<GoRunResult>;
  /** Stops the job now (terminates its worker). No effect after the job ended. */
  stop(): void;
}

/** The files of a job: slash-separated paths relative to the project root → contents. A key ending in `/` is a directory. */
export type GoFiles = ReadonlyMap<string, string> | Readonly<Record<string, string>>;

/** A started worker given the compiled module; `ready` settles when Yaegi waits for its job. */
interface EngineWorker {
  worker: Worker;
  ready: Promise<void>;
  /** Set while a job uses this worker. */
  onMessage?: (msg: FromWorker) => void;
  onFailure?: (err: Error) => void;
}

/**
 * Runs Go code with Yaegi in a Web Worker.
 *
 * @example
 * const runner = new GoRunner({ workerUrl: 'engine/worker.js', wasmUrl: 'engine/yaegi.wasm' });
 * await runner.load(); // lazily, e.g. on the first Run click; not part of a run's time limit
 * const job = runner.start(files, 'test', (chunk) => pane.append(chunk));
 * const timer = setTimeout(() => job.stop(), 30_000);
 * const { exitCode, stopped } = await job.done;
 * clearTimeout(timer);
 */
export class GoRunner {
  readonly #workerUrl: URL;
  readonly #wasmUrl: URL;
  readonly #warm: boolean;
  #state: GoRunnerState = 'idle';
  #module: WebAssembly.Module | undefined;
  #loading: Promise<WebAssembly.Module> | undefined;
  #spare: EngineWorker | undefined;
  /** A job was started and has not ended (also while it waits for the wasm to load). */
  #busy = false;
  readonly #listeners = new Set<(state: GoRunnerState) => void>();

  /** Milliseconds the last successful {@link load} took (fetch + compile), undefined before. */
  loadMs: number | undefined;

  constructor(options: GoRunnerOptions) {
    const base = typeof document !== 'undefined' ? document.baseURI : self.location.href;
    this.#workerUrl = new URL(options.workerUrl, base);
    this.#wasmUrl = new URL(options.wasmUrl, base);
    this.#warm = options.warm ?? true;
  }

  /** The current state. */
  get state(): GoRunnerState {
    return this.#state;
  }

  /** True once the wasm is compiled. */
  get loaded(): boolean {
    return this.#module !== undefined;
  }

  /** Calls `listener` on every state change; returns the unsubscribe function. */
  subscribe(listener: (state: GoRunnerState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Fetches and compiles yaegi.wasm once. Idempotent: later calls return the same promise, or
   * resolve at once when loaded. Rejects on failure (a later call tries again).
   */
  load(): Promise<void> {
    return this.#compile().then(() => undefined);
  }

  /**
   * Starts a job on a snapshot of `files`: `run` runs the root main package, `test` runs every
   * package's tests (`go test -v` output). `onOutput` receives stdout and stderr as written.
   * Loads the wasm first when needed. Throws when a job runs or the wasm is loading.
   */
  start(files: GoFiles, mode: GoMode, onOutput: (chunk: string) => void): GoRun {
    if (this.#busy || this.#state !== 'idle') throw new Error(`GoRunner is ${this.#state === 'idle' ? 'running' : this.#state}`);
    if (mode !== 'run' && mode !== 'test') throw new Error(`unknown mode ${String(mode)}`);
    const snapshot = snapshotFiles(files);
    this.#busy = true;

    let stopped = false;
    let ended = false;
    let engine: EngineWorker | undefined;
    let settle!: (result: GoRunResult) => void;
    let fail!: (err: Error) => void;
    const done = new Promise<GoRunResult>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    const end = (): void => {
      ended = true;
      this.#busy = false;
      if (engine) {
        engine.worker.terminate();
        engine.onMessage = engine.onFailure = undefined;
      }
      // Stopped while the wasm still loads: the load goes on and ends in `idle` itself.
      if (this.#state === 'running') this.#setState('idle');
      if (this.#warm && this.#module) this.#prepareSpare();
    };

    const begin = (): void => {
      if (stopped) return;
      engine = this.#takeWorker();
      engine.onMessage = (msg) => {
        if (ended) return;
        if (msg.type === 'output') onOutput(msg.text);
        else if (msg.type === 'exit') {
          end();
          settle({ exitCode: msg.exitCode, stopped: false });
        }
      };
      const onFailure = (err: Error): void => {
        if (ended) return;
        end();
        fail(err);
      };
      engine.onFailure = onFailure;
      // A spare that failed before it was taken has no listener yet.
      engine.ready.catch(onFailure);
      post(engine.worker, { type: 'run', files: snapshot, mode });
    };

    if (this.#module) {
      this.#setState('running');
      begin();
    } else {
      this.#compile().then(
        () => {
          if (stopped) return;
          this.#setState('running');
          begin();
        },
        (err: unknown) => {
          if (stopped) return;
          ended = true;
          this.#busy = false;
          fail(err instanceof Error ? err : new Error(String(err)));
        },
      );
    }

    return {
      done,
      stop: () => {
        if (ended || stopped) return;
        stopped = true;
        end();
        settle({ exitCode: -1, stopped: true });
      },
    };
  }

  /**
   * Loads the wasm if needed and resolves when a started worker waits for the next job, so that
   * job starts at once. Rejects when loading or starting the worker fails. Without `warm`, only loads.
   */
  async warmUp(): Promise<void> {
    await this.#compile();
    if (!this.#warm) return;
    this.#prepareSpare();
    await this.#spare?.ready;
  }

  /** Stops the warm worker (the runner stays usable: the next job starts a worker). */
  dispose(): void {
    this.#spare?.worker.terminate();
    this.#spare = undefined;
  }

  #setState(state: GoRunnerState): void {
    if (state === this.#state) return;
    this.#state = state;
    for (const listener of [...this.#listeners]) listener(state);
  }

  #compile(): Promise<WebAssembly.Module> {
    if (this.#module) return Promise.resolve(this.#module);
    if (this.#loading) return this.#loading;
    this.#setState('loading');
    const started = performance.now();
    this.#loading = fetchModule(this.#wasmUrl).then(
      (module) => {
        this.#module = module;
        this.#loading = undefined;
        this.loadMs = performance.now() - started;
        this.#setState('idle');
        if (this.#warm) this.#prepareSpare();
        return module;
      },
      (err: unknown) => {
        this.#loading = undefined;
        this.#setState('idle');
        throw err instanceof Error ? err : new Error(String(err));
      },
    );
    return this.#loading;
  }

  /** The warm worker if any, else a new one; the job's `run` message waits in the worker until Yaegi is ready. */
  #takeWorker(): EngineWorker {
    const engine = this.#spare ?? this.#spawn();
    this.#spare = undefined;
    return engine;
  }

  #prepareSpare(): void {
    if (this.#spare || !this.#module) return;
    const spare = this.#spawn();
    this.#spare = spare;
    // A spare that fails to start is replaced by a fresh worker at the next start.
    spare.ready.catch(() => {
      if (this.#spare === spare) {
        spare.worker.terminate();
        this.#spare = undefined;
      }
    });
  }

  #spawn(): EngineWorker {
    const module = this.#module;
    if (!module) throw new Error('yaegi.wasm is not loaded');
    const worker = new Worker(this.#workerUrl, { type: 'module', name: 'go-engine' });
    let markReady!: () => void;
    let markFailed!: (err: Error) => void;
    const engine: EngineWorker = {
      worker,
      ready: new Promise<void>((resolve, reject) => {
        markReady = resolve;
        markFailed = reject;
      }),
    };
    const failure = (err: Error): void => {
      markFailed(err);
      engine.onFailure?.(err);
    };
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      const msg = event.data;
      if (msg.type === 'ready') markReady();
      else if (msg.type === 'error') failure(new Error(msg.message));
      else engine.onMessage?.(msg);
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      failure(new Error(`the Go engine worker failed: ${event.message || 'could not load ' + this.#workerUrl.href}`));
    };
    worker.onmessageerror = () => failure(new Error('the Go engine worker sent an unreadable message'));
    post(worker, { type: 'init', module });
    return engine;
  }
}

function post(worker: Worker, message: ToWorker): void {
  worker.postMessage(message);
}

/** Copies the files so later edits do not reach the running job (GO-4). */
function snapshotFiles(files: GoFiles): Record<string, string> {
  const entries = files instanceof Map ? [...files.entries()] : Object.entries(files as Record<string, string>);
  const out: Record<string, string> = {};
  for (const [path, contents] of entries) {
    if (typeof contents !== 'string') throw new TypeError(`contents of ${path} is not a string`);
    out[path] = contents;
  }
  return out;
}

async function fetchModule(url: URL): Promise<WebAssembly.Module> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load ${url.href}: HTTP ${response.status}`);
  // compileStreaming needs the application/wasm type; other servers get the slower path.
  if ((response.headers.get('content-type') ?? '').startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}
