// The workspace's rules that the workspace (workspace.mjs) and the kept files (kept.mjs) both
// apply: the size limits, the not-saved-files rule and the UTF-8 text test. In a module of their
// own so that neither of the two imports the other for them.

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

/** Most bytes of text a snapshot carries (the page's undo budget, UNDO-4); past it the snapshot is cut. */
export const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;

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
