/**
 * What the node page hands to {@link createNodeOperations}: a way to read the CURRENT runtime
 * instance (NODE-1, NODE-2). The runtime types are the subset of the page's NodeRuntime client
 * (playground/node/engine/node-runtime.ts) that the operations use, its `run` included, so the page
 * passes its instance as is: `createNodeOperations({ getRuntime: () => (booted ? runtime : null) })`.
 * @module
 */
import type { RunOutcome, RunOutput, RunRequest } from '../run.js';

/** One entry of the runtime's file tree. Paths are relative to the working directory, `/`-separated. */
export interface NodeTreeEntry {
  readonly path: string;
  readonly kind: 'file' | 'directory';
}

/**
 * The file-tree store (`files.tree`): its current value is what `node_list_files` lists (NODE-6).
 * An entry may carry more fields (the runtime's `excluded` flag); they are ignored.
 */
export interface NodeTreeStore {
  getState(): readonly NodeTreeEntry[];
  subscribe(listener: () => void): () => void;
  /** Reloads the tree; called after `node_run_command`, whose process may have changed files. */
  refresh?(): Promise<void>;
  /** True when the runner cut the tree (it lists at most 10,000 entries): the listing is partial (NODE-8). */
  readonly truncated?: boolean;
}

/** Why the runtime refused a file operation. `not_text` and `too_large` follow the not-saved-files rule. */
export type NodeFileErrorCode = 'not_found' | 'too_large' | 'not_text' | 'is_directory' | 'invalid_path';

/** A refused file operation. */
export interface NodeFileFailure {
  readonly ok: false;
  readonly code: NodeFileErrorCode;
  readonly message?: string;
}

/** Result of `files.read`. */
export type NodeReadResult = { readonly ok: true; readonly contents: string } | NodeFileFailure;

/** Result of `files.write` and `files.remove`. */
export type NodeChangeResult = { readonly ok: true } | NodeFileFailure;

/** What `node_run_command` asks of the runtime's run function. */
export interface NodeRunRequest extends RunRequest {
  /** The name the process shows under in the terminal pane: `ai: <command>` (NODE-3). */
  readonly name: string;
}

/** What a run stopped before its end still has: the output so far, and whether the kill was confirmed. */
export interface NodeInterruptedRun extends RunOutput {
  /** False when the runtime did not confirm, within its bound, that the killed process is gone. */
  readonly killConfirmed: boolean;
}

/**
 * How a command ended (the run contract, tools/run.ts).
 * - `exited`: the process exited with `exitCode` (128 + signal when killed; NODE-3).
 * - `timeout`: `timeoutMs` passed; the process was killed (NODE-4); `output` so far.
 * - `cancelled`: the call's `signal` was aborted; the process was killed (NAT-2, NAT-6); `output` so far.
 * - `stopped`, `busy`: not used by the node page (its terminal's kill is an exit with 128 + signal).
 *
 * `output` is raw, as the terminal pane got it; the operation removes the terminal controls (NODE-5).
 * @example const outcome: NodeRunOutcome = { kind: 'timeout', output: 'started\n', killConfirmed: true };
 */
export type NodeRunOutcome = RunOutcome<{ readonly exitCode: number } & RunOutput, NodeInterruptedRun>;

/** The not-saved-files rule; only its `exclude` patterns matter here (FILE-3). */
export interface NodeExcludeRules {
  /** gitignore-like patterns, e.g. `node_modules/`, `.git/`, `*.log`. */
  readonly patterns: readonly string[];
}

/** The subset of the node runtime the operations use. */
export interface NodeRuntimeLike {
  readonly files: {
    readonly tree: NodeTreeStore;
    /** Reads a UTF-8 text file; over the size limit `too_large`, not text `not_text` (FILE-4). */
    read(path: string): Promise<NodeReadResult>;
    /** Writes a file, overwriting it and creating missing parent directories (FILE-5). */
    write(path: string, contents: string): Promise<NodeChangeResult>;
    /** Removes a file, never a directory (FILE-6). */
    remove(path: string): Promise<NodeChangeResult>;
    /**
     * The kept files of the workspace now (the not-saved-files rule applied: no `node_modules/`,
     * no file over 1 MiB or not text), with their texts when `contents`: `node_run_command`'s
     * before-state, taken before the command and compared after it (UNDO-1). Omitted: a command
     * keeps no undo step.
     */
    snapshot?(options: { readonly contents: boolean }): Promise<{
      /** Each kept file: its path, a token of its contents (the runner's SHA-256: equal tokens, equal texts), its text when asked. */
      readonly files: readonly { readonly path: string; readonly version: string; readonly contents?: string }[];
      /** True when the runner stopped before the end (too many bytes, a cut tree): nothing is kept then. */
      readonly truncated: boolean;
    }>;
    /**
     * `node_run_command`'s before-state held by the runtime instead of sent to the page (UNDO-1):
     * before the command it notes what every kept file holds and answers a mark (null: they cannot
     * all be kept, no step). When given together with `changes`, `snapshot` is not used for commands.
     */
    keep?(): Promise<string | null>;
    /**
     * After the command: the kept files it changed since `mark`, each with its text at the mark
     * (null: no kept file then) and its version now (null: none now), as `snapshot` would tell
     * them apart; `complete` false when they cannot all be told (no step then). It also reloads
     * `tree` (the same look at the workspace), so the command's caller does not refresh it again.
     */
    changes?(mark: string): Promise<{
      readonly files: readonly { readonly path: string; readonly before: string | null; readonly version: string | null }[];
      readonly complete: boolean;
    }>;
    /**
     * `write` answering also what the file held before — `{ contents }`, `{ absent: true }`, or
     * `{ unkept: true }` (not text, over 1 MiB) — and the version it holds now (as `versions` has
     * it), in one round trip: the before-state of `node_write_file` (UNDO-1). Omitted: the file is
     * read before the write and its version asked after.
     */
    writeKeeping?(path: string, contents: string): Promise<
      | { readonly ok: true; readonly before: { readonly contents: string } | { readonly absent: true } | { readonly unkept: true }; readonly version: string }
      | NodeFileFailure
    >;
    /** Removes `path` when it is an empty directory; leaves it (ok) otherwise (an undo's cleanup of the parents a write made). */
    removeEmptyDirectory?(path: string): Promise<NodeChangeResult>;
    /** The version tokens of `paths` now (null: no file), as `snapshot` has them (UNDO-2). */
    versions?(paths: readonly string[]): Promise<readonly (string | null)[]>;
  };
  /**
   * The runtime's run function for an agent's command: starts `command` with `args` as given (no
   * shell splitting) under `name` in the terminal pane (NODE-3), and resolves when it exits, or
   * kills it when `timeoutMs` passes or `signal` aborts and resolves once the runtime confirms it
   * is gone (or a bound passed: `killConfirmed` false). The clock, the timeout and the kill are
   * the page's, as for sql and go.
   */
  run(command: string, args: readonly string[], options: NodeRunRequest): Promise<NodeRunOutcome>;
  readonly excludes: NodeExcludeRules;
}

/** What the node page passes to {@link createNodeOperations}. */
export interface NodeToolAdapter {
  /**
   * The runtime instance in use now, or null while it is not booted or failed to boot (NODE-1).
   * Called on every prepare (again after approval), so a reboot's new instance is used at once (NODE-2).
   */
  getRuntime(): NodeRuntimeLike | null;
}
