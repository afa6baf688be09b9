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
import { ErrorCode, fail, isFailure, succeed, type OperationFailure } from '../src/result.js';

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
}

/** Options of {@link createFileOperations}: what differs between node and go. */
export interface FileOperationsOptions {
  /** The name prefix: `node` or `go`. */
  tool: string;
  /** The store now, or `not_ready` while the tool cannot reach its files. */
  store(): FileStore | OperationFailure;
  /** The four descriptions, and whose files they are in the delete dialog (`Go を動かすツールのプロジェクト`). */
  wording: { list: string; read: string; write: string; delete: string; where: string };
}

/** The confirmation of `*_delete_file` (CONF-1), the path shown as it will be used (normalised). */
export function deleteFileConfirmation(path: string, where: string): ConfirmationContent {
  return { title: `ファイル「${path}」を削除する`, summary: `${where}から、ファイル「${path}」を削除します。`, actionLabel: '削除する', undoable: false };
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
    execute: async (input, { store, path }) => written(await store.write(path, input.contents)),
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
      return kind === 'missing' ? fail(ErrorCode.notFound, `no such file: ${ctx.path}`) : ctx;
    },
    confirmation: (_input, { path }) => deleteFileConfirmation(path, wording.where),
    execute: async (_input, { store, path }) => written(await store.remove(path)),
  });

  return [listFiles, readFile, writeFile, deleteFile];
}
