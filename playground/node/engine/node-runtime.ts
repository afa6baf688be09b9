/**
 * Browser client for the demo server's Node runner (the node runner server, under /__runner/).
 * The node page builds one `NodeRuntime` with the token the server injected into the page, awaits
 * `boot()`, and hands the instance to its terminal, file tree and AI operations.
 *
 * Every request is a same-origin POST with a JSON body and the `x-ai-ops-token` header; the
 * browser adds the Origin header the runner checks. Domain failures (a missing file…) come back
 * as `{ ok: false, code }` results; transport and authorisation failures throw `NodeRuntimeError`.
 */
// Types only: the client stays free of runtime imports, so it also runs as compiled alone (test/node/runner-client.test.mjs).
import type { Clock } from 'ai-ops/internals';
import type { NodeRunOutcome } from 'ai-ops/tools/node';

/** The real timers, as src/clock.ts's `systemClock` has them. */
const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * The project's store contract (structurally the same as `ReadableStore` in src/store.ts):
 * a new snapshot after each change, no notification when nothing changed.
 */
export interface ReadableStore<T> {
  /** The current snapshot. */
  getState(): T;
  /** Alias of `getState` for `useSyncExternalStore(store.subscribe, store.getSnapshot)`. */
  getSnapshot(): T;
  /** Calls `listener` after each change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

/** One path of the workspace, `/`-separated and relative to the workspace root. */
export interface FileEntry {
  readonly path: string;
  readonly kind: 'file' | 'directory';
  /**
   * True when the not-saved-files rule covers the path: under a directory named by an exclude
   * pattern (such a directory is listed, its contents are not), a file over 1 MiB, or not text.
   */
  readonly excluded: boolean;
}

/** The file-tree store: every entry of the workspace, sorted by path. */
export interface FileTreeStore extends ReadableStore<readonly FileEntry[]> {
  /** Reloads the tree from the runner (coalesces overlapping calls). */
  refresh(): Promise<void>;
  /** True when the runner cut the last listing (over 10,000 entries). */
  readonly truncated: boolean;
}

/** The kept files of the workspace, as the runner's `snapshot` lists them (UNDO-1). */
export interface NodeSnapshot {
  /** Each kept file: its path, its SHA-256 (hex), and its text when asked with contents. */
  readonly files: readonly { readonly path: string; readonly version: string; readonly contents?: string }[];
  /** True when the runner stopped before the end (over 64 MiB of text, or a cut tree). */
  readonly truncated: boolean;
}

/** What an agent's command changed among the kept files, as the runner's `changes` answers it (UNDO-1). */
export interface NodeChanges {
  /** Each changed kept file, by path: its text at the mark (null: not kept then) and its version now (null: none). */
  readonly files: readonly { readonly path: string; readonly before: string | null; readonly version: string | null }[];
  /** False when the changes cannot all be told (the mark is gone, the workspace is past 64 MiB of text). */
  readonly complete: boolean;
}

/** A listing as the runner sends it: its entries, or `unchanged` when they are the version the page has. */
interface TreeAnswer {
  readonly entries?: readonly FileEntry[];
  readonly unchanged?: true;
  readonly truncated: boolean;
  readonly version?: string;
}

/** Why a read failed. */
export const ReadErrorCode = {
  notFound: 'not_found',
  tooLarge: 'too_large',
  notText: 'not_text',
  isDirectory: 'is_directory',
  invalidPath: 'invalid_path',
} as const;
/** One of the `ReadErrorCode` values. */
export type ReadErrorCode = (typeof ReadErrorCode)[keyof typeof ReadErrorCode];

/** Result of `files.read`. */
export type ReadResult =
  | { readonly ok: true; readonly contents: string }
  | { readonly ok: false; readonly code: ReadErrorCode; readonly message: string };

/** Result of `files.write`. */
export type WriteResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: 'invalid_path' | 'too_large' | 'is_directory'; readonly message: string };

/** Result of `files.writeKeeping`. */
export type WriteKeepingResult =
  | { readonly ok: true; readonly before: { readonly contents: string } | { readonly absent: true } | { readonly unkept: true }; readonly version: string }
  | Exclude<WriteResult, { ok: true }>;

/** Result of `files.remove`. */
export type RemoveResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: 'invalid_path' | 'not_found' | 'is_directory'; readonly message: string };

/** The not-saved-files rule, as the runner reports it. */
export interface ExcludeRules {
  /** Directory patterns such as `node_modules/`: the directory at any depth and all below it. */
  readonly patterns: readonly string[];
  /** Files larger than this many bytes are not saved and not read (`too_large`). */
  readonly maxFileBytes: number;
  /** Files that are not UTF-8 text are not saved and not read (`not_text`). */
  readonly textOnly: boolean;
}

/** The rule the runner applies; `boot()` replaces it with what the runner reports. */
export const DEFAULT_EXCLUDES: ExcludeRules = Object.freeze({
  patterns: Object.freeze(['node_modules/', '.git/']),
  maxFileBytes: 1024 * 1024,
  textOnly: true,
});

/**
 * True when `path` lies under a directory named by one of `patterns` (for a directory, its own
 * name counts too). Size and text tests need the file and are reported by `FileEntry.excluded`.
 * @example isExcludedPath('a/node_modules/x.js', 'file', ['node_modules/']) // true
 */
export function isExcludedPath(path: string, kind: 'file' | 'directory', patterns: readonly string[]): boolean {
  const segments = path.split('/');
  const dirs = kind === 'directory' ? segments : segments.slice(0, -1);
  return patterns.some((pattern) => pattern.endsWith('/') && dirs.includes(pattern.slice(0, -1)));
}

/** A process's output, kept as the last `outputLimit` characters (200,000 by default). */
export interface ProcessOutput {
  /**
   * Calls `listener` with each chunk as it arrives (stdout and stderr interleaved). With
   * `replay` (default) the text kept so far is delivered first, as one chunk.
   */
  subscribe(listener: (chunk: string) => void, options?: { replay?: boolean }): () => void;
  /** The kept text so far. */
  getText(): string;
  /** True when the beginning of the output was dropped (here or by the runner). */
  readonly truncated: boolean;
}

/** A process started with `processes.start`. */
export interface NodeProcess {
  readonly id: string;
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** OS process id, or null when the runner refused the command (it has exited already). */
  readonly pid: number | null;
  readonly output: ProcessOutput;
  /**
   * Resolves with the exit code: 128 + signal number when killed by a signal, 127 for a command
   * that is not allowed or not found. Rejects with `NodeRuntimeError` only when the runner
   * cannot be reached any more.
   */
  readonly exit: Promise<number>;
  /** Kills the process and all its descendants (SIGKILL to the process group); resolves once exited. */
  kill(): Promise<void>;
}

/** What the process list store holds per process. */
export interface ProcessSummary {
  readonly id: string;
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly status: 'running' | 'exited';
  readonly exitCode: number | null;
}

/** Options of `processes.start`. */
export interface StartOptions {
  /** Shown in the terminal pane; defaults to the command line. */
  readonly name?: string;
}

/** Options of the `NodeRuntime` constructor. */
export interface NodeRuntimeOptions {
  /** The runner's base URL; `/__runner/` (same origin) by default. */
  readonly baseUrl?: string;
  /** The per-start token the server put into the node page (see `readRunnerToken`). */
  readonly token: string;
  /** Injected for tests; the global `fetch` by default. */
  readonly fetch?: typeof fetch;
  /** How many times a broken output stream is reopened before `exit` rejects. */
  readonly reconnectAttempts?: number;
  /** Timers for `run`'s `timeoutMs` and its bounded wait for a kill; the real clock by default. */
  readonly clock?: Clock;
}

/** Options of `run`: the run contract's request (tools/run.ts) with the terminal pane's name. */
export interface RunOptions {
  /** Shown in the terminal pane: `ai: <command>` for an agent's command (NODE-3). */
  readonly name: string;
  /** Kill the process after this many ms (NODE-4). */
  readonly timeoutMs: number;
  /** The call's signal: aborting it kills the process (NAT-2, NAT-6). */
  readonly signal?: AbortSignal;
}

/** How long a killed process may take to be confirmed gone before `run` resolves anyway. */
export const KILL_WAIT_MS = 5000;

/** What {@link runToEnd} needs of a started process. */
export interface RunnableProcess {
  readonly output: { getText(): string; readonly truncated: boolean };
  readonly exit: Promise<number>;
  kill(): void | Promise<void>;
}

/** Kills `proc`; true once the runtime confirms it is gone, false when that takes over `bound` ms. */
async function killed(proc: RunnableProcess, clock: Clock, bound: number): Promise<boolean> {
  // kill() is not awaited on its own: a stuck runner must not hold the answer for ever.
  void Promise.resolve().then(() => proc.kill()).catch(() => {});
  let handle: ReturnType<Clock['setTimeout']>;
  const late = new Promise<boolean>((resolve) => {
    handle = clock.setTimeout(() => resolve(false), bound);
  });
  try {
    return await Promise.race([proc.exit.then(() => true, () => true), late]);
  } finally {
    clock.clearTimeout(handle);
  }
}

/**
 * The node page's run race for a started process (the run contract, tools/run.ts): resolves when
 * it exits (`exited`), or kills it when `timeoutMs` passes (`timeout`, NODE-4) or `signal` aborts
 * (`cancelled`, NAT-6) and resolves with the output written until then once the runtime confirms
 * it is gone, or after `killWaitMs` with `killConfirmed` false. Rejects when the runner cannot be
 * reached any more (`exit` rejected).
 * @example const outcome = await runToEnd(await runtime.processes.start('node', ['a.js']), { timeoutMs: 30_000 });
 */
export async function runToEnd(
  proc: RunnableProcess,
  { timeoutMs, signal, clock = systemClock, killWaitMs = KILL_WAIT_MS }: { timeoutMs: number; signal?: AbortSignal; clock?: Clock; killWaitMs?: number },
): Promise<NodeRunOutcome> {
  let interrupt: (reason: 'timeout' | 'cancelled') => void = () => {};
  const interrupted = new Promise<'timeout' | 'cancelled'>((resolve) => (interrupt = resolve));
  const timer = clock.setTimeout(() => interrupt('timeout'), timeoutMs);
  const onAbort = () => interrupt('cancelled');
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  const outputNow = () => ({ output: proc.output.getText(), truncated: proc.output.truncated });
  try {
    const end = await Promise.race([proc.exit, interrupted]);
    if (typeof end === 'number') return { kind: 'exited', exitCode: end, ...outputNow() };
    // The output is that of the deadline (or the cancel); the answer waits until the runtime
    // confirms the process is gone (bounded), so "killed" is true when it says so.
    const output = outputNow();
    return { kind: end, ...output, killConfirmed: await killed(proc, clock, killWaitMs) };
  } finally {
    clock.clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** A failure to talk to the runner: unreachable (`status` 0), refused (401/403) or broken. */
export class NodeRuntimeError extends Error {
  /** HTTP status, 0 when no response arrived. */
  readonly status: number;
  /** The runner's error code (`bad_token`, `forbidden_origin`…), `unreachable` or `bad_response`. */
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'NodeRuntimeError';
    this.status = status;
    this.code = code;
  }
}

/** The placeholder the server replaces; a page opened any other way still contains it. */
export const TOKEN_PLACEHOLDER = '%%AI_OPS_RUNNER_TOKEN%%';

/**
 * Reads the token from `<meta name="ai-ops-runner-token" content="%%AI_OPS_RUNNER_TOKEN%%">`.
 * Returns null when the meta is absent or was not replaced (the page was not served by serve.mjs).
 * @example const token = readRunnerToken(document); if (token) new NodeRuntime({ token });
 */
export function readRunnerToken(doc: Document): string | null {
  const content = doc.querySelector('meta[name="ai-ops-runner-token"]')?.getAttribute('content') ?? '';
  return content && content !== TOKEN_PLACEHOLDER ? content : null;
}

function createStore<T>(initial: T, equals: (a: T, b: T) => boolean) {
  let state = initial;
  const listeners = new Set<() => void>();
  const getState = () => state;
  return {
    getState,
    getSnapshot: getState,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    set(next: T) {
      if (Object.is(next, state) || equals(next, state)) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
  };
}

const sameEntries = (a: readonly FileEntry[], b: readonly FileEntry[]) =>
  a.length === b.length && a.every((e, i) => e.path === b[i].path && e.kind === b[i].kind && e.excluded === b[i].excluded);

interface WireProcess {
  id: string;
  name: string;
  command: string;
  args: string[];
  pid: number | null;
  status: 'running' | 'exited';
  exitCode: number | null;
}

type StreamLine =
  | { type: 'output'; offset: number; data: string }
  | { type: 'exit'; process: WireProcess }
  | { type: 'error'; code: string; message: string };

class OutputBuffer implements ProcessOutput {
  private text = '';
  private cut = false;
  private readonly listeners = new Set<(chunk: string) => void>();

  constructor(private readonly limit: number) {}

  get truncated(): boolean {
    return this.cut;
  }

  getText(): string {
    return this.text;
  }

  subscribe(listener: (chunk: string) => void, { replay = true }: { replay?: boolean } = {}): () => void {
    if (replay && this.text) listener(this.text);
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Appends a chunk; `dropped` says the runner already cut characters before it. */
  push(chunk: string, dropped: boolean): void {
    if (dropped) this.cut = true;
    if (!chunk) return;
    this.text += chunk;
    if (this.text.length > this.limit) {
      this.text = this.text.slice(this.text.length - this.limit);
      this.cut = true;
    }
    for (const listener of [...this.listeners]) listener(chunk);
  }
}

/**
 * The node page's runtime: files in the runner's workspace and processes run there.
 * @example
 * const runtime = new NodeRuntime({ token: readRunnerToken(document) ?? '' });
 * await runtime.boot();
 * const proc = await runtime.processes.start('node', ['index.js'], { name: 'run' });
 * proc.output.subscribe((chunk) => terminal.write(chunk));
 * console.log(await proc.exit);
 */
export class NodeRuntime {
  /** Files of the workspace. */
  readonly files: {
    readonly tree: FileTreeStore;
    read(path: string): Promise<ReadResult>;
    write(path: string, contents: string): Promise<WriteResult>;
    remove(path: string): Promise<RemoveResult>;
    /**
     * The kept files (the not-saved-files rule applied) with a version token each (SHA-256) and,
     * with `contents`, their texts: what an agent's command may change, kept by the page for its
     * undo (UNDO-1). Throws `NodeRuntimeError` when the runner refuses or cannot be reached.
     */
    snapshot(options: { readonly contents: boolean }): Promise<NodeSnapshot>;
    /** The version token of each path's kept file now, null where none is (UNDO-2). */
    versions(paths: readonly string[]): Promise<readonly (string | null)[]>;
    /**
     * Before an agent's command: the runner notes what every kept file holds (its cache reads only
     * the files changed since it last looked) and answers a mark, or null when they cannot all be kept.
     */
    keep(): Promise<string | null>;
    /**
     * After the command: the kept files it changed since `mark`, with their texts at the mark (UNDO-1).
     * The same walk lists the tree, which is loaded too (NODE-6). Throws `NodeRuntimeError` when the
     * runner cannot be reached.
     */
    changes(mark: string): Promise<NodeChanges>;
    /**
     * `write` that also answers what the file held before (its text, absent, or unkept: not text or
     * over 1 MiB) and the version it holds now, in one round trip: an agent's write's undo (UNDO-1).
     */
    writeKeeping(path: string, contents: string): Promise<WriteKeepingResult>;
    /** Removes `path` when it is an empty directory (`removed`), leaves it otherwise: an undo's cleanup. */
    removeEmptyDirectory(path: string): Promise<{ readonly ok: true; readonly removed: boolean } | { readonly ok: false; readonly code: 'invalid_path'; readonly message: string }>;
  };

  /** Processes started through this instance. */
  readonly processes: {
    start(command: string, args?: readonly string[], options?: StartOptions): Promise<NodeProcess>;
    readonly list: ReadableStore<readonly ProcessSummary[]>;
    /**
     * The handle of a process this instance started (by any caller: the terminal, an agent), so a
     * terminal pane can show the output of every process in `list`. Undefined for an unknown id.
     */
    get(id: string): NodeProcess | undefined;
  };

  private readonly baseUrl: string;
  private readonly token: string;
  private readonly fetchImpl: typeof fetch;
  private readonly reconnectAttempts: number;
  private readonly clock: Clock;
  private rules: ExcludeRules = DEFAULT_EXCLUDES;
  private outputLimit = 200_000;
  private readonly treeStore = createStore<readonly FileEntry[]>([], sameEntries);
  private treeTruncated = false;
  private refreshing: Promise<void> | null = null;
  private refreshAgain = false;
  /** The runner's version of the listing in the tree store (sent as `have`: an unchanged one is not sent again). */
  private treeVersion: string | null = null;
  private readonly listStore = createStore<readonly ProcessSummary[]>([], () => false);
  private readonly handles = new Map<string, NodeProcess>();

  constructor({ baseUrl = '/__runner/', token, fetch: fetchImpl, reconnectAttempts = 3, clock = systemClock }: NodeRuntimeOptions) {
    this.clock = clock;
    this.baseUrl = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
    this.token = token;
    this.fetchImpl = fetchImpl ?? globalThis.fetch.bind(globalThis);
    this.reconnectAttempts = reconnectAttempts;
    const runtime = this;
    const tree: FileTreeStore = {
      getState: () => this.treeStore.getState(),
      getSnapshot: () => this.treeStore.getState(),
      subscribe: (listener) => this.treeStore.subscribe(listener),
      refresh: () => this.refreshTree(),
      get truncated() {
        return runtime.treeTruncated;
      },
    };
    this.files = {
      tree,
      read: (path) => this.call<ReadResult>('read', { path }),
      write: async (path, contents) => {
        const result = await this.call<WriteResult>('write', { path, contents });
        if (result.ok) await this.refreshQuietly();
        return result;
      },
      remove: async (path) => {
        const result = await this.call<RemoveResult>('remove', { path });
        if (result.ok) await this.refreshQuietly();
        return result;
      },
      snapshot: async ({ contents }) => {
        const result = await this.call<({ ok: true } & NodeSnapshot) | { ok: false; code: string; message: string }>('snapshot', { contents });
        if (!result.ok) throw new NodeRuntimeError(200, result.code, result.message);
        return { files: result.files, truncated: result.truncated };
      },
      writeKeeping: async (path, contents) => {
        const result = await this.call<WriteKeepingResult>('write', { path, contents, keep: true });
        if (result.ok) await this.refreshQuietly();
        return result;
      },
      removeEmptyDirectory: async (path) => {
        const result = await this.call<{ ok: true; removed: boolean } | { ok: false; code: 'invalid_path'; message: string }>('rmdir', { path });
        if (result.ok && result.removed) await this.refreshQuietly();
        return result;
      },
      keep: async () => {
        const result = await this.call<{ ok: true; mark: string | null } | { ok: false; code: string; message: string }>('keep', {});
        if (!result.ok) throw new NodeRuntimeError(200, result.code, result.message);
        return result.mark;
      },
      changes: async (mark) => {
        const result = await this.call<
          { ok: true; truncated: boolean; files: NodeChanges['files']; tree: TreeAnswer } | { ok: false; code: string; message: string; tree?: TreeAnswer }
        >('changes', { mark, have: this.treeVersion });
        if (result.tree) {
          this.applyTree(result.tree);
          // A listing still being fetched may be older than this one: fetched again after it.
          if (this.refreshing) this.refreshAgain = true;
        } else {
          await this.refreshQuietly();
        }
        if (!result.ok) return { files: [], complete: false };
        return { files: result.files, complete: !result.truncated };
      },
      versions: async (paths) => {
        const result = await this.call<{ ok: true; versions: (string | null)[] } | { ok: false; code: string; message: string }>('versions', { paths: [...paths] });
        if (!result.ok) throw new NodeRuntimeError(200, result.code, result.message);
        return result.versions;
      },
    };
    this.processes = {
      start: (command, args = [], options = {}) => this.start(command, args, options),
      list: { getState: this.listStore.getState, getSnapshot: this.listStore.getState, subscribe: this.listStore.subscribe },
      get: (id) => this.handles.get(id),
    };
  }

  /**
   * The page's run function for an agent's command (the run contract, tools/run.ts): starts
   * `command` with `args` under `name` and races its exit against `timeoutMs` and `signal`, killing
   * it when one of those comes first (NODE-4, NAT-6). A signal aborted before the start starts nothing.
   * @example const outcome = await runtime.run('node', ['-e', '1'], { name: 'ai: node', timeoutMs: 30_000, signal });
   */
  async run(command: string, args: readonly string[], { name, timeoutMs, signal }: RunOptions): Promise<NodeRunOutcome> {
    if (signal?.aborted) return { kind: 'cancelled', output: '', killConfirmed: true };
    const proc = await this.processes.start(command, args, { name });
    return runToEnd(proc, { timeoutMs, signal, clock: this.clock });
  }

  /** The not-saved-files rule (the runner's, after `boot()`). */
  get excludes(): ExcludeRules {
    return this.rules;
  }

  /** Checks that the runner answers and accepts the token, then loads the rules and the tree. */
  async boot(): Promise<void> {
    const info = await this.call<{ ok: boolean; api: number; excludes: ExcludeRules; outputLimit: number }>('info', {});
    if (!info.ok || info.api !== 1) throw new NodeRuntimeError(200, 'bad_response', `unsupported runner API ${String(info.api)}`);
    this.rules = Object.freeze({ ...info.excludes, patterns: Object.freeze([...info.excludes.patterns]) });
    this.outputLimit = info.outputLimit;
    await this.refreshTree();
  }

  private headers(): Record<string, string> {
    return { 'content-type': 'application/json', 'x-ai-ops-token': this.token };
  }

  private async post(endpoint: string, body: unknown, signal?: AbortSignal): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.baseUrl}${endpoint}`, {
        method: 'POST',
        headers: this.headers(),
        body: JSON.stringify(body),
        credentials: 'same-origin',
        cache: 'no-store',
        signal,
      });
    } catch (error) {
      throw new NodeRuntimeError(0, 'unreachable', `runner unreachable: ${(error as Error).message}`);
    }
    if (!response.ok) {
      let code = 'http_error';
      let message = `runner answered ${response.status}`;
      try {
        const json = (await response.json()) as { code?: string; message?: string };
        if (json.code) code = json.code;
        if (json.message) message = json.message;
      } catch {
        // not JSON: keep the generic message
      }
      throw new NodeRuntimeError(response.status, code, message);
    }
    return response;
  }

  private async call<T>(endpoint: string, body: unknown): Promise<T> {
    const response = await this.post(endpoint, body);
    try {
      return (await response.json()) as T;
    } catch {
      throw new NodeRuntimeError(response.status, 'bad_response', `runner sent no JSON for ${endpoint}`);
    }
  }

  private refreshTree(): Promise<void> {
    if (this.refreshing) {
      // A change happened while a listing was running: list once more after it.
      this.refreshAgain = true;
      return this.refreshing;
    }
    const run = async () => {
      do {
        this.refreshAgain = false;
        this.applyTree(await this.call<TreeAnswer>('tree', { have: this.treeVersion }));
      } while (this.refreshAgain);
    };
    this.refreshing = run().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Loads a listing into the tree store; `unchanged`: the runner's listing is the one held already. */
  private applyTree(result: TreeAnswer): void {
    this.treeTruncated = result.truncated;
    if (result.entries) this.treeStore.set(Object.freeze(result.entries.map((e) => Object.freeze({ ...e }))));
    this.treeVersion = result.entries || result.version === this.treeVersion ? result.version ?? null : null;
  }

  private async refreshQuietly(): Promise<void> {
    try {
      await this.refreshTree();
    } catch {
      // The change itself succeeded; the next refresh will catch up.
    }
  }

  private updateSummary(wire: WireProcess): void {
    const summary: ProcessSummary = Object.freeze({
      id: wire.id,
      name: wire.name,
      command: wire.command,
      args: Object.freeze([...wire.args]),
      status: wire.status,
      exitCode: wire.exitCode,
    });
    const list = this.listStore.getState();
    const index = list.findIndex((p) => p.id === wire.id);
    const next = index === -1 ? [...list, summary] : list.map((p, i) => (i === index ? summary : p));
    this.listStore.set(Object.freeze(next));
  }

  private async start(command: string, args: readonly string[], { name }: StartOptions): Promise<NodeProcess> {
    const result = await this.call<{ ok: true; process: WireProcess } | { ok: false; code: string; message: string }>('spawn', {
      command,
      args: [...args],
      ...(name === undefined ? {} : { name }),
    });
    if (!result.ok) throw new NodeRuntimeError(200, result.code, result.message);
    const wire = result.process;
    const output = new OutputBuffer(this.outputLimit);
    const exit = this.follow(wire, output);
    exit.catch(() => {}); // callers that never await exit must not see an unhandled rejection
    const kill = async () => {
      await this.call('kill', { id: wire.id });
      await exit.catch(() => {});
    };
    const handle: NodeProcess = Object.freeze({ id: wire.id, name: wire.name, command: wire.command, args: Object.freeze([...wire.args]), pid: wire.pid, output, exit, kill });
    this.handles.set(wire.id, handle);
    // After the handle is known, so a list subscriber can `get` it at once.
    this.updateSummary(wire);
    return handle;
  }

  /** Reads the NDJSON output stream until the exit line, reopening it from the last offset if it breaks. */
  private async follow(wire: WireProcess, output: OutputBuffer): Promise<number> {
    let received = 0;
    let failures = 0;
    for (;;) {
      try {
        const response = await this.post('output', { id: wire.id, from: received });
        const body = response.body;
        if (!body) throw new NodeRuntimeError(response.status, 'bad_response', 'no response body');
        const reader = body.getReader();
        const decoder = new TextDecoder();
        let pending = '';
        for (;;) {
          const { value, done } = await reader.read();
          pending += decoder.decode(value, { stream: !done });
          let newline = pending.indexOf('\n');
          while (newline !== -1) {
            const line = JSON.parse(pending.slice(0, newline)) as StreamLine;
            pending = pending.slice(newline + 1);
            newline = pending.indexOf('\n');
            if (line.type === 'output') {
              output.push(line.data, line.offset > received);
              received = line.offset + line.data.length;
              failures = 0;
            } else if (line.type === 'exit') {
              this.updateSummary(line.process);
              void this.refreshQuietly();
              return line.process.exitCode ?? 1;
            } else {
              throw new NodeRuntimeError(200, line.code, line.message);
            }
          }
          if (done) break;
        }
        throw new NodeRuntimeError(200, 'bad_response', 'output stream ended without an exit');
      } catch (error) {
        // Refusals (4xx) and an unknown process will not get better by asking again.
        if (error instanceof NodeRuntimeError && (error.code === 'not_found' || error.status >= 400)) throw error;
        failures += 1;
        if (failures > this.reconnectAttempts) {
          throw error instanceof NodeRuntimeError ? error : new NodeRuntimeError(0, 'unreachable', String(error));
        }
        await new Promise((resolve) => setTimeout(resolve, 200 * failures));
      }
    }
  }
}
