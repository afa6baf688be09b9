// The runner's workspace: a temp directory per server start, and the file operations the node
// page may perform inside it. Every path that comes from a request is walked component by
// component from the workspace (`openParent`): absolute paths, `..` that leaves and links that
// lead outside (dangling or not, or swapped in while the operation runs) are refused (BOX-4).
import { createHash } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { chmod, chown, lstat, mkdir, mkdtemp, open, readdir, readlink, realpath, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { createKeptFiles } from './kept.mjs';
import { EXCLUDES, MAX_FILE_BYTES, MAX_SNAPSHOT_BYTES, MAX_TREE_ENTRIES, isText, matchesExcludePattern } from './rules.mjs';

export { EXCLUDES, MAX_FILE_BYTES, MAX_SNAPSHOT_BYTES, MAX_TREE_ENTRIES, isText, matchesExcludePattern };


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
 * Creates `<tmp>/ai-ops-runner-XXXX/{workspace,home,etc}` and seeds the sample project.
 * `home` is HOME for unconfined runs (the bench only; the sandbox has its own empty HOME);
 * `etc` holds the passwd/group files the sandbox shows, naming only the sandbox user.
 * With `owner` (the sandbox user when the server is root) the workspace and its files belong to
 * that user, so a confined command can change them, and nobody else can enter it.
 * @param {{files?: Record<string, string>, owner?: {uid: number, gid: number}|null}} [options]
 * @returns {Promise<{base: string, workspace: string, home: string, etcDir: string}>} real (symlink-free) paths
 */
export async function createWorkspace({ files = SAMPLE_PROJECT, owner = null } = {}) {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'ai-ops-runner-')));
  const workspace = join(base, 'workspace');
  const home = join(base, 'home');
  const etcDir = join(base, 'etc');
  await mkdir(workspace, { mode: 0o700 });
  await mkdir(home, { mode: 0o700 });
  await mkdir(etcDir);
  const uid = owner?.uid ?? process.getuid?.() ?? 1000;
  const gid = owner?.gid ?? process.getgid?.() ?? 1000;
  await writeFile(join(etcDir, 'passwd'), `sandbox:x:${uid}:${gid}:ai-ops sandbox:/home/sandbox:/bin/sh\n`, { mode: 0o644 });
  await writeFile(join(etcDir, 'group'), `sandbox:x:${gid}:\n`, { mode: 0o644 });
  for (const [name, contents] of Object.entries(files)) {
    await mkdir(join(workspace, posix.dirname(name)), { recursive: true });
    await writeFile(join(workspace, name), contents);
  }
  if (owner) {
    // The sandbox user (not root) starts bwrap, so it must pass through base to the workspace.
    await chmod(base, 0o711);
    const own = async (dir) => {
      await chown(dir, owner.uid, owner.gid);
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await own(path);
        else await chown(path, owner.uid, owner.gid);
      }
    };
    await own(workspace);
  }
  return { base, workspace, home, etcDir };
}

/** Removes the whole temp tree made by `createWorkspace`. */
export async function removeWorkspace(base) {
  await rm(base, { recursive: true, force: true, maxRetries: 3 });
}


/** Directory opens: never through a link (a link is resolved by hand, see `openParent`). */
const DIR_FLAGS = fsConstants.O_RDONLY | fsConstants.O_DIRECTORY | fsConstants.O_NOFOLLOW;

/** Links followed while resolving one path (the kernel's own limit). */
const MAX_LINKS = 40;

/** Opens of a path retried when a component changes between the look and the open. */
const MAX_RETRIES = 5;

/**
 * A name looked up inside an open directory. `/proc/self/fd/<fd>` is the directory itself (the
 * kernel does not resolve its path again), so this is openat(): a directory renamed or swapped
 * for a link after it was opened cannot redirect the lookup.
 */
const at = (dir, name) => `/proc/self/fd/${dir.fd}/${name}`;

const invalid = (message) => new WorkspaceError('invalid_path', message);

/**
 * The lexical checks of a request path: a string, relative, no NUL, no `..` that leaves.
 * @returns {string[]} the normalised components ([] for the workspace itself)
 */
function componentsOf(path, { allowRoot = false } = {}) {
  if (typeof path !== 'string') throw invalid('path must be a string');
  if (path.includes('\0')) throw invalid('path contains a NUL character');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\')) {
    throw invalid(`not a relative path: ${path}`);
  }
  const normal = posix.normalize(path === '' ? '.' : path).replace(/\/+$/, '');
  if (normal === '..' || normal.startsWith('../')) throw invalid(`path leaves the workspace: ${path}`);
  if ((normal === '.' || normal === '') && !allowRoot) throw invalid('path names the workspace itself');
  return normal === '.' || normal === '' ? [] : normal.split('/');
}

/** Where a link found in directory `done` (components from the root) points, as components. */
function linkTarget(workspace, done, target, path) {
  let joined;
  if (target.startsWith('/')) {
    if (target !== workspace && !target.startsWith(`${workspace}/`)) throw invalid(`path leaves the workspace through a link: ${path}`);
    joined = target.slice(workspace.length + 1);
  } else {
    joined = posix.join(done.join('/'), target);
  }
  const normal = posix.normalize(joined || '.');
  if (normal === '..' || normal.startsWith('../')) throw invalid(`path leaves the workspace through a link: ${path}`);
  return normal === '.' ? [] : normal.split('/').filter(Boolean);
}

const closeQuietly = (handle) => handle.close().catch(() => {});

/**
 * Opens the directory that holds the last component of `path`, resolving every component inside
 * the workspace: each directory is opened with O_NOFOLLOW relative to the one before, a link is
 * read and resolved against the workspace by hand, and one that leads out (absolute, or through
 * `..`) is refused, dangling or not. The caller closes `dir`.
 * @param {string} workspace real path of the workspace
 * @param {string} path request path
 * @param {{create?: boolean, followLast?: boolean, owner?: {uid: number, gid: number}|null,
 *   parentFileCode?: 'invalid_path'|'not_found'}} options
 *   `create` makes missing parent directories; `followLast` resolves a link in the last place.
 * @returns {Promise<{dir: import('node:fs/promises').FileHandle, name: string, relative: string}>}
 */
export async function openParent(workspace, path, { create = false, followLast = true, owner = null, parentFileCode = 'invalid_path' } = {}) {
  let pending = componentsOf(path);
  let links = 0;
  for (;;) {
    if (pending.length === 0) throw new WorkspaceError('is_directory', `is a directory: ${path}`);
    const root = await open(workspace, DIR_FLAGS);
    let dir = root;
    let restart = null;
    let handedOver = false;
    const done = [];
    try {
      for (let i = 0; i < pending.length && !restart; i++) {
        const name = pending[i];
        const last = i === pending.length - 1;
        let info = null;
        try {
          info = await lstat(at(dir, name));
        } catch (error) {
          if (error.code !== 'ENOENT') throw error;
        }
        if (info?.isSymbolicLink() && (!last || followLast)) {
          if (++links > MAX_LINKS) throw invalid(`too many links: ${path}`);
          let target;
          try {
            target = await readlink(at(dir, name));
          } catch (error) {
            // No longer a link (EINVAL) or gone: it changed after the look, walk again.
            if (error.code !== 'EINVAL' && error.code !== 'ENOENT') throw error;
            restart = pending;
            break;
          }
          restart = [...linkTarget(workspace, done, target, path), ...pending.slice(i + 1)];
          break;
        }
        if (last) {
          handedOver = true;
          return { dir, name, relative: [...done, name].join('/') };
        }
        if (!info) {
          if (!create) throw new WorkspaceError('not_found', `no such file: ${path}`);
          try {
            await mkdir(at(dir, name), 0o755);
            if (owner) await chown(at(dir, name), owner.uid, owner.gid);
          } catch (error) {
            if (error.code !== 'EEXIST') throw error; // made meanwhile: look again below
          }
        } else if (!info.isDirectory()) {
          throw new WorkspaceError(parentFileCode, parentFileCode === 'not_found' ? `no such file: ${path}` : `a parent of ${path} is a file`);
        }
        let next;
        try {
          next = await open(at(dir, name), DIR_FLAGS);
        } catch (error) {
          // Changed between the look and the open (now a link or a file): walk again.
          if (!['ELOOP', 'ENOTDIR', 'ENOENT'].includes(error.code)) throw error;
          if (++links > MAX_LINKS) throw invalid(`the path keeps changing: ${path}`);
          restart = pending;
          break;
        }
        if (dir !== root) await closeQuietly(dir);
        dir = next;
        done.push(name);
      }
    } finally {
      if (!handedOver) {
        if (dir !== root) await closeQuietly(dir);
        await closeQuietly(root);
      } else if (dir !== root) {
        await closeQuietly(root);
      }
    }
    pending = restart;
  }
}

/**
 * The absolute path for a workspace-relative `path` after the lexical checks, or a
 * `WorkspaceError('invalid_path')`. Only for showing where a path is; file operations resolve
 * through `openParent`, which also follows links safely.
 * @param {string} workspace real path of the workspace
 * @param {unknown} path
 * @param {{allowRoot?: boolean}} [options]
 */
export function resolveInside(workspace, path, { allowRoot = false } = {}) {
  const relative = componentsOf(path, { allowRoot }).join('/');
  return { absolute: relative ? join(workspace, ...relative.split('/')) : workspace, relative };
}

/** Opens the last component with `flags` (never through a link), walking again on a race. */
async function openLeaf(workspace, path, flags, options) {
  for (let attempt = 0; ; attempt++) {
    const { dir, name } = await openParent(workspace, path, options);
    try {
      return await open(at(dir, name), flags | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK, 0o644);
    } catch (error) {
      // ELOOP: the last component became a link after it was looked at: resolve it again.
      if (error.code !== 'ELOOP' || attempt >= MAX_RETRIES) {
        if (error.code === 'ELOOP') throw invalid(`the path keeps changing: ${path}`);
        throw error;
      }
    } finally {
      await closeQuietly(dir);
    }
  }
}

/**
 * Reads a text file. Errors: invalid_path, not_found, is_directory, too_large, not_text.
 * @returns {Promise<string>}
 */
export async function readTextFile(workspace, path) {
  let handle;
  try {
    handle = await openLeaf(workspace, path, fsConstants.O_RDONLY, { parentFileCode: 'not_found' });
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') throw new WorkspaceError('not_found', `no such file: ${path}`);
    throw error;
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new WorkspaceError('is_directory', `is a directory: ${path}`);
    if (!info.isFile()) throw new WorkspaceError('not_text', `not a regular file: ${path}`);
    if (info.size > MAX_FILE_BYTES) throw new WorkspaceError('too_large', `${path} is ${info.size} bytes (limit ${MAX_FILE_BYTES})`);
    const buffer = Buffer.alloc(MAX_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_FILE_BYTES) throw new WorkspaceError('too_large', `${path} is over ${MAX_FILE_BYTES} bytes`);
    }
    const bytes = buffer.subarray(0, length);
    if (!isText(bytes)) throw new WorkspaceError('not_text', `${path} is not UTF-8 text`);
    // ignoreBOM keeps a leading BOM so a read-then-write round trip is byte-exact.
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  } finally {
    await closeQuietly(handle);
  }
}

/**
 * Writes a UTF-8 text file, creating missing parent directories (owned by `owner`, the sandbox
 * user, so commands can change them). Errors: invalid_path, is_directory, too_large.
 * @param {{owner?: {uid: number, gid: number}|null}} [options]
 */
export async function writeTextFile(workspace, path, contents, { owner = null } = {}) {
  if (typeof contents !== 'string') throw new TypeError('contents must be a string');
  componentsOf(path);
  const bytes = Buffer.from(contents, 'utf8');
  if (bytes.length > MAX_FILE_BYTES) throw new WorkspaceError('too_large', `contents are ${bytes.length} bytes (limit ${MAX_FILE_BYTES})`);
  let handle;
  try {
    // No O_TRUNC at open: a FIFO or device is refused below before anything is changed.
    handle = await openLeaf(workspace, path, fsConstants.O_WRONLY | fsConstants.O_CREAT, { create: true, owner });
  } catch (error) {
    if (error.code === 'EISDIR') throw new WorkspaceError('is_directory', `is a directory: ${path}`);
    if (error.code === 'ENOTDIR' || error.code === 'EEXIST') throw invalid(`a parent of ${path} is a file`);
    // ENXIO: a FIFO nobody reads; ETXTBSY: a running program. Neither is a text file to write.
    if (error.code === 'ENXIO' || error.code === 'ETXTBSY') throw invalid(`not a regular file: ${path}`);
    throw error;
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new WorkspaceError('is_directory', `is a directory: ${path}`);
    if (!info.isFile()) throw invalid(`not a regular file: ${path}`);
    if (owner && (info.uid !== owner.uid || info.gid !== owner.gid)) await handle.chown(owner.uid, owner.gid);
    await handle.truncate(0);
    await handle.write(bytes, 0, bytes.length, 0);
  } finally {
    await closeQuietly(handle);
  }
}

/** Removes a file or a symlink (never a directory). Errors: invalid_path, not_found, is_directory. */
export async function removeFile(workspace, path) {
  const { dir, name } = await openParent(workspace, path, { followLast: false, parentFileCode: 'not_found' });
  try {
    let info;
    try {
      info = await lstat(at(dir, name));
    } catch (error) {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') throw new WorkspaceError('not_found', `no such file: ${path}`);
      throw error;
    }
    if (info.isDirectory()) throw new WorkspaceError('is_directory', `is a directory: ${path}`);
    // unlink never follows a link in the last place: a link is removed itself.
    try {
      await unlink(at(dir, name));
    } catch (error) {
      if (error.code === 'EISDIR' || error.code === 'EPERM') throw new WorkspaceError('is_directory', `is a directory: ${path}`);
      if (error.code === 'ENOENT') throw new WorkspaceError('not_found', `no such file: ${path}`);
      throw error;
    }
  } finally {
    await closeQuietly(dir);
  }
}

/**
 * Removes `path` when it is an empty directory (never through a link); true when it did. A
 * directory with anything in it, a file or nothing at `path` is left as it is (false). The node
 * page's undo of a write takes away the parents that write created (UNDO-1).
 * @returns {Promise<boolean>}
 */
export async function removeEmptyDirectory(workspace, path) {
  let opened;
  try {
    opened = await openParent(workspace, path, { followLast: false, parentFileCode: 'not_found' });
  } catch (error) {
    if (error instanceof WorkspaceError && error.code === 'not_found') return false;
    throw error;
  }
  const { dir, name } = opened;
  try {
    const info = await lstat(at(dir, name)).catch(() => null);
    if (!info?.isDirectory()) return false;
    await rmdir(at(dir, name));
    return true;
  } catch (error) {
    if (['ENOTEMPTY', 'EEXIST', 'ENOENT', 'ENOTDIR'].includes(error.code)) return false;
    throw error;
  } finally {
    await closeQuietly(dir);
  }
}

/**
 * Bytes the workspace takes on disk (allocated blocks, so a sparse file counts what it uses),
 * walking without following links. Stops early once `stopAbove` is passed.
 * @returns {Promise<number>}
 */
export async function diskUsage(workspace, { stopAbove = Infinity } = {}) {
  let total = 0;
  const walk = async (dir) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // vanished meanwhile
    }
    for (const entry of entries) {
      if (total > stopAbove) return;
      const path = join(dir, entry.name);
      try {
        const info = await lstat(path);
        total += info.blocks * 512;
        if (info.isDirectory()) await walk(path);
      } catch {
        // vanished meanwhile
      }
    }
  };
  await walk(workspace);
  return total;
}

/**
 * Lists the workspace: every directory and file, sorted by path, `/`-separated. Directories
 * matched by an exclude pattern are listed (flagged `excluded`) but not entered; files are
 * flagged `excluded` when over the size limit or not text (judged from their first 8 KiB).
 * Symlinks are listed as what they point to when that is inside the workspace and never entered.
 * Each directory is entered through the one opened before it (never by path), so a directory
 * swapped for a link meanwhile cannot make the listing show the outside. One walk of a fresh
 * kept-files cache (kept.mjs); the runner keeps its own cache across requests.
 * @returns {Promise<{entries: {path: string, kind: 'file'|'directory', excluded: boolean}[], truncated: boolean}>}
 */
export async function listTree(workspace, { limit = MAX_TREE_ENTRIES } = {}) {
  const { entries, truncated } = createKeptFiles(workspace, { limit }).tree();
  return { entries, truncated };
}


/** The version token of a text: the SHA-256 of its UTF-8 bytes (equal tokens, equal files). */
export function textVersion(contents) {
  return createHash('sha256').update(contents, 'utf8').digest('hex');
}

/** A kept file's text, or null when no kept file is at `path` (absent, a directory, not text, too large). */
async function keptText(workspace, path) {
  try {
    return await readTextFile(workspace, path);
  } catch (error) {
    if (error instanceof WorkspaceError && error.code !== 'invalid_path') return null;
    throw error;
  }
}

/**
 * What `path` holds before a write, for the page's undo: `{ contents }` for a kept text file,
 * `{ absent: true }` when no file is there, `{ unkept: true }` otherwise (not text, over 1 MiB).
 * @returns {Promise<{contents: string} | {absent: true} | {unkept: true}>}
 */
export async function previousText(workspace, path) {
  try {
    return { contents: await readTextFile(workspace, path) };
  } catch (error) {
    if (!(error instanceof WorkspaceError) || error.code === 'invalid_path') throw error;
    return error.code === 'not_found' ? { absent: true } : { unkept: true };
  }
}

/**
 * Every kept file of the workspace (the not-saved-files rule applied, as `listTree` flags it) with
 * its version token and, with `contents`, its text: the node page's before-state of a command
 * (UNDO-1), from a fresh kept-files cache (kept.mjs). Cut (`truncated`) past `maxBytes` of text or
 * when the tree was cut.
 * @returns {Promise<{files: {path: string, version: string, contents?: string}[], truncated: boolean}>}
 */
export async function snapshotKept(workspace, { contents = false, maxBytes = MAX_SNAPSHOT_BYTES } = {}) {
  return createKeptFiles(workspace, { maxBytes }).snapshot({ contents });
}

/** The version token of each path's kept file now, null where there is none (as `snapshotKept` sees it). */
export async function fileVersions(workspace, paths) {
  return Promise.all(paths.map(async (path) => {
    const text = await keptText(workspace, path);
    return text === null ? null : textVersion(text);
  }));
}
