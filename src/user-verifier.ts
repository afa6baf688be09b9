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
 * id are stored, never a secret, and not in localStorage: in the page's {@link ConsentStore}
 * (IndexedDB), under the page's own key, which a program that only writes storage cannot write (UV-14).
 * @module
 */
import { SUPPORTED_ALGORITHMS, canonicalJson, challengeOf, checkReceipt, fingerprint, fromBase64Url, toBase64Url } from './consent-proof.js';
import type { ConsentDescription, PublicKeyRecord, Receipt } from './consent-proof.js';
import { ENROLMENT_KEY, defaultConsentStore, parseEnrolment, type ConsentStore } from './consent-store.js';
import { anchorConsentStore } from './consent-anchor.js';
import { isNativeWebAuthn, nativeFor, type NativeWebAuthn } from './native-webauthn-check.js';

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
  /** The user cancelled the OS prompt, or the credential is not on this device. */
  | 'cancelled'
  /** Nobody answered the OS prompt in time (UV-10). */
  | 'timeout'
  /** Two verifications of this tool in a row gave no receipt: none is asked for a while (UV-10). */
  | 'cooldown'
  /** The assertion came back but failed a check (signature, challenge, origin, UV flag, reuse). */
  | 'invalid'
  /** The caller's signal aborted (やめる, the 50 s, the switch went off). */
  | 'aborted'
  /** `navigator.credentials` is not the browser's own WebAuthn (UV-15): something replaced it. */
  | 'replaced';

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
   * Whether consent for `tool` needs verification (UV-2): always, but where the page author wrote
   * `click` for it. Who drives the browser does not matter (`navigator.webdriver` is a courtesy
   * flag). Where verification cannot happen, {@link verify} refuses and says why (UV-4): nothing
   * falls back to a click.
   */
  applies(tool: string): boolean;
  /** Whether this origin can hold a credential at all (not an IP literal, a secure context, WebAuthn present). */
  possible(): boolean;
  /** The enrolled credential's public part, or null. */
  enrolled(): Promise<PublicKeyRecord | null>;
  /**
   * Asks the platform authenticator to verify the user for `description` (enrolling first when no
   * credential is enrolled), and checks the assertion (`checkReceipt`) and that its challenge was
   * never used before on this page. Resolves to the receipt, or rejects with
   * {@link VerificationRefused}. `signal` aborts the WebAuthn request (reason `aborted`); past
   * the verifier's `timeoutMs` the page itself ends the request (reason `timeout`): browsers
   * round a short WebAuthn timeout up (Chromium to 10 s), and the user's "no" must not wait on that;
   * the browser is told a later one, so that its own rejection never stands in for the page's.
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
  /** Where the enrolled credential's public part is kept; default IndexedDB under the page's own key ({@link anchorConsentStore}). */
  store?: ConsentStore;
  /** The platform's WebAuthn as the runtime captured it at load (UV-15): a prompt needs exactly it ({@link nativeFor}). */
  native?: NativeWebAuthn | null;
  /** Default `auto`. */
  consent?: ConsentOption;
  /** How long one verification may wait for the user; default {@link VERIFICATION_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/** The default WebAuthn timeout: CONF-8's 50 s, which include the verification. */
export const VERIFICATION_TIMEOUT_MS = 50_000;

/**
 * How much longer than the page's own deadline the browser is told to wait: the page ends the
 * request itself (reason `timeout`), and a browser that keeps the timeout it is given (Chromium
 * with a virtual authenticator rejects `NotAllowedError` at exactly that moment, measured) would
 * otherwise race it and read as `cancelled`.
 */
const BROWSER_TIMEOUT_SLACK_MS = 5_000;

/**
 * The page author's mode for one tool (UV-2): the one mode, or the tool's own entry (`auto` when
 * it has none, or anything that is not a mode).
 * @example consentModeOf({ node: 'verified' }, 'sql') // 'auto'
 */
export function consentModeOf(consent: ConsentOption, tool: string): ConsentMode {
  const mode = typeof consent === 'string' ? consent : Object.hasOwn(consent, tool) ? consent[tool] : 'auto';
  return mode === 'verified' || mode === 'click' ? mode : 'auto';
}

/**
 * Whether `hostname` (as `location.hostname` gives it) is an IP literal, which cannot be an RP ID:
 * Chromium refuses `http://127.0.0.1` with `SecurityError: This is an invalid domain`. The URL
 * parser has already written every IPv4 form as dotted decimal and IPv6 in brackets.
 * @example isIpLiteral('127.0.0.1') // true; isIpLiteral('localhost') // false
 */
export function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Per page (its window), the challenges (base64url) of the receipts it accepted and of the requests
 * still waiting: each is used once, however many verifiers the page creates.
 */
const usedChallenges = new WeakMap<object, Set<string>>();

const random = (length: number) => globalThis.crypto.getRandomValues(new Uint8Array(length));

/** A DOMException (or the signal's reason) from WebAuthn, as the refusal a caller acts on (UV-4). */
function refusalOf(error: unknown, signal: AbortSignal | undefined): VerificationRefused {
  if (error instanceof VerificationRefused) return error;
  // Chromium rejects an aborted request with the signal's reason, whatever it is.
  if (signal?.aborted) return new VerificationRefused('aborted', 'the verification was stopped');
  const name = (error as { name?: unknown } | null)?.name;
  const message = error instanceof Error ? error.message : String(error);
  switch (name) {
    case 'AbortError': return new VerificationRefused('aborted', message);
    case 'SecurityError': return new VerificationRefused('origin', message);
    case 'NotSupportedError': case 'TypeError': return new VerificationRefused('unavailable', message);
    // NotAllowedError: cancelled, timed out, or no authenticator here holds the credential.
    default: return new VerificationRefused('cancelled', message);
  }
}

/**
 * Creates the page's WebAuthn verifier.
 * @example
 * const verifier = createWebAuthnVerifier({ consent: { sql: 'click' } });
 * if (verifier.applies('node')) receipt = await verifier.verify(description, dialogSignal);
 */
export function createWebAuthnVerifier(options: WebAuthnVerifierOptions = {}): UserVerifier {
  const win: Window & { PublicKeyCredential?: typeof PublicKeyCredential } = options.window ?? window;
  const consent = options.consent ?? 'auto';
  const timeoutMs = options.timeoutMs ?? VERIFICATION_TIMEOUT_MS;
  const { origin, hostname } = win.location;
  const store = options.store ?? anchorConsentStore(defaultConsentStore(win));
  const native = nativeFor(win, options.native);
  const used = usedChallenges.get(win) ?? new Set<string>();
  usedChallenges.set(win, used);

  const enrolled = async () => parseEnrolment(await store.get(ENROLMENT_KEY));

  const api = () => {
    const credentials = win.navigator?.credentials;
    return typeof win.PublicKeyCredential === 'function' && credentials && typeof credentials.get === 'function' ? credentials : null;
  };
  const possible = () => win.isSecureContext === true && api() !== null && !!hostname && !isIpLiteral(hostname);

  /** `navigator.credentials.create` for a discoverable platform credential with user verification (UV-1). */
  async function enrol(credentials: CredentialsContainer, signal: AbortSignal): Promise<PublicKeyRecord> {
    const available = await win.PublicKeyCredential?.isUserVerifyingPlatformAuthenticatorAvailable?.().catch(() => false);
    if (available === false) throw new VerificationRefused('unavailable', 'this device has no platform authenticator that verifies its user');
    const credential = await credentials.create({
      publicKey: {
        rp: { id: hostname, name: hostname },
        // A random handle: nothing about the person is stored on the device or here.
        user: { id: random(16), name: `ai-ops@${hostname}`, displayName: 'ai-ops' },
        challenge: random(32),
        pubKeyCredParams: SUPPORTED_ALGORITHMS.map((alg) => ({ type: 'public-key' as const, alg })),
        // No `authenticatorAttachment`: Firefox on Linux refuses `'platform'` outright (NotAllowedError,
        // measured), and a security key or a phone's passkey verifies the person as well (UV-4).
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
        attestation: 'none',
        timeout: timeoutMs + BROWSER_TIMEOUT_SLACK_MS,
      },
      signal,
    }) as PublicKeyCredential | null;
    const response = credential?.response as AuthenticatorAttestationResponse | undefined;
    const spki = response?.getPublicKey?.();
    const alg = response?.getPublicKeyAlgorithm?.();
    if (!credential || !spki || alg === undefined || !SUPPORTED_ALGORITHMS.includes(alg)) {
      throw new VerificationRefused('unavailable', `the authenticator made a key this page cannot verify (algorithm ${String(alg)})`);
    }
    const record = { credentialId: toBase64Url(credential.rawId), alg, spki: toBase64Url(spki) };
    await store.set(ENROLMENT_KEY, { v: 1, ...record });
    return record;
  }

  async function verify(description: ConsentDescription, signal?: AbortSignal): Promise<Receipt> {
    if (signal?.aborted) throw new VerificationRefused('aborted', 'the verification was stopped');
    const credentials = api();
    if (!credentials) throw new VerificationRefused('unavailable', 'this browser has no WebAuthn');
    if (!possible()) throw new VerificationRefused('origin', `${origin} cannot hold a credential (an IP address, or not a secure context)`);
    if (native && !isNativeWebAuthn(credentials, native)) throw new VerificationRefused('replaced', 'navigator.credentials is not the browser\'s own WebAuthn: something replaced it');
    if (description?.origin !== origin) throw new VerificationRefused('invalid', `the consent is for ${String(description?.origin)}, not ${origin}`);
    // The description as signed: a later change to the caller's object cannot change the receipt.
    const signedFor = JSON.parse(canonicalJson(description)) as ConsentDescription;
    const challenge = await challengeOf(signedFor);
    const challengeText = toBase64Url(challenge);
    if (used.has(challengeText)) throw new VerificationRefused('invalid', 'this consent was already given once');
    used.add(challengeText);
    // One controller for the caller's signal and the page's own deadline, which covers both prompts
    // of a first verification.
    const controller = new AbortController();
    const stop = () => controller.abort();
    signal?.addEventListener('abort', stop, { once: true });
    let timedOut = false;
    const timer = win.setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    let accepted = false;
    try {
      const record = await enrolled() ?? await enrol(credentials, controller.signal);
      const credential = await credentials.get({
        publicKey: {
          challenge: challenge as BufferSource,
          allowCredentials: [{ type: 'public-key', id: fromBase64Url(record.credentialId) as BufferSource }],
          userVerification: 'required',
          rpId: hostname,
          timeout: timeoutMs + BROWSER_TIMEOUT_SLACK_MS,
        },
        signal: controller.signal,
      }) as PublicKeyCredential | null;
      const response = credential?.response as AuthenticatorAssertionResponse | undefined;
      if (!credential || !response?.signature) throw new VerificationRefused('invalid', 'the authenticator gave no assertion');
      const receipt: Receipt = {
        credentialId: toBase64Url(credential.rawId),
        authenticatorData: toBase64Url(response.authenticatorData),
        clientDataJSON: toBase64Url(response.clientDataJSON),
        signature: toBase64Url(response.signature),
        description: signedFor,
      };
      const reason = await checkReceipt(receipt, record);
      if (reason) throw new VerificationRefused('invalid', reason);
      if (controller.signal.aborted) throw new VerificationRefused('aborted', 'the verification was stopped');
      accepted = true;
      return receipt;
    } catch (error) {
      if (timedOut && !signal?.aborted) throw new VerificationRefused('timeout', `nobody answered the verification within ${timeoutMs} ms`);
      throw refusalOf(error, signal);
    } finally {
      win.clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      // A request that gave no receipt used nothing: the same consent may be asked for again.
      if (!accepted) used.delete(challengeText);
    }
  }

  return {
    origin,
    applies: (tool) => consentModeOf(consent, tool) !== 'click',
    possible,
    enrolled,
    verify,
    async check(receipt, expected) {
      const record = await enrolled();
      if (!record || !receipt || typeof receipt !== 'object') return false;
      const description = (receipt as Receipt).description as unknown as Record<string, unknown> | undefined;
      if (!description || typeof description !== 'object' || description.origin !== origin) return false;
      for (const [name, value] of Object.entries(expected)) {
        if (canonicalJson(description[name]) !== canonicalJson(value)) return false;
      }
      return (await checkReceipt(receipt as Receipt, record)) === null;
    },
    async unenrol(signal) {
      const record = await enrolled();
      if (!record) return;
      await verify({ kind: 'unenrol', origin, credentialId: record.credentialId }, signal);
      await store.delete(ENROLMENT_KEY);
    },
    async fingerprint() {
      const record = await enrolled();
      return record ? fingerprint(record) : null;
    },
  };
}
