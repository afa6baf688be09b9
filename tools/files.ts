/**
 * The four file operations of the node and go tools (FILE-1..FILE-6), written once. A tool gives a
 * {@link FileStore} over its own files (the node runner's async client, the Go page's sync module)
 * and its wording; the rules — relative paths, directories are not files, 1 MB of text, listings
 * of 1,000 entries, delete only after confirmation — are the same for both.
 * @module
 */
import type { ConfirmationContent } from '../src/definition.js';
import { deleteFileSchema, listFilesSchema, readFileSchema, writeFileSchema, type FileEntry } from '../src/files.js';
import { MAX_TEXT_BYTES, utf8ByteLength } from '../src/limits.js';
import { ErrorCode, fail, isFailure, type OperationFailure } from '../src/result.js';
import { defineOperation, type AnyOperationDefinition } from '../src/definition.js';
import { filePath, kindOf, listUnder, ok, withDirectories, type PathKind } from './shared.js';

/** A tool's files as the operations see them. Read on every call (DEF-6). */
export interface FileStore {
  /** Every file and directory known now; ancestors may be left implicit. */
  entries(): readonly FileEntry[];
  /** True when the tool itself cut `entries()` (the node runner lists at most 10,000, NODE-8). */
  readonly entriesTruncated?: boolean;
  /** True for an entry the listing leaves out (the node page's not-saved-files rule, FILE-3). */
  hidden?(entry: FileEntry): boolean;
  /** A file's text, or why not (`not_found`, `too_large`, `invalid_input` for not text). */
  read(path: string): Promise<{ ok: true; contents: string } | OperationFailure>;
  /** Writes a file, creating missing parents (FILE-5); a failure when the tool refused. */
  write(path: string, contents: string): Promise<OperationFailure | undefined>;
  /** Removes a file, never a directory (FILE-6). */
  remove(path: string): Promise<OperationFailure | undefined>;
  /** Where `path` stands when `entries()` does not show it (a tree not refreshed yet, an excluded directory). */
  locate(path: string): Promise<PathKind>;
}

/** The wording of one tool's four operations. */
export interface FileOperationsWording {
  list: string;
  read: string;
  write: string;
  delete: string;
  /** Whose files, in the delete confirmation's summary: `Go を動かすツールのプロジェクト`. */
  where: string;
}

/** Options of {@link createFileOperations}: what differs between node and go. */
export interface FileOperationsOptions {
  /** The name prefix: `node` or `go`. */
  tool: string;
  /** The store now, or `not_ready` while the tool cannot reach its files. */
  store(): FileStore | OperationFailure;
  wording: FileOperationsWording;
}

/**
 * The confirmation of `*_delete_file` (CONF-1): the same title and button for every tool; `where`
 * says whose files they are. The path is shown as it will be used (normalised).
 */
export function deleteFileConfirmation(path: string, where: string): ConfirmationContent {
  return {
    title: `ファイル「${path}」を削除する`,
    summary: `${where}から、ファイル「${path}」を削除します。`,
    actionLabel: '削除する',
    undoable: false,
  };
}

type FileContext = { store: FileStore; path: string };

/** `invalid_input` when `path` is a directory, or a file stands where one of its parents would go. */
function writable(entries: readonly FileEntry[], path: string): OperationFailure | null {
  if (kindOf(entries, path) === 'directory') return fail(ErrorCode.invalidInput, `is a directory: ${path}`);
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    const parent = segments.slice(0, i).join('/');
    if (kindOf(entries, parent) === 'file') return fail(ErrorCode.invalidInput, `a parent of ${path} is a file: ${parent}`);
  }
  return null;
}

/** FILE-4's reading rules, whatever the store checked already. */
function textOf(path: string, contents: string): OperationFailure | null {
  const bytes = utf8ByteLength(contents);
  if (bytes > MAX_TEXT_BYTES) return fail(ErrorCode.tooLarge, `${path} is ${bytes} bytes of UTF-8, over the limit of ${MAX_TEXT_BYTES}`);
  return contents.includes('\u0000') ? fail(ErrorCode.invalidInput, `${path} is not text`) : null;
}

/**
 * Creates `<tool>_list_files`, `<tool>_read_file`, `<tool>_write_file` and `<tool>_delete_file`.
 * @example
 * createFileOperations({ tool: 'go', store: () => (files.isLoaded() ? goStore(files) : fail('not_ready', '…')), wording });
 */
export function createFileOperations(options: FileOperationsOptions): AnyOperationDefinition[] {
  const { tool, wording } = options;
  /** The store and the normalised path of a one-file operation, or why not. */
  const resolve = (inputPath: string): FileContext | OperationFailure => {
    const store = options.store();
    if (isFailure(store)) return store;
    const path = filePath(inputPath);
    return isFailure(path) ? path : { store, path: path.path };
  };
  const entries = (store: FileStore) => withDirectories(store.entries());

  const listFiles = defineOperation({
    name: `${tool}_list_files`,
    description: wording.list,
    inputSchema: listFilesSchema,
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    prepare: async () => {
      const store = options.store();
      return isFailure(store) ? store : { store };
    },
    execute: async (input, { store }) => {
      const cut = store.entriesTruncated === true;
      const listing = listUnder(store.entries(), input.path, (entry) => !store.hidden?.(entry));
      if (!isFailure(listing)) return ok({ entries: listing.entries, truncated: listing.truncated || cut });
      // A directory past the tool's own cut is not in the listing at all: say so, not not_found.
      const dir = input.path === undefined ? null : filePath(input.path);
      if (cut && listing.error.code === ErrorCode.notFound && dir && !isFailure(dir) && (await store.locate(dir.path)) === 'directory') {
        return ok({ entries: [], truncated: true });
      }
      return listing;
    },
  });

  const readFile = defineOperation({
    name: `${tool}_read_file`,
    description: wording.read,
    inputSchema: readFileSchema,
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    prepare: async (input) => {
      const ctx = resolve(input.path);
      if (isFailure(ctx)) return ctx;
      if (kindOf(entries(ctx.store), ctx.path) === 'directory') return fail(ErrorCode.invalidInput, `is a directory, not a file: ${ctx.path}`);
      return ctx;
    },
    execute: async (_input, { store, path }) => {
      const read = await store.read(path);
      if (isFailure(read)) return read;
      return textOf(path, read.contents) ?? ok({ path, contents: read.contents });
    },
  });

  const writeFile = defineOperation({
    name: `${tool}_write_file`,
    description: wording.write,
    inputSchema: writeFileSchema,
    prepare: async (input) => {
      const ctx = resolve(input.path);
      if (isFailure(ctx)) return ctx;
      return writable(entries(ctx.store), ctx.path) ?? ctx;
    },
    execute: async (input, { store, path }) => (await store.write(path, input.contents)) ?? ok({ path }),
  });

  const deleteFile = defineOperation({
    name: `${tool}_delete_file`,
    description: wording.delete,
    inputSchema: deleteFileSchema,
    annotations: { consequentialHint: true },
    // Runs again after approval: the user may have changed the files, or the runtime rebooted.
    prepare: async (input) => {
      const ctx = resolve(input.path);
      if (isFailure(ctx)) return ctx;
      const known = kindOf(entries(ctx.store), ctx.path);
      const kind = known === 'missing' ? await ctx.store.locate(ctx.path) : known;
      if (kind === 'directory') return fail(ErrorCode.invalidInput, `is a directory, not a file: ${ctx.path}`);
      if (kind === 'missing') return fail(ErrorCode.notFound, `no such file: ${ctx.path}`);
      return ctx;
    },
    confirmation: (_input, { path }) => deleteFileConfirmation(path, wording.where),
    execute: async (_input, { store, path }) => (await store.remove(path)) ?? ok({ path }),
  });

  return [listFiles, readFile, writeFile, deleteFile];
}
