/**
 * The four file operations of the node and go tools (FILE-1..FILE-6), written once. A tool gives a
 * {@link FileStore} over its own files (the node runner's async client, the Go page's sync module)
 * and its wording; the rules — relative paths, directories are not files, 1 MB of text, listings
 * of every level with at most 1,000 entries, delete only after confirmation — are the same for both.
 * @module
 */
import { defineOperation, type AnyOperationDefinition, type ConfirmationContent } from '../src/definition.js';
import { deleteFileSchema, listFilesSchema, readFileSchema, resolveRelativePath, writeFileSchema, type FileEntry } from '../src/files.js';
import { MAX_LIST_ENTRIES, MAX_TEXT_BYTES, head, utf8ByteLength } from '../src/limits.js';
import { ErrorCode, fail, isFailure, succeed, type OperationFailure, type OperationResult } from '../src/result.js';
import type { UndoableResult, UndoStep } from '../src/definition.js';

/** What a path is in a listing. */
export type PathKind = 'file' | 'directory' | 'missing';

/** A tool's files as the operations see them. Read on every call (DEF-6). */
export interface FileStore {
  /** Every file and directory known now; ancestors may be left implicit. */
  entries(): readonly FileEntry[];
  /** True when the tool itself cut `entries()` (the node runner lists at most 10,000, NODE-8). */
  readonly entriesTruncated?: boolean;
  /** True for an entry the listing leaves out (the node page's not-saved-files rule, FILE-3). */
  hidden?(entry: FileEntry): boolean;
  /** A file's text, or why not (`not_found`, `too_large`, `invalid_input` for not text). */
  read(path: string): Promise<string | OperationFailure>;
  /** Writes a file, creating missing parents (FILE-5): the path written, or why the tool refused. */
  write(path: string, contents: string): Promise<{ path: string } | OperationFailure>;
  /** Removes a file, never a directory (FILE-6): the path removed, or why the tool refused. */
  remove(path: string): Promise<{ path: string } | OperationFailure>;
  /** Where `path` stands when `entries()` does not show it (a tree not refreshed yet, a cut, an excluded directory). */
  locate(path: string): Promise<PathKind>;
  /**
   * A token of what each path holds now, null where no file is: equal tokens mean equal contents
   * (the node runner's SHA-256). Omitted: the file is read and {@link contentsVersion} taken.
   * Tells a user's own edit since a logged change (UNDO-2) without keeping a second copy.
   */
  versions?(paths: readonly string[]): Promise<readonly (string | null)[]>;
  /**
   * `write` that also answers the file's text before it (null: no file; undefined: one the store
   * cannot give back, not text or over 1 MB) and the version it holds now: the before-state in
   * the same round trip (the node runner). Omitted: the file is read first, its version asked after.
   */
  writeKeeping?(path: string, contents: string): Promise<{ path: string; before: string | null | undefined; version: string | null } | OperationFailure>;
  /**
   * Removes `path` when it is an empty directory, and leaves it otherwise: an undo takes away the
   * parents a write created (FILE-5). Omitted: they stay.
   */
  removeEmptyDirectory?(path: string): Promise<void>;
}

/** Options of {@link createFileOperations}: what differs between node and go. */
export interface FileOperationsOptions {
  /** The name prefix: `node` or `go`. */
  tool: string;
  /** The store now, or `not_ready` while the tool cannot reach its files. */
  store(): FileStore | OperationFailure;
  /** The four descriptions, and whose files they are in the delete dialog (`Go を動かすツールのプロジェクト`). */
  wording: { list: string; read: string; write: string; delete: string; where: string };
  /**
   * Called at a change: where its undo step writes back, read when the user undoes; `store` by
   * default (node: the runtime in use then). The Go page pins the project shown at the call, so an
   * undo after switching projects goes back to the project the change was made in.
   */
  undoTo?(): () => FileStore | OperationFailure;
  /** What the logged changes left, shared with the tool's other changing operations (node_run_command). */
  ledger?: FileLedger;
  /** False: no before-state is read or kept, no call hands an undo step (a page that wants none; the bench's baseline). */
  undo?: boolean;
}

/**
 * A token of a text's contents: its length and a 32-bit FNV-1a of its UTF-16 units. Cheap (about
 * 1 ms per MB) and never a copy; a collision needs the same length too.
 * @example contentsVersion('a') // '1:e40c292c'
 */
export function contentsVersion(contents: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < contents.length; i++) hash = Math.imul(hash ^ contents.charCodeAt(i), 0x01000193);
  return `${contents.length}:${(hash >>> 0).toString(16).padStart(8, '0')}`;
}

/** The tokens of `paths` in `store` now (see {@link FileStore.versions}); a file that cannot be read has its failure's code. */
export async function versionsOf(store: FileStore, paths: readonly string[]): Promise<readonly (string | null)[]> {
  if (store.versions) return store.versions(paths);
  return Promise.all(
    paths.map(async (path) => {
      const read = await store.read(path);
      if (!isFailure(read)) return contentsVersion(read);
      return read.error.code === ErrorCode.notFound ? null : `unreadable:${read.error.code}`;
    }),
  );
}

/**
 * What the tool's logged changes (and the user's undos) left in each path, as version tokens: a
 * path whose token differs now was changed by something the log does not show — the user's own
 * edit, a command typed in the terminal (UNDO-2). Memory: one short token per path ever changed.
 */
export class FileLedger {
  private readonly left = new Map<string, string | null>();

  /** Notes what a logged change or an undo left in `paths`. */
  record(paths: readonly string[], versions: readonly (string | null)[]): void {
    paths.forEach((path, i) => this.left.set(path, versions[i] ?? null));
  }

  /** True when one of `paths` holds now something else than what the log last left there. */
  async changed(store: FileStore, paths: readonly string[]): Promise<boolean> {
    const now = await versionsOf(store, paths);
    return paths.some((path, i) => this.left.get(path) !== now[i]);
  }
}

/** A file as it was before a call: its text, or null when no file had the path. */
export interface FileBefore {
  readonly path: string;
  readonly contents: string | null;
  /** The parent directories the call created for a new file, deepest first: its undo removes them again while empty. */
  readonly createdDirectories?: readonly string[];
}

/** Options of {@link createFileUndo}. */
export interface FileUndoOptions {
  /** `node` or `go`: targets are `<tool>:file:<path>`. */
  tool: string;
  /** The files the call changed, as they were before it. */
  before: readonly FileBefore[];
  /** The store the call used: its versions now are what the call left. */
  store: FileStore;
  /** The store to write back into when the user undoes (read then, so a rebooted runtime is used). */
  undoStore(): FileStore | OperationFailure;
  ledger: FileLedger;
  /** The version tokens the call left in those paths, when the caller has them already; else asked of `store`. */
  left?: readonly (string | null)[];
}

/**
 * The undo step of a call that changed files (UNDO-1): undoing writes each file's previous text
 * back, and removes again a file the call created. The step holds only those texts, in memory
 * (UNDO-4); `bytes` counts them as UTF-16, what a JS string may take.
 * @example
 * const step = await createFileUndo({ tool: 'go', before: [{ path: 'a.go', contents: null }], store, undoStore: () => store, ledger });
 * await step.undo(); // a.go is gone again
 */
export async function createFileUndo(options: FileUndoOptions): Promise<UndoStep> {
  const { tool, before, ledger } = options;
  const paths = before.map((file) => file.path);
  ledger.record(paths, options.left ?? (await versionsOf(options.store, paths)));
  const bytes = before.reduce((sum, file) => sum + 2 * (file.path.length + (file.contents?.length ?? 0)), 0);
  return {
    targets: paths.map((path) => `${tool}:file:${path}`),
    bytes,
    undo: async (): Promise<OperationResult | UndoableResult> => {
      const store = options.undoStore();
      if (isFailure(store)) return store;
      // UV-17: what the paths hold now, so the undo can itself be undone (none when one cannot be kept).
      const now = await Promise.all(before.map(async (file) => ({ path: file.path, contents: await beforeOf(store, file.path) })));
      for (const file of before) {
        if (file.contents === null) {
          const removed = await store.remove(file.path);
          // Already gone is what the undo wants.
          if (isFailure(removed) && removed.error.code !== ErrorCode.notFound) return removed;
          for (const dir of file.createdDirectories ?? []) await store.removeEmptyDirectory?.(dir);
        } else {
          const written = await store.write(file.path, file.contents);
          if (isFailure(written)) return written;
        }
      }
      ledger.record(paths, await versionsOf(store, paths));
      const result = succeed({ restored: paths });
      if (now.some((file) => file.contents === undefined)) return result;
      return { result, undo: await createFileUndo({ ...options, before: now as FileBefore[], store, left: undefined }) };
    },
    changedSince: async () => {
      const store = options.undoStore();
      return isFailure(store) ? false : ledger.changed(store, paths);
    },
  };
}

/**
 * What a file holds before a change, for its undo: its text, null when no file is there, or
 * `undefined` when the store cannot give it back as it is (not text, over 1 MB): that call keeps
 * no step, and a delete's dialog says it cannot be undone.
 */
async function beforeOf(store: FileStore, path: string): Promise<string | null | undefined> {
  const read = await store.read(path);
  if (!isFailure(read)) return read;
  return read.error.code === ErrorCode.notFound ? null : undefined;
}

/** The confirmation of `*_delete_file` (CONF-1), the path shown as it will be used (normalised). */
export function deleteFileConfirmation(path: string, where: string, undoable = true): ConfirmationContent {
  // The log row's 元に戻す writes the file back (UNDO-5); false only for a file the page cannot keep.
  return { title: `ファイル「${path}」を削除する`, summary: `${where}から、ファイル「${path}」を削除します。`, actionLabel: '削除する', undoable };
}

/**
 * A path inside the working directory, normalised; `''` is the working directory itself (FILE-2).
 * @example directoryPath('./src/b/') // 'src/b'
 */
function directoryPath(path: string | undefined): string | OperationFailure {
  if (path === undefined) return '';
  const resolved = resolveRelativePath(path);
  return isFailure(resolved) ? resolved : resolved.path;
}

/**
 * A path for an operation on one file: relative, inside the working directory, and not the working
 * directory itself (FILE-2).
 * @example filePath('src/../a.txt') // 'a.txt'
 */
export function filePath(path: string): string | OperationFailure {
  const resolved = directoryPath(path);
  if (isFailure(resolved) || resolved !== '') return resolved;
  return fail(ErrorCode.invalidInput, `path names the working directory, not a file: ${JSON.stringify(path)}`);
}

/**
 * Adds the ancestor directories a listing leaves implicit, so `a/b.txt` alone still lists `a`.
 * @example withDirectories([{ path: 'a/b.txt', kind: 'file' }]) // a (directory), a/b.txt (file)
 */
export function withDirectories(entries: readonly FileEntry[]): FileEntry[] {
  const byPath = new Map<string, FileEntry>();
  for (const entry of entries) {
    const path = entry.path.replace(/^\.\/+/, '').replace(/\/+$/, '');
    if (path !== '' && path !== '.') byPath.set(path, { path, kind: entry.kind === 'directory' ? 'directory' : 'file' });
  }
  for (const path of [...byPath.keys()]) {
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) {
      const dir = segments.slice(0, i).join('/');
      if (!byPath.has(dir)) byPath.set(dir, { path: dir, kind: 'directory' });
    }
  }
  return [...byPath.values()];
}

/** Whether `path` is a file, a directory or absent in `entries` (the working directory is a directory). */
function kindOf(entries: readonly FileEntry[], path: string): PathKind {
  return path === '' ? 'directory' : entries.find((entry) => entry.path === path)?.kind ?? 'missing';
}

/** The context of a write, or `invalid_input` when its path is a directory or a file stands where one of its parents would go. */
function writable<C extends { entries: readonly FileEntry[]; path: string }>(ctx: C): C | OperationFailure {
  const { entries, path } = ctx;
  if (kindOf(entries, path) === 'directory') return fail(ErrorCode.invalidInput, `is a directory: ${path}`);
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    const parent = segments.slice(0, i).join('/');
    if (kindOf(entries, parent) === 'file') return fail(ErrorCode.invalidInput, `a parent of ${path} is a file: ${parent}`);
  }
  return ctx;
}

/** The contents, or why FILE-4's reading rules refuse them, whatever the store checked already. */
function textOf(path: string, contents: string): string | OperationFailure {
  const bytes = utf8ByteLength(contents);
  if (bytes > MAX_TEXT_BYTES) return fail(ErrorCode.tooLarge, `${path} is ${bytes} bytes of UTF-8, over the limit of ${MAX_TEXT_BYTES}`);
  return contents.includes('\u0000') ? fail(ErrorCode.invalidInput, `${path} is not text`) : contents;
}

/**
 * The parent directories of `path` that `entries` do not have, deepest first: those a write creates.
 * @example missingParents([{ path: 'a', kind: 'directory' }], 'a/b/c/d.txt') // ['a/b/c', 'a/b']
 */
function missingParents(entries: readonly FileEntry[], path: string): string[] {
  const segments = path.split('/');
  const missing: string[] = [];
  for (let i = segments.length - 1; i >= 1; i--) {
    const dir = segments.slice(0, i).join('/');
    if (kindOf(entries, dir) !== 'missing') break;
    missing.push(dir);
  }
  return missing;
}

const byPath = (a: FileEntry, b: FileEntry) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** The answer of a write or a delete: the path, or why the tool refused. */
const written = (change: { path: string } | OperationFailure) => (isFailure(change) ? change : succeed({ path: change.path }));

/**
 * Creates `<tool>_list_files`, `<tool>_read_file`, `<tool>_write_file` and `<tool>_delete_file`.
 * @example
 * createFileOperations({ tool: 'go', store: () => (files.isLoaded() ? goStore(files) : fail('not_ready', '…')), wording });
 */
export function createFileOperations(options: FileOperationsOptions): AnyOperationDefinition[] {
  const { tool, wording } = options;
  const ledger = options.ledger ?? new FileLedger();
  const undoTo = options.undoTo ?? (() => options.store);
  /** The envelope of a change, with its undo step when the file's previous state could be kept. */
  const undoable = async (
    change: { path: string } | OperationFailure, store: FileStore, before: string | null | undefined,
    { createdDirectories, left }: { createdDirectories?: readonly string[]; left?: readonly (string | null)[] } = {},
  ): Promise<OperationResult | UndoableResult> => {
    const result = written(change);
    if (isFailure(change) || before === undefined || options.undo === false) return result;
    return { result, undo: await createFileUndo({ tool, before: [{ path: change.path, contents: before, createdDirectories }], store, undoStore: undoTo(), ledger, left }) };
  };
  /** The store, the normalised path and the entries now, or why not. */
  const resolve = (path: string | OperationFailure) => {
    const store = options.store();
    if (isFailure(store)) return store;
    return isFailure(path) ? path : { store, path, entries: withDirectories(store.entries()) };
  };

  const listFiles = defineOperation({
    name: `${tool}_list_files`,
    description: wording.list,
    inputSchema: listFilesSchema,
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    prepare: async (input) => resolve(directoryPath(input.path)),
    execute: async (_input, { store, path, entries }) => {
      const cut = store.entriesTruncated === true;
      const kind = kindOf(entries, path);
      if (kind === 'file') return fail(ErrorCode.invalidInput, `not a directory: ${path}`);
      if (kind === 'missing') {
        // A directory past the tool's own cut is not in its listing at all: say so, not not_found.
        if (cut && (await store.locate(path)) === 'directory') return succeed({ entries: [], truncated: true });
        return fail(ErrorCode.notFound, `no such directory: ${path}`);
      }
      const prefix = path === '' ? '' : `${path}/`;
      const under = entries.filter((entry) => entry.path.startsWith(prefix) && !store.hidden?.(entry)).sort(byPath);
      const { items, truncated } = head(under, MAX_LIST_ENTRIES);
      return succeed({ entries: items, truncated: truncated || cut });
    },
  });

  const readFile = defineOperation({
    name: `${tool}_read_file`,
    description: wording.read,
    inputSchema: readFileSchema,
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    prepare: async (input) => {
      const ctx = resolve(filePath(input.path));
      if (isFailure(ctx) || kindOf(ctx.entries, ctx.path) !== 'directory') return ctx;
      return fail(ErrorCode.invalidInput, `is a directory, not a file: ${ctx.path}`);
    },
    execute: async (_input, { store, path }) => {
      const read = await store.read(path);
      const contents = isFailure(read) ? read : textOf(path, read);
      return isFailure(contents) ? contents : succeed({ path, contents });
    },
  });

  const writeFile = defineOperation({
    name: `${tool}_write_file`,
    description: wording.write,
    inputSchema: writeFileSchema,
    prepare: async (input) => {
      const ctx = resolve(filePath(input.path));
      return isFailure(ctx) ? ctx : writable(ctx);
    },
    execute: async (input, { store, path, entries }) => {
      const createdDirectories = missingParents(entries, path);
      if (options.undo !== false && store.writeKeeping) {
        const kept = await store.writeKeeping(path, input.contents);
        if (isFailure(kept)) return kept;
        const before = kept.before === input.contents ? undefined : kept.before;
        return undoable(kept, store, before, { createdDirectories: kept.before === null ? createdDirectories : [], left: [kept.version] });
      }
      const before = options.undo === false ? undefined : await beforeOf(store, path);
      const change = await store.write(path, input.contents);
      // The same text again changed nothing: no step (UNDO-1).
      return undoable(change, store, before === input.contents ? undefined : before, { createdDirectories: before === null ? createdDirectories : [] });
    },
  });

  const deleteFile = defineOperation({
    name: `${tool}_delete_file`,
    description: wording.delete,
    inputSchema: deleteFileSchema,
    annotations: { consequentialHint: true },
    // Runs again after approval: the user may have changed the files, or the runtime rebooted.
    prepare: async (input) => {
      const ctx = resolve(filePath(input.path));
      if (isFailure(ctx)) return ctx;
      const known = kindOf(ctx.entries, ctx.path);
      const kind = known === 'missing' ? await ctx.store.locate(ctx.path) : known;
      if (kind === 'directory') return fail(ErrorCode.invalidInput, `is a directory, not a file: ${ctx.path}`);
      if (kind === 'missing') return fail(ErrorCode.notFound, `no such file: ${ctx.path}`);
      // Read here, again after approval: the dialog says whether it can be undone, and it is the file removed.
      const before = options.undo === false ? undefined : await beforeOf(ctx.store, ctx.path);
      return before === null ? fail(ErrorCode.notFound, `no such file: ${ctx.path}`) : { ...ctx, before };
    },
    confirmation: (_input, { path, before }) => deleteFileConfirmation(path, wording.where, before !== undefined),
    execute: async (_input, { store, path, before }) => undoable(await store.remove(path), store, before),
  });

  return [listFiles, readFile, writeFile, deleteFile];
}
