/**
 * How the confirmation dialog is dismissed by the platform's own means: Esc and a click on the
 * backdrop decline a waiting request (CONF-4, CONF-6), and the dialog closes only when the queue
 * says so — a running request's dialog the browser closed opens again.
 * @module
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { AiOpsDeclineReason } from '../internal/events.js';

/** What dismissing reads from and asks of its dialog element. */
export interface DismissOptions {
  dialog(): HTMLDialogElement;
  /** The shown request's status, or null while none is shown. */
  status(): string | null;
  decline(reason: AiOpsDeclineReason): void;
}

/**
 * The `<dialog>`'s `cancel`, `close`, `pointerdown` and `click` handlers; a click declines as
 * `backdrop` only when its press also began on the backdrop.
 * @example html`<dialog @cancel=${this.dismiss.onCancel} @close=${this.dismiss.onClose} @click=${this.dismiss.onClick}>`
 */
export class DismissController implements ReactiveController {
  /** A pointer press that started on the backdrop; a click counts only when it also ends there. */
  private pressedOnBackdrop = false;

  constructor(host: ReactiveControllerHost, private readonly options: DismissOptions) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.pressedOnBackdrop = false;
  }

  /** Esc: the dialog closes only when the queue says so (CONF-4, CONF-6). */
  readonly onCancel = (event: Event): void => {
    event.preventDefault();
    this.options.decline('escape');
  };

  /**
   * The browser closed the dialog without the queue saying so (a second Esc without user
   * activation in between is not cancelable): decline a waiting request, re-open a running one.
   */
  readonly onClose = (): void => {
    const status = this.options.status();
    const dialog = this.options.dialog();
    if (status === null || dialog.open) return;
    if (status === 'running') dialog.showModal();
    else this.options.decline('escape');
  };

  /** Called with each pointer press on the dialog, before a click can follow it. */
  pressed(event: PointerEvent): void {
    this.pressedOnBackdrop = this.isOnBackdrop(event);
  }

  readonly onClick = (event: MouseEvent): void => {
    const onBackdrop = this.pressedOnBackdrop && this.isOnBackdrop(event);
    this.pressedOnBackdrop = false;
    if (onBackdrop) this.options.decline('backdrop');
  };

  private isOnBackdrop(event: MouseEvent): boolean {
    const dialog = this.options.dialog();
    if (event.target !== dialog) return false;
    const box = dialog.getBoundingClientRect();
    return event.clientX < box.left || event.clientX > box.right || event.clientY < box.top || event.clientY > box.bottom;
  }
}
