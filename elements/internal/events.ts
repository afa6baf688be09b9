/**
 * The events the ai-ops elements fire: one class each, named `ai-ops-*`, `bubbles` and `composed`
 * so a page hears them from outside the shadow roots, declared in `GlobalEventHandlersEventMap`
 * so `addEventListener` is typed.
 * @module
 */

// The switch's event has its own module so that the switch loads it without the others (PKG-4).
export { AiOpsSwitchChangeEvent, type AiOpsSwitchChangeDetail } from '../switch/switch-event.js';
import type { AiOpsSwitchChangeEvent } from '../switch/switch-event.js';

/** The class of an ai-ops event: made with its detail; its name is the static `eventName`. */
export interface AiOpsEventClass<D> {
  new (detail: D): CustomEvent<D>;
  readonly eventName: string;
}

/**
 * The class of an ai-ops event named `name` carrying `D`: `bubbles` and `composed`, with the name
 * as its static `eventName`.
 * @example export class AiOpsThingEvent extends aiOpsEvent<{ id: number }>('ai-ops-thing') {}
 */
function aiOpsEvent<D>(name: string): AiOpsEventClass<D> {
  return class extends CustomEvent<D> {
    static readonly eventName = name;
    constructor(detail: D) {
      super(name, { detail, bubbles: true, composed: true });
    }
  };
}

/** Detail of {@link AiOpsConfirmApproveEvent}. */
export interface AiOpsConfirmApproveDetail {
  /** The confirmation request's id in the page's queue. */
  readonly id: number;
  readonly tool: string;
  /** The operation name, e.g. `go_delete_file`. */
  readonly name: string;
  /** The user checked 「このページでは今後尋ねない」. */
  readonly skipFuture: boolean;
}

/**
 * The user pressed the action button of `<ai-ops-confirm>` (a trusted click only).
 * @example
 * confirm.addEventListener('ai-ops-confirm-approve', (event) => console.log(event.detail.name));
 */
export class AiOpsConfirmApproveEvent extends aiOpsEvent<AiOpsConfirmApproveDetail>('ai-ops-confirm-approve') {}

/** How the user declined (CONF-6). */
export type AiOpsDeclineReason = 'cancel' | 'escape' | 'backdrop';

/** Detail of {@link AiOpsConfirmDeclineEvent}. */
export interface AiOpsConfirmDeclineDetail {
  readonly id: number;
  readonly tool: string;
  readonly name: string;
  /** `cancel` (やめる), `escape` (Esc) or `backdrop` (a click outside the dialog). */
  readonly reason: AiOpsDeclineReason;
}

/**
 * The user declined in `<ai-ops-confirm>` with やめる, Esc or the backdrop. Requests that time out
 * (CONF-8) or are declined because the switch turned off (SW-3) do not fire it.
 * @example
 * confirm.addEventListener('ai-ops-confirm-decline', (event) => console.log(event.detail.reason));
 */
export class AiOpsConfirmDeclineEvent extends aiOpsEvent<AiOpsConfirmDeclineDetail>('ai-ops-confirm-decline') {}

/** Detail of {@link AiOpsLogVisibilityChangeEvent}. */
export interface AiOpsLogVisibilityChangeDetail {
  /** True when the log now shows (its switch, or any switch of the page, is on). */
  readonly visible: boolean;
}

/**
 * `<ai-ops-log>` appeared or disappeared; a host that puts the log in its own tab (LOG-1) shows or
 * hides that tab on this event.
 * @example
 * log.addEventListener('ai-ops-log-visibility-change', (event) => (tab.hidden = !event.detail.visible));
 */
export class AiOpsLogVisibilityChangeEvent extends aiOpsEvent<AiOpsLogVisibilityChangeDetail>('ai-ops-log-visibility-change') {}

declare global {
  interface GlobalEventHandlersEventMap {
    'ai-ops-switch-change': AiOpsSwitchChangeEvent;
    'ai-ops-confirm-approve': AiOpsConfirmApproveEvent;
    'ai-ops-confirm-decline': AiOpsConfirmDeclineEvent;
    'ai-ops-log-visibility-change': AiOpsLogVisibilityChangeEvent;
  }
}
