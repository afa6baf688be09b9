/**
 * The Go page's engine worker (a module Web Worker, built to engine/worker.js by playground/go/build.mjs).
 *
 * It runs one job in Yaegi compiled to WebAssembly (playground/go/engine/yaegi/): the runner posts
 * `init` with the compiled module, the Go program starts and calls `__yaegiReady`, the runner
 * posts `run`, output streams back as it is written, and `exit` ends the job. A Go instance
 * cannot run twice, so the runner makes a new worker for every job; stopping is terminate().
 */
// build.mjs resolves this to the wasm_exec.js of the Go that built yaegi.wasm; it defines
// globalThis.Go and, in a browser, a stub globalThis.fs whose writes end up in writeSync.
import 'go-wasm-exec';
import type { FromWorker, GoMode, ToWorker } from './protocol.js';

/** The parts of wasm_exec.js's `Go` class this worker uses. */
interface GoInstance {
  argv: string[];
  env: Record<string, string>;
  exit: (code: number) => void;
  importObject: WebAssembly.Imports;
  run(instance: WebAssembly.Instance): Promise<void>;
  /** Runs Go until every goroutine waits; every return of control from Go to JS goes through it. */
  _resume(): void;
  /** Timers Go has asked JS for (sleeping goroutines, timeouts). */
  _scheduledTimeouts: Map<number, unknown>;
}

/** What main.go looks up on globalThis. */
interface YaegiGlobals {
  Go: new () => GoInstance;
  fs: { writeSync(fd: number, buf: Uint8Array): number };
  __yaegiShouldWarmUp?: () => boolean;
  __yaegiReady?: () => void;
  __yaegiRun?: (job: { files: Record<string, string>; mode: GoMode }) => void;
}

interface WorkerScope {
  postMessage(message: FromWorker): void;
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
}

const scope = self as unknown as WorkerScope;
const g = globalThis as unknown as YaegiGlobals;

let mode: GoMode = 'run';
let started = false;
let ready = false;
let ran = false;
let finished = false;
let pendingJob: { files: Record<string, string>; mode: GoMode } | undefined;

// One streaming decoder per file descriptor: a write may end inside a UTF-8 sequence.
const decoders = new Map<number, TextDecoder>();

/**
 * Testing's t.Log/t.Error prefix the caller's file:line; under Yaegi that caller is reflect's
 * value.go, which means nothing to the user, so `go test` output drops it.
 */
const hostCaller = /^(\s+)value\.go:\d+: /gm;

function post(message: FromWorker): void {
  scope.postMessage(message);
}

function emit(fd: number, text: string): void {
  if (!text) return;
  post({ type: 'output', text: mode === 'test' && fd === 1 ? text.replace(hostCaller, '$1') : text });
}

g.fs.writeSync = (fd: number, buf: Uint8Array): number => {
  let decoder = decoders.get(fd);
  if (!decoder) decoders.set(fd, (decoder = new TextDecoder('utf-8')));
  emit(fd, decoder.decode(buf, { stream: true }));
  return buf.length;
};

/**
 * Deadlock detection. Go's js/wasm runtime never reports "all goroutines are asleep": it waits
 * for JavaScript to call back. Here, during a job, Go can only be woken by its own timers or by
 * the browser operations net/http starts (fetch, body reads), so when Go returns to JS with none
 * of them pending, nothing can ever wake it: report the deadlock as Go does (exit 2).
 */
let pendingAsync = 0;

function track<T>(promise: Promise<T>): Promise<T> {
  pendingAsync++;
  return promise.finally(() => {
    pendingAsync--;
  });
}

function trackBrowserAsync(): void {
  const fetch = globalThis.fetch.bind(globalThis);
  globalThis.fetch = (...args: Parameters<typeof globalThis.fetch>) => track(fetch(...args));
  const read = ReadableStreamDefaultReader.prototype.read;
  ReadableStreamDefaultReader.prototype.read = function (this: ReadableStreamDefaultReader<unknown>) {
    return track(read.call(this));
  } as typeof read;
  const arrayBuffer = Response.prototype.arrayBuffer;
  Response.prototype.arrayBuffer = function (this: Response) {
    return track(arrayBuffer.call(this));
  };
}

function watchForDeadlock(go: GoInstance): void {
  const resume = go._resume.bind(go);
  let depth = 0;
  go._resume = () => {
    depth++;
    try {
      resume();
    } finally {
      depth--;
    }
    // Only when Go has returned to the event loop, not from a callback nested in a Go call.
    if (depth === 0 && ran && !finished && go._scheduledTimeouts.size === 0 && pendingAsync === 0) {
      emit(2, 'fatal error: all goroutines are asleep - deadlock!\n');
      finish(2);
    }
  };
}

function finish(code: number): void {
  if (finished) return;
  finished = true;
  for (const [fd, decoder] of decoders) emit(fd, decoder.decode());
  if (!ran) {
    post({ type: 'error', message: `the Go engine exited before its job (exit code ${code})` });
    return;
  }
  // `go test` exits 1 for any failing package, whatever the test binary's own exit code was
  // (a crash is 2, os.Exit(n) is n).
  post({ type: 'exit', exitCode: mode === 'test' && code !== 0 ? 1 : code });
}

function runJob(job: { files: Record<string, string>; mode: GoMode }): void {
  mode = job.mode;
  ran = true;
  try {
    const run = g.__yaegiRun;
    if (!run) throw new Error('the Go engine is not ready');
    // main.go may run the whole job inside this call, up to its exit.
    run(job);
  } catch (err) {
    if (finished) return;
    emit(2, `fatal error: ${String(err)}\n`);
    finish(2);
  }
}

async function start(module: WebAssembly.Module): Promise<void> {
  const go = new g.Go();
  go.argv = ['yaegi'];
  // An interpreted goroutine's panic crashes the program; show the panic, not Yaegi's Go stack.
  go.env = { GOTRACEBACK: 'none' };
  go.exit = finish;
  watchForDeadlock(go);
  trackBrowserAsync();
  // Warming up (a throwaway first evaluation) pays off for a spare worker, not for a waiting job.
  g.__yaegiShouldWarmUp = () => !pendingJob;
  g.__yaegiReady = () => {
    ready = true;
    post({ type: 'ready' });
    // Hand over the job after main.go has returned to its channel receive, not from inside its call.
    if (pendingJob) {
      const job = pendingJob;
      pendingJob = undefined;
      setTimeout(() => runJob(job), 0);
    }
  };
  try {
    const instance = await WebAssembly.instantiate(module, go.importObject);
    await go.run(instance);
  } catch (err) {
    if (!ready && !ran) {
      finished = true;
      post({ type: 'error', message: `the Go engine failed to start: ${String(err)}` });
      return;
    }
    // A trap in the wasm (out of memory, …): report it as a crash.
    emit(2, `fatal error: ${String(err)}\n`);
    finish(2);
  }
}

scope.onmessage = (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  if (msg.type === 'init') {
    if (started) return;
    started = true;
    void start(msg.module);
  } else if (msg.type === 'run') {
    if (ran || pendingJob) return;
    if (ready) runJob({ files: msg.files, mode: msg.mode });
    else pendingJob = { files: msg.files, mode: msg.mode };
  }
};
