/**
 * The page's confirmation queue (CONF-4..CONF-9): one dialog at a time, first in first out, each
 * request declined 50 s after its call arrived unless the user approved it first, or as soon as the
 * call is cancelled.
 * @module
 */
import { at, systemClock, type Clock } from './clock.js';
import type { ConfirmationContent } from './definition.js';
import { createStore, readableStore, type ReadableStore, type WritableStore } from './store.js';
import { unverifiedMessage, type ConsentGate } from './consent-gate.js';
import { canonicalJson, type ConsentDescription, type Receipt } from './consent-proof.js';

/** How long a call waits for the user before it answers `declined` (CONF-8). */
export const CONFIRMATION_DEADLINE_MS = 50_000;

/**
 * How long the user's "no" holds for the same operation with the same input (BATCH-3): asked again
 * within it, the call is declined at once, with no dialog.
 */
export const REFUSAL_MEMORY_MS = 60_000;

/** One call waiting for (or running after) the user's answer. */
export interface ConfirmationRequest {
  readonly id: number;
  readonly tool: string;
  /** The operation name, e.g. `node_delete_file`. */
  readonly name: string;
  readonly content: ConfirmationContent;
  /** Epoch ms of arrival; the deadline is 50 s later. */
  readonly arrivedAt: number;
  /** Epoch ms when it answers `declined` unless approved first (CONF-8): the dialog's list counts down to it (BATCH-1). */
  readonly expiresAt: number;
  /**
   * `waiting` until approved; `verifying` while the platform's user verification of the approval
   * is up (UV-7: やめる still declines); `running` while the approved operation executes (CONF-4).
   */
  readonly status: 'waiting' | 'verifying' | 'running';
  /** `required` when approving needs the platform's user verification (UV-1, UV-2); absent otherwise. */
  readonly verification?: 'required';
  /**
   * `user` when the user asked for it (the log's 「元に戻す」, UNDO-2) rather than an agent's call:
   * the dialog then says so and offers no 「今後尋ねない」. Absent for a call.
   */
  readonly by?: 'user';
  /** For the user's undo: what goes too, so the dialog can word it in its own locale (UNDO-2). */
  readonly undo?: UndoRequestDetail;
}

/** The later changes a user's undo takes back too (UNDO-2). */
export interface UndoRequestDetail {
  /** The later rows, oldest first: operation name and epoch ms. */
  readonly later: readonly { readonly name: string; readonly time: number }[];
  /** True when a target changed outside the log too (the step's `changedSince()`). */
  readonly edited: boolean;
}

/** The queue's state: the request the dialog shows, and those behind it. */
export interface ConfirmationState {
  readonly current: ConfirmationRequest | null;
  readonly queued: readonly ConfirmationRequest[];
}

/** How the user approved one request ({@link ConfirmationQueue.approve}). */
export interface ApproveOptions {
  /** 「このページでは今後尋ねない」 was checked (CONF-5); default false. */
  skipFuture?: boolean;
}

/**
 * The answer a call receives: approved (with the callback that ends `running`, and the approval's
 * receipt where it was verified, UV-5), or null.
 */
export type ConfirmationAnswer = { skipFuture: boolean; done: () => void; receipt?: Receipt; batch?: BatchApproval } | null;


/**
 * A call approved with others by one press of 「すべて承認」 (BATCH-2, BATCH-4): the batch's id, how
 * many it approved, and, where it was verified, this call's own description, whose digest is one of
 * those the batch receipt's challenge binds (so `verifyReceipt` can check the row alone).
 */
export interface BatchApproval {
  readonly id: string;
  readonly size: number;
  readonly call?: ConsentDescription;
}

/** What a caller hands to {@link ConfirmationQueue.request}. */
export interface ConfirmationRequestInit {
  tool: string;
  name: string;
  content: ConfirmationContent;
  /**
   * When the call reached the runtime (epoch ms, the queue's clock); the 50 s run from there, not
   * from queueing, so validation and `prepare` count (SAFE-2). Defaults to now.
   */
  arrivedAt?: number;
  /** The call's cancellation signal: aborting it drops the request and answers null (NAT-2). */
  signal?: AbortSignal;
  /** `user` for the user's own undo (see {@link ConfirmationRequest.by}). */
  by?: 'user';
  /** See {@link ConfirmationRequest.undo}. */
  undo?: UndoRequestDetail;
  /** The call's input: a verified approval is bound to it (UV-3). */
  input?: unknown;
  /**
   * Told, just before the answer null, why a press was not approved: the platform did not verify
   * the user (UV-4, UV-10). The message is for the agent.
   */
  unverified?: (message: string) => void;
}

/** The page-wide queue. */
export interface ConfirmationQueue extends ReadableStore<ConfirmationState> {
  /**
   * Queues a request; resolves when the user answers, the deadline passes, the tool is declined,
   * or `signal` aborts (the request then leaves the queue or the dialog, NAT-2).
   */
  request(request: ConfirmationRequestInit): Promise<ConfirmationAnswer>;
  /**
   * The user pressed the action button: the request runs; the dialog stays (loading) until done.
   * Where the gate says verification applies, the request is `verifying` first and runs only with a
   * receipt; a refused verification declines it, saying why (UV-1, UV-4, UV-10).
   */
  approve(id: number, options?: ApproveOptions): void;
  /** The user pressed やめる, Esc, or the backdrop (CONF-6); it counts as the user's "no" (BATCH-3). */
  decline(id: number): void;
  /** Declines every waiting request of `tool` (SW-3: the switch turned off). */
  declineTool(tool: string): void;
}

/**
 * The queue itself, as the on-demand part holds it (`OnDemandParts.queue`): what the runtime's
 * `confirmations` offers, and the decisions on many calls at once (BATCH-2, BATCH-3). Kept apart so
 * the runtime, which loads with every page, forwards none of them (PKG-4): the dialog reaches them
 * through `aiOps.onDemand()`, which has loaded by the time a request exists.
 */
export interface PageConfirmationQueue extends ConfirmationQueue {
  /**
   * The user pressed 「すべて承認」 over the dialog's call and the list under it (BATCH-2): exactly
   * `ids` (what the dialog showed at the press), less those no longer waiting or past their 50 s.
   * Where any of them needs verification, one verification binds the whole set; a
   * refused one declines them all. The approved calls then run one after another in arrival order,
   * each answered with the batch. Calls not in `ids` keep waiting for their own decision.
   */
  approveAll(ids: readonly number[]): void;
  /** The user pressed 「すべてやめる」 (BATCH-2): declines exactly `ids`, each a "no" of the user's (BATCH-3). */
  declineAll(ids: readonly number[]): void;
  /**
   * Ms left of the user's "no" for `tool`'s `name` with this same input (canonical JSON), or 0 when
   * there was none in the last {@link REFUSAL_MEMORY_MS} (BATCH-3).
   */
  refusal(tool: string, name: string, input: unknown): number;
}

/** Options of {@link createConfirmationQueue}. */
export interface ConfirmationQueueOptions {
  clock?: Clock;
  deadlineMs?: number;
  /** Where the state lives; default a new store. The runtime passes one it exposes before this module loads (PKG-4). */
  store?: WritableStore<ConfirmationState>;
  /** Verified consent (UV-1); without one every approval is the click alone. The user's own undo is never verified. */
  gate?: ConsentGate;
}

/**
 * Creates a confirmation queue. A page has one, shared by its tools, so only one dialog shows.
 * @example
 * const queue = createConfirmationQueue();
 * const answer = await queue.request({ tool: 'go', name: 'go_delete_file', content });
 * if (answer) { try { await run(); } finally { answer.done(); } }
 */
export function createConfirmationQueue(options: ConfirmationQueueOptions = {}): PageConfirmationQueue {
  const { clock = systemClock, deadlineMs = CONFIRMATION_DEADLINE_MS, gate } = options;
  // BATCH-3: when the user last said no to an operation with an input (key: tool, name, canonical input).
  const refused = new Map<string, number>();
  const refusalKey = (tool: string, name: string, input: unknown) => `${tool}\n${name}\n${canonicalJson(input)}`;
  // BATCH-2: when each request first showed in the dialog (as its call or in the list under it).
  const listedAt = new Map<number, number>();
  let batches = 0;
  const store = options.store ?? createStore<ConfirmationState>({ current: null, queued: [] });
  const pending = new Map<number, { resolve: (answer: ConfirmationAnswer) => void; cleanup: () => void; input: unknown; verifying?: AbortController; unverified?: (message: string) => void }>();
  // When each request's dialog opened (it became current): a verified approval binds it (UV-3).
  const openedAt = new Map<number, number>();
  const show = (state: ConfirmationState) => {
    if (state.current && !openedAt.has(state.current.id)) openedAt.set(state.current.id, clock.now());
    if (state.current) for (const r of [state.current, ...state.queued]) if (!listedAt.has(r.id)) listedAt.set(r.id, clock.now());
    store.setState(state);
  };
  let nextId = 1;

  /** Removes `id` from the state, moving the next queued request up when the current one leaves. */
  const remove = (id: number) => {
    const { current, queued } = store.getState();
    if (current?.id === id) {
      // A queued request whose deadline has passed is declined, never shown (CONF-8).
      const rest = [...queued];
      // A request of an approved batch is no longer waiting: it runs when its turn comes (BATCH-2).
      while (rest.length && rest[0].status === 'waiting' && clock.now() >= rest[0].arrivedAt + deadlineMs) settle(rest.shift()!.id, null);
      const [next = null, ...others] = rest;
      show({ current: next, queued: others });
    } else if (queued.some((r) => r.id === id)) {
      store.setState({ current, queued: queued.filter((r) => r.id !== id) });
    }
  };

  const settle = (id: number, answer: ConfirmationAnswer) => {
    const entry = pending.get(id);
    if (!entry) return;
    pending.delete(id);
    openedAt.delete(id);
    listedAt.delete(id);
    entry.cleanup();
    entry.verifying?.abort(); // declined (やめる, the 50 s, the switch) while the OS prompt is up
    entry.resolve(answer);
  };

  const decline = (id: number) => {
    const { current, queued } = store.getState();
    // CONF-4: once approved, the dialog no longer closes by やめる/Esc/backdrop (nor a batch's calls waiting their turn).
    if (current?.id === id && current.status === 'running') return;
    if (queued.some((r) => r.id === id && r.status === 'running')) return;
    settle(id, null);
    remove(id);
  };

  /** A press the platform did not verify: declined, the agent told why (UV-4, UV-10). */
  const unverified = (id: number, error: unknown) => {
    pending.get(id)?.unverified?.(unverifiedMessage(error));
    decline(id);
  };

  /** The user's own "no" (やめる, Esc, backdrop, 「すべてやめる」): remembered for the same call (BATCH-3). */
  const userDecline = (id: number) => {
    const { current, queued } = store.getState();
    const request = [current, ...queued].find((r) => r?.id === id);
    const entry = pending.get(id);
    if (request && entry && request.status !== 'running' && !request.by) {
      // Those past their 60 s go, so the memory holds no more than the last minute's noes.
      for (const [key, at] of refused) if (clock.now() >= at + REFUSAL_MEMORY_MS) refused.delete(key);
      refused.set(refusalKey(request.tool, request.name, entry.input), clock.now());
    }
    decline(id);
  };

  /** Sets the status of the requests in `ids`, keeping the state's order. */
  const mark = (ids: ReadonlySet<number>, status: ConfirmationRequest['status']) => {
    const { current, queued } = store.getState();
    const set = (r: ConfirmationRequest): ConfirmationRequest => (ids.has(r.id) ? { ...r, status } : r);
    store.setState({ current: current && set(current), queued: queued.map(set) });
  };

  return {
    ...readableStore(store),
    request({ tool, name, content, arrivedAt = clock.now(), signal, by, undo, input, unverified }) {
      // Already past its deadline (a slow prepare), or already cancelled: never shown (SAFE-2, NAT-2).
      if (clock.now() >= arrivedAt + deadlineMs || signal?.aborted) return Promise.resolve(null);
      const id = nextId++;
      // The user's own undo is the user's act, not an agent's: it is never verified (UV-1).
      const verification = !by && gate?.applies(tool) ? 'required' : undefined;
      const request: ConfirmationRequest = {
        id, tool, name, content, arrivedAt, expiresAt: arrivedAt + deadlineMs, status: 'waiting', ...(by ? { by } : {}), ...(undo ? { undo } : {}), ...(verification ? { verification } : {}),
      };
      return new Promise<ConfirmationAnswer>((resolve) => {
        // CONF-8: measured from arrival, whether shown or still queued.
        const cancelDeadline = at(clock, arrivedAt + deadlineMs, () => decline(id));
        const onAbort = () => decline(id);
        signal?.addEventListener('abort', onAbort, { once: true });
        pending.set(id, {
          resolve,
          input,
          unverified,
          cleanup: () => {
            cancelDeadline();
            signal?.removeEventListener('abort', onAbort);
          },
        });
        const { current, queued } = store.getState();
        show(current ? { current, queued: [...queued, request] } : { current: request, queued });
      });
    },
    approve(id, { skipFuture = false } = {}) {
      const { current, queued } = store.getState();
      const entry = pending.get(id);
      if (current?.id !== id || current.status !== 'waiting' || !entry) return;
      const run = (receipt?: Receipt) => {
        const now = store.getState();
        if (now.current?.id !== id || !pending.has(id)) return; // declined while verifying
        store.setState({ current: { ...now.current, status: 'running' }, queued: now.queued });
        settle(id, { skipFuture, done: () => remove(id), ...(receipt ? { receipt } : {}) });
      };
      if (current.verification !== 'required' || !gate) return run();
      // UV-1: the click started the platform's prompt; the deadline keeps running meanwhile (UV-7).
      const verifying = (entry.verifying = new AbortController());
      store.setState({ current: { ...current, status: 'verifying' }, queued });
      gate.approve({ tool: current.tool, name: current.name, input: entry.input, id, openedAt: openedAt.get(id) ?? current.arrivedAt, skipFuture }, verifying.signal)
        .then((receipt) => run(receipt ?? undefined), (error: unknown) => {
          // UV-4: no verification, no approval. A request declined meanwhile was answered already.
          if (pending.get(id)?.verifying === verifying) unverified(id, error);
        });
    },
    approveAll(ids) {
      const { current, queued } = store.getState();
      // Exactly what was listed at the press, in arrival order (the state's order), still waiting and in its 50 s.
      const wanted = new Set(ids);
      const set = [current, ...queued].filter((r): r is ConfirmationRequest =>
        !!r && wanted.has(r.id) && r.status === 'waiting' && pending.has(r.id) && clock.now() < r.arrivedAt + deadlineMs);
      if (!set.length || set[0].id !== current?.id) return; // the dialog's own call leads the batch
      const batchId = `${clock.now().toString(36)}-${(++batches).toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
      const members = new Set(set.map((r) => r.id));
      const run = (receipt?: Receipt, calls?: readonly ConsentDescription[]) => {
        // Those still there (one may have been declined while the OS prompt was up: its 50 s, its caller).
        const approved = set.filter((r) => pending.has(r.id));
        if (!approved.length) return;
        const { current: now, queued: rest } = store.getState();
        // The batch goes first, in arrival order, each running in turn; the rest wait behind it.
        const ids = new Set(approved.map((r) => r.id));
        const ordered = [now, ...rest].filter((r): r is ConfirmationRequest => !!r);
        const [head, ...tail] = [...ordered.filter((r) => ids.has(r.id)), ...ordered.filter((r) => !ids.has(r.id))]
          .map((r) => (ids.has(r.id) ? { ...r, status: 'running' as const } : r));
        show({ current: head, queued: tail });
        // Approved: their 50 s no longer run (CONF-8) and their callers' answers are held until their turn.
        const answers = approved.map((r) => {
          const entry = pending.get(r.id)!;
          pending.delete(r.id);
          openedAt.delete(r.id);
          listedAt.delete(r.id);
          entry.cleanup();
          const call = calls?.[set.indexOf(r)];
          return { id: r.id, resolve: entry.resolve, batch: { id: batchId, size: approved.length, ...(call ? { call } : {}) } };
        });
        const next = (i: number) => {
          if (i >= answers.length) return;
          const { id, resolve, batch } = answers[i];
          let ended = false;
          resolve({ skipFuture: false, ...(receipt ? { receipt } : {}), batch, done: () => {
            if (ended) return;
            ended = true;
            remove(id);
            next(i + 1);
          } });
        };
        next(0);
      };
      if (!set.some((r) => r.verification === 'required') || !gate) return run();
      // One verification for the set (BATCH-2); the 50 s keep running meanwhile (UV-7).
      const verifying = new AbortController();
      pending.get(set[0].id)!.verifying = verifying;
      mark(members, 'verifying');
      const requests = set.map((r) => ({
        tool: r.tool, name: r.name, input: pending.get(r.id)!.input, id: r.id, openedAt: listedAt.get(r.id) ?? r.arrivedAt, skipFuture: false,
      }));
      gate.approveBatch(batchId, requests, verifying.signal).then(({ receipt, calls }) => run(receipt, calls), (error: unknown) => {
        // UV-4: no verification, no approval, for any of them.
        for (const r of set) if (pending.has(r.id)) unverified(r.id, error);
      });
    },
    decline: userDecline,
    declineAll(ids) {
      for (const id of ids) userDecline(id);
    },
    refusal(tool, name, input) {
      const key = refusalKey(tool, name, input);
      const at = refused.get(key);
      if (at === undefined) return 0;
      const left = at + REFUSAL_MEMORY_MS - clock.now();
      if (left > 0) return left;
      refused.delete(key);
      return 0;
    },
    declineTool(tool) {
      const { current, queued } = store.getState();
      for (const request of [current, ...queued]) {
        if (request && request.tool === tool) decline(request.id);
      }
    },
  };
}
