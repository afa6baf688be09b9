/**
 * Where a consent becomes a proof (UV-1..UV-4, UV-8..UV-10), part of the on-demand part
 * (`on-demand.ts`): the switch-on and the dialog's approval ask the page's {@link UserVerifier}
 * wherever the page author did not write `click`, and a stored "on" or skip counts only with a
 * receipt that checks. The switch and the queue decide; this only says whether the decision came
 * from the person (ARCHITECTURE: "Consent as a proof"). Nothing falls back to a click: where the
 * platform cannot verify, the switch stays off and the dialog declines, saying why (UV-4).
 * @module
 */
import type { Clock } from './clock.js';
import { descriptionDigest, inputDigest, type ConsentDescription, type Receipt } from './consent-proof.js';
import type { ConsentStore } from './consent-store.js';
import type { AnchoredConsentStore } from './consent-anchor.js';
import type { PermissionStore } from './permission-store.js';
import { ConsentRefused, CoolingDown, refusalNotice, unverifiedMessage } from './consent-words.js';
import { ConsentRest, REFUSALS_BEFORE_REST, REST_STEPS_MS } from './consent-rest.js';
import { VerificationRefused, type RefusalReason, type UserVerifier } from './user-verifier.js';

/**
 * The receipts kept for a tool's current switch period (UV-3, UV-9), in the consent store under
 * {@link receiptsKey}, never in localStorage (UV-8): the verified switch-on, and the verified
 * 「今後尋ねない」 given inside that period.
 */
export interface StoredReceipts {
  readonly on?: Receipt;
  readonly skip?: Receipt;
}

/*
 * PERM-1's key and PERM-2's 7 days, as permission-store.ts has them. Written here again on purpose:
 * importing them would move that module into a chunk shared with this on-demand part, which costs
 * the switch-off bytes ~200 B of compression (PKG-4, measured). A test pins both to the originals.
 */
/** `fd-ai-operations:<tool>` (PERM-1). */
export const switchKey = (tool: string): string => `fd-ai-operations:${tool}`;
/** 7 days (PERM-2). */
export const SWITCH_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Where a tool's receipts are kept in the consent store. */
export function receiptsKey(tool: string): string {
  return `receipts:${tool}`;
}

/** UV-10: after this many verifications of a tool in a row that gave no receipt, none is asked for {@link COOLDOWN_MS}. */
export const REFUSALS_BEFORE_COOLDOWN = REFUSALS_BEFORE_REST;
/** UV-10: how long a tool's first rest lasts; later ones of a series last longer (UV-16, `consent-rest.ts`). */
export const COOLDOWN_MS = REST_STEPS_MS[0];

/** One call's approval as the queue hands it to {@link ConsentGate.approve}. */
export interface ApprovalRequest {
  readonly tool: string;
  readonly name: string;
  /** The call's input as it arrived (UV-11: the copy the dialog showed and the operation runs with). */
  readonly input: unknown;
  /** The confirmation request's id. */
  readonly id: number;
  /** Epoch ms when its dialog opened. */
  readonly openedAt: number;
  /** The user also ticked 「このページでは今後尋ねない」 (UV-9). */
  readonly skipFuture: boolean;
}

/** The page's consent gate. */
export interface ConsentGate {
  /** The verifier, or null when the page has none (a test rig's explicit choice). */
  readonly verifier: UserVerifier | null;
  /** Whether consent for `tool` must be verified (UV-2): everywhere but where the page author wrote `click`. */
  applies(tool: string): boolean;
  /**
   * Turns `tool`'s switch on: at once where verification does not apply; else only once verified
   * (UV-1). Throws the reason, in plain words (UV-4). `signal` (the user turned it off meanwhile)
   * aborts the verification, and nothing is stored.
   */
  permit(tool: string, permission: PermissionStore, signal?: AbortSignal): Promise<void>;
  /** Before a stored "on" registers anything: throws when verification applies and its receipt does not check (UV-3). */
  admit(tool: string, permission: PermissionStore): Promise<void>;
  /** A call's approval: null where verification does not apply; else its receipt, or throws {@link VerificationRefused}. */
  approve(request: ApprovalRequest, signal?: AbortSignal): Promise<Receipt | null>;
  /**
   * Several calls approved with one press (BATCH-2): one verification whose challenge binds the set,
   * `{kind: 'batch', origin, batchId, calls}` with `calls` the digests of each call's own description
   * ({@link callDescription}), in order. Resolves to the receipt and those call descriptions (each
   * row keeps its own, so an auditor can check it offline), or throws {@link VerificationRefused}.
   */
  approveBatch(batchId: string, requests: readonly ApprovalRequest[], signal?: AbortSignal): Promise<{ receipt: Receipt; calls: ConsentDescription[] }>;
  /**
   * True where verification does not apply, or where this page holds a checked skip receipt for
   * `tool`'s current switch period (UV-9). No other receipt stands in for it.
   */
  trustsSkip(tool: string): boolean;
  /** Keeps the receipt of a verified 「今後尋ねない」 for the current period (UV-9). */
  keepSkip(tool: string, skip: Receipt): Promise<void>;
  /** The switch went off or its period ended: its receipts go (UV-8). */
  forget(tool: string): Promise<void>;
  /** UV-10, UV-16: while `tool`'s verifications rest (in any tab of the origin), what its call is answered at once, with the ms left; else null. */
  resting(tool: string): Promise<{ declined: string; retryAfterMs: number } | null>;
}

/** Options of {@link createConsentGate}. */
export interface ConsentGateOptions {
  verifier: UserVerifier | null;
  clock: Clock;
  /** Where the receipts are kept (IndexedDB by default, UV-8; under the page's anchor, UV-14, which also reports a reset). */
  store: ConsentStore & Partial<Pick<AnchoredConsentStore, 'reset'>>;
  /** Whether a program says it drives the browser (`navigator.webdriver`): only AGENT-3's wording (UV-2). */
  automated: boolean;
}

/**
 * The refusals that do not count towards the rest: no prompt was started (the rest itself, a page
 * or device that cannot verify). Every other end without a receipt counts (UV-16), `aborted`
 * included: an agent can press やめる, let the call's 50 s run out or cancel its own call as easily
 * as the user can, and each of those prompts asked the user's device all the same.
 */
const NO_PROMPT: ReadonlySet<RefusalReason> = new Set(['cooldown', 'unavailable', 'origin']);

/**
 * Creates the gate over the page's verifier.
 * @example
 * const gate = createConsentGate({ verifier: createWebAuthnVerifier(), clock, store, automated: navigator.webdriver });
 * await gate.permit('node', permission); // the OS prompt, then on
 */
export function createConsentGate({ verifier, clock, store, automated }: ConsentGateOptions): ConsentGate {
  const applies = (tool: string) => !!verifier?.applies(tool);
  // The switch periods (their enabledUntil) this page verified or checked, and the skips it
  // checked for them: a value written into storage behind the page's back matches neither (UV-8).
  const periods = new Map<string, number>();
  const skips = new Map<string, number>();
  // Receipts this page itself made: a stored "on" whose receipt is one of them counts as it is.
  const made = new Set<string>();
  // UV-10, UV-16: refusals in a row and rests, kept in the consent store for the origin's tabs.
  const rest = new ConsentRest({ clock, store });

  // UV-8: once a tool's switch is on here, its going off — here, in another tab, or at the end of
  // its 7 days — takes its receipts along, so that a stored value written back later finds none to
  // stand on. Watched from here, so that the part every page loads carries none of it (PKG-4).
  const watched = new Set<string>();
  const watch = (tool: string, permission: PermissionStore) => {
    if (watched.has(tool)) return;
    watched.add(tool);
    permission.subscribe(() => {
      if (!permission.getState().enabled && (periods.has(tool) || skips.has(tool))) void gate.forget(tool);
    });
  };

  const receiptsOf = async (tool: string): Promise<StoredReceipts> => {
    const value = await store.get(receiptsKey(tool));
    return value && typeof value === 'object' ? value as StoredReceipts : {};
  };
  /**
   * One verification for `tools`: none while one of them rests; two refusals in a row start a rest
   * (UV-10, UV-16). Entered in the same task as the press (the description may still be computed),
   * so that the caller's signal is watched from the start.
   */
  const verify = async (verifier: UserVerifier, tools: readonly string[], description: ConsentDescription | Promise<ConsentDescription>, signal?: AbortSignal) => {
    // Counted once, and at the very moment the caller's signal ends the prompt (the 50 s, やめる, the
    // caller's cancel): the call is answered in that moment, and its next call must find the rest.
    let counted: Promise<void> | null = null;
    const refused = () => (counted ??= rest.refused(tools));
    signal?.addEventListener('abort', refused, { once: true });
    // Not awaited while a rest answers first: its failure must not go unhandled then.
    Promise.resolve(description).catch(() => {});
    try {
      const left = await rest.left(tools);
      if (left > 0) throw new CoolingDown(left);
      const receipt = await verifier.verify(await description, signal);
      if (counted) throw new VerificationRefused('aborted', 'the verification was stopped');
      await rest.verified(tools);
      made.add(receipt.signature);
      return receipt;
    } catch (error) {
      if (!(error instanceof VerificationRefused && NO_PROMPT.has(error.reason))) await refused();
      throw error;
    } finally {
      signal?.removeEventListener('abort', refused);
    }
  };


  const gate: ConsentGate = {
    verifier,
    applies,
    async resting(tool) {
      const left = applies(tool) ? await rest.left([tool]) : 0;
      return left > 0 ? { declined: unverifiedMessage(new CoolingDown(left)), retryAfterMs: left } : null;
    },
    async permit(tool, permission, signal) {
      if (!verifier?.applies(tool)) return permission.enable();
      // The receipt binds the exact end of the permission (UV-3), so it is fixed before the prompt.
      const enabledUntil = clock.now() + SWITCH_TTL_MS;
      // UV-14: records reset behind the page's back are said first; the next switch-on enrols again.
      const reset = await store.reset?.();
      if (reset) throw new ConsentRefused({ code: reset.fingerprint ? 'consentResetKey' : 'consentReset', values: { fingerprint: reset.fingerprint ?? '' }, automated });
      let on: Receipt;
      try {
        on = await verify(verifier, [tool], { kind: 'switch', origin: verifier.origin, tool, enabledUntil }, signal);
      } catch (error) {
        throw new ConsentRefused(refusalNotice(error, automated));
      }
      if (signal?.aborted) return;
      // A new period: the receipts of any earlier one go with it.
      skips.delete(tool);
      await store.set(receiptsKey(tool), { on } satisfies StoredReceipts);
      // Turned off while the receipt was being kept: nothing is switched on after all.
      if (signal?.aborted) return store.delete(receiptsKey(tool));
      permission.enable(enabledUntil);
      periods.set(tool, enabledUntil);
      watch(tool, permission);
    },
    async admit(tool, permission) {
      if (!verifier?.applies(tool)) return;
      const { enabledUntil } = permission.getState();
      const { on, skip } = await receiptsOf(tool);
      const { origin } = verifier;
      // This page's own receipt counts as it is; a stored one must check, for this very enabledUntil.
      const valid = !!on && enabledUntil !== null
        && (made.has(on.signature) || await verifier.check(on, { kind: 'switch', origin, tool, enabledUntil }));
      // The session's start turns it off (removing the stored value) with this reason under the switch.
      if (!valid) throw new ConsentRefused({ code: 'consentStoredOnUnverified', values: {}, automated });
      periods.set(tool, enabledUntil);
      watch(tool, permission);
      // UV-9: only a call approval that granted a skip for this very period, signed by the enrolled key.
      if (skip && await verifier.check(skip, { kind: 'call', origin, tool, skipFuture: true, skipUntil: enabledUntil })) {
        skips.set(tool, enabledUntil);
      }
    },
    async approve(request, signal) {
      if (!verifier || !applies(request.tool)) return null;
      return verify(verifier, [request.tool], callDescription(verifier.origin, request, request.skipFuture ? periods.get(request.tool) ?? null : null), signal);
    },
    async approveBatch(batchId, requests, signal) {
      if (!verifier) throw new VerificationRefused('unavailable', 'no verifier');
      const calls = Promise.all(requests.map((request) => callDescription(verifier.origin, request, null)));
      const described = calls.then(async (list): Promise<ConsentDescription> => ({ kind: 'batch', origin: verifier.origin, batchId, calls: await Promise.all(list.map(descriptionDigest)) }));
      const tools = [...new Set(requests.map((r) => r.tool))];
      const receipt = await verify(verifier, tools, described, signal);
      return { receipt, calls: await calls };
    },
    trustsSkip(tool) {
      if (!applies(tool)) return true;
      const until = skips.get(tool);
      return until !== undefined && until === periods.get(tool) && clock.now() < until;
    },
    async keepSkip(tool, skip) {
      const skipUntil = (skip.description as { skipUntil?: unknown }).skipUntil;
      if (skip.description.kind !== 'call' || typeof skipUntil !== 'number' || skipUntil !== periods.get(tool)) return;
      skips.set(tool, skipUntil);
      await store.set(receiptsKey(tool), { ...await receiptsOf(tool), skip } satisfies StoredReceipts);
    },
    async forget(tool) {
      periods.delete(tool);
      skips.delete(tool);
      await store.delete(receiptsKey(tool));
    },
  };
  return gate;
}

/**
 * The description one call's approval binds (UV-3, UV-9): origin, tool, operation, the input's
 * digest, the request's id, its dialog's opening time, and the skip it grants — `skipUntil`, the
 * end of the switch period it was given in, or null. Alone it is the challenge's; in a batch its
 * digest is one of the set's (BATCH-2).
 */
export async function callDescription(origin: string, request: ApprovalRequest, skipUntil: number | null): Promise<ConsentDescription> {
  return {
    kind: 'call',
    origin,
    tool: request.tool,
    operation: request.name,
    inputDigest: await inputDigest(request.input),
    callId: request.id,
    openedAt: request.openedAt,
    skipFuture: request.skipFuture && skipUntil !== null,
    skipUntil,
  };
}
