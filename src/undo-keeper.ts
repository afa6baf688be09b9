/**
 * The undo keeper (UNDO-1..UNDO-4, on demand: `on-demand.ts`): the log rows own the undo steps of
 * their calls. It keeps each step's before-state in memory only, within one byte budget across the
 * page's tools (64 MB; the oldest dropped first, its row then `dropped`), and runs a step only when
 * the user asks from the row ({@link UndoKeeper.undo}). Later changes of the same target go first,
 * newest first, after the user confirmed them in the page's one dialog — verified where that
 * applies, as a destructive call is (UV-17). An undo's own row keeps the step its undo handed, so
 * it can be undone in turn. No operation reaches it:
 * the keeper is not in any model context, and a call's definition never sees it.
 * @module
 */
import type { Clock } from './clock.js';
import type { ConfirmationQueue } from './confirmation-queue.js';
import type { ConfirmationContent, UndoStep } from './definition.js';
import type { Receipt } from './consent-proof.js';
import { describeCall } from './log-entry.js';
import type { LogEntry, OperationLogWriter } from './operation-log.js';
import { ErrorCode, describeError, fail, succeed, type OperationResult } from './result.js';

/** UNDO-4: what all kept before-states of a page may hold together. */
export const UNDO_BUDGET_BYTES = 64 * 1024 * 1024;

/** What {@link UndoKeeper.undo} answers. */
export type UndoAnswer =
  /** `undone`: the rows undone, newest first (the asked one last). */
  | { readonly status: 'undone'; readonly undone: readonly number[] }
  /** The user declined the dialog (or it timed out, CONF-8): nothing changed. */
  | { readonly status: 'declined' }
  /** The row has no step to run: none, already undone, or dropped (UNDO-2, UNDO-4), or an undo runs. */
  | { readonly status: 'unavailable'; readonly reason: string }
  /** A step could not put its target back; the rows before it in `undone` were undone. */
  | { readonly status: 'failed'; readonly message: string; readonly undone: readonly number[] };

/** The page's undo keeper. */
export interface UndoKeeper {
  /** The log row `entry` (logged with `undo: 'available'`) owns `step` from now on. */
  keep(entry: LogEntry, step: UndoStep): void;
  /**
   * Undoes the call of row `id` for the user: refuses a row that is not `available`; with later
   * changes of a meeting target (later rows still kept or dropped, or `changedSince()` true) asks
   * the user first; undoes newest first; marks each row `undone`, and logs each undo as the user's
   * own row. Never rejects.
   */
  undo(id: number): Promise<UndoAnswer>;
  /** The bytes the kept before-states hold (UNDO-4). */
  readonly bytes: number;
}

/** What the keeper needs. */
export interface UndoKeeperDeps {
  /** The runtime's log, with its writes: the keeper adds the undo rows and sets a row's undo state. */
  log: OperationLogWriter;
  queue: ConfirmationQueue;
  clock: Clock;
  /**
   * The dialog's title and summary when later changes go too; default {@link describeLaterChanges}
   * (Japanese). `<ai-ops-confirm>` words them from its strings instead (the request's `undo`);
   * this content is for other dialogs. `edited`: a target changed outside the log.
   */
  describe?: (entry: LogEntry, later: readonly LogEntry[], edited: boolean) => ConfirmationContent;
  /** Default {@link UNDO_BUDGET_BYTES}. */
  budgetBytes?: number;
}

/** A row's step, or its targets alone once its before-state was dropped. */
interface Kept {
  readonly targets: readonly string[];
  step: UndoStep | null;
}


/**
 * The dialog's default words (Japanese, as the rest of the dialog). The list names each later row
 * by its operation and time, and the user's own edit when there was one.
 */
export function describeLaterChanges(entry: LogEntry, later: readonly LogEntry[], edited: boolean): ConfirmationContent {
  const rows = later.map((e) => `${e.name} (${new Date(e.time).toLocaleTimeString('ja-JP')})`);
  if (edited) rows.push('記録にない変更 (ページでの編集)');
  return {
    title: `${entry.name} を元に戻す`,
    summary: `あとの変更も元に戻ります: ${rows.join('、')}`,
    actionLabel: '元に戻す',
  };
}

/** True when the value a step's `undo()` resolved to says it failed (a failure envelope). */
const failedEnvelope = (value: unknown): value is { ok: false; error: { message?: unknown } } =>
  typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;

/** True for a value shaped like a step (targets, bytes, undo). */
const isStep = (value: unknown): value is UndoStep => {
  const step = value as Partial<UndoStep> | null;
  return typeof step === 'object' && step !== null && Array.isArray(step.targets) && typeof step.bytes === 'number' && typeof step.undo === 'function';
};

/**
 * What a step's `undo()` resolved to, read (UV-17): a failure envelope, or `{ result, undo }` as
 * `execute` answers, whose `undo` puts back what the undo took away, so the undo's own row can be
 * undone in turn; anything else is a plain success with no step.
 */
function undoOutcome(value: unknown): { failed: string | null; step: UndoStep | null } {
  if (failedEnvelope(value)) return { failed: String(value.error?.message ?? 'the tool said it failed'), step: null };
  const outcome = value as { result?: unknown; undo?: unknown } | null;
  if (typeof outcome === 'object' && outcome !== null && 'result' in outcome) {
    if (failedEnvelope(outcome.result)) return { failed: String(outcome.result.error?.message ?? 'the tool said it failed'), step: null };
    return { failed: null, step: isStep(outcome.undo) ? outcome.undo : null };
  }
  return { failed: null, step: null };
}

/**
 * Creates the keeper of one runtime.
 * @example
 * const keeper = createUndoKeeper({ log, queue, clock });
 * const entry = log.add(describeCall({ ...call, undo: 'available' }));
 * keeper.keep(entry, step);
 * await keeper.undo(entry.id); // { status: 'undone', undone: [entry.id] }
 */
export function createUndoKeeper(deps: UndoKeeperDeps): UndoKeeper {
  const { queue, clock, budgetBytes = UNDO_BUDGET_BYTES, describe = describeLaterChanges } = deps;
  const { log } = deps;
  const { reader } = log;
  // By row id, oldest first (Map keeps insertion order, and ids grow).
  const kept = new Map<number, Kept>();
  let bytes = 0;
  let running = false;

  const entryOf = (id: number) => reader.getState().entries.find((e) => e.id === id);
  const release = (id: number) => {
    const record = kept.get(id);
    if (record?.step) bytes -= record.step.bytes;
    kept.delete(id);
  };
  const drop = (id: number) => {
    const record = kept.get(id);
    if (!record?.step) return;
    bytes -= record.step.bytes;
    record.step = null;
    log.setUndo(id, 'dropped');
  };

  // A row that left the log (past its 200 rows, LOG-7) lets its before-state go with it.
  reader.subscribe(() => {
    if (!kept.size) return;
    const logged = new Set(reader.getState().entries.map((e) => e.id));
    for (const id of [...kept.keys()]) if (!logged.has(id)) release(id);
  });

  /**
   * The rows after `id` whose targets meet its targets, or meet those of a row already found (its
   * undo puts back their targets too), oldest first; the undone rows (their change is gone) left out.
   */
  const laterRows = (id: number) => {
    const targets = new Set(kept.get(id)!.targets);
    const found: number[] = [];
    for (const [later, record] of kept) {
      if (later <= id || !record.targets.some((t) => targets.has(t))) continue;
      found.push(later);
      for (const t of record.targets) targets.add(t);
    }
    return found;
  };

  /** UNDO-2: whether a target changed outside the log since its newest kept step. */
  const editedSince = async (ids: readonly number[]) => {
    const newest = new Map<string, UndoStep>();
    for (const id of ids) {
      const step = kept.get(id)?.step;
      if (step) for (const t of step.targets) newest.set(t, step);
    }
    for (const step of new Set(newest.values())) {
      try {
        if (step.changedSince && (await step.changedSince())) return true;
      } catch {
        // A target that cannot say is treated as changed: the user is asked rather than surprised.
        return true;
      }
    }
    return false;
  };

  /**
   * Runs one row's step and logs it as the user's own row, with the receipt of its verified
   * approval where it had one (UV-17); the envelope says whether it put its target back. The undo's
   * own step, when the tool hands one, is kept on the new row: the undo can itself be undone.
   */
  const undoOne = async (entry: LogEntry, step: UndoStep, receipt?: Receipt): Promise<OperationResult> => {
    const started = clock.now();
    let result: OperationResult;
    let again: UndoStep | null = null;
    try {
      const { failed, step: reverse } = undoOutcome(await step.undo());
      result = failed === null ? succeed({ undone: entry.id }) : fail(ErrorCode.failed, `could not undo: ${failed}`);
      again = reverse;
    } catch (error) {
      result = fail(ErrorCode.failed, `could not undo: ${describeError(error)}`);
    }
    if (result.ok) {
      release(entry.id);
      log.setUndo(entry.id, 'undone');
    }
    const time = clock.now();
    const row = log.add(describeCall({
      time, tool: entry.tool, name: entry.name, args: { undo: entry.id }, result, via: 'user', by: 'user', durationMs: time - started,
      undo: result.ok && again ? 'available' : null, ...(receipt ? { receipt } : {}),
    }));
    if (result.ok && again) keeper.keep(row, again);
    return result;
  };

  const undoNow = async (id: number): Promise<UndoAnswer> => {
    let shown: string | null = null;
    for (;;) {
      const entry = entryOf(id);
      if (!entry || entry.undo !== 'available' || !kept.get(id)?.step) {
        return { status: 'unavailable', reason: `row ${id} has nothing to undo (${entry?.undo ?? 'not in the log'})` };
      }
      const later = laterRows(id);
      const order = [...later].reverse();
      const edited = await editedSince([id, ...later]);
      const key = `${later.join(',')}|${edited}`;
      // Asked, and nothing new since the user answered: undo. A row logged while the dialog was up
      // asks again, with it listed.
      let done: (() => void) | null = null;
      let receipt: Receipt | undefined;
      if ((later.length || edited) && shown !== key) {
        const laterEntries = later.map(entryOf).filter((e): e is LogEntry => !!e);
        // UV-17: this undo takes back more than its row's own change (later rows, the user's own
        // edits), so the queue has it verified where UV-2 applies; the receipt binds this input,
        // which is the undo row's arguments, so the row's exported line checks as a call's does.
        const answer = await queue.request({
          tool: entry.tool, name: entry.name, content: describe(entry, laterEntries, edited), by: 'user',
          undo: { later: laterEntries.map((e) => ({ name: e.name, time: e.time })), edited }, input: { undo: entry.id },
        });
        if (!answer) return { status: 'declined' };
        shown = key;
        done = answer.done;
        receipt = answer.receipt;
        // The rows may have changed while the dialog was up: look again before anything runs.
        const again = laterRows(id);
        const editedAgain = await editedSince([id, ...again]);
        if (`${again.join(',')}|${editedAgain}` !== key || entryOf(id)?.undo !== 'available') {
          done();
          continue;
        }
      }
      try {
        const undone: number[] = [];
        for (const rowId of [...order, id]) {
          const row = entryOf(rowId);
          const step = kept.get(rowId)?.step;
          // A later row dropped by the budget: its change goes with this undo; its row says dropped.
          if (!row || !step) continue;
          // The receipt binds the asked row's undo ({ undo: id }): it goes on that row alone.
          const result = await undoOne(row, step, rowId === id ? receipt : undefined);
          if (!result.ok) return { status: 'failed', message: result.error.message, undone };
          undone.push(rowId);
        }
        return { status: 'undone', undone };
      } finally {
        done?.();
      }
    }
  };

  const keeper: UndoKeeper = {
    keep(entry, step) {
      kept.set(entry.id, { targets: [...step.targets], step });
      bytes += step.bytes;
      // A step larger than the whole budget goes itself, and the others stay.
      if (step.bytes > budgetBytes) return drop(entry.id);
      // UNDO-4: the oldest first, until the kept ones fit.
      for (const [id, record] of kept) {
        if (bytes <= budgetBytes) break;
        if (record.step) drop(id);
      }
    },
    async undo(id) {
      if (running) return { status: 'unavailable', reason: 'another undo is running' };
      running = true;
      try {
        return await undoNow(id);
      } finally {
        running = false;
      }
    },
    get bytes() {
      return bytes;
    },
  };
  return keeper;
}
