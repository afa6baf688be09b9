/**
 * The operation log (LOG-7, REG-5): memory only, at most 200 entries, oldest dropped; never written
 * to localStorage or IndexedDB, because arguments and results hold file contents.
 * @module
 */
import { createStore, type ReadableStore } from './store.js';
import type { OperationResult } from './result.js';

/** How many entries the log keeps (LOG-7). */
export const LOG_LIMIT = 200;

/** The badge of a row (LOG-3): 成功 when ok, 中止 for declined, 失敗 for any other code. */
export type LogStatus = 'success' | 'declined' | 'failure';

/** One settled call. */
export interface LogEntry {
  readonly id: number;
  /** Epoch ms when the result settled. */
  readonly time: number;
  readonly tool: string;
  readonly name: string;
  /** The arguments as the caller passed them. */
  readonly args: unknown;
  /** The result envelope. */
  readonly result: OperationResult;
  /** The result as the caller received it. */
  readonly resultJson: string;
  readonly status: LogStatus;
}

/** The log store. */
export interface OperationLog extends ReadableStore<{ readonly entries: readonly LogEntry[] }> {
  /** Adds one settled call at the end (LOG-5). */
  add(entry: Omit<LogEntry, 'id' | 'status'>): LogEntry;
  clear(): void;
}

/** The status a result shows as (LOG-3). */
export function statusOf(result: OperationResult): LogStatus {
  if (result.ok) return 'success';
  return result.error.code === 'declined' ? 'declined' : 'failure';
}

/**
 * Creates a log.
 * @example
 * const log = createOperationLog();
 * log.subscribe(() => render(log.getState().entries));
 */
export function createOperationLog(options: { limit?: number } = {}): OperationLog {
  const { limit = LOG_LIMIT } = options;
  const store = createStore<{ readonly entries: readonly LogEntry[] }>({ entries: [] });
  let nextId = 1;
  return {
    getState: store.getState,
    getSnapshot: store.getSnapshot,
    subscribe: store.subscribe,
    add(fields) {
      const entry: LogEntry = { ...fields, id: nextId++, status: statusOf(fields.result) };
      const entries = [...store.getState().entries, entry];
      store.setState({ entries: entries.length > limit ? entries.slice(entries.length - limit) : entries });
      return entry;
    },
    clear() {
      store.setState({ entries: [] });
    },
  };
}
