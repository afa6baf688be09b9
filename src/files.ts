/**
 * What the four file operations of node and go share (FILE-1, FILE-2): input schemas, the
 * relative-path check and the 1 MB write cap. The operations themselves are tools/files.ts
 * (`createFileOperations`).
 * @module
 */
import { textSchema } from './limits.js';
import { ErrorCode, fail, type OperationFailure } from './result.js';

const PATH_MAX_LENGTH = 4096;

const pathProperty = {
  type: 'string',
  minLength: 1,
  maxLength: PATH_MAX_LENGTH,
  description: '作業ディレクトリからの相対パス(例: src/main.go)。絶対パスと、.. で作業ディレクトリの外へ出るパスは使えない。',
} as const;

/** `*_list_files`: `{ path?: string }`. */
export const listFilesSchema = {
  type: 'object',
  properties: {
    path: { ...pathProperty, description: '一覧を返すディレクトリの相対パス。省くと作業ディレクトリの全体。' },
  },
  additionalProperties: false,
} as const;

/** `*_read_file`: `{ path: string }`. */
export const readFileSchema = {
  type: 'object',
  properties: { path: pathProperty },
  required: ['path'],
  additionalProperties: false,
} as const;

/** `*_write_file`: `{ path: string; contents: string }`, contents at most 1 MB of UTF-8. */
export const writeFileSchema = {
  type: 'object',
  properties: {
    path: pathProperty,
    contents: textSchema('ファイルの中身の全文(UTF-8 で 1 MB まで)。'),
  },
  required: ['path', 'contents'],
  additionalProperties: false,
} as const;

/** `*_delete_file`: `{ path: string }`. */
export const deleteFileSchema = readFileSchema;

/**
 * Checks a path given by an agent and normalises it: only paths relative to the working directory;
 * an absolute path, a drive letter, a backslash, a NUL, or a `..` that leaves the working directory
 * is `invalid_input` (FILE-2). `''` and `.` mean the working directory itself and normalise to `''`.
 * @example
 * resolveRelativePath('src/../main.go') // { ok: true, path: 'main.go' }
 * resolveRelativePath('../x')           // { ok: false, error: { code: 'invalid_input', … } }
 */
export function resolveRelativePath(path: string): { ok: true; path: string } | OperationFailure {
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\') || path.includes('\0')) {
    return fail(ErrorCode.invalidInput, `path must be relative to the working directory: ${JSON.stringify(path)}`);
  }
  const parts: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) {
        return fail(ErrorCode.invalidInput, `path leaves the working directory: ${JSON.stringify(path)}`);
      }
      parts.pop();
    } else parts.push(segment);
  }
  return { ok: true, path: parts.join('/') };
}

/** Kinds of entries the list operations answer (FILE-3). */
export type FileEntry = { path: string; kind: 'file' | 'directory' };
