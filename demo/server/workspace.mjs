// The runner's workspace: a temp directory per server start, and the file operations the node
// page may perform inside it. Every path that comes from a request goes through `resolveInside`,
// which refuses absolute paths, `..` that leaves the workspace and symlinks that point outside.
import { lstat, mkdir, mkdtemp, open, readdir, readFile, realpath, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix, sep } from 'node:path';

/** Largest file (bytes) that is read, written and "saved": 1 MiB. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** Most entries a tree listing returns; the rest is cut and `truncated` is set. */
export const MAX_TREE_ENTRIES = 10_000;

/**
 * The not-saved-files rule. A path is excluded when one of its directory segments is named by a
 * pattern (`node_modules/` matches `node_modules` at any depth and everything below it), or when
 * it is a file over `maxFileBytes` or not UTF-8 text.
 */
export const EXCLUDES = Object.freeze({
  patterns: Object.freeze(['node_modules/', '.git/']),
  maxFileBytes: MAX_FILE_BYTES,
  textOnly: true,
});

/** Files the fresh workspace starts with. */
export const SAMPLE_PROJECT = Object.freeze({
  'package.json': `${JSON.stringify({
    name: 'playground',
    version: '1.0.0',
    private: true,
    type: 'commonjs',
    scripts: { start: 'node index.js' },
  }, null, 2)}\n`,
  'index.js': [
    "// Edit me, then run `node index.js` in the terminal.",
    "const os = require('node:os');",
    '',
    "console.log(`Hello from Node ${process.version} on ${os.platform()}`);",
    '',
  ].join('\n'),
  'README.md': [
    '# Playground',
    '',
    'A small Node project. `npm start` runs `index.js`.',
    '',
    'Files under `node_modules/` and `.git/`, files over 1 MiB and binary files are not saved.',
    '',
  ].join('\n'),
});

/** A workspace-level failure with a stable `code` the HTTP layer turns into `{ok:false, code}`. */
export class WorkspaceError extends Error {
  /** @param {'invalid_path'|'not_found'|'too_large'|'not_text'|'is_directory'} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * Creates `<tmp>/ai-ops-runner-XXXX/{workspace,home}` and seeds the sample project.
 * `home` is the processes' HOME, kept outside the workspace so npm's cache does not show in the tree.
 * @returns {Promise<{base: string, workspace: string, home: string}>} real (symlink-free) paths
 */
export async function createWorkspace({ files = SAMPLE_PROJECT } = {}) {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'ai-ops-runner-')));
  const workspace = join(base, 'workspace');
  const home = join(base, 'home');
  await mkdir(workspace);
  await mkdir(home);
  for (const [name, contents] of Object.entries(files)) {
    await mkdir(join(workspace, posix.dirname(name)), { recursive: true });
    await writeFile(join(workspace, name), contents);
  }
  return { base, workspace, home };
}

/** Removes the whole temp tree made by `createWorkspace`. */
export async function removeWorkspace(base) {
  await rm(base, { recursive: true, force: true, maxRetries: 3 });
}

/**
 * True when the relative path `path` is covered by one of the directory patterns.
 * @param {string} path workspace-relative, `/`-separated
 * @param {'file'|'directory'} kind
 * @param {readonly string[]} [patterns]
 */
export function matchesExcludePattern(path, kind, patterns = EXCLUDES.patterns) {
  const segments = path.split('/');
  // A file's own name never matches a directory pattern; a directory's does.
  const dirs = kind === 'directory' ? segments : segments.slice(0, -1);
  return patterns.some((pattern) => pattern.endsWith('/') && dirs.includes(pattern.slice(0, -1)));
}

/**
 * UTF-8 text test shared by read and the tree: no NUL byte and valid UTF-8.
 * With `partial` the buffer is a prefix, so a multi-byte character cut at its end is allowed.
 */
export function isText(buffer, { partial = false } = {}) {
  if (buffer.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buffer, { stream: partial });
    return true;
  } catch {
    return false;
  }
}

function isInside(root, target) {
  return target === root || target.startsWith(root + sep);
}

/**
 * The absolute path for a workspace-relative `path`, or a `WorkspaceError('invalid_path')`.
 * Checks the lexical form and then the real path of the deepest existing ancestor, so a symlink
 * anywhere along the way that leads outside is refused.
 * @param {string} workspace real path of the workspace
 * @param {unknown} path
 * @param {{allowRoot?: boolean}} [options]
 */
export async function resolveInside(workspace, path, { allowRoot = false, followLast = true } = {}) {
  if (typeof path !== 'string') throw new WorkspaceError('invalid_path', 'path must be a string');
  if (path.includes('\0')) throw new WorkspaceError('invalid_path', 'path contains a NUL character');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\')) {
    throw new WorkspaceError('invalid_path', `not a relative path: ${path}`);
  }
  const normal = posix.normalize(path === '' ? '.' : path).replace(/\/+$/, '');
  if (normal === '..' || normal.startsWith('../')) {
    throw new WorkspaceError('invalid_path', `path leaves the workspace: ${path}`);
  }
  if ((normal === '.' || normal === '') && !allowRoot) {
    throw new WorkspaceError('invalid_path', 'path names the workspace itself');
  }
  const relative = normal === '.' ? '' : normal;
  const absolute = relative ? join(workspace, ...relative.split('/')) : workspace;
  // Walk up to the deepest existing ancestor and compare its real path. Without followLast the
  // last component is not resolved (unlink removes a link, not what it points to).
  let probe = followLast ? absolute : join(absolute, '..');
  for (;;) {
    try {
      const real = await realpath(probe);
      if (!isInside(workspace, real)) throw new WorkspaceError('invalid_path', `path leaves the workspace through a link: ${path}`);
      break;
    } catch (error) {
      if (error instanceof WorkspaceError) throw error;
      if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR') throw error;
      if (probe === workspace) break;
      probe = join(probe, '..');
    }
  }
  return { absolute, relative };
}

/**
 * Reads a text file. Errors: invalid_path, not_found, is_directory, too_large, not_text.
 * @returns {Promise<string>}
 */
export async function readTextFile(workspace, path) {
  const { absolute } = await resolveInside(workspace, path);
  let info;
  try {
    info = await stat(absolute);
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') throw new WorkspaceError('not_found', `no such file: ${path}`);
    throw error;
  }
  if (info.isDirectory()) throw new WorkspaceError('is_directory', `is a directory: ${path}`);
  if (!info.isFile()) throw new WorkspaceError('not_text', `not a regular file: ${path}`);
  if (info.size > MAX_FILE_BYTES) throw new WorkspaceError('too_large', `${path} is ${info.size} bytes (limit ${MAX_FILE_BYTES})`);
  const buffer = await readFile(absolute);
  if (buffer.length > MAX_FILE_BYTES) throw new WorkspaceError('too_large', `${path} is over ${MAX_FILE_BYTES} bytes`);
  if (!isText(buffer)) throw new WorkspaceError('not_text', `${path} is not UTF-8 text`);
  // ignoreBOM keeps a leading BOM so a read-then-write round trip is byte-exact.
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(buffer);
}

/**
 * Writes a UTF-8 text file, creating missing parent directories. Errors: invalid_path,
 * is_directory, too_large.
 */
export async function writeTextFile(workspace, path, contents) {
  if (typeof contents !== 'string') throw new TypeError('contents must be a string');
  const { absolute } = await resolveInside(workspace, path);
  const bytes = Buffer.from(contents, 'utf8');
  if (bytes.length > MAX_FILE_BYTES) throw new WorkspaceError('too_large', `contents are ${bytes.length} bytes (limit ${MAX_FILE_BYTES})`);
  try {
    await mkdir(join(absolute, '..'), { recursive: true });
  } catch (error) {
    if (error.code === 'EEXIST' || error.code === 'ENOTDIR') throw new WorkspaceError('invalid_path', `a parent of ${path} is a file`);
    throw error;
  }
  // Re-check after mkdir: the parents now exist, so a link created meanwhile would show here.
  await resolveInside(workspace, path);
  try {
    const info = await stat(absolute);
    if (info.isDirectory()) throw new WorkspaceError('is_directory', `is a directory: ${path}`);
  } catch (error) {
    if (error instanceof WorkspaceError) throw error;
    if (error.code !== 'ENOENT') throw error;
  }
  await writeFile(absolute, bytes);
}

/** Removes a file or a symlink (never a directory). Errors: invalid_path, not_found, is_directory. */
export async function removeFile(workspace, path) {
  const { absolute } = await resolveInside(workspace, path, { followLast: false });
  let info;
  try {
    info = await lstat(absolute);
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') throw new WorkspaceError('not_found', `no such file: ${path}`);
    throw error;
  }
  if (info.isDirectory()) throw new WorkspaceError('is_directory', `is a directory: ${path}`);
  // A symlink is removed itself (unlink never follows it).
  await unlink(absolute);
}

async function sniffText(absolute) {
  const handle = await open(absolute, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(8192), 0, 8192, 0);
    return isText(buffer.subarray(0, bytesRead), { partial: true });
  } finally {
    await handle.close();
  }
}

/**
 * Lists the workspace: every directory and file, sorted by path, `/`-separated. Directories
 * matched by an exclude pattern are listed (flagged `excluded`) but not entered; files are
 * flagged `excluded` when over the size limit or not text (judged from their first 8 KiB).
 * Symlinks are listed as what they point to when that is inside the workspace and never entered.
 * @returns {Promise<{entries: {path: string, kind: 'file'|'directory', excluded: boolean}[], truncated: boolean}>}
 */
export async function listTree(workspace, { limit = MAX_TREE_ENTRIES } = {}) {
  const entries = [];
  let truncated = false;
  const walk = async (absoluteDir, relativeDir) => {
    let names;
    try {
      names = (await readdir(absoluteDir)).sort();
    } catch {
      return; // vanished or unreadable meanwhile: list what is there
    }
    for (const name of names) {
      if (entries.length >= limit) {
        truncated = true;
        return;
      }
      const path = relativeDir ? `${relativeDir}/${name}` : name;
      const absolute = join(absoluteDir, name);
      let info;
      let descend = true;
      try {
        info = await lstat(absolute);
        if (info.isSymbolicLink()) {
          const real = await realpath(absolute);
          if (!isInside(workspace, real)) continue;
          info = await stat(real);
          descend = false;
        }
      } catch {
        continue;
      }
      if (info.isDirectory()) {
        const excluded = matchesExcludePattern(path, 'directory');
        entries.push({ path, kind: 'directory', excluded });
        if (!excluded && descend) await walk(absolute, path);
      } else if (info.isFile()) {
        let excluded = matchesExcludePattern(path, 'file') || info.size > MAX_FILE_BYTES;
        if (!excluded) excluded = !(await sniffText(absolute).catch(() => false));
        entries.push({ path, kind: 'file', excluded });
      }
    }
  };
  await walk(workspace, '');
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { entries, truncated };
}
