/**
 * `<ai-ops-switch>`: the switch 「AI からの操作」 of one tool (SW-1, SW-4, SW-5).
 * @module
 */
import { css, html, LitElement, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { AiOps } from '../src/runtime.js';
import type { ToolSession, ToolSessionState } from '../src/tool-session.js';
import { AiOpsElement } from './ai-ops-element.js';
import { AiOpsSwitchChangeEvent } from './switch-event.js';
import { StoreController } from './store-controller.js';
import { tokens } from './styles.js';

/**
 * @summary The permission switch of one tool, labelled 「AI からの操作」, off by default. Under it, a
 * danger notice (`role="alert"`) when the operations could not start. Renders nothing in an
 * embedded page, or while the runtime has no session for `tool`; it then sets its own `hidden`.
 * @tagname ai-ops-switch
 *
 * @event {AiOpsSwitchChangeEvent} ai-ops-switch-change - The user turned the switch on or off;
 *   `detail: {tool, on}`.
 *
 * @csspart base - The row holding the switch and its label.
 * @csspart switch - The `<input type="checkbox" role="switch">`.
 * @csspart label - The visible label.
 * @csspart alert - The notice shown when starting failed.
 * @csspart alert-title - The notice's title.
 * @csspart alert-body - The notice's body: the reason.
 *
 * @cssproperty --ai-ops-accent - Track colour while on; focus ring.
 * @cssproperty --ai-ops-switch-off - Track colour while off.
 * @cssproperty --ai-ops-danger - Border of the notice.
 * @cssproperty --ai-ops-danger-subtle - Background of the notice.
 * @cssproperty --ai-ops-danger-text - Title colour of the notice.
 * @cssproperty --ai-ops-text - Text colour.
 * @cssproperty --ai-ops-font - Font family.
 *
 * @example
 * <ai-ops-switch tool="sql"></ai-ops-switch>
 */
export class AiOpsSwitch extends AiOpsElement {
  static override shadowRootOptions: ShadowRootInit = { ...LitElement.shadowRootOptions, delegatesFocus: true };

  static override styles = [tokens, css`
    :host {
      display: inline-flex;
      flex-direction: column;
      align-items: flex-end;
      gap: 0.375rem;
    }
    .base {
      display: inline-flex;
      align-items: center;
      gap: 0.5rem;
    }
    input {
      appearance: none;
      position: relative;
      flex: none;
      width: 2.25rem;
      height: 1.25rem;
      margin: 0;
      border-radius: 999px;
      background: var(--ai-ops-switch-off, #6b7078);
      cursor: pointer;
      transition: background-color 0.15s;
    }
    input::before {
      content: '';
      position: absolute;
      top: 0.125rem;
      left: 0.125rem;
      width: 1rem;
      height: 1rem;
      border-radius: 50%;
      background: var(--_on-accent);
      transition: transform 0.15s;
    }
    input:checked {
      background: var(--_accent);
    }
    input:checked::before {
      transform: translateX(1rem);
    }
    input[aria-busy='true'] {
      opacity: 0.7;
    }
    label {
      cursor: pointer;
      user-select: none;
    }
    .alert {
      max-width: var(--ai-ops-alert-width, 24rem);
      padding: 0.5rem 0.75rem;
      border: 1px solid var(--_danger);
      border-left-width: 4px;
      border-radius: var(--_radius);
      background: var(--_danger-subtle);
      text-align: start;
    }
    .alert-title {
      display: block;
      color: var(--_danger-text);
      font-weight: 600;
    }
    .alert-body {
      display: block;
      margin-top: 0.125rem;
      overflow-wrap: anywhere;
    }
    @media (prefers-reduced-motion: reduce) {
      input, input::before {
        transition: none;
      }
    }
  `];

  /** The tool whose switch this is, e.g. `sql`: the name given to `provideOperations`. */
  tool = '';

  /**
   * Called whenever a switch renders its tool on or starting; `elements/define.js` loads the log
   * and the dialog on the first call (PKG-4).
   * @internal
   */
  static onActive: (() => void) | null = null;

  // No decorators here: their modules would load with the switch while every switch is off (PKG-4).
  static override properties: PropertyDeclarations = { tool: { reflect: true } };

  private readonly sessions = new StoreController<readonly ToolSession[]>(this);
  private readonly session = new StoreController<ToolSessionState>(this);
  private current: ToolSession | undefined;
  /**
   * APP-1: the runtime and tool this switch is attached to while connected (`AiOps.attach`, from
   * willUpdate, the first once both are known: a React wrapper sets `tool` after connecting), and
   * the release.
   */
  private attached: [AiOps, string, () => void] | undefined;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.attached?.[2]();
    this.attached = undefined;
  }

  /** True while the switch is on or starting. */
  get on(): boolean {
    const status = this.session.value?.status;
    return status === 'on' || status === 'starting';
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    // The session may be provided after this element connected: follow the list.
    this.sessions.setStore(this.runtime.sessions);
    const [runtime, tool, detach] = this.attached ?? [];
    if (this.isConnected && this.tool && (runtime !== this.runtime || tool !== this.tool)) {
      detach?.();
      this.attached = [this.runtime, this.tool, this.runtime.attach(this.tool)];
    }
    this.current = this.runtime.getSession(this.tool);
    this.session.setStore(this.current);
    const state = this.session.value;
    this.hidden = !state || this.runtime.embedded || state.embedded;
    if (this.on && !this.hidden) AiOpsSwitch.onActive?.();
  }

  protected override render() {
    const state = this.session.value;
    if (this.hidden || !state) return nothing;
    const { text } = this;
    return html`
      <div class="base" part="base">
        <input
          id="switch"
          part="switch"
          type="checkbox"
          role="switch"
          .checked=${this.on}
          aria-busy=${state.status === 'starting' ? 'true' : nothing}
          @change=${this.onChange}
        />
        <label part="label" for="switch">${text.switchLabel}</label>
      </div>
      ${state.error === null ? nothing : html`
        <div class="alert" part="alert" role="alert">
          <strong class="alert-title" part="alert-title">${text.startFailedTitle}</strong>
          <span class="alert-body" part="alert-body">${state.error}</span>
        </div>`}
    `;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    // The checkbox shows the session, not the last click: a click the session did not follow (or a
    // click between two renders with the same status) is put back here, as lit's `live` would.
    const input = this.renderRoot.querySelector('input');
    if (input && input.checked !== this.on) input.checked = this.on;
  }

  private onChange(event: Event): void {
    const input = event.target as HTMLInputElement;
    const session = this.current;
    if (!session) return;
    if (input.checked) session.turnOn();
    else session.turnOff();
    const changed = new AiOpsSwitchChangeEvent({ tool: session.tool, on: input.checked });
    this.dispatchEvent(changed);
    // A click the session does not follow renders nothing new; the update puts the checkbox back.
    this.requestUpdate();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ai-ops-switch': AiOpsSwitch;
  }
}
