/**
 * The confirmation dialog's templates: the request it shows (CONF-1..CONF-9, UV-1, UV-7, UV-9,
 * UNDO-2, AGENT-3) and the calls listed under it with the batch buttons (BATCH-1, BATCH-2). Pure
 * functions of a {@link ConfirmView}; the element decides, these only draw.
 * @module
 */
import { html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { ConfirmationRequest } from '../../src/confirmation-queue.js';
import { formatTime } from '../internal/format.js';
import { fillString, type AiOpsStrings } from '../internal/strings.js';

/** The buttons SAFE-7's guard holds back (BATCH-4, UV-18): their `data-action`. */
export const GUARDED_ACTIONS: ReadonlySet<string> = new Set(['approve', 'skip', 'approve-all', 'decline-all']);
/** Those whose key presses the guard holds back too (UV-18): the skip grants more than the call. */
export const KEY_GUARDED_ACTIONS: ReadonlySet<string> = new Set(['skip']);

/** What the dialog's templates draw from; the handlers run with the element as `this` (Lit binds them to the host). */
export interface ConfirmView {
  readonly text: AiOpsStrings;
  readonly request: ConfirmationRequest;
  /** A program drives the browser (AGENT-3). */
  readonly automated: boolean;
  /** SAFE-7's guard is running. */
  readonly guarded: boolean;
  /** The calls listed under the dialog's (BATCH-1) and whether each has been on screen (BATCH-2). */
  readonly listed: readonly ConfirmationRequest[];
  readonly allSeen: boolean;
  /** The clock's time, for the times left. */
  readonly now: number;
  readonly on: {
    cancel(): void;
    action(event: MouseEvent): void;
    /** The skip action (UV-18): approves the call and skips this tool's later confirmations. */
    skip(event: MouseEvent): void;
    approveAll(event: MouseEvent): void;
    declineAll(event: MouseEvent): void;
    itemToggle(id: number, event: Event): void;
  };
}

/**
 * The title and summary of the user's own undo, in the element's strings (UNDO-2).
 * @example const { title, summary } = undoContent(request, text);
 */
export function undoContent(request: ConfirmationRequest, text: AiOpsStrings): { title: string; summary: string } {
  const { later, edited } = request.undo!;
  const changes = later.map((row) => fillString(text.confirmUndoLaterRow, { name: row.name, time: formatTime(row.time) }).join(''));
  if (edited) changes.push(text.confirmUndoEdited);
  return {
    title: fillString(text.confirmUndoTitle, { name: request.name }).join(''),
    summary: fillString(text.confirmUndoLater, { changes: changes.join(text.confirmUndoSeparator) }).join(''),
  };
}

/**
 * The request the dialog shows: heading, body, the status line and the buttons — やめる, the
 * action, and the skip as its own action with its description (UV-18) — then the batch under them.
 * @example html`<dialog>${renderRequest(view)}</dialog>`
 */
export function renderRequest(view: ConfirmView) {
  const { text, request, on } = view;
  const { content } = request;
  const running = request.status === 'running';
  // UV-7: while the OS prompt is up, the action waits and やめる still declines.
  const verifying = request.status === 'verifying';
  const required = request.verification === 'required';
  // UNDO-2: the user's own undo is not an agent's call, and asking again later makes no sense for it.
  const byUser = request.by === 'user';
  const { title, summary } = byUser && request.undo ? undoContent(request, text) : content;
  // UV-18: which of the two approving buttons was pressed; the status says what is being signed.
  const busy = running || verifying;
  const busyLabel = html`<span class="spinner" part="spinner" aria-hidden="true"></span>${verifying ? text.confirmVerifying : text.confirmRunning}`;
  return html`
    <div class="panel">
      <h2 id="title" part="title" tabindex="-1">${title}</h2>
      <div class="body" part="body">
        <p>${fillString(byUser ? text.confirmUndoBy : text.confirmCalledBy, { name: html`<code part="operation">${request.name}</code>` })}</p>
        <p>${summary}</p>
        <p>${byUser ? text.confirmUndoFinal : content.undoable ? text.confirmUndoable : text.confirmIrreversible}</p>
        ${required ? html`<p class="automation" part="verification-notice">${text.confirmVerificationRequired}</p>`
          : view.automated ? html`<p class="automation" part="automation-notice">${text.confirmAutomated}</p>` : nothing}
        ${content.detail === undefined ? nothing : html`
          <details part="detail">
            <summary>${text.confirmDetail}</summary>
            <pre tabindex="0">${content.detail}</pre>
          </details>`}
      </div>
      <p class="status" part="verification-status" role="status">${verifying ? (request.skipFuture ? text.confirmVerifyingSkip : text.confirmVerifying) : ''}</p>
      <div class="actions" part="actions">
        <button type="button" class="cancel" part="button cancel-button" data-action="cancel" autofocus ?disabled=${running}
          @click=${on.cancel}>${text.confirmCancel}</button>
        <button type="button" class="action" part="button action-button" data-action="approve" ?disabled=${running}
          aria-disabled=${(view.guarded || verifying) && !running ? 'true' : nothing}
          aria-busy=${busy && !request.skipFuture ? 'true' : nothing} @click=${on.action}>${busy && !request.skipFuture ? busyLabel : content.actionLabel}</button>
        ${byUser ? nothing : html`<button type="button" class="skip" part="button skip-button" data-action="skip" ?disabled=${running}
          aria-disabled=${(view.guarded || verifying) && !running ? 'true' : nothing} aria-describedby="skip-note"
          aria-busy=${busy && request.skipFuture ? 'true' : nothing} @click=${on.skip}>${busy && request.skipFuture ? busyLabel : text.confirmSkipFuture}</button>
        <p class="choice" id="skip-note" part="skip-choice">${text.confirmSkipChosen}</p>`}
      </div>
      ${renderBatch(view)}
    </div>
  `;
}

/**
 * BATCH-1, BATCH-2: the count (a live region, in the tree while empty too, so a change is
 * announced), the labelled list of the calls behind the dialog's, and the two batch buttons after
 * the dialog's own in the tab order.
 * @example html`${renderBatch(view)}`
 */
export function renderBatch(view: ConfirmView) {
  const { text, listed, now, on } = view;
  const count = listed.length;
  const waiting = view.request.status === 'waiting';
  const offered = view.allSeen;
  return html`
    <p class="batch-count" id="batch-count" part="batch-count" role="status">${count ? fillString(text.confirmBatchCount, { count: String(count) }).join('') : ''}</p>
    ${count ? html`
      <ul class="batch" part="batch-list" aria-labelledby="batch-count">${repeat(listed, (r) => r.id, (r) => html`
        <li part="batch-item" data-id=${r.id}><details @toggle=${(e: Event) => on.itemToggle(r.id, e)}>
          <summary><code>${r.name}</code> ${r.by === 'user' && r.undo ? undoContent(r, text).summary : r.content.summary}
            <span class="meta">(${fillString(text.confirmBatchMeta, { tool: r.tool, seconds: String(Math.max(0, Math.ceil((r.expiresAt - now) / 1000))) }).join('')})</span></summary>
          <p><strong>${r.by === 'user' && r.undo ? undoContent(r, text).title : r.content.title}</strong></p>
          <p>${r.by === 'user' ? text.confirmUndoFinal : r.content.undoable ? text.confirmUndoable : text.confirmIrreversible}</p>
          ${r.content.detail === undefined ? nothing : html`<pre tabindex="0">${r.content.detail}</pre>`}
        </details></li>`)}
      </ul>
      ${offered ? nothing : html`<p class="hint" id="batch-hint" part="batch-hint">${text.confirmApproveAllHint}</p>`}
      <div class="actions" part="batch-actions">
        <button type="button" class="approve-all" part="button approve-all-button" data-action="approve-all" ?disabled=${!waiting}
          aria-disabled=${waiting && (view.guarded || !offered) ? 'true' : nothing}
          aria-describedby=${offered ? nothing : 'batch-hint'} @click=${on.approveAll}>${text.confirmApproveAll}</button>
        <button type="button" class="decline-all" part="button decline-all-button" data-action="decline-all" ?disabled=${!waiting}
          aria-disabled=${waiting && view.guarded ? 'true' : nothing} @click=${on.declineAll}>${text.confirmDeclineAll}</button>
      </div>` : nothing}
  `;
}
