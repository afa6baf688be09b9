// In-memory stand-ins for the six tools' engines, behaving like the real ones where the operations
// can tell: the node runtime's tree/read/write/remove codes and streaming processes, run through
// the page's own run race (`runToEnd` of playground/node/engine/node-runtime.ts), the Go page's files
// module and run function, the SQL page's
// engine states and run results (playground/sql/engine/sql-engine.ts), and the open documents of
// slides, excalidraw and drawio.
import type {
  NodeChangeResult, NodeReadResult, NodeRunOutcome, NodeRunRequest, NodeRuntimeLike, NodeToolAdapter, NodeTreeEntry,
} from '../../tools/node/adapter.js';
import type { SqlEngineStatus, SqlRunOutcome, SqlRunRequest, SqlToolAdapter } from '../../tools/sql/adapter.js';
import type { GoFileEntry, GoFilesModule, GoRunMode, GoRunOutcome, GoRunRequest, GoRunnerStatus, GoToolAdapter } from '../../tools/go/adapter.js';
import type { Clock } from '../../src/clock.js';
import { runToEnd, type RunnableProcess } from '../../playground/node/engine/node-runtime.js';
import type { SlidesToolAdapter } from '../../tools/slides/adapter.js';
import type { ElementPatch, ElementToAdd, ExcalidrawElementLike, ExcalidrawToolAdapter } from '../../tools/excalidraw/adapter.js';
import type { DrawioToolAdapter } from '../../tools/drawio/adapter.js';
import type { OpenDocument } from '../../tools/shared.js';
import { MAX_TEXT_BYTES, utf8ByteLength } from '../../src/limits.js';

const parentsOf = (path: string): string[] => {
  const segments = path.split('/');
  return segments.slice(1).map((_, i) => segments.slice(0, i + 1).join('/'));
};

// ---------------------------------------------------------------------------------------------
// node

/** A process whose behaviour the test scripts: it writes, exits, or hangs until killed. */
export class FakeProcess implements RunnableProcess {
  private text = '';
  private listeners = new Set<(chunk: string) => void>();
  private settle!: (code: number) => void;
  killed = false;
  readonly exit: Promise<number>;
  readonly output = {
    subscribe: (listener: (chunk: string) => void) => {
      // Like the runtime's `replay`: what was written before subscribing comes first.
      if (this.text) listener(this.text);
      this.listeners.add(listener);
      return () => {
        this.listeners.delete(listener);
      };
    },
    getText: () => this.text,
    truncated: false,
  };
  constructor(readonly command: string, readonly args: readonly string[], readonly name: string) {
    this.exit = new Promise((resolve) => {
      this.settle = resolve;
    });
  }
  write(chunk: string) {
    this.text += chunk;
    for (const listener of [...this.listeners]) listener(chunk);
  }
  end(code: number) {
    this.settle(code);
  }
  kill() {
    this.killed = true;
    this.write('\r\n[killed]\r\n');
    this.settle(137);
    return Promise.resolve();
  }
}

/** What a fake command does once started. */
export type FakeProgram = (process: FakeProcess) => void;

/** An in-memory node runtime with the runtime client's result codes. */
export class FakeNodeRuntime implements NodeRuntimeLike {
  readonly fileMap = new Map<string, string>();
  readonly dirs = new Set<string>();
  readonly started: FakeProcess[] = [];
  readonly programs = new Map<string, FakeProgram>();
  readonly excludes = { patterns: ['node_modules/', '.git/', '*.log'] as readonly string[] };
  /** The clock of the run race (timeoutMs, the bounded wait for a kill); fires at once by default. */
  clock: Clock = createImmediateClock();
  /** What `run` was asked for, in order. */
  readonly runs: { command: string; args: readonly string[]; name: string; timeoutMs: number }[] = [];
  refreshes = 0;
  private treeState: readonly (NodeTreeEntry & { excluded: boolean })[] = [];
  private treeListeners = new Set<() => void>();

  readonly files = {
    tree: {
      getState: () => this.treeState,
      subscribe: (listener: () => void) => {
        this.treeListeners.add(listener);
        return () => {
          this.treeListeners.delete(listener);
        };
      },
      refresh: async () => {
        this.refreshes += 1;
        this.rebuildTree();
      },
      /** Set to tell the operations that the runner cut the tree (NODE-8). */
      truncated: false,
    },
    read: async (path: string): Promise<NodeReadResult> => {
      if (this.dirs.has(path)) return { ok: false, code: 'is_directory', message: `is a directory: ${path}` };
      const contents = this.fileMap.get(path);
      if (contents === undefined) return { ok: false, code: 'not_found', message: `no such file: ${path}` };
      if (utf8ByteLength(contents) > MAX_TEXT_BYTES) return { ok: false, code: 'too_large', message: `${path} is over 1 MiB` };
      if (contents.includes('\u0000')) return { ok: false, code: 'not_text', message: `${path} is not UTF-8 text` };
      return { ok: true, contents };
    },
    write: async (path: string, contents: string): Promise<NodeChangeResult> => {
      if (this.dirs.has(path)) return { ok: false, code: 'is_directory', message: `is a directory: ${path}` };
      if (parentsOf(path).some((p) => this.fileMap.has(p))) return { ok: false, code: 'invalid_path', message: `a parent of ${path} is a file` };
      this.put(path, contents);
      return { ok: true };
    },
    remove: async (path: string): Promise<NodeChangeResult> => {
      if (this.dirs.has(path)) return { ok: false, code: 'is_directory', message: `is a directory: ${path}` };
      if (!this.fileMap.delete(path)) return { ok: false, code: 'not_found', message: `no such file: ${path}` };
      this.rebuildTree();
      return { ok: true };
    },
  };

  /** Like the runtime's `run`: an aborted signal starts nothing; then the page's run race. */
  run = async (command: string, args: readonly string[], { name, timeoutMs, signal }: NodeRunRequest): Promise<NodeRunOutcome> => {
    this.runs.push({ command, args: [...args], name, timeoutMs });
    if (signal?.aborted) return { kind: 'cancelled', output: '', killConfirmed: true };
    return runToEnd(await this.processes.start(command, args, { name }), { timeoutMs, signal, clock: this.clock });
  };

  /** How the fake starts a process (scripted by `programs`); not part of the adapter. */
  readonly processes = {
    start: async (command: string, args: readonly string[], options: { name: string }) => {
      const proc = new FakeProcess(command, [...args], options.name);
      this.started.push(proc);
      const program = this.programs.get(command);
      if (program) program(proc);
      else {
        proc.write(`${command}: command not found\n`);
        proc.end(127);
      }
      return proc;
    },
  };

  /** The runner cut the tree (NODE-8). */
  set treeTruncated(value: boolean) {
    this.files.tree.truncated = value;
  }

  constructor(files: Record<string, string> = {}, dirs: string[] = []) {
    for (const dir of dirs) this.addDir(dir);
    for (const [path, contents] of Object.entries(files)) this.put(path, contents, false);
    this.rebuildTree();
  }

  addDir(path: string) {
    for (const p of [...parentsOf(path), path]) this.dirs.add(p);
  }

  /** Writes a file; with `refresh` false the tree store is not told (a stale tree). */
  put(path: string, contents: string, refresh = true) {
    for (const p of parentsOf(path)) this.dirs.add(p);
    this.fileMap.set(path, contents);
    if (refresh) this.rebuildTree();
  }

  /** Like the runner's listing: excluded directories are listed but not entered. */
  rebuildTree() {
    const all = [
      ...[...this.dirs].map((path) => ({ path, kind: 'directory' as const })),
      ...[...this.fileMap.keys()].map((path) => ({ path, kind: 'file' as const })),
    ];
    const skipped = (path: string) => parentsOf(path).some((p) => /(^|\/)(node_modules|\.git)$/.test(p));
    this.treeState = Object.freeze(
      all
        .filter((entry) => !skipped(entry.path))
        .map((entry) => ({ ...entry, excluded: /(^|\/)(node_modules|\.git)$/.test(entry.path) }))
        .sort((a, b) => (a.path < b.path ? -1 : 1)),
    );
    for (const listener of [...this.treeListeners]) listener();
  }
}

/** The node page's adapter over a swappable runtime instance (null = not booted). */
export function nodeAdapter(initial: NodeRuntimeLike | null): NodeToolAdapter & { runtime: NodeRuntimeLike | null } {
  const holder = {
    runtime: initial,
    getRuntime: () => holder.runtime,
  };
  return holder;
}

// ---------------------------------------------------------------------------------------------
// go

/** The Go page's files module and run function, in memory. */
export class FakeGoPage implements GoToolAdapter {
  readonly fileMap = new Map<string, string>();
  readonly dirs = new Set<string>();
  loaded = true;
  state: GoRunnerStatus = 'idle';
  /** What the next runs answer; the default exits 0 with "ok\n". */
  outcomes: ((mode: GoRunMode, snapshot: Record<string, string>, options: GoRunRequest) => GoRunOutcome | Promise<GoRunOutcome>)[] = [];
  readonly runs: { mode: GoRunMode; timeoutMs: number; snapshot: Record<string, string> }[] = [];

  readonly files: GoFilesModule = {
    isLoaded: () => this.loaded,
    list: (): GoFileEntry[] => [
      ...[...this.dirs].map((path) => ({ path, kind: 'directory' as const })),
      ...[...this.fileMap.keys()].map((path) => ({ path, kind: 'file' as const })),
    ],
    read: (path) => this.fileMap.get(path) ?? null,
    write: async (path, contents) => {
      for (const p of parentsOf(path)) this.dirs.add(p);
      this.fileMap.set(path, contents);
    },
    remove: async (path) => {
      this.fileMap.delete(path);
    },
  };

  constructor(files: Record<string, string> = {}, emptyDirs: string[] = []) {
    for (const dir of emptyDirs) for (const p of [...parentsOf(dir), dir]) this.dirs.add(p);
    for (const [path, contents] of Object.entries(files)) {
      for (const p of parentsOf(path)) this.dirs.add(p);
      this.fileMap.set(path, contents);
    }
  }

  getRunnerState = () => this.state;

  run = async (mode: GoRunMode, options: GoRunRequest): Promise<GoRunOutcome> => {
    if (this.state !== 'idle') return { kind: 'busy' };
    const snapshot = Object.fromEntries(this.fileMap);
    this.runs.push({ mode, timeoutMs: options.timeoutMs, snapshot });
    this.state = 'running';
    try {
      const next = this.outcomes.shift();
      return next ? await next(mode, snapshot, options) : { kind: 'exited', exitCode: 0, output: 'ok\n' };
    } finally {
      this.state = 'idle';
    }
  };
}

// ---------------------------------------------------------------------------------------------
// sql

/** The SQL page's editor and engine, in memory. */
export class FakeSqlPage implements SqlToolAdapter {
  loaded = true;
  editorSql = 'select 1;';
  state: SqlEngineStatus = 'unloaded';
  /** What the next runs answer; the default is one statement with one row. */
  outcomes: ((sql: string, options: SqlRunRequest) => SqlRunOutcome | Promise<SqlRunOutcome>)[] = [];
  loadFails = false;
  readonly runs: { sql: string; timeoutMs: number }[] = [];

  isLoaded = () => this.loaded;
  getEditorSql = () => this.editorSql;
  getEngineState = () => this.state;

  run = async (sql: string, options: SqlRunRequest): Promise<SqlRunOutcome> => {
    if (this.state === 'loading' || this.state === 'running') return { kind: 'busy' };
    this.runs.push({ sql, timeoutMs: options.timeoutMs });
    if (this.state !== 'ready') {
      if (this.loadFails) {
        this.state = 'failed';
        throw new Error('The SQL engine could not fetch pglite.wasm: HTTP 404');
      }
      this.state = 'ready';
    }
    this.state = 'running';
    try {
      const next = this.outcomes.shift();
      return next
        ? await next(sql, options)
        : { kind: 'exited', ended: 'committed', results: [{ fields: [{ name: 'one', dataTypeID: 23 }], rows: [[1]], affectedRows: 0 }], ms: 3 };
    } finally {
      this.state = 'ready';
    }
  };
}

// ---------------------------------------------------------------------------------------------
// slides, excalidraw, drawio

/** The slide editor with one open deck (or none). */
export class FakeSlidesPage implements SlidesToolAdapter {
  document: OpenDocument | null = { id: 'deck-1', name: '週報' };
  markdown = '# 表紙\n\n---\n\n# 2 枚目\n';
  themes = ['default', 'gaia', 'uncover'];
  theme = 'default';
  undoRestoresAgentChanges = true;
  getOpenDocument = () => this.document;
  getMarkdown = () => this.markdown;
  setMarkdown = (markdown: string) => {
    this.markdown = markdown;
  };
  getThemes = () => this.themes;
  getTheme = () => this.theme;
  setTheme = (theme: string) => {
    this.theme = theme;
  };
  // Marp counts slides by its `---` separators.
  getSlideCount = async () => this.markdown.split(/^---$/m).length;
}

/** Excalidraw's scene, in our element model; binds arrows like convertToExcalidrawElements. */
export class FakeExcalidrawPage implements ExcalidrawToolAdapter {
  document: OpenDocument | null = { id: 'drawing-1', name: '構成図' };
  elements: ExcalidrawElementLike[] = [
    { id: 'box', type: 'rectangle', x: 0, y: 0, width: 100, height: 60, text: '箱', strokeColor: '#1e1e1e', backgroundColor: 'transparent' },
    { id: 'pen', type: 'freedraw', x: 5, y: 5, width: 10, height: 10, text: null, strokeColor: '#1e1e1e', backgroundColor: 'transparent' },
  ];
  readonly added: ElementToAdd[][] = [];
  /** Ids the scene holds that `getElements` does not show: bound text labels, deleted elements. */
  hiddenIds: string[] = [];
  getOpenDocument = () => this.document;
  getElements = () => this.elements;
  getTakenIds = () => [...this.elements.map((element) => element.id), ...this.hiddenIds];
  addElements = async (elements: readonly ElementToAdd[]) => {
    // Like the page's scene update: an id already in the scene breaks it.
    const taken = new Set(this.getTakenIds());
    const clash = elements.find((element) => taken.has(element.id));
    if (clash) throw new Error(`Duplicate element id ${clash.id} in the scene`);
    this.added.push([...elements]);
    for (const element of elements) {
      this.elements.push({
        id: element.id,
        type: element.type,
        x: element.x,
        y: element.y,
        width: element.width ?? 100,
        height: element.height ?? 100,
        text: element.text ?? null,
        strokeColor: '#1e1e1e',
        backgroundColor: 'transparent',
        ...(element.type === 'arrow' ? { from: element.from ?? null, to: element.to ?? null } : {}),
      });
    }
  };
  updateElement = async (id: string, patch: ElementPatch) => {
    this.elements = this.elements.map((element) => (element.id === id ? { ...element, ...patch } : element));
  };
  clear = async () => {
    const count = this.elements.length;
    this.elements = [];
    return count;
  };
}

/** A blank draw.io diagram as draw.io writes it: the root cell 0 and the default layer 1. */
export const BLANK_DIAGRAM =
  '<mxfile><diagram id="p1" name="Page-1"><mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>' +
  '<mxCell id="a" value="A" vertex="1" parent="1"><mxGeometry x="10" y="10" width="80" height="40" as="geometry"/></mxCell>' +
  '</root></mxGraphModel></diagram></mxfile>';

/** The draw.io page with one open diagram (or none). */
export class FakeDrawioPage implements DrawioToolAdapter {
  document: OpenDocument | null = { id: 'diagram-1', name: '業務フロー' };
  xml = BLANK_DIAGRAM;
  writes = 0;
  getOpenDocument = () => this.document;
  getXml = () => this.xml;
  setXml = (xml: string) => {
    this.xml = xml;
    this.writes += 1;
  };
}

// ---------------------------------------------------------------------------------------------
// time

/** A clock whose timers fire on the next task, whatever their delay; it records the delays asked for. */
export function createImmediateClock() {
  const delays: number[] = [];
  return {
    delays,
    now: () => Date.now(),
    setTimeout: (callback: () => void, ms: number) => {
      delays.push(ms);
      return globalThis.setTimeout(callback, 0);
    },
    clearTimeout: (handle: unknown) => globalThis.clearTimeout(handle as number),
  };
}

/** A clock whose timers never fire; it records the delays asked for. */
export function createFrozenClock() {
  const delays: number[] = [];
  return { delays, now: () => 0, setTimeout: (_: () => void, ms: number) => delays.push(ms), clearTimeout: () => {} };
}
