// The runner's change feed (issue 24, item 1): which paths of the workspace may have changed since
// the last look, from the kernel (inotify, through fs.watch on every directory the walk entered),
// so that the look after a command reads what the command touched instead of stat-ing 2,000 files.
//
// What makes it exact, or says it is not (`take()` answers null, and the caller walks everything):
// - Order. libuv keeps one inotify descriptor per event loop and hands its events out in the order
//   the kernel queued them, so once an event of a file written after the command's end (the fence,
//   in a directory of our own) has come back, every event queued before it has come back too.
// - Loss. The kernel drops events only when its queue holds max_queued_events (16,384 here) unread
//   ones, and libuv drops the overflow notice; but the queue filled up means at least that many
//   events reached us since the last fence. So a window with half that many is taken as lost.
// - What inotify does not see: a write through another hard link of a file (caught by the caller:
//   nlink > 1 disables the feed), a link's target (any symlink does), a write through a shared mmap
//   (the old stat walk saw its mtime, the feed does not: a command's mmap of a kept text file is
//   missed until the next walk), an unnamed event or a watcher's error (answered as unknown).
import { watch, lstatSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How long a fence may take to come back before the window counts as unknown (a stuck loop). */
export const FENCE_TIMEOUT_MS = 5000;

function queueLimit() {
  try {
    return Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8')) || 16384;
  } catch {
    return 16384;
  }
}

/**
 * Starts a change feed for `workspace` (a real path). Null where the platform has no fs.watch that
 * names files (it always does on Linux); the caller then walks every time.
 * @param {string} workspace
 * @returns {null | {watch(rel: string, ino: number): void,
 *   unwatchUnder(rel: string): void, unwatchAll(): void,
 *   take(): Promise<Set<string>|null>, close(): void, readonly broken: boolean}}
 */
export function createChangeFeed(workspace) {
  if (process.platform !== 'linux') return null;
  const lossAt = Math.floor(queueLimit() / 2);
  const fenceDir = mkdtempSync(join(tmpdir(), 'ai-ops-fence-'));
  /** Watched directories by workspace-relative path ('' the root): inode and watcher. */
  const watchers = new Map();
  let dirty = new Set();
  let unknown = false;
  let events = 0;
  let broken = false;
  let fenceSeq = 0;
  const fences = new Map();

  let fenceWatcher;
  try {
    fenceWatcher = watch(fenceDir, { persistent: false }, (_type, name) => {
      const arrived = fences.get(name);
      if (arrived) arrived();
    });
    fenceWatcher.on('error', () => {
      broken = true;
    });
  } catch {
    rmSync(fenceDir, { recursive: true, force: true });
    return null;
  }

  const close = (rel) => {
    watchers.get(rel)?.watcher.close();
    watchers.delete(rel);
  };

  return {
    get broken() {
      return broken;
    },
    /** Watches the directory at `rel` (inode `ino`, as the walk opened it), in place of any watch of `rel`. */
    watch(rel, ino) {
      if (broken) return;
      close(rel);
      const path = rel ? `${workspace}/${rel}` : workspace;
      try {
        const watcher = watch(path, { persistent: false }, (_type, name) => {
          events++;
          if (typeof name !== 'string' || name === '') unknown = true;
          else dirty.add(rel ? `${rel}/${name}` : name);
        });
        watcher.on('error', () => {
          unknown = true;
          close(rel);
        });
        watchers.set(rel, { ino, watcher });
        // Watched by path, walked by descriptor: another directory put there meanwhile is not it.
        if (lstatSync(path, { throwIfNoEntry: false })?.ino !== ino) unknown = true;
      } catch {
        // Out of watches (max_user_watches), or the directory went away: walk every time from now.
        broken = true;
      }
    },
    /** Stops watching `rel` and every directory under it (they are gone or replaced). */
    unwatchUnder(rel) {
      for (const key of [...watchers.keys()]) if (key === rel || key.startsWith(`${rel}/`)) close(key);
    },
    /**
     * Before a full walk, which watches every directory it enters anew: a watch kept from before
     * may be of a directory removed since and made again under the same inode number (reused at
     * once), which the kernel no longer reports anything of.
     */
    unwatchAll() {
      for (const key of [...watchers.keys()]) close(key);
    },
    /**
     * Waits until every change made before the call has been heard, then answers the paths that
     * may have changed since the previous take (relative, `/`-separated), or null when that is not
     * known (events possibly lost, an unnamed event, a watcher's error, the fence not back).
     */
    async take() {
      if (broken) return null;
      const name = `f${++fenceSeq}`;
      const window = new Promise((resolve) => {
        // Held (not unref'd): while a fence is out, the process waits for it (the watchers do not hold it).
        const timer = setTimeout(() => resolve(null), FENCE_TIMEOUT_MS);
        // Cut at the fence itself, in its own callback: what comes after it is the next window's.
        fences.set(name, () => {
          fences.delete(name); // its second event (the unlink) is not another cut
          clearTimeout(timer);
          const cut = { dirty, unknown, events };
          dirty = new Set();
          unknown = false;
          events = 0;
          resolve(cut);
        });
      });
      try {
        writeFileSync(join(fenceDir, name), '');
        unlinkSync(join(fenceDir, name));
      } catch {
        broken = true;
      }
      const cut = await window;
      fences.delete(name);
      // Not back (the events so far stay for the next window, which a full walk covers anyway).
      if (!cut || broken || cut.unknown || cut.events >= lossAt) return null;
      return cut.dirty;
    },
    close() {
      broken = true;
      this.unwatchAll();
      fenceWatcher.close();
      rmSync(fenceDir, { recursive: true, force: true });
    },
  };
}
