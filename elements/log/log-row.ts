/**
 * What one row of `<ai-ops-log>` shows (LOG-3, LOG-4, LOG-6): its line — time, operation, marks,
 * argument summary, badge, result summary — and, expanded, its arguments and result in full. Text
 * only: every value goes into the template as text, never as HTML.
 * @module
 */
import { html, nothing } from 'lit';
import type { LogEntry, LogStatus } from '../../src/operation-log.js';
import type { ErrorCode } from '../../src/result.js';
import { DETAIL_CHARS, formatTime, type CutText } from '../internal/format.js';
import { fillString, type AiOpsStrings } from '../internal/strings.js';

/** Times are formatted once per entry object (a row renders often; an entry changed later is a new object with the same time). */
const rowTimes = new WeakMap<LogEntry, string>();

/** The row's time as it shows (HH:MM:SS). */
export const rowTime = (entry: LogEntry): string => {
  let time = rowTimes.get(entry);
  if (time === undefined) {
    time = formatTime(entry.time);
    rowTimes.set(entry, time);
  }
  return time;
};

/** The status badge's words. */
export const badgeText = (status: LogStatus, text: AiOpsStrings): string =>
  status === 'success' ? text.statusSuccess : status === 'declined' ? text.statusDeclined : text.statusFailure;

/** A row's operation, with the mark of the user's own undo (UNDO-3), as the live region says it. */
export const rowName = (entry: LogEntry, text: AiOpsStrings): string =>
  entry.by === 'user' ? `${entry.name} (${text.logByUser})` : entry.name;

/** Time, name, argument summary, badge, result summary (LOG-3). */
export function renderLine(entry: LogEntry, text: AiOpsStrings) {
  const ellipsis = (cut: CutText) => (cut.truncated ? '…' : '');
  return html`<span class="line">
    <time part="time" datetime=${new Date(entry.time).toISOString()}>${rowTime(entry)}</time>
    <span class="name" part="name">${entry.name}</span>
    ${entry.by === 'user' ? html`<span class="by" part="by">${text.logByUser}</span>` : nothing}
    ${entry.receipt ? html`<span class="by" part="verified">${text.logVerified}</span>` : nothing}
    ${entry.batch ? html`<span class="by" part="batch">${fillString(text.logBatch, { count: String(entry.batch.size) }).join('')}</span>` : nothing}
    <span class="args-summary" part="args-summary">${entry.argsSummary.text}${ellipsis(entry.argsSummary)}</span>
    <span class="badge ${entry.status}" part="badge badge-${entry.status}">${badgeText(entry.status, text)}</span>
    <span class="result-summary" part="result-summary">${resultText(entry, text) ?? html`${entry.resultSummary.text}${ellipsis(entry.resultSummary)}`}</span>
  </span>`;
}

/** FIRST-4: the strings' key of each envelope code's sentence. */
const codeSentences: Record<ErrorCode, keyof AiOpsStrings> = {
  invalid_input: 'logCodeInvalidInput',
  not_found: 'logCodeNotFound',
  too_large: 'logCodeTooLarge',
  not_ready: 'logCodeNotReady',
  declined: 'logCodeDeclined',
  timeout: 'logCodeTimeout',
  failed: 'logCodeFailed',
};

/**
 * FIRST-4: what a failed row says in the page's language, for its envelope code; null for a
 * success (its fields are the agent's data, shown as they are). The message written for the agent
 * stays under the row's 「詳細」 ({@link renderRaw}).
 */
export const resultText = (entry: LogEntry, text: AiOpsStrings): string | null =>
  entry.code === null ? null : (text[codeSentences[entry.code]] as string | undefined) ?? null;

/**
 * FIRST-4: a failed row's 「詳細」, a native disclosure outside the row's summary (a disclosure
 * inside another's summary is not reachable by keyboard) holding the result as the agent got it.
 * Its text is written only while open: a closed one costs a row nothing.
 */
export function renderRaw(entry: LogEntry, text: AiOpsStrings, open: boolean, onToggle: (event: Event) => void) {
  // In a <div>: the row's own <details> stays its only <details> child (what styles and pages select).
  return html`<div class="raw"><details part="result-details" ?open=${open} @toggle=${onToggle}>
    <summary part="result-details-summary">${text.logRawDetails}</summary>
    ${open ? html`<pre part="result-raw" tabindex="0">${entry.result.text}</pre>` : nothing}
  </details></div>`;
}

/** Arguments and result in full, each cut at 10,000 characters when logged (LOG-4), as text (LOG-6). */
export function renderFull(entry: LogEntry, text: AiOpsStrings) {
  const block = (label: string, part: string, cut: CutText) => html`
    <p class="field">${label}</p>
    <pre part=${part} tabindex="0">${cut.text}</pre>
    ${cut.truncated ? html`<p class="note">${fillString(text.logTruncated, { count: DETAIL_CHARS.toLocaleString('en-US') }).join('')}</p>` : nothing}
  `;
  return html`
    <p class="field" part="via">${fillString(text.logVia, { via: channelText(entry.via, text) }).join('')}</p>
    ${block(text.logArguments, 'args', entry.args)}
    ${block(text.logResult, 'result', entry.result)}
  `;
}

/**
 * DOOR-10: the channel a row's call came by, in words: the relay with the agent it names, the
 * browser's own WebMCP, a browser agent (the polyfill's registry), the page's script, the user.
 */
export function channelText(via: LogEntry['via'], text: AiOpsStrings): string {
  if (via.startsWith('relay ')) return fillString(text.logViaRelayClient, { client: via.slice('relay '.length) }).join('');
  const words: Record<string, string> = {
    relay: text.logViaRelay, webmcp: text.logViaWebmcp, polyfill: text.logViaPolyfill, page: text.logViaPage, user: text.logViaUser,
  };
  return words[via] ?? via;
}
