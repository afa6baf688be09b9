/**
 * `<ai-ops-confirm>`: the page's confirmation dialog (CONF-1..CONF-9).
 * @module
 */
import { css, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import { repeat } from 'lit/directives/repeat.js';
import type { TimerHandle } from '../src/clock.js';
import type { ConfirmationRequest, ConfirmationState } from '../src/confirmation-queue.js';
import { AiOpsPanel } from './ai-ops-panel.js';
import { AiOpsConfirmApproveEvent, AiOpsConfirmDeclineEvent, type AiOpsDeclineReason } from './events.js';
import { PointerGuardController } from './pointer-guard.js';
import { StoreController } from './store-controller.js';
import { formatTime } from './format.js';
import { fillString, type AiOpsStrings } from './strings.js';

/** The title and summary of the user's own undo, in the element's strings (UNDO-2). */
function undoContent(request: ConfirmationRequest, text: AiOpsStrings): { title: string; summary: string } {
  const { later, edited } = request.undo!;
  const changes = later.map((row) => fillString(text.confirmUndoLaterRow, { name: row.name, time: formatTime(row.time) }).join(''));
  if (edited) changes.push(text.confirmUndoEdited);
  return {
    title: fillString(text.confirmUndoTitle, { name: request.name }).join(''),
    summary: fillString(text.confirmUndoLater, { changes: changes.join(text.confirmUndoSeparator) }).join(''),
  };
}

/**
 * How long the action button ignores pointer input after a dialog appears (SAFE-7), as browsers'
 * own permission prompts do: a user clicking where the dialog opens does not approve unread.
 * @example el.pointerGuardMs = POINTER_GUARD_MS;
 */
export const POINTER_GUARD_MS = 750;

/**
 * @summary The confirmation dialog of the page: a native modal `<dialog>` showing the request at
 * the head of the runtime's confirmation queue, one at a time. Place one per page.
 * @tagname ai-ops-confirm
 *
 * The action button approves only on a trusted event (input the browser delivered), so a script
 * on the page calling `click()` cannot approve. A pointer press on it counts only when it begins
 * `pointerGuardMs` (750 ms) or more after the dialog appeared or the page became visible again
 * (SAFE-7); until then the button is `aria-disabled`. Focus starts on やめる and the keyboard is not
 * delayed: reaching the action takes a Tab, so Enter or Space on it approves at once.
 * When `navigator.webdriver` is true (a program drives the browser), the body says that the
 * program could press the button itself (AGENT-3): a page cannot tell its clicks from a person's.
 * やめる, Esc and a click on the backdrop decline while the request waits; after approval the
 * dialog shows loading and stays until the operation ends.
 * While other calls wait behind it (any tool of the page), the dialog lists them under its own
 * buttons, each openable to its full content, with the time left of its 50 s (BATCH-1); 「すべて承認」
 * and 「すべてやめる」 decide the dialog's call and exactly the listed ones (BATCH-2). 「すべて承認」 is
 * `aria-disabled` until every listed item has been on screen or opened; both follow SAFE-7's guard.
 *
 * @event {AiOpsConfirmApproveEvent} ai-ops-confirm-approve - The user approved;
 *   `detail: {id, tool, name, skipFuture}`.
 * @event {AiOpsConfirmDeclineEvent} ai-ops-confirm-decline - The user declined;
 *   `detail: {id, tool, name, reason}` with reason `cancel`, `escape` or `backdrop`.
 *
 * @csspart dialog - The `<dialog>`.
 * @csspart title - The heading (the operation's title).
 * @csspart body - The sentences under the heading.
 * @csspart operation - The operation name in the body.
 * @csspart automation-notice - The sentence shown when a program drives the browser (AGENT-3).
 * @csspart verification-notice - The sentence shown when approving needs the user's verification (UV-1).
 * @csspart verification-status - The live region that says 「本人確認を待っています」 while the OS prompt is up (UV-7).
 * @csspart skip-choice - Beside the action button while 「今後尋ねない」 is ticked: what approving then grants (UV-9).
 * @csspart detail - The disclosure with the full content handed in.
 * @csspart skip - The label of the 「このページでは今後尋ねない」 checkbox.
 * @csspart checkbox - That checkbox.
 * @csspart actions - The row of buttons.
 * @csspart button - Both buttons.
 * @csspart cancel-button - やめる.
 * @csspart action-button - The action (danger) button.
 * @csspart spinner - The spinner in the action button while running.
 * @csspart batch-count - 「ほかに N 件が待っています」, a live region: the count is announced when it changes (BATCH-1).
 * @csspart batch-list - The labelled list of the calls waiting behind the dialog's (BATCH-1).
 * @csspart batch-item - One of them: a disclosure with its full confirmation content.
 * @csspart batch-hint - Until every listed call has been on screen: why 「すべて承認」 waits (BATCH-2).
 * @csspart batch-actions - The row of 「すべて承認」 and 「すべてやめる」 (BATCH-2).
 * @csspart approve-all-button - 「すべて承認」, offered once every listed call has been on screen.
 * @csspart decline-all-button - 「すべてやめる」.
 *
 * @cssproperty --ai-ops-danger - The action button's background.
 * @cssproperty --ai-ops-on-danger - The action button's text.
 * @cssproperty --ai-ops-backdrop - The backdrop colour.
 * @cssproperty --ai-ops-dialog-width - The dialog's maximum width.
 * @cssproperty --ai-ops-surface - The dialog's background.
 * @cssproperty --ai-ops-border - Borders.
 * @cssproperty --ai-ops-radius - Corner radius.
 *
 * @example
 * <ai-ops-confirm></ai-ops-confirm>
 */
export class AiOpsConfirm extends AiOpsPanel {
  static override styles = [...AiOpsPanel.styles, css`
    :host {
      display: contents;
    }
    dialog {
      width: calc(100vw - 2rem);
      max-width: var(--ai-ops-dialog-width, 34rem);
      max-height: calc(100vh - 2rem);
      padding: 0;
      border: 1px solid var(--_border);
      border-radius: calc(var(--_radius) * 1.5);
      background: var(--_surface);
      color: var(--_text);
      box-shadow: 0 12px 32px rgb(0 0 0 / 0.25);
    }
    dialog::backdrop {
      background: var(--ai-ops-backdrop, rgb(0 0 0 / 0.45));
    }
    .panel {
      display: flex;
      flex-direction: column;
      gap: 0.75rem;
      padding: 1.25rem;
    }
    h2 {
      margin: 0;
      font-size: 1.0625rem;
      line-height: 1.4;
      overflow-wrap: anywhere;
    }
    h2:focus {
      outline: none;
    }
    .body p {
      margin: 0 0 0.5rem;
      line-height: 1.6;
      overflow-wrap: anywhere;
    }
    code {
      padding: 0.05rem 0.3rem;
      border-radius: 4px;
      background: var(--_subtle);
    }
    details summary {
      cursor: pointer;
    }
    details pre {
      max-height: 16rem;
      margin: 0.5rem 0 0;
      padding: 0.5rem;
      overflow: auto;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: var(--_subtle);
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    .skip {
      display: inline-flex;
      align-items: center;
      gap: 0.5rem;
      cursor: pointer;
    }
    .skip input {
      margin: 0;
    }
    /* Always in the tree, so that the words put in it are announced (UV-7). */
    .status {
      margin: 0;
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      justify-content: flex-end;
      align-items: center;
      gap: 0.5rem;
    }
    /* UV-9: what the ticked box makes the approval grant, read right after the button it changes. */
    .choice {
      flex-basis: 100%;
      margin: 0;
      text-align: end;
      font-size: 0.875em;
    }
    button {
      display: inline-flex;
      align-items: center;
      gap: 0.4rem;
      min-height: 2.25rem;
      padding: 0.4rem 1rem;
    }
    button.action {
      border-color: var(--_danger);
      background: var(--_danger);
      color: var(--_on-danger);
    }
    button:disabled, button[aria-disabled='true'] {
      cursor: default;
    }
    button.action[aria-disabled='true'] {
      opacity: 0.6;
    }
    .automation {
      padding: 0.5rem 0.75rem;
      border-left: 3px solid var(--_danger);
      border-radius: var(--_radius);
      background: var(--_subtle);
    }
    button.cancel:disabled {
      color: var(--_muted);
    }
    .spinner {
      width: 0.875rem;
      height: 0.875rem;
      border: 2px solid currentColor;
      border-right-color: transparent;
      border-radius: 50%;
      animation: spin 0.8s linear infinite;
    }
    @keyframes spin {
      to {
        transform: rotate(360deg);
      }
    }
    .batch-count {
      margin: 0;
      font-weight: 600;
    }
    .batch-count:empty {
      display: none;
    }
    .batch {
      max-height: 14rem;
      margin: 0;
      padding: 0;
      overflow: auto;
      list-style: none;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
    }
    .batch li {
      padding: 0.4rem 0.6rem;
      border-top: 1px solid var(--_border);
    }
    .batch li:first-child {
      border-top: none;
    }
    .batch summary {
      overflow-wrap: anywhere;
    }
    .batch .meta {
      color: var(--_muted);
    }
    .batch li p {
      margin: 0.4rem 0 0;
    }
    .hint {
      margin: 0;
      color: var(--_muted);
    }
    @media (prefers-reduced-motion: reduce) {
      .spinner {
        animation: none;
      }
    }
  `];

  // No decorators: esbuild's decorator helper would land in a chunk the switch loads (PKG-4).
  static override properties: PropertyDeclarations = {
    pointerGuardMs: { type: Number, attribute: 'pointer-guard-ms' },
    automated: { attribute: false },
  };

  private get dialog(): HTMLDialogElement {
    return this.renderRoot.querySelector('dialog')!;
  }
  private get cancelButton(): HTMLButtonElement | null {
    return this.renderRoot.querySelector('.cancel');
  }
  private get skipCheckbox(): HTMLInputElement | null {
    return this.renderRoot.querySelector('.skip input');
  }
  private get heading(): HTMLElement | null {
    return this.renderRoot.querySelector('h2');
  }

  /**
   * Milliseconds after the dialog appears (or the page becomes visible again) during which a
   * pointer press on the action button is ignored (SAFE-7). 0 turns the guard off.
   */
  pointerGuardMs = POINTER_GUARD_MS;

  /**
   * Whether a program drives the browser, which the dialog then says (AGENT-3). Default:
   * `navigator.webdriver`.
   */
  automated?: boolean;

  private readonly queue = new StoreController<ConfirmationState>(this);
  private readonly guard = new PointerGuardController(this, {
    clock: () => this.clock,
    ms: () => this.pointerGuardMs,
    waiting: () => this.request?.status === 'waiting',
  });
  /** The request the guard was last started for. */
  private guardedId: number | null = null;
  /** The ids listed under it when last rendered. */
  private guardedList = '';
  /** 「このページでは今後尋ねない」 is ticked: the approval also grants the skip, shown beside the button (UV-9). */
  private skipChosen = false;
  /** The request the dialog shows, and in which status it was last rendered. */
  private shown: ConfirmationRequest | null = null;
  /** A pointer press that started on the backdrop; a click counts only when it also ends there. */
  private pressedOnBackdrop = false;
  /** The calls listed under the dialog's as last rendered: 「すべて承認」 decides exactly these (BATCH-2). */
  private listed: readonly ConfirmationRequest[] = [];
  /** Listed calls that have been on screen (scrolled into view, or opened) for 750 ms (BATCH-2, UV-11). */
  private readonly seen = new Set<number>();
  /** Listed calls on screen now, not yet for 750 ms: the timer that marks each seen. */
  private readonly showing = new Map<number, TimerHandle>();
  private observer: IntersectionObserver | null = null;
  /** The once-a-second render of the times left (BATCH-1). */
  private tick: unknown = null;

  /** The request the dialog shows, or null while closed. */
  get request(): ConfirmationRequest | null {
    return this.queue.value?.current ?? null;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.queue.setStore(this.runtime.confirmations);
    const id = this.request?.id ?? null;
    // A new dialog is about to appear (updated() shows it in this same task): its guard starts now.
    // UV-9, UV-11: a changed decision re-arms the guard too — the list 「すべて承認」 would decide.
    const listedIds = (this.queue.value?.queued ?? []).map((r) => r.id).join(',');
    if (id !== this.guardedId) {
      this.guardedId = id;
      this.skipChosen = false;
      if (id === null) this.guard.stop();
      else this.guard.start();
    } else if (id !== null && listedIds !== this.guardedList && this.request?.status === 'waiting') {
      this.guard.start();
    }
    this.guardedList = listedIds;
  }

  private get isAutomated(): boolean {
    return this.automated ?? globalThis.navigator?.webdriver === true;
  }

  /** True once every listed call has been on screen: only then is 「すべて承認」 offered (BATCH-2). */
  private get allSeen(): boolean {
    return this.listed.every((r) => this.seen.has(r.id));
  }

  protected override render() {
    const request = this.request;
    this.listed = request ? this.queue.value!.queued : [];
    return html`
      <dialog
        part="dialog"
        aria-labelledby=${request ? 'title' : nothing}
        @cancel=${this.onCancelEvent}
        @close=${this.onClose}
        @pointerdown=${this.onPointerDown}
        @click=${this.onDialogClick}
      >${request ? keyed(request.id, this.renderRequest(request)) : nothing}</dialog>
    `;
  }

  private renderRequest(request: ConfirmationRequest) {
    const { text } = this;
    const { content } = request;
    const running = request.status === 'running';
    // UV-7: while the OS prompt is up, the action waits and やめる still declines.
    const verifying = request.status === 'verifying';
    const required = request.verification === 'required';
    // UNDO-2: the user's own undo is not an agent's call, and asking again later makes no sense for it.
    const byUser = request.by === 'user';
    const { title, summary } = byUser && request.undo ? undoContent(request, text) : content;
    return html`
      <div class="panel">
        <h2 id="title" part="title" tabindex="-1">${title}</h2>
        <div class="body" part="body">
          <p>${fillString(byUser ? text.confirmUndoBy : text.confirmCalledBy, { name: html`<code part="operation">${request.name}</code>` })}</p>
          <p>${summary}</p>
          <p>${byUser ? text.confirmUndoFinal : content.undoable ? text.confirmUndoable : text.confirmIrreversible}</p>
          ${required ? html`<p class="automation" part="verification-notice">${text.confirmVerificationRequired}</p>`
            : this.isAutomated ? html`<p class="automation" part="automation-notice">${text.confirmAutomated}</p>` : nothing}
          ${content.detail === undefined ? nothing : html`
            <details part="detail">
              <summary>${text.confirmDetail}</summary>
              <pre tabindex="0">${content.detail}</pre>
            </details>`}
        </div>
        ${byUser ? nothing : html`<label class="skip" part="skip">
          <input type="checkbox" part="checkbox" ?disabled=${running || verifying} @change=${this.onSkipChange} />${text.confirmSkipFuture}
        </label>`}
        <p class="status" part="verification-status" role="status">${verifying ? text.confirmVerifying : ''}</p>
        <div class="actions" part="actions">
          <button type="button" class="cancel" part="button cancel-button" autofocus ?disabled=${running}
            @click=${this.onCancelClick}>${text.confirmCancel}</button>
          <button type="button" class="action" part="button action-button" ?disabled=${running}
            aria-disabled=${(this.guard.active || verifying) && !running ? 'true' : nothing}
            aria-busy=${running || verifying ? 'true' : nothing} @click=${this.onAction}>${running || verifying
              ? html`<span class="spinner" part="spinner" aria-hidden="true"></span>${verifying ? text.confirmVerifying : text.confirmRunning}`
              : content.actionLabel}</button>
          ${this.skipChosen && !byUser ? html`<p class="choice" part="skip-choice">${text.confirmSkipChosen}</p>` : nothing}
        </div>
        ${this.renderBatch(request)}
      </div>
    `;
  }

  /**
   * BATCH-1, BATCH-2: the count (a live region, in the tree while empty too, so a change is
   * announced), the labelled list of the calls behind the dialog's, and the two batch buttons after
   * the dialog's own in the tab order.
   */
  private renderBatch(request: ConfirmationRequest) {
    const { text, listed } = this;
    const count = listed.length;
    const now = this.clock.now();
    const waiting = request.status === 'waiting';
    const offered = this.allSeen;
    return html`
      <p class="batch-count" id="batch-count" part="batch-count" role="status">${count ? fillString(text.confirmBatchCount, { count: String(count) }).join('') : ''}</p>
      ${count ? html`
        <ul class="batch" part="batch-list" aria-labelledby="batch-count">${repeat(listed, (r) => r.id, (r) => html`
          <li part="batch-item" data-id=${r.id}><details @toggle=${(e: Event) => this.onItemToggle(r.id, e)}>
            <summary><code>${r.name}</code> ${r.by === 'user' && r.undo ? undoContent(r, text).summary : r.content.summary}
              <span class="meta">(${fillString(text.confirmBatchMeta, { tool: r.tool, seconds: String(Math.max(0, Math.ceil((r.expiresAt - now) / 1000))) }).join('')})</span></summary>
            <p><strong>${r.by === 'user' && r.undo ? undoContent(r, text).title : r.content.title}</strong></p>
            <p>${r.by === 'user' ? text.confirmUndoFinal : r.content.undoable ? text.confirmUndoable : text.confirmIrreversible}</p>
            ${r.content.detail === undefined ? nothing : html`<pre tabindex="0">${r.content.detail}</pre>`}
          </details></li>`)}
        </ul>
        ${offered ? nothing : html`<p class="hint" id="batch-hint" part="batch-hint">${text.confirmApproveAllHint}</p>`}
        <div class="actions" part="batch-actions">
          <button type="button" class="approve-all" part="button approve-all-button" ?disabled=${!waiting}
            aria-disabled=${waiting && (this.guard.active || !offered) ? 'true' : nothing}
            aria-describedby=${offered ? nothing : 'batch-hint'} @click=${this.onApproveAll}>${text.confirmApproveAll}</button>
          <button type="button" class="decline-all" part="button decline-all-button" ?disabled=${!waiting}
            aria-disabled=${waiting && this.guard.active ? 'true' : nothing} @click=${this.onDeclineAll}>${text.confirmDeclineAll}</button>
        </div>` : nothing}
    `;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.observer?.disconnect();
    this.observer = null;
    for (const id of [...this.showing.keys()]) this.stopShowing(id);
    this.stopTick();
  }

  private stopTick(): void {
    if (this.tick !== null) this.clock.clearTimeout(this.tick as never);
    this.tick = null;
  }

  /**
   * BATCH-2, UV-11: a listed item counts as seen once it has stayed in view (inside the list's
   * scroll box) or open for SAFE-7's 750 ms: an item that flashes by, or that a program opens and
   * approves in the same moment, is not approvable yet.
   */
  private watchItems(): void {
    const items = [...this.renderRoot.querySelectorAll<HTMLElement>('.batch li')];
    const ids = new Set(this.listed.map((r) => r.id));
    for (const id of this.seen) if (!ids.has(id)) this.seen.delete(id);
    for (const id of [...this.showing.keys()]) if (!ids.has(id)) this.stopShowing(id);
    if (typeof IntersectionObserver !== 'function') return;
    this.observer ??= new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const id = Number((entry.target as HTMLElement).dataset.id);
        if (entry.isIntersecting) this.startShowing(id);
        else if (!(entry.target.querySelector('details')?.open)) this.stopShowing(id);
      }
    }, { threshold: 0.5 });
    for (const item of items) if (!this.seen.has(Number(item.dataset.id))) this.observer.observe(item);
  }

  /** The item `id` is in view (or open): seen once that has lasted {@link POINTER_GUARD_MS}. */
  private startShowing(id: number): void {
    if (this.seen.has(id) || this.showing.has(id)) return;
    this.showing.set(id, this.clock.setTimeout(() => {
      this.showing.delete(id);
      this.seen.add(id);
      const item = this.renderRoot.querySelector(`.batch li[data-id="${id}"]`);
      if (item) this.observer?.unobserve(item);
      this.requestUpdate();
    }, POINTER_GUARD_MS));
  }

  private stopShowing(id: number): void {
    if (!this.showing.has(id)) return;
    this.clock.clearTimeout(this.showing.get(id));
    this.showing.delete(id);
  }

  private onItemToggle(id: number, event: Event): void {
    if ((event.target as HTMLDetailsElement).open) this.startShowing(id);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved in the document: render again so a shown request gets its modal dialog back.
    if (this.hasUpdated) this.requestUpdate();
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    const request = this.request;
    const { dialog } = this;
    const previous = this.shown;
    this.shown = request;
    this.watchItems();
    // BATCH-1: the times left count down while calls are listed.
    if (request && this.listed.length) {
      this.tick ??= this.clock.setTimeout(() => {
        this.tick = null;
        this.requestUpdate();
      }, 1000);
    } else this.stopTick();
    if (!request) {
      if (dialog.open) dialog.close();
      return;
    }
    // Lit renders in a microtask and showModal needs no frame: this opens in a background tab too (CONF-9).
    // A dialog that was open when this element left the document is back as a non-modal one.
    if (!dialog.matches(':modal')) {
      if (dialog.open) dialog.close();
      dialog.showModal();
    }
    if (previous?.id !== request.id) {
      // A new request (CONF-7): the checkbox was rendered fresh (unchecked) and focus starts on やめる;
      // the next call of an approved batch is already running, so its title takes focus (BATCH-2).
      if (request.status === 'running') this.heading?.focus();
      else this.cancelButton?.focus();
    } else if (request.status === 'running' && previous.status !== 'running') {
      // The focused button was just disabled: keep focus inside the dialog, on its title.
      this.heading?.focus();
    }
  }

  private decline(reason: AiOpsDeclineReason): void {
    const request = this.request;
    if (!request || request.status === 'running') return;
    this.runtime.capabilities.getState()?.decide.decline(request.id);
    const declined = new AiOpsConfirmDeclineEvent({ id: request.id, tool: request.tool, name: request.name, reason });
    this.dispatchEvent(declined);
  }

  /** UV-9: ticking or unticking 「今後尋ねない」 changes what the action grants: the guard starts again. */
  private onSkipChange(event: Event): void {
    this.skipChosen = (event.target as HTMLInputElement).checked;
    this.guard.start();
    this.requestUpdate();
  }

  private onCancelClick(): void {
    this.decline('cancel');
  }

  private onAction(event: MouseEvent): void {
    const request = this.request;
    // A page script can call click() on this button; only input the browser delivered approves.
    if (!request || request.status !== 'waiting' || !event.isTrusted) return;
    // SAFE-7: focus starts on やめる, so reaching this button by keyboard took a deliberate Tab.
    if (!this.guard.allows(event)) return;
    const skipFuture = this.skipCheckbox?.checked ?? false;
    // UV-1: this trusted click itself starts the platform's prompt, where verification applies.
    this.runtime.capabilities.getState()?.decide.approve(request.id, { skipFuture });
    const approved = new AiOpsConfirmApproveEvent({ id: request.id, tool: request.tool, name: request.name, skipFuture });
    this.dispatchEvent(approved);
  }

  /** The ids 「すべて承認」 / 「すべてやめる」 decide: the dialog's call and the list as rendered (BATCH-2). */
  private batchIds(request: ConfirmationRequest): number[] {
    return [request.id, ...this.listed.map((r) => r.id)];
  }

  private onApproveAll(event: MouseEvent): void {
    const request = this.request;
    // As the action button: a trusted event, past SAFE-7's guard, and only once every listed call was on screen.
    if (!request || request.status !== 'waiting' || !event.isTrusted || !this.listed.length) return;
    if (!this.guard.allows(event) || !this.allSeen) return;
    const ids = this.batchIds(request);
    // The decisions come with the on-demand part, loaded since a request exists (PKG-4).
    this.runtime.capabilities.getState()?.decide.approveAll(ids);
  }

  private onDeclineAll(event: MouseEvent): void {
    const request = this.request;
    if (!request || request.status !== 'waiting' || !this.listed.length || !this.guard.allows(event)) return;
    const ids = this.batchIds(request);
    this.runtime.capabilities.getState()?.decide.declineAll(ids);
  }

  /** Esc: the dialog closes only when the queue says so (CONF-4, CONF-6). */
  private onCancelEvent(event: Event): void {
    event.preventDefault();
    this.decline('escape');
  }

  /**
   * The browser closed the dialog without the queue saying so (a second Esc without user
   * activation in between is not cancelable): decline a waiting request, re-open a running one.
   */
  private onClose(): void {
    const request = this.request;
    if (!request || this.dialog.open) return;
    if (request.status === 'running') this.dialog.showModal();
    else this.decline('escape');
  }

  private isOnBackdrop(event: MouseEvent): boolean {
    if (event.target !== this.dialog) return false;
    const box = this.dialog.getBoundingClientRect();
    return event.clientX < box.left || event.clientX > box.right || event.clientY < box.top || event.clientY > box.bottom;
  }

  private onPointerDown(event: PointerEvent): void {
    this.pressedOnBackdrop = this.isOnBackdrop(event);
    // SAFE-7 guards the action and both batch buttons (BATCH-4).
    this.guard.pressed(event.composedPath().some((node) => node instanceof Element && /^(action|approve-all|decline-all)$/.test(node.className)));
  }

  private onDialogClick(event: MouseEvent): void {
    const onBackdrop = this.pressedOnBackdrop && this.isOnBackdrop(event);
    this.pressedOnBackdrop = false;
    if (onBackdrop) this.decline('backdrop');
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ai-ops-confirm': AiOpsConfirm;
  }
}
