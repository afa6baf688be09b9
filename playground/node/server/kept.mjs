// What the node page's undo of a command needs from the workspace (UNDO-1), at the cost of what the
// command changed, not of the workspace's size (issue 24, item 1). The runner remembers, for each
// file it has looked at, a version token — size, mtime and ctime, inode, device —
// and what it read then (whether the first 8 KiB are text, for the tree; the bytes and their
// SHA-256, for a kept file). A scan stats every entry (one synchronous lstat each: 2,000 files ≈ 9 ms
// here, where the async fs/promises walk took 34 ms) and reads only files whose token moved, or
// that it cannot trust yet (below). `mark()` before a command records what every kept file holds;
// `changes(mark)` after it scans again and answers the files whose text differs, each with its text
// from the mark: the page receives only those, never the whole workspace.
//
// With the runner's change feed (`watch`, change-feed.mjs: inotify through fs.watch on every
// directory walked) a look reads only what the kernel says may have changed since the last one:
// the runner awaits `settle()` (a fence that proves every earlier event has come back) and the scan
// then looks at those paths alone — a file read again, a directory that was made, moved or replaced
// walked again, a gone one dropped. So a command pays for what it touched: after a command that
// changed one file in 2,000 files / 20 MB the look took 0.6 ms against 15.1 ms for the full walk
// (bench 50, load ≈ 4), and the command through the page ×1.06 the same in 10 files, where the
// walk alone had left ×1.35 on a quiet machine (97 against 71 ms: the page's tree and changes
// requests queued behind the walk, which blocks the runner's event loop, ≈ 13–27 ms under load).
// Where the feed cannot say (the first look, a symlink or a second hard link in the workspace, a
// burst of events the kernel may have dropped, an unnamed event, a watcher's error, no inotify),
// the look is a full walk as below. Every answer of the feed is checked against a fresh walk in
// test/node/runner-feed.test.mjs (300 random changes, three seeds).
//
// Without the feed, the walk before a command is skipped when nothing can have changed the
// workspace since the last one: no process of the runner ran or ended since, and no endpoint wrote
// (`activity`). The runner's commands are confined, and a confined command's descendants die with
// its PID namespace before its end is seen, so after it ends nothing of it writes. The runner
// starts the look as soon as it sees the command end (`warm`), so it runs while the exit travels to
// the page and the page's tree and changes requests come back.
//
// Why this and not an overlay mount (measured 2026-12-02, load ≈ 1–4 on 2 cores, 2,000 files /
// 20 MB): the full read the runner did before (listTree + every file through openParent, SHA-256,
// the JSON to the page) took 1,450 ms with texts and 2,400 ms without, 285 ms for the tree alone;
// the cached scan takes ≈ 9 ms per walk, the feed's look < 1 ms. Kernel overlayfs in a user namespace does mount on this
// machine (`unshare -Urm` + `mount -t overlay`: 6.4 ms against 3.1 ms for `unshare -Urm true`), so
// its upper layer would be exactly what the command wrote, but: bubblewrap 0.8.0 here has no
// `--overlay`, so every command would run under an extra unshare + mount; the command's writes stay
// invisible to the terminal and to other processes until they are merged back after its exit (a
// long-running dev server never exits); the merge has to replay whiteouts and opaque directories
// onto a workspace the terminal may have changed meanwhile; and the tree after the command (NODE-6)
// still needs a walk. The token cache and the feed keep the workspace one directory everyone sees.
//
// Correctness of the token. A write changes ctime (the kernel sets it; utimes cannot put it back),
// and a rename or a new file changes the inode. A write in the same clock tick as the one the
// cached token was taken in, with the same size, would keep all of them: so a token is trusted
// only when its ctime is older than the moment the file was looked at by more than TRUST_MARGIN_MS
// (the "racy" rule git uses for its index); a file changed more recently is read again at every
// scan until it is older. The margin is also why the times are Node's float milliseconds (µs
// resolution), not the BigInt nanoseconds: a write after a trusted look is stamped at least ~1 s
// after the trusted ctime, so no resolution finer than that is needed, and the BigInt stats cost
// +35 % a file here (2,000 lstats: 5.0 against 3.7 ms). What stays uncatchable: a write through a shared mmap to a page that
// is already dirty (the kernel stamps the time when a page is first dirtied, not at every store),
// and a wall clock stepped back by more than the margin between two scans.
//
// Memory. The cache holds the bytes of every kept file the last keep-scan saw (≤ MAX_SNAPSHOT_BYTES,
// 64 MiB, past which a scan is `truncated` and no step is kept, as before), so the runner holds the
// workspace's kept text once; a scan for the tree alone (`?undo=off`) holds no bytes. A mark holds
// references to the same entries; an entry a later scan replaced lives on only in the marks (at most
// MAX_MARKS, the oldest dropped first, each for at most MARK_LIFETIME_NS). The page's undo steps
// (UNDO-4's budget) hold the before-texts of the files commands changed, which the runner's cache
// no longer holds once they changed: the two overlap only where a step's before-text is a file's
// text now (after an undo).
import { createHash } from 'node:crypto';
import { closeSync, constants as fsConstants, fstatSync, lstatSync, openSync, readSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import { createChangeFeed } from './change-feed.mjs';
import { MAX_FILE_BYTES, MAX_SNAPSHOT_BYTES, MAX_TREE_ENTRIES, isText, matchesExcludePattern } from './rules.mjs';

/** A token younger than this (ctime against the look, ms) is not trusted: the file is read again. */
export const TRUST_MARGIN_MS = 1000;

/** Marks held at once (commands running at the same time); the oldest is dropped past it. */
export const MAX_MARKS = 4;

/** A mark no `changes` came for (the command timed out, the call was cancelled) is dropped after this. */
export const MARK_LIFETIME_MS = 10 * 60 * 1000;

const SNIFF_BYTES = 8192;
const DIR_FLAGS = fsConstants.O_RDONLY | fsConstants.O_DIRECTORY | fsConstants.O_NOFOLLOW;
const FILE_FLAGS = fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK;
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
// One read buffer for every scan (a scan is synchronous, so no two reads share it), made at the
// first read: workspace.mjs imports this module, so its constants are not there at load time.
let scratchBuffer;

const sameToken = (a, b) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino && a.dev === b.dev;
const tokenOf = (info) => ({ size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino, dev: info.dev });
const inside = (root, target) => target === root || target.startsWith(root + sep);

/** The exact text of kept bytes (a leading BOM kept, as readTextFile has it). */
export const textOf = (bytes) => decoder.decode(bytes);

/**
 * Creates the runner's kept-files cache for `workspace` (a real path).
 * @param {string} workspace
 * @param {{maxBytes?: number, limit?: number, now?: () => number,
 *   activity?: () => {stamp: string, quiet: boolean}}} [options] `now`: the wall clock in ms (injected
 *   by tests; the trust rule compares it with the files' ctime, which is wall-clock time).
 *   `activity`: what may change the workspace — `stamp` moves whenever something could have written
 *   (a process started or ended, an endpoint wrote), `quiet` says nothing is running now. While
 *   quiet and the stamp is the one of the last walk, that walk is still the workspace: it is
 *   answered again without a look. Without `activity` every scan walks.
 *   `watch`: keep a change feed (change-feed.mjs) of the directories walked; a look right after
 *   `await settle()` then reads only what the feed names (`activity` is not needed then).
 */
export function createKeptFiles(workspace, { maxBytes = MAX_SNAPSHOT_BYTES, limit = MAX_TREE_ENTRIES, now = Date.now, activity, watch: watchChanges = false } = {}) {
  /** @type {Map<string, {token: object, trusted: boolean, sniff?: boolean, kept?: {version: string, bytes: Buffer}|null}>} */
  let cache = new Map();
  const marks = new Map();
  let nextMark = 1;
  /** Files read by the scans so far (what a scan cost: the tests and the bench read it). */
  const stats = { reads: 0, scans: 0, walks: 0, updates: 0 };
  /** The last walk, with the activity stamp it was taken under. */
  let last = null;
  /** The last look (tree, texts, token cache, entered directories), which the feed brings up to date. */
  let state = null;
  const feed = watchChanges ? createChangeFeed(workspace) : null;
  /** What the feed has said since the last look (null: not asked since, or it could not say). */
  let heard = null;
  let lost = false;

  /**
   * Reads the file at `path` (a descriptor path or a link's resolved target; the last component is
   * never followed) and derives what `keep` asks: whether its first 8 KiB are text (the tree), and
   * with `keep` its bytes and SHA-256 when it is a kept file (at most 1 MiB, UTF-8 text), or null.
   * Null when it is no longer a regular file, or (`viaLink`) the opened file is not inside.
   */
  function readEntry(path, keep, { viaLink = false } = {}) {
    let fd;
    try {
      fd = openSync(path, FILE_FLAGS);
    } catch {
      return null; // gone, or swapped for a link, since the look
    }
    try {
      // Taken before the look: a write after it is stamped at or after this moment.
      const looked = now();
      const info = fstatSync(fd);
      if (!info.isFile()) return null;
      if (viaLink && !inside(workspace, readlinkSync(`/proc/self/fd/${fd}`))) return null;
      stats.reads++;
      const entry = { token: tokenOf(info), trusted: info.ctimeMs + TRUST_MARGIN_MS < looked };
      if (info.size > MAX_FILE_BYTES) return { ...entry, sniff: false, kept: null };
      const scratch = (scratchBuffer ??= Buffer.allocUnsafe(MAX_FILE_BYTES + 1));
      const want = keep ? scratch.length : SNIFF_BYTES;
      let length = 0;
      for (;;) {
        const read = readSync(fd, scratch, length, want - length, length);
        if (read === 0 || (length += read) >= want) break;
      }
      const sniff = isText(scratch.subarray(0, Math.min(length, SNIFF_BYTES)), { partial: true });
      if (!keep) return { ...entry, sniff };
      // Grown past 1 MiB since the fstat: not kept (the tree says so at the next look).
      const bytes = length > MAX_FILE_BYTES ? null : scratch.subarray(0, length);
      if (!bytes || !isText(bytes)) return { ...entry, sniff, kept: null };
      // A copy sized to the text: the scratch buffer is reused by the next read.
      return { ...entry, sniff, kept: { version: createHash('sha256').update(bytes).digest('hex'), bytes: Buffer.from(bytes) } };
    } finally {
      closeSync(fd);
    }
  }

  /** The cached entry when it still holds (same token, trusted, has what `keep` asks); else a fresh read. */
  function entryFor(path, file, info, keep, next, options) {
    const cached = cache.get(path);
    const holds = cached && cached.trusted && sameToken(cached.token, info) && (keep ? cached.kept !== undefined : cached.sniff !== undefined);
    const entry = holds ? cached : readEntry(file, keep, options);
    if (entry) next.set(path, entry);
    return entry;
  }

  /**
   * Walks the directory open as `dirFd` (at `relativeDir`, inode `ino`) into `ctx`: its entries
   * into `ctx.tree` as listTree lists them and, with `keep`, the kept files (the not-saved-files
   * rule: no excluded directory, at most 1 MiB, UTF-8 text) into `ctx.kept`. Directories are opened
   * through the one opened before them (O_NOFOLLOW), so a directory swapped for a link meanwhile
   * cannot make the walk list or read the outside; a file is read through its directory's
   * descriptor. Its lstat goes by its full path (a third cheaper than through /proc/self/fd): a
   * component swapped meanwhile gives a token of another inode, which only makes the file read
   * again, through the descriptor. With a feed, the directory is watched before it is listed, so a
   * file created after the listing is heard of.
   */
  function walkDir(dirFd, relativeDir, ino, ctx, keep) {
    feed?.watch(relativeDir, ino);
    ctx.dirs.add(relativeDir);
    let names;
    try {
      names = readdirSync(`/proc/self/fd/${dirFd}`).sort();
    } catch {
      return; // vanished or unreadable meanwhile: list what is there
    }
    for (const name of names) {
      if (ctx.tree.size >= limit) {
        ctx.truncated = true;
        return;
      }
      const path = relativeDir ? `${relativeDir}/${name}` : name;
      const here = `/proc/self/fd/${dirFd}/${name}`;
      let info;
      try {
        info = lstatSync(`${workspace}/${path}`);
      } catch {
        continue; // gone meanwhile
      }
      let target = here;
      let viaLink = false;
      if (info.isSymbolicLink()) {
        // A link's target changes without an event at the link: the feed cannot follow it.
        ctx.links = true;
        try {
          // Resolved from the descriptor (not the full path), listed as what it points to inside.
          target = realpathSync(here);
          if (!inside(workspace, target)) continue;
          info = statSync(target);
          viaLink = true;
        } catch {
          continue;
        }
      }
      if (info.isDirectory()) {
        const excluded = matchesExcludePattern(path, 'directory');
        ctx.tree.set(path, { path, kind: 'directory', excluded });
        if (excluded || viaLink) continue;
        let child;
        try {
          child = openSync(here, DIR_FLAGS);
        } catch {
          continue; // changed meanwhile
        }
        try {
          walkDir(child, path, fstatSync(child).ino, ctx, keep);
        } finally {
          closeSync(child);
        }
      } else if (info.isFile()) {
        // A write through another name of the same file is heard at that name only.
        if (info.nlink > 1) ctx.links = true;
        // A link's target is cached under the link's path, checked inside once more when opened.
        // Past the byte bound no more bytes are read or held: the cache stays within it (+ 1 MiB).
        const entry = entryFor(path, viaLink ? target : here, info, keep && !ctx.overBytes, ctx.next, { viaLink });
        if (entry) addFile(ctx, path, entry, keep);
      }
    }
  }

  /** Lists a file's `entry` at `path` in `ctx`, and keeps its text (`keep`) within the byte bound. */
  function addFile(ctx, path, entry, keep) {
    const tooLarge = entry.token.size > MAX_FILE_BYTES;
    ctx.tree.set(path, { path, kind: 'file', excluded: tooLarge || !entry.sniff });
    if (!entry.kept) return;
    if (!ctx.overBytes) {
      ctx.bytes += entry.kept.bytes.length;
      ctx.overBytes = ctx.bytes > maxBytes;
    }
    if (ctx.overBytes) ctx.next.set(path, { ...entry, kept: undefined });
    else if (keep) ctx.kept.set(path, entry.kept);
  }

  /** What a look answers, from `ctx`; `tree` reused when the listing did not change. */
  function publish(ctx, keep, same) {
    let entries;
    let treeVersion;
    if (same) ({ entries, treeVersion } = same);
    else {
      entries = [...ctx.tree.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      // A name for this listing, so a page that has it already is not sent its 2,000 entries again.
      const listing = entries.map((e) => `${e.path}\0${e.kind}\0${e.excluded ? 1 : 0}`).join('\n');
      treeVersion = createHash('sha256').update(`${listing}\n${ctx.truncated}`).digest('base64url');
    }
    // Nothing of it is changed later (marks share `kept`), so it can be answered again as it is.
    const result = { entries, truncated: ctx.truncated, treeVersion, kept: ctx.kept, keptTruncated: ctx.truncated || ctx.overBytes };
    state = { ...ctx, keep, result };
    return result;
  }

  /** A walk of the whole workspace (every entry stat-ed, the files whose token moved read). */
  function fullWalk(keep) {
    stats.walks++;
    const ctx = { tree: new Map(), kept: new Map(), next: new Map(), dirs: new Set(), bytes: 0, overBytes: false, truncated: false, links: false };
    feed?.unwatchAll();
    const root = openSync(workspace, DIR_FLAGS);
    try {
      walkDir(root, '', fstatSync(root).ino, ctx, keep);
    } finally {
      closeSync(root);
    }
    cache = ctx.next;
    return publish(ctx, keep);
  }

  /**
   * The last look brought up to date from the paths the feed names (`dirty`): each is looked at
   * (a file read again, a new or replaced directory walked, a gone one dropped with what was under
   * it), nothing else is touched. Null when the feed cannot say (a link, a hard link, a cut tree or
   * byte bound): the caller walks everything.
   */
  function update(dirty, keep) {
    if (state.links || state.truncated || state.overBytes) return null;
    stats.updates++;
    // The tree, the token cache and the directories are this look's own; `kept` is shared with marks.
    const ctx = { ...state, kept: new Map(state.kept), next: cache };
    let changed = false;
    const drop = (path, { keepTokens = false } = {}) => {
      const was = ctx.tree.get(path);
      if (!was) return;
      changed = true;
      const under = `${path}/`;
      for (const key of [path, ...(was.kind === 'directory' ? [...ctx.tree.keys()].filter((k) => k.startsWith(under)) : [])]) {
        ctx.tree.delete(key);
        if (!keepTokens) ctx.next.delete(key);
        const text = ctx.kept.get(key);
        if (text) ctx.bytes -= text.bytes.length;
        ctx.kept.delete(key);
        ctx.dirs.delete(key);
      }
      if (was.kind === 'directory') feed.unwatchUnder(path);
    };
    // Sorted, a directory comes before what is under it; a directory walked or dropped here covers it.
    let covered = null;
    for (const path of [...dirty].sort()) {
      if (covered && path.startsWith(covered)) continue;
      const slash = path.lastIndexOf('/');
      const parent = slash < 0 ? '' : path.slice(0, slash);
      const info = lstatSync(`${workspace}/${path}`, { throwIfNoEntry: false });
      if (!ctx.dirs.has(parent)) {
        // A watched directory's own removal or move is told as a child of its own name ("d/d"):
        // nothing there now, and nothing of it is listed (it went with its directory).
        if (!info) continue;
        // Heard from a directory the last look did not enter: not this feed's to answer.
        return null;
      }
      const was = ctx.tree.get(path);
      if (!info || (!info.isFile() && !info.isDirectory() && !info.isSymbolicLink())) {
        drop(path);
        covered = `${path}/`;
        continue;
      }
      if (info.isSymbolicLink() || (info.isFile() && info.nlink > 1)) return null;
      if (info.isDirectory()) {
        const excluded = matchesExcludePattern(path, 'directory');
        // Never entered, and still not: nothing under it is listed.
        if (was?.kind === 'directory' && was.excluded && excluded) continue;
        // Heard of itself (made, moved, removed and made again, its mode changed): walked again, with
        // the token cache (an inode number is reused at once, so "the same inode" proves nothing).
        drop(path, { keepTokens: true });
        changed = true;
        covered = `${path}/`;
        ctx.tree.set(path, { path, kind: 'directory', excluded });
        feed.unwatchUnder(path);
        if (excluded) continue;
        let dirFd;
        try {
          dirFd = openSync(`${workspace}/${path}`, DIR_FLAGS);
        } catch {
          return null;
        }
        try {
          // Opened by path: a component swapped for a link on the way would lead elsewhere.
          if (readlinkSync(`/proc/self/fd/${dirFd}`) !== `${workspace}/${path}`) return null;
          walkDir(dirFd, path, fstatSync(dirFd).ino, ctx, keep);
        } finally {
          closeSync(dirFd);
        }
        // Tokens of what was under it and is no longer.
        for (const key of [...ctx.next.keys()]) if (key.startsWith(covered) && !ctx.tree.has(key)) ctx.next.delete(key);
      } else {
        if (was?.kind === 'directory') {
          drop(path);
          covered = `${path}/`;
        }
        // Heard of, so read again whatever its token says (a same-tick write keeps the token).
        ctx.next.delete(path);
        const entry = readEntry(`${workspace}/${path}`, keep, { viaLink: true });
        const text = ctx.kept.get(path);
        if (text) ctx.bytes -= text.bytes.length;
        ctx.kept.delete(path);
        if (!entry) {
          drop(path);
          continue;
        }
        ctx.next.set(path, entry);
        addFile(ctx, path, entry, keep);
        const now = ctx.tree.get(path);
        if (!was || was.kind !== now.kind || was.excluded !== now.excluded) changed = true;
      }
      if (ctx.links || ctx.truncated || ctx.overBytes || ctx.tree.size > limit) return null;
    }
    return publish(ctx, keep, changed ? undefined : state.result);
  }

  /** One look at the workspace: from the feed when it can say what changed, else a full walk. */
  function scan({ keep: asked }) {
    stats.scans++;
    // While a mark waits for its changes, a walk for the tree reads texts too (only of the files
    // whose token moved): the page asks for the tree at a process's exit, just before the changes,
    // which can then answer from that walk instead of walking again.
    let keep = asked || marks.size > 0;
    if (feed) {
      const dirty = lost ? null : heard;
      heard = null;
      lost = false;
      if (dirty && state && !feed.broken) {
        // A look that has the texts goes on keeping them (the marks compare against them).
        keep ||= state.keep;
        if (state.keep === keep) {
          if (dirty.size === 0) return state.result;
          const result = update(dirty, keep);
          if (result) return result;
        }
      }
      return fullWalk(keep);
    }
    const seen = activity?.() ?? null;
    if (seen?.quiet && last?.quiet && last.stamp === seen.stamp && (last.keep || !keep)) return last.result;
    const result = fullWalk(keep);
    last = seen ? { stamp: seen.stamp, quiet: seen.quiet, keep, result } : null;
    return result;
  }

  const dropStale = () => {
    const oldest = now() - MARK_LIFETIME_MS;
    for (const [id, mark] of marks) if (mark.at < oldest) marks.delete(id);
  };

  return {
    stats,
    /**
     * The walk the page is about to ask for, made now: called as a command's end is seen (the page
     * asks for the tree at every exit, NODE-6, and for the changes after an agent's command), so the
     * walk runs while the exit travels to the page and its requests come back, and they are answered
     * from it (the activity stamp has not moved). Nothing when something still runs (the walk would
     * not be reused) or without `activity`.
     */
    async warm() {
      if (feed) await this.settle();
      else if (!activity?.().quiet) return;
      scan({ keep: false });
    },
    /**
     * Waits until the feed has heard every change made before the call, so that the next look
     * answers from what it names. Without a feed, nothing to wait for (the next look walks).
     */
    async settle() {
      if (!feed) return;
      const cut = await feed.take();
      if (cut === null) lost = true;
      else if (heard) for (const path of cut) heard.add(path);
      else heard = cut;
    },
    /** Stops the feed's watchers (the runner closing). */
    close() {
      feed?.close();
    },
    /** The tree as listTree has it (every directory and file, `excluded` flagged), from the cache. */
    tree() {
      const { entries, truncated, treeVersion } = scan({ keep: false });
      return { entries, truncated, version: treeVersion };
    },
    /** Every kept file with its version and, with `contents`, its text (the `snapshot` endpoint). */
    snapshot({ contents = false } = {}) {
      const { kept, keptTruncated } = scan({ keep: true });
      const files = [];
      for (const [path, { version, bytes }] of kept) files.push(contents ? { path, version, contents: textOf(bytes) } : { path, version });
      files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      return { files, truncated: keptTruncated };
    },
    /**
     * Records what every kept file holds now, before a command: its id, or null when the workspace
     * cannot all be kept (over the byte bound, the tree cut): the command keeps no step then.
     */
    mark() {
      dropStale();
      const { kept, keptTruncated } = scan({ keep: true });
      if (keptTruncated) return { mark: null, truncated: true };
      const id = `m${nextMark++}`;
      marks.set(id, { at: now(), kept });
      while (marks.size > MAX_MARKS) marks.delete(marks.keys().next().value);
      return { mark: id, truncated: false };
    },
    /**
     * After the command: the kept files whose text differs from the mark's, sorted by path, each with
     * its text at the mark (null: it was not kept then, the command created it) and its version now
     * (null: no kept file now), and the tree now (the same walk, with its version). The mark is used up. `gone` when
     * the mark is unknown (used, dropped); `truncated` when the workspace now cannot all be kept.
     */
    changes(id) {
      const mark = marks.get(id);
      marks.delete(id);
      const { entries, truncated, treeVersion, kept, keptTruncated } = scan({ keep: true });
      const tree = { entries, truncated, version: treeVersion };
      if (!mark) return { gone: true, tree };
      if (keptTruncated) return { truncated: true, files: [], tree };
      const files = [];
      for (const path of new Set([...mark.kept.keys(), ...kept.keys()])) {
        const was = mark.kept.get(path);
        const is = kept.get(path);
        if (was?.version === is?.version) continue;
        files.push({ path, before: was ? textOf(was.bytes) : null, version: is?.version ?? null });
      }
      files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      return { truncated: false, files, tree };
    },
    /** Marks held now (tests: the bound). */
    get marks() {
      return marks.size;
    },
  };
}
