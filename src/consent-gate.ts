/**
 * Where a consent becomes a proof (UV-1..UV-4), part of the on-demand part (`on-demand.ts`): the
 * switch-on and the dialog's approval ask the page's {@link UserVerifier} wherever verification
 * applies, and a stored "on" or skip choice counts only with a receipt that checks. The switch and
 * the queue decide; this only says whether the decision came from the person (ARCHITECTURE:
 * "Consent as a proof"). Where verification does not apply, everything is as it was: a click.
 * @module
 */
import type { Clock } from './clock.js';
import { descriptionDigest, inputDigest, type ConsentDescription, type Receipt } from './consent-proof.js';
import type { PermissionStore } from './permission-store.js';
import { VerificationRefused, consentModeOf, type ConsentOption, type RefusalReason, type UserVerifier } from './user-verifier.js';

/**
 * The receipts kept beside a tool's stored switch value (UV-3), under {@link receiptsKey}: the
 * verified switch-on, and the verified skip choice. The switch value itself keeps PERM-1's shape, so
 * the part that loads with every page (PKG-4) neither reads nor writes receipts.
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

/** Where a tool's receipts are kept: beside `fd-ai-operations:<tool>`. */
export function receiptsKey(tool: string): string {
  return `${switchKey(tool)}:uv`;
}

/** One call's approval as the queue hands it to {@link ConsentGate.approve}. */
export interface ApprovalRequest {
  readonly tool: string;
  readonly name: string;
  readonly input: unknown;
  /** The confirmation request's id. */
  readonly id: number;
  /** Epoch ms when its dialog opened. */
  readonly openedAt: number;
  readonly skipFuture: boolean;
  /** The user asked for it in a browser where it does not apply (「承認を本人確認で守る」, UV-2). */
  readonly protect?: boolean;
}

/** The page's consent gate. */
export interface ConsentGate {
  /** The verifier, or null when the page has none (no WebAuthn code was wanted). */
  readonly verifier: UserVerifier | null;
  /** Whether consent for `tool` must be verified now (UV-2). */
  applies(tool: string): boolean;
  /** Whether the dialog may offer 「承認を本人確認で守る」: it does not apply yet, and it could (UV-2). */
  offers(tool: string): boolean;
  /**
   * Turns `tool`'s switch on: at once where verification does not apply; else only once verified
   * (UV-1). Throws the reason, in plain words (UV-4). `signal` (the user turned it off meanwhile)
   * aborts the verification, and nothing is stored.
   */
  permit(tool: string, permission: PermissionStore, signal?: AbortSignal): Promise<void>;
  /** Before a stored "on" registers anything: throws when verification applies and its receipt does not check (UV-3). */
  admit(tool: string, permission: PermissionStore): Promise<void>;
  /** A call's approval: null where verification does not apply (and was not asked for); else its receipt, or throws {@link VerificationRefused}. */
  approve(request: ApprovalRequest, signal?: AbortSignal): Promise<Receipt | null>;
  /**
   * Several calls approved with one press (BATCH-2): one verification whose challenge binds the set,
   * `{kind: 'batch', origin, batchId, calls}` with `calls` the digests of each call's own description
   * ({@link callDescription}), in order. Resolves to the receipt and those call descriptions (each
   * row keeps its own, so an auditor can check it offline), or throws {@link VerificationRefused}.
   */
  approveBatch(batchId: string, requests: readonly ApprovalRequest[], signal?: AbortSignal): Promise<{ receipt: Receipt; calls: ConsentDescription[] }>;
  /** False where verification applies and the stored skip choice has no receipt this page checked (UV-3). */
  trustsSkip(tool: string): boolean;
  /** Keeps the receipt of a verified 「今後尋ねない」 beside the switch-on's (UV-3). */
  keepSkip(tool: string, skip: Receipt): void;
}

/** UV-4's sentence for a browser driven by a program. */
export const AUTOMATED_NEEDS_VERIFICATION =
  'このブラウザーはプログラムから操作されています。オンにするには、指紋や PIN などの本人確認が必要です。';

/** The plain words for each refusal (UV-4), Japanese first, then English for a developer. */
const REFUSALS: Record<RefusalReason, string> = {
  unavailable: 'このブラウザーでは本人確認 (パスキー、指紋、PIN) を使えません。 (no platform authenticator)',
  origin: 'このアドレスでは本人確認を使えません。IP アドレスではなく http://localhost などの名前で開いてください。 (this origin cannot hold a credential)',
  cancelled: '本人確認が取り消されたか、完了しませんでした。 (the verification was cancelled or did not complete)',
  invalid: '本人確認の結果を確かめられませんでした。 (the assertion failed its checks)',
  aborted: '本人確認が中断されました。 (the verification was aborted)',
};

const STORED_ON_UNVERIFIED =
  '保存されていた「オン」には本人確認の記録がないため、オフのままにしました。もう一度オンにしてください。 (a stored "on" without a valid receipt reads as off)';

/** Options of {@link createConsentGate}. */
export interface ConsentGateOptions {
  verifier: UserVerifier | null;
  clock: Clock;
  /** Whether a program drives the browser (`navigator.webdriver`): UV-4's first sentence. */
  automated: boolean;
  /** Where the switch values and their receipts are (the runtime's storage); null keeps receipts for the page's life. */
  storage?: Storage | null;
  /** The page author's choice (UV-2); `click` also withholds the dialog's offer. Default `auto`. */
  consent?: ConsentOption;
}


/** The sentence a refusal shows under the switch (UV-4). */
export function refusalText(error: unknown, automated: boolean): string {
  const reason = error instanceof VerificationRefused ? REFUSALS[error.reason] : `${REFUSALS.cancelled} ${String(error)}`;
  return automated ? `${AUTOMATED_NEEDS_VERIFICATION} ${reason}` : reason;
}

/**
 * Creates the gate over the page's verifier.
 * @example
 * const gate = createConsentGate({ verifier: createWebAuthnVerifier(), clock, automated: navigator.webdriver });
 * await gate.permit('node', permission); // the OS prompt, then on
 */
export function createConsentGate({ verifier, clock, automated, consent = 'auto', storage = null }: ConsentGateOptions): ConsentGate {
  // Receipts this page made or checked: a stored skip choice is honoured only with one of these, so
  // a value written into storage behind the page's back (CDP can) skips nothing (UV-3).
  const trusted = new Set<string>();
  const applies = (tool: string) => !!verifier?.applies(tool);
  // Kept here as well as stored, so that storage that fails (PERM-8) loses nothing for this page.
  const kept = new Map<string, StoredReceipts>();
  const receiptsOf = (tool: string): StoredReceipts => {
    try {
      const raw = storage?.getItem(receiptsKey(tool));
      if (raw) return JSON.parse(raw) as StoredReceipts;
    } catch {
      // unreadable or corrupt: the receipts this page kept, if any
    }
    return kept.get(tool) ?? {};
  };
  const keep = (tool: string, receipts: StoredReceipts) => {
    kept.set(tool, receipts);
    try {
      storage?.setItem(receiptsKey(tool), JSON.stringify(receipts));
    } catch {
      // PERM-8: the receipts live as long as the page, as the switch then does
    }
  };
  /**
   * Stores PERM-1's record for a verified switch-on with the very `enabledUntil` its receipt binds,
   * then lets the permission store read it as another tab's write (SAFE-4's path); where storage
   * refuses, the store's own page-lifetime "on" (its `enabledUntil` then a moment later than signed,
   * which `admit` accepts from this page's own receipt).
   */
  const storeOn = (tool: string, permission: PermissionStore, enabledUntil: number) => {
    try {
      storage!.setItem(switchKey(tool), JSON.stringify({ v: 1, enabledUntil, skipConfirmUntil: null }));
      if (permission.isEnabled()) return;
    } catch {
      // below
    }
    permission.enable();
  };
  // The verifier refuses with its reason where it cannot verify (an IP-literal origin, no authenticator).
  const verify = async (description: ConsentDescription, signal?: AbortSignal) => {
    const receipt = await verifier!.verify(description, signal);
    trusted.add(receipt.signature);
    return receipt;
  };

  return {
    verifier,
    applies,
    offers: (tool) => !!verifier && !applies(tool) && verifier.possible() && consentModeOf(consent, tool) !== 'click',
    async permit(tool, permission, signal) {
      if (!applies(tool)) return permission.enable();
      // The receipt binds the exact end of the permission (UV-3), so it is fixed before the prompt.
      const enabledUntil = clock.now() + SWITCH_TTL_MS;
      let on: Receipt;
      try {
        on = await verify({ kind: 'switch', origin: verifier!.origin, tool, enabledUntil }, signal);
      } catch (error) {
        throw new Error(refusalText(error, automated));
      }
      if (signal?.aborted) return;
      keep(tool, { on });
      storeOn(tool, permission, enabledUntil);
    },
    async admit(tool, permission) {
      if (!applies(tool)) return;
      const { enabledUntil } = permission.getState();
      const { on, skip } = receiptsOf(tool);
      const origin = verifier!.origin;
      // This page's own receipt counts as it is; a stored one must check, for this very enabledUntil.
      const valid = !!on && (trusted.has(on.signature) || await verifier!.check(on, { kind: 'switch', origin, tool, enabledUntil: enabledUntil! }));
      // The session's start turns it off (removing the stored value) with this reason under the switch.
      if (!valid) {
        throw new Error(automated ? `${AUTOMATED_NEEDS_VERIFICATION} ${STORED_ON_UNVERIFIED}` : STORED_ON_UNVERIFIED);
      }
      trusted.add(on.signature);
      if (skip && await verifier!.check(skip, { kind: 'call', origin, tool, skipFuture: true })) trusted.add(skip.signature);
    },
    async approve(request, signal) {
      if (!verifier || (!applies(request.tool) && !request.protect)) return null;
      return verify(await callDescription(verifier.origin, request), signal);
    },
    async approveBatch(batchId, requests, signal) {
      if (!verifier) throw new VerificationRefused('unavailable', 'no verifier');
      const calls = await Promise.all(requests.map((request) => callDescription(verifier.origin, request)));
      const digests = await Promise.all(calls.map(descriptionDigest));
      const receipt = await verify({ kind: 'batch', origin: verifier.origin, batchId, calls: digests }, signal);
      return { receipt, calls };
    },
    trustsSkip(tool) {
      if (!applies(tool)) return true;
      const { skip } = receiptsOf(tool);
      return !!skip && trusted.has(skip.signature);
    },
    keepSkip(tool, skip) {
      keep(tool, { ...receiptsOf(tool), skip });
    },
  };
}

/**
 * The description one call's approval binds (UV-3): origin, tool, operation, the input's digest, the
 * request's id and its dialog's opening time. Alone it is the challenge's; in a batch its digest is
 * one of the set's (BATCH-2).
 */
export async function callDescription(origin: string, request: ApprovalRequest): Promise<ConsentDescription> {
  return {
    kind: 'call',
    origin,
    tool: request.tool,
    operation: request.name,
    inputDigest: await inputDigest(request.input),
    callId: request.id,
    openedAt: request.openedAt,
    skipFuture: request.skipFuture,
  };
}
