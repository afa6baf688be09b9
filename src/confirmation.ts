/**
 * What a confirmation is (CONF-1..CONF-9, BATCH-1..BATCH-4): a request as the dialog shows it, the
 * answer its call receives, and the queue's contract. The queue itself is `confirmation-queue.ts`,
 * in the on-demand part; this file holds types and two constants only.
 * @module
 */
import type { ConsentDescription, Receipt } from './consent-proof.js';
import type { ConfirmationContent } from './definition.js';
import type { ReadableStore } from './store.js';

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
  /** Once approved by the skip action (UV-18): the approval being verified or run also grants the skip, and the dialog says so. */
  readonly skipFuture?: true;
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
 * The queue itself, as the on-demand part holds it (`OnDemandParts.queue`): the single-request
 * queue and the decisions on many calls at once (BATCH-2, BATCH-3). The dialog reaches the user's
 * decisions through `aiOps.capabilities` (`PageCapabilities.decide`), nothing else of it.
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

