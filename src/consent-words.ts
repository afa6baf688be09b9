/**
 * What a refused verification says (UV-4, UV-10): under the switch, a code and values the
 * elements' strings word (why it stayed off and what to do, in the page's language); to the agent,
 * in English, why its call was declined. The gate (`consent-gate.ts`) decides; this only says it.
 * @module
 */
import { VerificationRefused, isIpLiteral, type RefusalReason } from './user-verifier.js';

/** UV-10's refusal: verifications of the tool rest for `leftMs`. */
export class CoolingDown extends VerificationRefused {
  constructor(readonly leftMs: number) {
    super('cooldown', `two verifications in a row were not completed: none is asked for ${Math.ceil(leftMs / 1000)} s`);
  }
}

/**
 * Which sentence the switch shows for a refused consent (UV-4): the key of the elements' strings
 * (`elements/strings.ts`, `elements/strings-en.ts`) that words it, so a page in English reads
 * English. `consentStoredOnUnverified` is UV-3's stored "on" whose receipt did not check.
 */
export type ConsentNoticeCode =
  | 'consentUnavailable' | 'consentOrigin' | 'consentOriginByName' | 'consentCancelled' | 'consentTimeout'
  | 'consentInvalid' | 'consentAborted' | 'consentCooldown' | 'consentStoredOnUnverified'
  // UV-15: WebAuthn replaced; UV-14: the records were reset behind the page's back (with or without the key the page knew).
  | 'consentReplaced' | 'consentReset' | 'consentResetKey';

/**
 * Why the switch stayed off, for the person (UV-4): a code, the values its sentence names
 * (`origin`: where to open the page; `seconds`: the rest left), and whether the browser says a
 * program drives it (the sentence then starts with `consentAutomated`, AGENT-3's wording).
 */
export interface ConsentNotice {
  readonly code: ConsentNoticeCode;
  readonly values: Readonly<Record<string, string>>;
  readonly automated: boolean;
}

/** A refused consent: `message` is for the developer (English), `notice` for the switch's words. */
export class ConsentRefused extends Error {
  constructor(readonly notice: ConsentNotice) {
    super(`ai-ops: consent refused (${notice.code}): ${DEVELOPER_MESSAGES[notice.code]}`);
    this.name = 'ConsentRefused';
  }
}

/** The developer's reading of each notice (the console, `ToolSessionState.error`). */
const DEVELOPER_MESSAGES: Record<ConsentNoticeCode, string> = {
  consentUnavailable: 'this browser and device offer no user verification (passkey, fingerprint, PIN)',
  consentOrigin: 'this address cannot hold a credential; open the page at the address in notice.values.origin',
  consentOriginByName: 'an IP address cannot hold a credential; open the page at a named (https) address',
  consentCancelled: 'the user verification was cancelled, so the switch stayed off',
  consentTimeout: 'the user verification got no answer in time, so the switch stayed off',
  consentInvalid: 'the user verification\'s result did not check, so the switch stayed off',
  consentAborted: 'the user verification was aborted',
  consentCooldown: 'verification did not complete twice in a row, so none is asked for notice.values.seconds s',
  consentStoredOnUnverified: 'the stored "on" has no receipt that checks, so the switch stays off',
  consentReplaced: 'navigator.credentials is not the browser\'s own WebAuthn (something replaced it), so nothing was asked and the switch stayed off',
  consentReset: 'the consent records were reset or written behind the page\'s back; the next switch-on enrols this device again, verified',
  consentResetKey: 'the consent records were reset or written behind the page\'s back (the key the page knew: notice.values.fingerprint); the next switch-on enrols again, verified',
};

const CODES: Record<RefusalReason, ConsentNoticeCode> = {
  unavailable: 'consentUnavailable',
  origin: 'consentOrigin',
  cancelled: 'consentCancelled',
  timeout: 'consentTimeout',
  invalid: 'consentInvalid',
  aborted: 'consentAborted',
  cooldown: 'consentCooldown',
  replaced: 'consentReplaced',
};

/**
 * Where the page should be opened for verification to work (UV-4): `http://localhost:<port>` for a
 * loopback IP literal, the same address on `https:` for a name; null for any other IP literal,
 * which cannot hold a credential on any scheme and whose name the page cannot know.
 * @example whereToOpen('http://127.0.0.1:8000/sql/') // 'http://localhost:8000/sql/'
 */
export function whereToOpen(href: string): string | null {
  const url = new URL(href);
  if (isIpLiteral(url.hostname)) {
    if (!/^(127\.|\[::1\])/.test(url.hostname)) return null;
    url.hostname = 'localhost';
  } else url.protocol = 'https:';
  return url.href;
}

/**
 * What a refusal shows under the switch (UV-4): its code and values, with the AGENT-3 first
 * sentence where a program says it drives the browser. The origin refusal names where to open the
 * page, or asks for a named address where the page knows none (another machine's IP address).
 * @example refusalNotice(new VerificationRefused('timeout', 'x'), false) // { code: 'consentTimeout', values: { origin: …, seconds: '60' }, automated: false }
 */
export function refusalNotice(error: unknown, automated: boolean, href = globalThis.location?.href ?? ''): ConsentNotice {
  const reason = error instanceof VerificationRefused ? error.reason : 'cancelled';
  const seconds = String(error instanceof CoolingDown ? Math.ceil(error.leftMs / 1000) : 60);
  const where = href ? whereToOpen(href) : 'http://localhost';
  const code = reason === 'origin' && where === null ? 'consentOriginByName' : CODES[reason];
  return { code, values: { origin: where ?? '', seconds }, automated };
}

/** UV-4, UV-10: what the agent is told when a press was not backed by the user's verification. */
export function unverifiedMessage(error: unknown): string {
  const reason = error instanceof VerificationRefused ? error.reason : 'invalid';
  const rest = 'the call was not approved; do not call it again unless the user asks for it';
  switch (reason) {
    case 'cooldown': return `not asked: the user's verification did not complete twice in a row for this tool, so the page asks for none for ${Math.ceil((error as CoolingDown).leftMs / 1000)} s; ${rest}`;
    case 'timeout': return `nobody answered the platform's user verification in time; ${rest}`;
    case 'cancelled': return `the platform's user verification was cancelled or failed; ${rest}`;
    case 'replaced': return `this page's WebAuthn is not the browser's own (something replaced navigator.credentials), so nothing was asked; ${rest}`;
    case 'origin': case 'unavailable': return `this page cannot verify its user here (${reason}), so no confirmation can be approved; ${rest}`;
    default: return `the approval was not verified (${reason}); ${rest}`;
  }
}

