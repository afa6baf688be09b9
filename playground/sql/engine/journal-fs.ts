/**
 * PGlite's in-memory file system with the undo journal (./journal.ts) wrapped around it before
 * Postgres starts, after the data directory is unpacked: every write Postgres makes, its start-up
 * recovery's included, is seen by the journal, so windows carried over from a restore stay exact.
 * @module
 */
import { MemoryFS } from '@electric-sql/pglite';
import type { EmscriptenFs, Journal } from './journal.js';

/** PGlite's data directory in its Emscripten file system. */
export const DATA_DIR = '/pglite/data';

/** The part of PGlite's Emscripten module used here. */
interface PgModule {
  FS: EmscriptenFs;
  _pgl_setPGliteActive(...args: unknown[]): unknown;
}

/**
 * Pass as PGlite's `fs`. PGlite calls `initialSyncFs` once its module exists and before it
 * unpacks `loadDataDir`; Postgres starts right after `_pgl_setPGliteActive(1)`, so that is where
 * the journal attaches.
 * @example const db = await PGlite.create({ fs: new JournalledMemoryFS(journal), loadDataDir });
 */
export class JournalledMemoryFS extends MemoryFS {
  constructor(readonly journal: Journal) {
    super();
  }

  override async initialSyncFs(): Promise<void> {
    await super.initialSyncFs();
    const pg = this.pg as unknown as { mod?: PgModule; Module?: PgModule } | undefined;
    const mod = pg?.mod ?? pg?.Module;
    if (!mod) throw new Error('PGlite has no module to journal');
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
