/**
 * `<ai-ops-confirm>`: the page's confirmation dialog (CONF-1..CONF-9).
 * @module
 */
import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import type { ConfirmationRequest, ConfirmationState } from '../../src/confirmation-queue.js';
import { AiOpsPanel } from '../internal/ai-ops-panel.js';
import { AiOpsConfirmApproveEvent, AiOpsConfirmDeclineEvent, type AiOpsDeclineReason } from '../internal/events.js';
import { StoreController } from '../internal/store-controller.js';
import { BatchSeenController } from './batch-seen.js';
import { confirmStyles } from './confirm-styles.js';
import { GUARDED_ACTIONS, KEY_GUARDED_ACTIONS, renderRequest, type ConfirmView } from './confirm-templates.js';
import { CountdownController } from './countdown.js';
import { DismissController } from './dismiss.js';
import { PointerGuardController } from './pointer-guard.js';

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
 * The skip is its own action after it (UV-18), 「このページでは今後尋ねない」, described under the
 * buttons: it approves the call and skips this tool's confirmations for the switch period. The guard
 * holds it back for key presses too, so that no key sequence typed in one moment reaches it; while
 * its verification is up, the status says that the skip is being signed.
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
 *   `detail: {id, tool, name, skipFuture}`, `skipFuture` true for the skip action.
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
 * @csspart skip-choice - Under the buttons: what the skip action grants (its description, UV-9, UV-18).
 * @csspart detail - The disclosure with the full content handed in.
 * @csspart actions - The row of buttons.
 * @csspart button - Every button.
 * @csspart cancel-button - やめる.
 * @csspart action-button - The action (danger) button.
 * @csspart skip-button - The skip action (UV-18): approves and skips later confirmations of the tool.
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
  static override styles = [...AiOpsPanel.styles, confirmStyles];

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

  // Each part of the dialog is its own module: its styles (confirm-styles), templates (confirm-templates),
  // which listed calls were on screen (batch-seen), the times left (countdown), Esc and backdrop
  // (dismiss) and SAFE-7's guard (pointer-guard). The element holds the request and decides.
  private readonly queue = new StoreController<ConfirmationState>(this);
  private readonly seen = new BatchSeenController(this, { clock: () => this.clock, listed: () => this.listed, ms: POINTER_GUARD_MS });
  /** BATCH-1: the times left count down while calls are listed. */
  private readonly countdown = new CountdownController(this, { clock: () => this.clock, counting: () => this.listed.length > 0 });
  private readonly dismiss = new DismissController(this, {
    dialog: () => this.dialog,
    status: () => this.request?.status ?? null,
    decline: (reason) => this.decline(reason),
  });
  private readonly guard = new PointerGuardController(this, {
    clock: () => this.clock,
    ms: () => this.pointerGuardMs,
    waiting: () => this.request?.status === 'waiting',
  });
  /** The request the guard was last started for. */
  private guardedId: number | null = null;
  /** The ids listed under it when last rendered. */
  private guardedList = '';
  /** The request the dialog shows, and in which status it was last rendered. */
  private shown: ConfirmationRequest | null = null;
  /** The calls listed under the dialog's, derived in willUpdate: 「すべて承認」 decides exactly these (BATCH-2). */
  private listed: readonly ConfirmationRequest[] = [];

  /** The request the dialog shows, or null while closed. */
  get request(): ConfirmationRequest | null {
    return this.queue.value?.current ?? null;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.queue.setStore(this.runtime.confirmations);
    this.listed = this.request ? this.queue.value!.queued : [];
    const id = this.request?.id ?? null;
    // A new dialog is about to appear (updated() shows it in this same task): its guard starts now.
    // UV-11: a changed decision re-arms the guard too — the list 「すべて承認」 would decide.
    const listedIds = (this.queue.value?.queued ?? []).map((r) => r.id).join(',');
    if (id !== this.guardedId) {
      this.guardedId = id;
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

  protected override render() {
    const request = this.request;
    return html`
      <dialog
        part="dialog"
        aria-labelledby=${request ? 'title' : nothing}
        @cancel=${this.dismiss.onCancel}
        @close=${this.dismiss.onClose}
        @pointerdown=${this.onPointerDown}
        @keydown=${this.onKeyDown}
        @click=${this.dismiss.onClick}
      >${request ? keyed(request.id, renderRequest(this.view(request))) : nothing}</dialog>
    `;
  }

  /** What the templates draw; their handlers run with this element as `this` (Lit binds them to the host). */
  private view(request: ConfirmationRequest): ConfirmView {
    return {
      text: this.text, request, automated: this.isAutomated, guarded: this.guard.active,
      listed: this.listed, allSeen: this.seen.allSeen, now: this.clock.now(),
      on: {
        cancel: this.onCancelClick, action: this.onAction, skip: this.onSkip,
        approveAll: this.onApproveAll, declineAll: this.onDeclineAll, itemToggle: (id: number, e: Event) => this.seen.toggled(id, e),
      },
    };
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
      // A new request (CONF-7): focus starts on やめる;
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

  private readonly onCancelClick = (): void => this.decline('cancel');

  private onAction(event: MouseEvent): void {
    // SAFE-7: focus starts on やめる, so reaching this button by keyboard took a deliberate Tab.
    this.approve(event, false);
  }

  /** UV-18: the skip grants more than this call: the guard holds back key presses as well. */
  private onSkip(event: MouseEvent): void {
    this.approve(event, true);
  }

  private approve(event: MouseEvent, skipFuture: boolean): void {
    const request = this.request;
    // A page script can call click() on this button; only input the browser delivered approves.
    if (!request || request.status !== 'waiting' || !event.isTrusted) return;
    if (!this.guard.allows(event, { keys: skipFuture })) return;
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
    if (!this.guard.allows(event) || !this.seen.allSeen) return;
    const ids = this.batchIds(request);
    // The decisions come with the on-demand part, loaded since a request exists (PKG-4).
    this.runtime.capabilities.getState()?.decide.approveAll(ids);
  }

  private onDeclineAll(event: MouseEvent): void {
    const request = this.request;
    if (request?.status === 'waiting' && this.listed.length && this.guard.allows(event)) this.runtime.capabilities.getState()?.decide.declineAll(this.batchIds(request));
  }

  private onPointerDown(event: PointerEvent): void {
    this.dismiss.pressed(event);
    // SAFE-7 guards the action, the skip and both batch buttons (BATCH-4, UV-18).
    this.guard.pressed(event.composedPath().some((node) => node instanceof HTMLElement && GUARDED_ACTIONS.has(node.dataset.action ?? '')));
  }

  /** UV-18: where a key that presses a button went down, for the buttons whose keys the guard holds back. */
  private onKeyDown(event: KeyboardEvent): void {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    this.guard.keyPressed(event.composedPath().some((node) => node instanceof HTMLElement && KEY_GUARDED_ACTIONS.has(node.dataset.action ?? '')));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ai-ops-confirm': AiOpsConfirm;
  }
}
