/**
 * What the node page hands to {@link createNodeOperations}: a way to read the CURRENT runtime
 * instance (NODE-1, NODE-2). The runtime types are the subset of the page's NodeRuntime client
 * (demo/node/engine/node-runtime.ts) that the operations use, so the page passes its instance as is:
 * `createNodeOperations({ getRuntime: () => (booted ? runtime : null) })`.
 * @module
 */

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

/** A process the runtime started. */
export interface NodeProcessLike {
  readonly output: {
    /**
     * Calls `listener` with every chunk of stdout and stderr, interleaved as written; the chunks
     * written before the call are delivered first (the runtime's `replay`), or never were written.
     */
    subscribe(listener: (chunk: string) => void): () => void;
    /** True when the runtime itself dropped the beginning of the output. */
    readonly truncated?: boolean;
  };
  /** The exit code (128 + signal when killed). Rejects only when the runtime is gone. */
  readonly exit: Promise<number>;
  /** Kills the process and its descendants; `exit` settles once it is gone. */
  kill(): void | Promise<void>;
}

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
  };
  readonly processes: {
    /** Starts `command` with `args` as given (no shell splitting); `name` shows in the terminal pane (NODE-3). */
    start(command: string, args: readonly string[], options: { name: string }): Promise<NodeProcessLike>;
  };
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
