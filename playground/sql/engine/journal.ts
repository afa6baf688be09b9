/**
 * The SQL page's undo journal (UNDO-1, UNDO-4): instead of a copy of the whole data directory
 * before every writing run (PGlite's `dumpDataDir()`: 41 MB, or 5 MB gzipped in 363 ms, for a
 * 10,000-row database), it keeps the bytes each run is about to overwrite, block by block, the
 * first time the run's window touches them — copy-on-write under Postgres, in the worker's
 * Emscripten file system (MEMFS: memory only, never IndexedDB).
 *
 * A segment covers a window of time: from the start of one run to the start of the next one
 * that changed the database. For every path touched in its window it holds what was there when
 * the window opened: the file's size and its 8 KB blocks as they were (saved on their first
 * write), the whole file (when it was unlinked or renamed away), or that nothing was there.
 * Applying segments newest first turns the files back into what they were when the oldest
 * applied window opened — the exact bytes `dumpDataDir()` would have given then (the files of a
 * running Postgres: crash-consistent, which is what PGlite's own `clone()` relies on).
 *
 * Every change of a file goes through the few FS functions wrapped here (`write`, `doSetAttr`
 * for truncation, `unlink`, `rename`, `mknod` for files and directories, `rmdir`); Postgres uses
 * no shared file mappings in PGlite (`msync` is never called: asserted by the tests' byte
 * comparison, which would fail).
 * @module
 */

/** The part of an Emscripten file-system node the journal reads. */
export interface FsNode {
  mode: number;
  contents?: Uint8Array | null;
  usedBytes?: number;
}

/** The part of an Emscripten stream the journal reads. */
export interface FsStream {
  node: FsNode;
  flags: number;
  position: number;
}

/** The Emscripten FS functions the journal wraps and uses (PGlite's `Module.FS`). */
export interface EmscriptenFs {
  write(stream: FsStream, buffer: Uint8Array, offset: number, length: number, position?: number, canOwn?: boolean): number;
  doSetAttr(stream: FsStream | null, node: FsNode, attr: { size?: number }): void;
  unlink(path: string): void;
  rename(from: string, to: string): void;
  mknod(path: string, mode: number, dev: number): FsNode;
  rmdir(path: string): void;
  getPath(node: FsNode): string;
  cwd(): string;
  analyzePath(path: string): { exists: boolean; object: FsNode | null };
  readdir(path: string): string[];
  writeFile(path: string, data: Uint8Array): void;
  mkdirTree(path: string): void;
  isDir(mode: number): boolean;
  isFile(mode: number): boolean;
}

/** Bytes per saved block: Postgres's page size, so one page written costs one block. */
export const BLOCK = 8192;
const O_APPEND = 1024;

/** What one path was when a segment's window opened. */
export type Before =
  | { readonly kind: 'absent' }
  | { readonly kind: 'dir' }
  | { kind: 'file'; size: number; blocks: Map<number, Uint8Array>; whole: Uint8Array | null };

/** One window of the journal; `id` is the run that opened it (0: opened by nobody's run). */
export interface Segment {
  readonly id: number;
  readonly paths: Map<string, Before>;
  /** Bytes of file contents the segment holds. */
  bytes: number;
  /** Its step is gone: the window stays only while an older step needs it (carried across a restore). */
  released?: boolean;
}

/** Joins `path` to the cwd when relative and removes `.`, `..` and repeated slashes. */
export function normalise(path: string, cwd: string): string {
  const parts: string[] = [];
  for (const part of (path.startsWith('/') ? path : `${cwd}/${path}`).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/**
 * The journal of one worker. {@link Journal.attach} wraps the FS once, before Postgres starts;
 * {@link Journal.open} starts a run's window. Segments carried over from the worker a restore
 * replaced come in through the constructor, so older steps stay undoable across the swap.
 * @example
 * const journal = new Journal('/pglite/data', carried);
 * journal.attach(db.mod.FS);
 * journal.open(runId); // … run … journal.mergeLast() when it changed nothing
 */
export class Journal {
  readonly #root: string;
  readonly #segments: Segment[];
  #fs: EmscriptenFs | undefined;
  #paused = false;

  /** @param root the data directory; only paths inside it are kept. */
  constructor(root: string, carried: readonly Segment[] = []) {
    this.#root = root.replace(/\/+$/, '');
    this.#segments = [...carried];
  }

  /** The segments, oldest first. */
  get segments(): readonly Segment[] {
    return this.#segments;
  }

  /** Bytes of file contents kept by all segments. */
  get bytes(): number {
    return this.#segments.reduce((sum, segment) => sum + segment.bytes, 0);
  }

  /** Starts a new window (a run's); writes from now on are kept in it. */
  open(id: number): Segment {
    const segment: Segment = { id, paths: new Map(), bytes: 0 };
    this.#segments.push(segment);
    this.#prune();
    return segment;
  }

  /**
   * The newest window changed nothing the user cares for (its run wrote nothing): it joins the
   * window before it, whose older records win. With no window before it, nobody needs it.
   */
  mergeLast(): void {
    const last = this.#segments.pop();
    const previous = this.#segments.at(-1);
    if (!last || !previous) return;
    for (const [path, before] of last.paths) {
      if (previous.paths.has(path)) continue;
      previous.paths.set(path, before);
      previous.bytes += sizeOf(before);
    }
  }

  /** True when the segment of run `id` is still kept. */
  has(id: number): boolean {
    return this.#segments.some((segment) => segment.id === id && id !== 0);
  }

  /**
   * Run `id`'s step is gone (dropped from the log, or its row with it): its window is only
   * needed while an older step still is. Leading windows nobody can go back to are forgotten.
   */
  release(id: number): void {
    for (const segment of this.#segments) if (segment.id === id) segment.released = true;
    this.#prune();
  }

  /** Leading windows that no kept step opened: nobody goes back to their start. */
  #prune(): void {
    while (this.#segments.length > 1 && (this.#segments[0].id === 0 || this.#segments[0].released)) this.#segments.shift();
  }

  /** Forgets every window: the files changed in a way nobody recorded (a run with keeping off). */
  clear(): void {
    this.#segments.length = 0;
  }

  /** Drops the oldest segments until at most `limit` bytes are kept; returns the dropped runs' ids. */
  trim(limit: number): number[] {
    const dropped: number[] = [];
    // The newest segment stays: it is the open window.
    while (this.#segments.length > 1 && this.bytes > limit) {
      const segment = this.#segments.shift();
      if (segment && segment.id !== 0) dropped.push(segment.id);
    }
    return dropped;
  }

  /**
   * Puts the files back as they were when run `id`'s window opened (newest window first), and
   * returns the segments older than it, which stay valid for the restored files. The FS is then
   * no longer what the running Postgres believes: the caller dumps it and replaces the engine.
   */
  rewindTo(id: number): Segment[] {
    const index = this.#segments.findIndex((segment) => segment.id === id);
    if (index < 0 || id === 0) throw new Error('that change is no longer kept');
    const fs = this.#required();
    this.#paused = true;
    try {
      for (let i = this.#segments.length - 1; i >= index; i--) applySegment(fs, this.#segments[i]);
    } finally {
      this.#paused = false;
    }
    return this.#segments.splice(0, index);
  }

  /** Wraps the FS functions that change files; idempotent. */
  attach(fs: EmscriptenFs): void {
    if (this.#fs) return;
    this.#fs = fs;
    const journal = this;
    const { write, doSetAttr, unlink, rename, mknod, rmdir } = fs;
    fs.write = function (stream, buffer, offset, length, position, canOwn) {
      if (length > 0 && journal.#active()) journal.#beforeWrite(stream, length, position);
      return write.call(fs, stream, buffer, offset, length, position, canOwn);
    };
    fs.doSetAttr = function (stream, node, attr) {
      if (attr.size !== undefined && journal.#active()) journal.#beforeTruncate(node, attr.size);
      doSetAttr.call(fs, stream, node, attr);
    };
    fs.unlink = function (path) {
      journal.#beforeRemove(path);
      unlink.call(fs, path);
    };
    fs.rmdir = function (path) {
      journal.#beforeRemove(path);
      rmdir.call(fs, path);
    };
    fs.rename = function (from, to) {
      journal.#beforeRemove(from);
      journal.#beforeRemove(to);
      rename.call(fs, from, to);
    };
    fs.mknod = function (path, mode, dev) {
      journal.#beforeCreate(path);
      return mknod.call(fs, path, mode, dev);
    };
  }

  /** Cheap first check of every wrapped call: is any window open to keep anything in? */
  #active(): boolean {
    return !this.#paused && this.#segments.length > 0;
  }

  #required(): EmscriptenFs {
    if (!this.#fs) throw new Error('the journal is not attached');
    return this.#fs;
  }

  /** The open window, when a path inside the data directory changes while not paused. */
  #window(path: string): Segment | undefined {
    if (this.#paused) return undefined;
    if (path !== this.#root && !path.startsWith(`${this.#root}/`)) return undefined;
    return this.#segments.at(-1);
  }

  /** The record of `path` in `segment`, made from what is there now on first use. */
  #record(segment: Segment, path: string): Before {
    let before = segment.paths.get(path);
    if (before) return before;
    const found = this.#required().analyzePath(path);
    const node = found.exists ? found.object : null;
    if (!node) before = { kind: 'absent' };
    else if (this.#required().isDir(node.mode)) before = { kind: 'dir' };
    else before = { kind: 'file', size: node.usedBytes ?? 0, blocks: new Map(), whole: null };
    segment.paths.set(path, before);
    return before;
  }

  #beforeWrite(stream: FsStream, length: number, position: number | undefined): void {
    const fs = this.#required();
    if (!fs.isFile(stream.node.mode)) return;
    const path = fs.getPath(stream.node);
    const segment = this.#window(path);
    if (!segment) return;
    const before = this.#record(segment, path);
    if (before.kind !== 'file' || before.whole) return;
    const used = stream.node.usedBytes ?? 0;
    const start = stream.flags & O_APPEND ? used : (position ?? stream.position);
    this.#save(segment, before, stream.node, start, start + length);
  }

  #beforeTruncate(node: FsNode, size: number): void {
    const fs = this.#required();
    if (!fs.isFile(node.mode)) return;
    const path = fs.getPath(node);
    const segment = this.#window(path);
    if (!segment) return;
    const before = this.#record(segment, path);
    if (before.kind !== 'file' || before.whole) return;
    this.#save(segment, before, node, size, before.size);
  }

  /** Keeps the blocks of [from, to) that the window has not kept yet and that existed when it opened. */
  #save(segment: Segment, before: Extract<Before, { kind: 'file' }>, node: FsNode, from: number, to: number): void {
    const end = Math.min(to, before.size);
    if (from >= end) return;
    const contents = node.contents ?? new Uint8Array(0);
    for (let block = Math.floor(from / BLOCK); block * BLOCK < end; block++) {
      if (before.blocks.has(block)) continue;
      const start = block * BLOCK;
      // Unkept blocks below the window's size are still as they were (truncation keeps them first).
      const copy = contents.slice(start, Math.min(start + BLOCK, before.size));
      before.blocks.set(block, copy);
      segment.bytes += copy.byteLength;
    }
  }

  /** `path` (a file, or a directory and everything in it) is about to go away or be replaced. */
  #beforeRemove(rawPath: string): void {
    const fs = this.#required();
    const path = normalise(rawPath, fs.cwd());
    const segment = this.#window(path);
    if (!segment) return;
    const found = fs.analyzePath(path);
    if (!found.exists || !found.object) {
      this.#record(segment, path);
      return;
    }
    if (fs.isDir(found.object.mode)) {
      this.#record(segment, path);
      for (const name of fs.readdir(path)) if (name !== '.' && name !== '..') this.#beforeRemove(`${path}/${name}`);
      return;
    }
    const before = this.#record(segment, path);
    if (before.kind !== 'file' || before.whole) return;
    // The whole file as the window found it: what is there now, with the kept blocks put back.
    const contents = found.object.contents ?? new Uint8Array(0);
    const whole = new Uint8Array(before.size);
    whole.set(contents.subarray(0, Math.min(before.size, found.object.usedBytes ?? 0)));
    let kept = 0;
    for (const [block, bytes] of before.blocks) {
      whole.set(bytes, block * BLOCK);
      kept += bytes.byteLength;
    }
    before.whole = whole;
    before.blocks = new Map();
    segment.bytes += whole.byteLength - kept;
  }

  #beforeCreate(rawPath: string): void {
    const fs = this.#required();
    const path = normalise(rawPath, fs.cwd());
    const segment = this.#window(path);
    if (segment) this.#record(segment, path);
  }
}

function sizeOf(before: Before): number {
  if (before.kind !== 'file') return 0;
  if (before.whole) return before.whole.byteLength;
  let bytes = 0;
  for (const block of before.blocks.values()) bytes += block.byteLength;
  return bytes;
}

/** Puts the paths of one window back as the window found them (the FS is at the window's end). */
function applySegment(fs: EmscriptenFs, segment: Segment): void {
  const entries = [...segment.paths];
  // Children before parents when removing, parents before children when creating.
  entries.sort(([a], [b]) => a.split('/').length - b.split('/').length);
  for (const [path, before] of [...entries].reverse()) {
    if (before.kind !== 'absent') continue;
    const found = fs.analyzePath(path);
    if (!found.exists || !found.object) continue;
    if (fs.isDir(found.object.mode)) removeTree(fs, path);
    else fs.unlink(path);
  }
  for (const [path, before] of entries) {
    if (before.kind === 'dir') {
      const found = fs.analyzePath(path);
      if (found.exists && found.object && !fs.isDir(found.object.mode)) fs.unlink(path);
      if (!found.exists || (found.object && !fs.isDir(found.object.mode))) fs.mkdirTree(path);
    } else if (before.kind === 'file') {
      restoreFile(fs, path, before);
    }
  }
}

function restoreFile(fs: EmscriptenFs, path: string, before: Extract<Before, { kind: 'file' }>): void {
  const found = fs.analyzePath(path);
  if (found.exists && found.object && fs.isDir(found.object.mode)) removeTree(fs, path);
  if (before.whole) {
    fs.writeFile(path, before.whole);
    return;
  }
  // Not removed in the window (a removal keeps the whole file), so it is there.
  const node = found.object;
  if (!node) throw new Error(`the journal lost ${path}`);
  const now = node.contents ? node.contents.subarray(0, node.usedBytes ?? 0) : new Uint8Array(0);
  const bytes = new Uint8Array(before.size);
  bytes.set(now.subarray(0, Math.min(now.byteLength, before.size)));
  for (const [block, saved] of before.blocks) bytes.set(saved, block * BLOCK);
  fs.writeFile(path, bytes);
}

function removeTree(fs: EmscriptenFs, path: string): void {
  for (const name of fs.readdir(path)) {
    if (name === '.' || name === '..') continue;
    const child = `${path}/${name}`;
    const found = fs.analyzePath(child);
    if (found.object && fs.isDir(found.object.mode)) removeTree(fs, child);
    else fs.unlink(child);
  }
  fs.rmdir(path);
}
