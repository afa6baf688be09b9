/**
 * The Go page's files module: the project's files and directories (empty directories kept), held
 * in memory and saved in IndexedDB per embed id. The editor, the file tree, the Run/Test buttons
 * and the AI operations all read and write this one module (GO-2), so a change from any of them
 * shows everywhere and is saved the same way.
 * @module
 */
import { createStore, type ReadableStore } from 'ai-ops';
import { resolveRelativePath } from 'ai-ops/tools';
import { openRecordStore } from '../shared/idb.js';

/** A file or directory of the project. Paths are relative to the root, `/`-separated, no trailing `/`. */
export interface GoProjectEntry {
  readonly path: string;
  readonly kind: 'file' | 'directory';
}

/** What is saved per project. */
export interface StoredGoProject {
  /** The embed id (`?id=`). */
  readonly id: string;
  readonly entries: readonly StoredEntry[];
  /** Epoch ms of the last save. */
  readonly savedAt: number;
}

/** A saved entry; directories carry no contents. */
export type StoredEntry = { readonly path: string; readonly kind: 'file'; readonly contents: string } | { readonly path: string; readonly kind: 'directory' };

/** Where projects are kept. The page uses {@link createIndexedDbProjectStorage}; tests may pass a map. */
export interface GoProjectStorage {
  /** The saved project, or null on a first visit. */
  load(id: string): Promise<StoredGoProject | null>;
  save(project: StoredGoProject): Promise<void>;
}

/** The state the UI renders: whether loading finished and the sorted entries. */
export interface GoFilesState {
  readonly status: 'loading' | 'loaded';
  /** Set when the saved project could not be read or saved (the page then works in memory). */
  readonly storageError: string | null;
  readonly entries: readonly GoProjectEntry[];
  /** Increases on every change of any file's contents or of the tree. */
  readonly version: number;
  /** The path changed last, with who changed it. */
  readonly lastChange: { readonly path: string; readonly kind: 'write' | 'remove' | 'mkdir' } | null;
}

/** The files module. */
export interface GoFiles extends ReadableStore<GoFilesState> {
  /** Reads the saved project (or creates the sample one). Idempotent. */
  load(): Promise<void>;
  /** True once {@link load} finished (GO-1). */
  isLoaded(): boolean;
  /** Every file and directory, sorted by path. */
  list(): readonly GoProjectEntry[];
  /** A file's contents; null for a directory or a missing path. */
  read(path: string): string | null;
  /** Writes a file, creating missing parent directories; resolves once saved. */
  write(path: string, contents: string): Promise<void>;
  /** Creates a directory and its missing parents; resolves once saved. */
  mkdir(path: string): Promise<void>;
  /** Removes a file (a directory or a missing path is left alone); resolves once saved. */
  remove(path: string): Promise<void>;
  /** Removes a directory and everything under it (the user's delete). */
  removeDirectory(path: string): Promise<void>;
  /** A copy of the files for the engine: path → contents, and `dir/` → '' for every directory. */
  snapshot(): Record<string, string>;
  /** Saves a pending change now (e.g. when the page is hidden). */
  flush(): Promise<void>;
}

/** The project a first visit starts with: a module, a main package and a tested package. */
export const SAMPLE_PROJECT: readonly StoredEntry[] = Object.freeze([
  { path: 'go.mod', kind: 'file', contents: 'module example.com/hello\n\ngo 1.19\n' },
  {
    path: 'main.go',
    kind: 'file',
    contents:
      'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/hello/greet"\n)\n\nfunc main() {\n\tfmt.Println(greet.Hello("world"))\n}\n',
  },
  { path: 'greet', kind: 'directory' },
  {
    path: 'greet/greet.go',
    kind: 'file',
    contents: '// Package greet makes greetings.\npackage greet\n\n// Hello greets name.\nfunc Hello(name string) string {\n\treturn "hello, " + name\n}\n',
  },
  {
    path: 'greet/greet_test.go',
    kind: 'file',
    contents:
      'package greet\n\nimport "testing"\n\nfunc TestHello(t *testing.T) {\n\tif got := Hello("gopher"); got != "hello, gopher" {\n\t\tt.Errorf("Hello(\\"gopher\\") = %q", got)\n\t}\n}\n',
  },
] satisfies StoredEntry[]);

/** Options of {@link createGoFiles}. */
export interface GoFilesOptions {
  /** The embed id the project is saved under. */
  projectId: string;
  storage: GoProjectStorage;
  /** The entries of a first visit. */
  sample?: readonly StoredEntry[];
  /** Milliseconds to wait for more changes before saving (typing saves once per pause). */
  saveDelayMs?: number;
  now?: () => number;
}

type Node = { kind: 'file'; contents: string } | { kind: 'directory' };

/** Normalises a project path; throws on an absolute path or one that leaves the root. */
export function normalizePath(path: string): string {
  const resolved = resolveRelativePath(path);
  if (!resolved.ok) throw new Error(resolved.error.message);
  if (resolved.path === '') throw new Error('the path names the project root');
  return resolved.path;
}

/**
 * Creates the files module.
 * @example
 * const files = createGoFiles({ projectId: 'demo', storage: createIndexedDbProjectStorage() });
 * await files.load();
 * await files.write('cmd/tool/main.go', 'package main\n');
 */
export function createGoFiles(options: GoFilesOptions): GoFiles {
  const { projectId, storage, sample = SAMPLE_PROJECT, saveDelayMs = 150, now = Date.now } = options;
  const nodes = new Map<string, Node>();
  const store = createStore<GoFilesState>({ status: 'loading', storageError: null, entries: [], version: 0, lastChange: null });
  let loading: Promise<void> | null = null;
  let loaded = false;

  // Saving: one save at a time; changes made meanwhile are saved by the next one.
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  let pending: { promise: Promise<void>; resolve: () => void } | null = null;
  let saving: Promise<void> = Promise.resolve();
  let storageBroken = false;

  const sortedEntries = (): GoProjectEntry[] =>
    [...nodes.entries()]
      .map(([path, node]) => ({ path, kind: node.kind }))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const publish = (lastChange: GoFilesState['lastChange']) => {
    const state = store.getState();
    store.setState({ ...state, entries: sortedEntries(), version: state.version + 1, lastChange });
  };

  const record = (): StoredGoProject => ({
    id: projectId,
    savedAt: now(),
    entries: [...nodes.entries()].map(([path, node]) => (node.kind === 'file' ? { path, kind: 'file' as const, contents: node.contents } : { path, kind: 'directory' as const })),
  });

  const saveNow = (): Promise<void> => {
    clearTimeout(saveTimer);
    saveTimer = undefined;
    const batch = pending;
    pending = null;
    if (!batch) return saving;
    saving = saving
      .then(() => (storageBroken ? undefined : storage.save(record())))
      .catch((error: unknown) => {
        storageBroken = true;
        store.setState({ ...store.getState(), storageError: `保存できませんでした: ${error instanceof Error ? error.message : String(error)}` });
      })
      .finally(batch.resolve);
    return batch.promise;
  };

  const scheduleSave = (): Promise<void> => {
    if (!pending) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      pending = { promise, resolve };
    }
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => void saveNow(), saveDelayMs);
    return pending.promise;
  };

  const requireLoaded = () => {
    if (!loaded) throw new Error('the project is not loaded yet');
  };

  const addDirectories = (path: string) => {
    const segments = path.split('/');
    for (let i = 1; i <= segments.length; i++) {
      const dir = segments.slice(0, i).join('/');
      const node = nodes.get(dir);
      if (node?.kind === 'file') throw new Error(`a file stands where a directory is needed: ${dir}`);
      if (!node) nodes.set(dir, { kind: 'directory' });
    }
  };

  const parentOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

  return {
    getState: store.getState,
    getSnapshot: store.getSnapshot,
    subscribe: store.subscribe,

    load() {
      loading ??= (async () => {
        let project: StoredGoProject | null = null;
        let storageError: string | null = null;
        try {
          project = await storage.load(projectId);
        } catch (error) {
          // Without storage the page still works for this visit, in memory (the notice says so).
          storageBroken = true;
          storageError = `保存したファイルを読めませんでした: ${error instanceof Error ? error.message : String(error)}`;
        }
        const entries = project?.entries ?? sample;
        for (const entry of entries) {
          const path = normalizePath(entry.path);
          if (entry.kind === 'directory') nodes.set(path, { kind: 'directory' });
          else nodes.set(path, { kind: 'file', contents: entry.contents });
        }
        // Ancestors a saved record left implicit.
        for (const path of [...nodes.keys()]) {
          const parent = parentOf(path);
          if (parent) addDirectories(parent);
        }
        loaded = true;
        store.setState({ status: 'loaded', storageError, entries: sortedEntries(), version: store.getState().version + 1, lastChange: null });
        if (!project && !storageBroken) {
          // First visit: save the sample so a reload finds the same project.
          await scheduleSave();
        }
      })();
      return loading;
    },

    isLoaded: () => loaded,
    list: () => store.getState().entries,

    read(path) {
      const node = nodes.get(path);
      return node?.kind === 'file' ? node.contents : null;
    },

    write(path, contents) {
      requireLoaded();
      const normal = normalizePath(path);
      const existing = nodes.get(normal);
      if (existing?.kind === 'directory') throw new Error(`is a directory: ${normal}`);
      const parent = parentOf(normal);
      if (parent) addDirectories(parent);
      if (existing?.kind === 'file' && existing.contents === contents) return saving;
      nodes.set(normal, { kind: 'file', contents });
      publish({ path: normal, kind: 'write' });
      return scheduleSave();
    },

    mkdir(path) {
      requireLoaded();
      const normal = normalizePath(path);
      if (nodes.get(normal)?.kind === 'directory') return saving;
      addDirectories(normal);
      publish({ path: normal, kind: 'mkdir' });
      return scheduleSave();
    },

    remove(path) {
      requireLoaded();
      const normal = normalizePath(path);
      if (nodes.get(normal)?.kind !== 'file') return saving;
      // The parent directory stays, even when it is now empty (GO-2).
      nodes.delete(normal);
      publish({ path: normal, kind: 'remove' });
      return scheduleSave();
    },

    removeDirectory(path) {
      requireLoaded();
      const normal = normalizePath(path);
      if (nodes.get(normal)?.kind !== 'directory') return saving;
      for (const key of [...nodes.keys()]) if (key === normal || key.startsWith(`${normal}/`)) nodes.delete(key);
      publish({ path: normal, kind: 'remove' });
      return scheduleSave();
    },

    snapshot() {
      const out: Record<string, string> = {};
      for (const [path, node] of nodes) {
        if (node.kind === 'file') out[path] = node.contents;
        else out[`${path}/`] = '';
      }
      return out;
    },

    flush: () => saveNow(),
  };
}

/**
 * Projects in IndexedDB through the playground's one helper (shared/idb.ts): database
 * `ai-ops-go`, object store `projects`, keyed by embed id — the names the page always used.
 * Without IndexedDB both reject, so the page says it keeps the files for this visit only.
 * @example const storage = createIndexedDbProjectStorage();
 */
export function createIndexedDbProjectStorage(dbName = 'ai-ops-go', factory: IDBFactory = indexedDB): GoProjectStorage {
  const projects = openRecordStore<StoredGoProject>(dbName, { storeName: 'projects', factory });
  const persistent = () => {
    if (!projects.persistent) throw new Error('IndexedDB を開けません');
  };
  return {
    load: async (id) => {
      const project = await projects.get(id);
      persistent();
      return project ?? null;
    },
    save: async (project) => {
      await projects.put(project);
      persistent();
    },
  };
}
