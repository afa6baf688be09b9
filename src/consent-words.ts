/**
 * What a refused verification says (UV-4, UV-10): under the switch, in the page's words, why it
 * stayed off and what to do; to the agent, why its call was declined. The gate (`consent-gate.ts`)
 * decides; this only words it.
 * @module
 */
import { VerificationRefused, isIpLiteral, type RefusalReason } from './user-verifier.js';

/** UV-10's refusal: verifications of the tool rest for `leftMs`. */
export class CoolingDown extends VerificationRefused {
  constructor(readonly leftMs: number) {
    super('cooldown', `two verifications in a row were not completed: none is asked for ${Math.ceil(leftMs / 1000)} s`);
  }
}

/** UV-4's first sentence where the browser says a program drives it (AGENT-3's wording, UV-2). */
export const AUTOMATED_NEEDS_VERIFICATION =
  'このブラウザーはプログラムから操作されています。オンにするには、指紋や PIN などの本人確認が必要です。';

/** UV-4: why each refusal happened and what to do, in the page's words. `{origin}` is where to open the page instead. */
const REFUSALS: Record<RefusalReason, string> = {
  unavailable: 'このブラウザーとこの端末では本人確認 (パスキー、指紋、PIN) を使えません。セキュリティキーをつなぐか、スマートフォンのパスキーを使ってください。',
  origin: 'このアドレスでは本人確認を使えません。{origin} で開いてください。',
  cancelled: '本人確認が取り消されたため、オンにしませんでした。',
  timeout: '本人確認に時間内に答えがなかったため、オンにしませんでした。',
  invalid: '本人確認の結果を確かめられなかったため、オンにしませんでした。',
  aborted: '本人確認が中断されました。',
  cooldown: '本人確認が続けて完了しなかったため、{seconds} 秒のあいだ本人確認を求めません。その後でもう一度オンにしてください。',
};

/** UV-3: a stored "on" whose receipt does not check reads as off, and says so. */
export const STORED_ON_UNVERIFIED = '保存されていた「オン」には確かめられる本人確認の記録がないため、オフのままにしました。もう一度オンにしてください。';

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

/** UV-4's origin refusal where the page knows no address to name: another machine's IP address. */
const ORIGIN_BY_NAME = 'このアドレスでは本人確認を使えません。IP アドレスではなく、名前のついたアドレス (https://…) で開いてください。';

/** The sentence a refusal shows under the switch (UV-4), with the AGENT-3 first sentence where a program says it drives the browser. */
export function refusalText(error: unknown, automated: boolean, href = globalThis.location?.href ?? ''): string {
  const reason = error instanceof VerificationRefused ? error.reason : 'cancelled';
  const seconds = error instanceof CoolingDown ? Math.ceil(error.leftMs / 1000) : 60;
  const where = href ? whereToOpen(href) : 'http://localhost';
  const text = reason === 'origin' && where === null ? ORIGIN_BY_NAME
    : REFUSALS[reason].replace('{origin}', where ?? '').replace('{seconds}', String(seconds));
  return automated ? `${AUTOMATED_NEEDS_VERIFICATION} ${text}` : text;
}

/** UV-4, UV-10: what the agent is told when a press was not backed by the user's verification. */
export function unverifiedMessage(error: unknown): string {
  const reason = error instanceof VerificationRefused ? error.reason : 'invalid';
  const rest = 'the call was not approved; do not call it again unless the user asks for it';
  switch (reason) {
    case 'cooldown': return `not asked: the user's verification did not complete twice in a row for this tool, so the page asks for none for ${Math.ceil((error as CoolingDown).leftMs / 1000)} s; ${rest}`;
    case 'timeout': return `nobody answered the platform's user verification in time; ${rest}`;
    case 'cancelled': return `the platform's user verification was cancelled or failed; ${rest}`;
    case 'origin': case 'unavailable': return `this page cannot verify its user here (${reason}), so no confirmation can be approved; ${rest}`;
    default: return `the approval was not verified (${reason}); ${rest}`;
  }
}

