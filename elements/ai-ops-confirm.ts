/**
 * `<ai-ops-confirm>`: the page's confirmation dialog (CONF-1..CONF-9).
 * @module
 */
import { css, html, nothing, type PropertyValues } from 'lit';
import { query } from 'lit/decorators.js';
import { keyed } from 'lit/directives/keyed.js';
import type { ConfirmationRequest, ConfirmationState } from '../src/confirmation-queue.js';
import { AiOpsElement } from './ai-ops-element.js';
import { AiOpsConfirmApproveEvent, AiOpsConfirmDeclineEvent, type AiOpsDeclineReason } from './events.js';
import { StoreController } from './store-controller.js';
import { fillString } from './strings.js';
import { tokens } from './styles.js';

/**
 * @summary The confirmation dialog of the page: a native modal `<dialog>` showing the request at
 * the head of the runtime's confirmation queue, one at a time. Place one per page.
 * @tagname ai-ops-confirm
 *
 * The action button approves only on a trusted (user) event, so a script on the page cannot
 * approve a request itself. やめる, Esc and a click on the backdrop decline while the request waits;
 * after approval the dialog shows loading and stays until the operation ends.
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
 * @csspart detail - The disclosure with the full content handed in.
 * @csspart skip - The label of the 「このページでは今後尋ねない」 checkbox.
 * @csspart checkbox - That checkbox.
 * @csspart actions - The row of buttons.
 * @csspart button - Both buttons.
 * @csspart cancel-button - やめる.
 * @csspart action-button - The action (danger) button.
 * @csspart spinner - The spinner in the action button while running.
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
export class AiOpsConfirm extends AiOpsElement {
  static override styles = [tokens, css`
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
    .actions {
      display: flex;
      justify-content: flex-end;
      gap: 0.5rem;
    }
    button {
      display: inline-flex;
      align-items: center;
      gap: 0.4rem;
      min-height: 2.25rem;
      padding: 0.4rem 1rem;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: var(--_surface);
      color: var(--_text);
      font: inherit;
      cursor: pointer;
    }
    button.action {
      border-color: var(--_danger);
      background: var(--_danger);
      color: var(--_on-danger);
    }
    button:disabled {
      cursor: default;
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
    @media (prefers-reduced-motion: reduce) {
      .spinner {
        animation: none;
      }
    }
  `];

  @query('dialog') private dialog!: HTMLDialogElement;
  @query('.cancel') private cancelButton?: HTMLButtonElement;
  @query('.skip input') private skipCheckbox?: HTMLInputElement;
  @query('h2') private heading?: HTMLElement;

  private readonly queue = new StoreController<ConfirmationState>(this);
  /** The request the dialog shows, and in which status it was last rendered. */
  private shown: ConfirmationRequest | null = null;
  /** A pointer press that started on the backdrop; a click counts only when it also ends there. */
  private pressedOnBackdrop = false;

  /** The request the dialog shows, or null while closed. */
  get request(): ConfirmationRequest | null {
    return this.queue.value?.current ?? null;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.queue.setStore(this.runtime.confirmations);
  }

  protected override render() {
    const request = this.request;
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
    return html`
      <div class="panel">
        <h2 id="title" part="title" tabindex="-1">${content.title}</h2>
        <div class="body" part="body">
          <p>${fillString(text.confirmCalledBy, { name: html`<code part="operation">${request.name}</code>` })}</p>
          <p>${content.summary}</p>
          <p>${content.undoable ? text.confirmUndoable : text.confirmIrreversible}</p>
          ${content.detail === undefined ? nothing : html`
            <details part="detail">
              <summary>${text.confirmDetail}</summary>
              <pre tabindex="0">${content.detail}</pre>
            </details>`}
        </div>
        <label class="skip" part="skip">
          <input type="checkbox" part="checkbox" ?disabled=${running} />${text.confirmSkipFuture}
        </label>
        <div class="actions" part="actions">
          <button type="button" class="cancel" part="button cancel-button" autofocus ?disabled=${running}
            @click=${this.onCancelClick}>${text.confirmCancel}</button>
          <button type="button" class="action" part="button action-button" ?disabled=${running}
            aria-busy=${running ? 'true' : nothing} @click=${this.onAction}>${running
              ? html`<span class="spinner" part="spinner" aria-hidden="true"></span>${text.confirmRunning}`
              : content.actionLabel}</button>
        </div>
      </div>
    `;
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
      // A new request (CONF-7): the checkbox was rendered fresh (unchecked) and focus starts on やめる.
      this.cancelButton?.focus();
    } else if (request.status === 'running' && previous.status !== 'running') {
      // The focused button was just disabled: keep focus inside the dialog, on its title.
      this.heading?.focus();
    }
  }

  private decline(reason: AiOpsDeclineReason): void {
    const request = this.request;
    if (!request || request.status !== 'waiting') return;
    this.runtime.confirmations.decline(request.id);
    const declined = new AiOpsConfirmDeclineEvent({ id: request.id, tool: request.tool, name: request.name, reason });
    this.dispatchEvent(declined);
  }

  private onCancelClick(): void {
    this.decline('cancel');
  }

  private onAction(event: MouseEvent): void {
    const request = this.request;
    // A page script can call click() on this button; only the user's own input approves.
    if (!request || request.status !== 'waiting' || !event.isTrusted) return;
    const skipFuture = this.skipCheckbox?.checked ?? false;
    this.runtime.confirmations.approve(request.id, { skipFuture });
    const approved = new AiOpsConfirmApproveEvent({ id: request.id, tool: request.tool, name: request.name, skipFuture });
    this.dispatchEvent(approved);
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
