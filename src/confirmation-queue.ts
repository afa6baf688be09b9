/**
 * The page's confirmation queue (CONF-4..CONF-9): one dialog at a time, first in first out, each
 * request declined 50 s after its call arrived unless the user approved it first, or as soon as the
 * call is cancelled.
 * @module
 */
import { at, systemClock, type Clock } from './clock.js';
import {
  CONFIRMATION_DEADLINE_MS, REFUSAL_MEMORY_MS, type ConfirmationAnswer, type ConfirmationRequest, type ConfirmationState, type PageConfirmationQueue,
} from './confirmation.js';
import type { ConsentGate } from './consent-gate.js';
import { unverifiedMessage } from './consent-words.js';
import { canonicalJson, type ConsentDescription, type Receipt } from './consent-proof.js';
import { createStore, readableStore, type WritableStore } from './store.js';

export * from './confirmation.js';

/** Options of {@link createConfirmationQueue}. */
export interface ConfirmationQueueOptions {
  clock?: Clock;
  deadlineMs?: number;
  /** Where the state lives; default a new store. The runtime passes one it exposes before this module loads (PKG-4). */
  store?: WritableStore<ConfirmationState>;
  /** Verified consent (UV-1); without one every approval is the click alone. The user's undo is verified only where it reaches further (UV-17). */
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
      // An undo that takes back only its own change never asks (UV-1). One that asks (`undo`: it
      // takes back later rows or the user's own edits too) is approved like a destructive call: the
      // log's 元に戻す and this dialog's press are clicks an agent can make as well (UV-17).
      const verification = (!by || undo) && gate?.applies(tool) ? 'required' : undefined;
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
        store.setState({ current: { ...now.current, status: 'running', ...(skipFuture ? { skipFuture } : {}) }, queued: now.queued });
        settle(id, { skipFuture, done: () => remove(id), ...(receipt ? { receipt } : {}) });
      };
      if (current.verification !== 'required' || !gate) return run();
      // UV-1: the click started the platform's prompt; the deadline keeps running meanwhile (UV-7).
      const verifying = (entry.verifying = new AbortController());
      // UV-18: the dialog shows that what is being verified is the skip too.
      store.setState({ current: { ...current, status: 'verifying', ...(skipFuture ? { skipFuture } : {}) }, queued });
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
          // The size is the set the press approved, which the receipt binds, not how many are still
          // there: one whose caller left during the prompt would make a true line read as forged (UV-12).
          return { id: r.id, resolve: entry.resolve, batch: { id: batchId, size: set.length, ...(call ? { call } : {}) } };
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
