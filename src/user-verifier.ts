/**
 * The user's verification by the platform authenticator (UV-1..UV-4): WebAuthn on this origin. The
 * switch and the dialog decide; this proves the decision came from the person, with a gesture that
 * input automation cannot make (the OS or browser draws the prompt, outside the page). Loaded on
 * demand with the call path (`on-demand.ts`), never with the switches off (UV-7).
 *
 * The first verification on an origin enrols: `navigator.credentials.create` (user verification
 * required, a discoverable platform credential), then `navigator.credentials.get` for the same
 * challenge so that even the first consent has a signature anyone can check. Afterwards only
 * `get` with `allowCredentials` = the enrolled credential. Only the public key and the credential
 * id are stored (localStorage `fd-ai-operations-uv`), never a secret.
 * @module
 */
import type { ConsentDescription, PublicKeyRecord, Receipt } from './consent-proof.js';

/** The page author's choice (UV-2): `auto` (default), `verified` always, `click` never (an explicit opt-out for one's own test rig). */
export type ConsentMode = 'auto' | 'verified' | 'click';

/** Per tool, or one mode for every tool. */
export type ConsentOption = ConsentMode | { readonly [tool: string]: ConsentMode };

/** Why a verification did not give a receipt (UV-4). */
export type RefusalReason =
  /** No platform authenticator, or no WebAuthn at all. */
  | 'unavailable'
  /** The origin cannot hold a credential (an IP literal such as 127.0.0.1, or not a secure context). */
  | 'origin'
  /** The user cancelled the OS prompt, it timed out, or the credential is not on this device. */
  | 'cancelled'
  /** The assertion came back but failed a check (signature, challenge, origin, UV flag, reuse). */
  | 'invalid'
  /** The caller's signal aborted (やめる, the 50 s, the switch went off). */
  | 'aborted';

/** A verification that gave no receipt. */
export class VerificationRefused extends Error {
  override readonly name = 'VerificationRefused';
  constructor(readonly reason: RefusalReason, message: string) {
    super(message);
  }
}

/** The page's verifier. */
export interface UserVerifier {
  /** This page's origin, as descriptions carry it. */
  readonly origin: string;
  /**
   * Whether consent for `tool` needs verification now (UV-2): the page author's `verified`; or
   * `auto` and (`navigator.webdriver` is true, or a credential is enrolled on this origin); never
   * for `click`. Synchronous and cheap: read at every switch-on and approval.
   */
  applies(tool: string): boolean;
  /** Whether this origin can hold a credential at all (not an IP literal, a secure context, WebAuthn present). */
  possible(): boolean;
  /** The enrolled credential's public part, or null. */
  enrolled(): PublicKeyRecord | null;
  /**
   * Asks the platform authenticator to verify the user for `description` (enrolling first when no
   * credential is enrolled), and checks the assertion (`checkReceipt`) and that its challenge was
   * never used before on this page. Resolves to the receipt, or rejects with
   * {@link VerificationRefused}. `signal` aborts the WebAuthn request (reason `aborted`).
   */
  verify(description: ConsentDescription, signal?: AbortSignal): Promise<Receipt>;
  /**
   * Checks a receipt kept earlier (the stored switch's, UV-3) against the enrolled key, and that its
   * description has the `expected` fields. False when nothing is enrolled. Never rejects.
   */
  check(receipt: unknown, expected: Partial<ConsentDescription>): Promise<boolean>;
  /** Removes the enrolled credential's record after a verification of `{kind: 'unenrol'}` (UV-2). */
  unenrol(signal?: AbortSignal): Promise<void>;
  /** The enrolled key's fingerprint, or null (the page shows it, UV-5). */
  fingerprint(): Promise<string | null>;
}

/** Options of {@link createWebAuthnVerifier}. */
export interface WebAuthnVerifierOptions {
  window?: Window;
  /** Where the enrolled credential's public part is kept; default `window.localStorage`. */
  storage?: Storage | null;
  /** Default `auto`. */
  consent?: ConsentOption;
  /** Overrides `navigator.webdriver` (tests). */
  automated?: boolean;
}

/** The storage key of the enrolled credential's public part. */
export const ENROLMENT_KEY = 'fd-ai-operations-uv';

/** Creates the page's WebAuthn verifier. */
export declare function createWebAuthnVerifier(options?: WebAuthnVerifierOptions): UserVerifier;
