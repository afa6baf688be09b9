/**
 * The event of `<ai-ops-switch>`, apart from the other elements' events (elements/internal/events.ts
 * re-exports it) so a page whose switches are all off loads only this one (PKG-4).
 * @module
 */

/** Detail of {@link AiOpsSwitchChangeEvent}. */
export interface AiOpsSwitchChangeDetail {
  /** The tool whose switch the user changed, e.g. `sql`. */
  readonly tool: string;
  /** True when the user turned the switch on. */
  readonly on: boolean;
}

/**
 * The user changed `<ai-ops-switch>` (not fired for changes the runtime makes: expiry, another tab,
 * a failed start).
 * @example
 * switchElement.addEventListener('ai-ops-switch-change', (event) => console.log(event.detail.on));
 */
export class AiOpsSwitchChangeEvent extends CustomEvent<AiOpsSwitchChangeDetail> {
  static readonly eventName = 'ai-ops-switch-change';
  constructor(detail: AiOpsSwitchChangeDetail) {
    super(AiOpsSwitchChangeEvent.eventName, { detail, bubbles: true, composed: true });
  }
}
