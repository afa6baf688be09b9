/**
 * The `exclude` patterns of the node runtime's not-saved-files rule, matched the way `.gitignore`
 * matches (a subset): `node_modules/` (a directory of that name at any depth, and all below it),
 * `*.log` (a name at any depth), `/dist` or `build/out` (anchored at the working directory),
 * `**` across directories, `?`, `[abc]`, `!pattern` to take a path back, `#` comments.
 * `node_list_files` omits every path this matches (FILE-3).
 * @module
 */

interface Rule {
  negate: boolean;
  directoryOnly: boolean;
  /** Anchored rules match the whole path; the others match the last segment. */
  anchored: boolean;
  regex: RegExp;
}

function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length || glob[i + 2] === '/';
        if (atStart && atEnd) {
          // `**/` = zero or more directories; a trailing `/**` = everything below.
          if (glob[i + 2] === '/') {
            out += '(?:[^/]+/)*';
            i += 2;
          } else {
            out += '.*';
            i += 1;
          }
          continue;
        }
        i += 1;
      }
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end === -1) {
        out += '\\[';
      } else {
        let body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        out += `[${body}]`;
        i = end;
      }
    } else if (c === '\\' && i + 1 < glob.length) {
      out += glob[i + 1].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      i += 1;
    } else {
      out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
  }
  return out;
}

function parseRule(line: string): Rule | null {
  let pattern = line.replace(/(?<!\\)\s+$/, '');
  if (pattern === '' || pattern.startsWith('#')) return null;
  const negate = pattern.startsWith('!');
  if (negate) pattern = pattern.slice(1);
  const directoryOnly = pattern.endsWith('/');
  pattern = pattern.replace(/\/+$/, '');
  if (pattern === '') return null;
  const anchored = pattern.includes('/');
  pattern = pattern.replace(/^\//, '');
  return { negate, directoryOnly, anchored, regex: new RegExp(`^${globToRegex(pattern)}$`) };
}

/**
 * Compiles exclude patterns into a predicate over working-directory-relative, `/`-separated paths.
 * A path is excluded when it, or any directory above it, is excluded (as in git, a path under an
 * excluded directory cannot be taken back by a `!` pattern).
 * @example
 * const excluded = createExcludeMatcher(['node_modules/', '*.log']);
 * excluded('a/node_modules/x/index.js', 'file') // true
 * excluded('logs/today.log', 'file')            // true
 * excluded('src/main.js', 'file')               // false
 */
export function createExcludeMatcher(patterns: readonly string[]): (path: string, kind: 'file' | 'directory') => boolean {
  const rules = patterns.map(parseRule).filter((rule): rule is Rule => rule !== null);
  const matchesSelf = (path: string, kind: 'file' | 'directory'): boolean => {
    const name = path.slice(path.lastIndexOf('/') + 1);
    let excluded = false;
    for (const rule of rules) {
      if (rule.directoryOnly && kind !== 'directory') continue;
      if (rule.regex.test(rule.anchored ? path : name)) excluded = !rule.negate;
    }
    return excluded;
  };
  return (path, kind) => {
    if (rules.length === 0) return false;
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) {
      if (matchesSelf(segments.slice(0, i).join('/'), 'directory')) return true;
    }
    return matchesSelf(path, kind);
  };
}
