// Fakes that isolate the runtime's units; the real polyfill and relay are exercised in
// test/runtime/real-polyfill.test.ts and the end-to-end suite.
import type { Clock } from '../../src/clock.js';
import type { ScriptLoader } from '../../src/script-loader.js';
import type { ModelContextLike, ModelContextTool } from '../../src/model-context.js';
import type { PageDecisions } from '../../src/capabilities.js';
import type { AiOps } from '../../src/runtime.js';
import type { ReadableStore } from '../../src/store.js';
import type { ToolSessionState } from '../../src/tool-session.js';

/** The user's decisions as the dialog makes them (`aiOps.capabilities`, loaded once a request exists). */
export function decide(aiOps: AiOps): PageDecisions {
  const capabilities = aiOps.capabilities.getState();
  if (!capabilities) throw new Error('the on-demand part has not loaded: no request to decide');
  return capabilities.decide;
}

/** A clock that only moves when told to. */
export class FakeClock implements Clock {
  time: number;
  private timers = new Map<number, { at: number; callback: () => void }>();
  private nextId = 1;
  constructor(start = Date.UTC(2026, 10, 29, 12, 0, 0)) {
    this.time = start;
  }
  now = () => this.time;
  setTimeout = (callback: () => void, ms: number) => {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + Math.max(0, ms), callback });
    return id;
  };
  clearTimeout = (handle: unknown) => {
    this.timers.delete(handle as number);
  };
  /** Moves time forward, firing due timers in order. */
  advance(ms: number) {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = Math.max(this.time, due[1].at);
      due[1].callback();
    }
    this.time = end;
  }
  get pending() {
    return this.timers.size;
  }
}

/** An in-memory Storage. */
export class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.has(key) ? this.map.get(key)! : null;
  }
  key(index: number) {
    return [...this.map.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, String(value));
  }
}

/** A storage whose every access throws, as in a blocked-storage browser profile. */
export class BrokenStorage extends MemoryStorage {
  override getItem(): string | null {
    throw new DOMException('blocked', 'SecurityError');
  }
  override setItem(): void {
    throw new DOMException('quota', 'QuotaExceededError');
  }
  override removeItem(): void {
    throw new DOMException('blocked', 'SecurityError');
  }
}

/** A modelContext that records registrations and honours AbortSignals like the polyfill. */
export class FakeModelContext implements ModelContextLike {
  tools = new Map<string, ModelContextTool>();
  refuse: string | null = null;
  async registerTool(tool: ModelContextTool, options: { signal?: AbortSignal } = {}) {
    if (this.refuse) throw new DOMException(this.refuse, 'NotAllowedError');
    if (options.signal?.aborted) throw new DOMException('aborted', 'AbortError');
    if (this.tools.has(tool.name)) throw new DOMException(`duplicate ${tool.name}`, 'InvalidStateError');
    this.tools.set(tool.name, tool);
    options.signal?.addEventListener('abort', () => this.tools.delete(tool.name), { once: true });
  }
  async execute(name: string, args: unknown) {
    const tool = this.tools.get(name);
    if (!tool) throw new Error(`Tool not found: ${name}`);
    return tool.execute(args);
  }
}

/**
 * A script loader that installs a FakeModelContext instead of fetching anything. It plays the
 * polyfill, so a runtime built on it passes `browserModelContext: null`: in a browser with its own
 * WebMCP too (WEBMCP=1) the tools then go to the FakeModelContext, not to the browser's.
 */
export class FakeLoader implements ScriptLoader {
  loaded: string[] = [];
  attributes: Record<string, string>[] = [];
  fail: RegExp | null = null;
  constructor(readonly modelContext = new FakeModelContext(), readonly doc: Document = document) {}
  async load(src: string, attributes: Record<string, string> = {}) {
    if (this.fail?.test(src)) throw new Error(`could not load ${src}`);
    this.loaded.push(src);
    this.attributes.push(attributes);
    // defineProperty: where the browser has its own WebMCP, document.modelContext is a read-only accessor.
    Object.defineProperty(this.doc, 'modelContext', { value: this.modelContext, configurable: true, writable: true });
    return this.doc.createElement('script');
  }
}

/** Resolves after pending promise callbacks ran. */
export const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Resolves once a store's state passes `test`: at once when it does now, else at the store's own
 * update that makes it so (a wait on the store, no polling; a test that never gets there times out).
 */
export function storeReaches<T>(store: Pick<ReadableStore<T>, 'getState' | 'subscribe'>, test: (state: T) => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (test(store.getState())) return resolve();
    const unsubscribe = store.subscribe(() => {
      if (!test(store.getState())) return;
      unsubscribe();
      resolve();
    });
  });
}

/** {@link storeReaches} for a tool session. */
export const sessionReaches = (session: ReadableStore<ToolSessionState>, test: (state: ToolSessionState) => boolean) => storeReaches(session, test);

/** Resolves once a start under way has ended, on or off (at once when none is). */
export const startEnded = (session: ReadableStore<ToolSessionState>) => sessionReaches(session, (s) => s.status !== 'starting');

/**
 * A consent store (UV-8) whose records a test can read and plant: the memory store's behaviour
 * (values copied in and out, never rejecting), with the map in sight.
 */
export class MemoryConsentStore {
  readonly values = new Map<string, unknown>();
  get = async (key: string): Promise<unknown> => (this.values.has(key) ? structuredClone(this.values.get(key)) : undefined);
  set = async (key: string, value: unknown): Promise<void> => void this.values.set(key, structuredClone(value));
  delete = async (key: string): Promise<void> => void this.values.delete(key);
}

/** What the page's IndexedDB consent database (`ai-ops-consent`, store `records`) holds, read with the raw API; {} when it does not exist. */
export async function readConsentDatabase(): Promise<Record<string, unknown>> {
  const databases = await indexedDB.databases();
  if (!databases.some((d) => d.name === 'ai-ops-consent')) return {};
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('ai-ops-consent');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    if (!db.objectStoreNames.contains('records')) return {};
    const store = db.transaction('records', 'readonly').objectStore('records');
    const [keys, values] = await Promise.all([store.getAllKeys(), store.getAll()].map((request) => new Promise<unknown[]>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result as unknown[]);
      request.onerror = () => reject(request.error);
    })));
    return Object.fromEntries(keys.map((key, i) => [String(key), values[i]]));
  } finally {
    db.close();
  }
}

/** Deletes the page's IndexedDB consent database (as clearing site data, or CDP's IndexedDB domain, can); open connections are closed by their versionchange handler. */
export function deleteConsentDatabase(): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase('ai-ops-consent');
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
    // Blocked: a connection that did not close; the deletion completes once it does.
    request.onblocked = () => {};
  });
}
