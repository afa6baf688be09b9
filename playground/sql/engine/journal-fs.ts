/**
 * PGlite's in-memory file system with the undo journal (./journal.ts) wrapped around it before
 * Postgres starts, after the data directory is unpacked: every write Postgres makes, its start-up
 * recovery's included, is seen by the journal, so windows carried over from a restore stay exact.
 * @module
 */
import { MemoryFS } from '@electric-sql/pglite';
import type { EmscriptenFs, Journal } from './journal.js';
import type { DataFiles } from './protocol.js';

/** PGlite's data directory in its Emscripten file system. */
export const DATA_DIR = '/pglite/data';

/** The part of PGlite's Emscripten module used here. */
interface PgModule {
  FS: EmscriptenFs & { chmod(path: string, mode: number): void; writeFile(path: string, data: Uint8Array, options?: { canOwn?: boolean }): void };
  _pgl_setPGliteActive(...args: unknown[]): unknown;
}

/**
 * Pass as PGlite's `fs`. PGlite calls `initialSyncFs` once its module exists and before it
 * unpacks `loadDataDir`; Postgres starts right after `_pgl_setPGliteActive(1)`, so that is where
 * the journal attaches.
 * @example const db = await PGlite.create({ fs: new JournalledMemoryFS(journal), loadDataDir });
 */
export class JournalledMemoryFS extends MemoryFS {
  /** @param files a restore's data directory, written before PGlite looks for one (it then resumes it). */
  constructor(readonly journal: Journal, private readonly files?: DataFiles) {
    super();
  }

  override async initialSyncFs(): Promise<void> {
    await super.initialSyncFs();
    const pg = this.pg as unknown as { mod?: PgModule; Module?: PgModule } | undefined;
    const mod = pg?.mod ?? pg?.Module;
    if (!mod) throw new Error('PGlite has no module to journal');
    if (this.files) writeFiles(mod.FS, this.files);
    const start = mod._pgl_setPGliteActive;
    const journal = this.journal;
    mod._pgl_setPGliteActive = function (this: unknown, ...args: unknown[]) {
      journal.attach(mod.FS);
      // Start-up's own writes (recovery, its checkpoint) belong to no run's step.
      journal.open(0);
      return start.apply(this, args);
    };
  }
}

/** Writes a data directory's entries under {@link DATA_DIR}, parents first, with their modes; MEMFS keeps the bytes given (no copy). */
function writeFiles(fs: PgModule['FS'], { entries, modes }: DataFiles): void {
  const paths = Object.keys(entries).sort((a, b) => a.split('/').length - b.split('/').length);
  fs.mkdirTree(DATA_DIR);
  for (const path of paths) {
    const bytes = entries[path];
    if (bytes === null) fs.mkdirTree(DATA_DIR + path);
    else fs.writeFile(DATA_DIR + path, bytes, { canOwn: true });
  }
  for (const path of paths) if (modes[path] !== undefined) fs.chmod(DATA_DIR + path, modes[path]);
}

/** The part of Emscripten's FS {@link readFiles} reads. */
export interface ReadableFs {
  readdir(path: string): string[];
  isDir(mode: number): boolean;
  stat(path: string): { mode: number };
  readFile(path: string): Uint8Array;
  analyzePath(path: string): { object: { contents?: Uint8Array | null; usedBytes?: number } | null };
}

/**
 * Every entry of the data directory with its bytes and mode. `copy` false: each file's bytes are
 * MEMFS's own (a view of them, no copy) — only for a worker about to hand them over and end.
 */
export function readFiles(fs: ReadableFs, { copy = true } = {}): DataFiles {
  const files: DataFiles = { entries: {}, modes: {} };
  const walk = (dir: string) => {
    for (const name of fs.readdir(dir)) {
      if (name === '.' || name === '..') continue;
      const path = `${dir}/${name}`;
      const key = path.slice(DATA_DIR.length);
      const { mode } = fs.stat(path);
      files.modes[key] = mode;
      if (fs.isDir(mode)) {
        files.entries[key] = null;
        walk(path);
      } else if (copy) {
        files.entries[key] = fs.readFile(path);
      } else {
        const node = fs.analyzePath(path).object;
        files.entries[key] = node?.contents ? node.contents.subarray(0, node.usedBytes ?? 0) : new Uint8Array(0);
      }
    }
  };
  walk(DATA_DIR);
  return files;
}
