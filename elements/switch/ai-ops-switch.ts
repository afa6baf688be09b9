/**
 * `<ai-ops-switch>`: the switch 「AI からの操作」 of one tool (SW-1, SW-4, SW-5, SAFE-3).
 * @module
 */
import { css, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { AiOps } from '../../src/runtime.js';
import type { ToolSession } from '../../src/tool-session.js';
import { AiOpsElement } from '../internal/ai-ops-element.js';
import { switchWording } from '../internal/strings-store.js';
import { AiOpsSwitchChangeEvent } from './switch-event.js';
import { StoreController } from '../internal/store-controller.js';
import { tokens } from '../internal/styles.js';

/**
 * @summary The permission switch of one tool, labelled 「AI からの操作」, off by default. Under it, a
 * danger notice (`role="alert"`, so screen readers say it at once) when the operations could not
 * start (SW-4), or when, switched off, the stored permission could not be removed because storage
 * refuses every write, so that a reload would start them again (SAFE-3). Renders nothing in an
 * embedded page, or while the runtime has no session for `tool`; it then sets its own `hidden`.
 * Showing its tool on or starting, it has the dialog and the log defined if the page left them for
 * then (`elements/define.js`, PKG-4).
 * @tagname ai-ops-switch
 *
 * @event {AiOpsSwitchChangeEvent} ai-ops-switch-change - The user turned the switch on or off;
 *   `detail: {tool, on}`.
 *
 * @csspart base - The row holding the switch and its label.
 * @csspart switch - The `<input type="checkbox" role="switch">`.
 * @csspart label - The visible label.
 * @csspart alert - The notice shown when starting failed or the stored permission remains.
 * @csspart alert-title - The notice's title.
 * @csspart alert-body - The notice's body: the reason, or what a reload does.
 * @csspart alert-close - The notice's × button, which closes it (FIRST-2; drawn once the
 *   on-demand part has loaded, with the notice in the top layer, elements/switch/switch-notice.ts).
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
  static override shadowRootOptions: ShadowRootInit = { mode: 'open', delegatesFocus: true };

  // The knob moves without a transition: its rules and the reduced-motion query cost ~50 B gzip of
  // what every page loads while off (PKG-4), spent on SAFE-3's notice instead.
  // The notice floats under the switch, over the page: the header it sits in keeps its height.
  static override styles = [tokens, css`
    :host {
      display: inline-flex;
      position: relative;
    }
    .base {
      display: inline-flex;
      align-items: center;
      gap: .5rem;
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
    }
    input::before {
      content: '';
      position: absolute;
      top: .125rem;
      left: .125rem;
      width: 1rem;
      height: 1rem;
      border-radius: 50%;
      background: var(--_on-accent);
    }
    input:checked {
      background: var(--_accent);
    }
    input:checked::before {
      transform: translateX(1rem);
    }
    [aria-busy] {
      opacity: .7;
    }
    label {
      cursor: pointer;
      user-select: none;
    }
    .alert {
      position: absolute;
      z-index: 1;
      top: 125%;
      right: 0;
      display: grid;
      width: max-content;
      max-width: var(--ai-ops-alert-width, 24rem);
      padding: .5rem .75rem;
      border: 1px solid var(--_danger);
      border-left-width: 4px;
      border-radius: var(--_radius);
      background: var(--_danger-subtle);
      text-align: start;
      overflow-wrap: anywhere;
    }
    strong {
      color: var(--_danger-text);
    }
  `];

  /** The tool whose switch this is, e.g. `sql`: the name given to `provideOperations`. */
  tool = '';

  // No decorators here: their modules would load with the switch while every switch is off (PKG-4).
  static override properties: PropertyDeclarations = { tool: { reflect: true } };

  // The session may be provided after this element connected: follow the list, then the session.
  private readonly view = new StoreController(this, undefined, (sessions: readonly ToolSession[], get) => {
    const session = sessions.find((s) => s.tool === this.tool);
    return session && { session, state: get(session), permission: get(session.permission) };
  });
  /**
   * APP-1: the runtime and tool this switch is attached to while connected (`AiOps.attach`, from
   * willUpdate, the first once both are known: a React wrapper sets `tool` after connecting), and
   * the release.
   */
  private attached: [AiOps, string, () => void] | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved or put back without a property change: attach again on the next update.
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.attached?.[2]();
    this.attached = undefined;
  }

  /** True while the switch is on or starting. */
  get on(): boolean {
    const status = this.view.value?.state.status;
    return !!status && status !== 'off';
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.view.setStore(this.runtime.sessions);
    const [runtime, tool, detach] = this.attached ?? [];
    if (this.isConnected && this.tool && (runtime !== this.runtime || tool !== this.tool)) {
      detach?.();
      this.attached = [this.runtime, this.tool, this.runtime.attach(this.tool)];
    }
    const state = this.view.value?.state;
    this.hidden = !state || this.runtime.embedded;
  }

  protected override render() {
    const { state, permission } = this.view.value ?? {};
    if (this.hidden || !state || !permission) return nothing;
    const { text } = this;
    // SW-4: why starting failed; SAFE-3: turning off could not remove the stored permission.
    // UV-4: consent's refusal in the page's words (its code and values), else the failure's message.
    // FIRST-2: drawn by the on-demand part once loaded (always, before any notice but one that
    // says it could not load), with the state it is about, so a closed notice stays closed.
    const [title, body, key] = state.error !== null ? [text.startFailedTitle, switchWording.failure(text, state), state]
      : permission.storedOnRemains && state.status === 'off' ? [text.storedOnTitle, text.storedOn, permission] : [];
    // Written without indentation: the switch's code loads with every page (PKG-4).
    return html`<div class="base" part="base"><input id="switch" part="switch" type="checkbox" role="switch"
.checked=${this.on} aria-busy=${state.status === 'starting' ? 'true' : nothing} @change=${this.onChange}
/><label part="label" for="switch">${text.switchLabel}</label></div>${!key ? nothing : switchWording.notice
  ? switchWording.notice(this, text, title!, body!, key) : html`<div class="alert" part="alert"
role="alert"><strong part="alert-title">${title}</strong>
<span part="alert-body">${body}</span></div>`}`;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    // The checkbox shows the session, not the last click: a click the session did not follow (or a
    // click between two renders with the same status) is put back here, as lit's `live` would.
    const input = this.renderRoot.querySelector('input');
    if (input && input.checked !== this.on) input.checked = this.on;
    switchWording.place?.(this);
  }

  private onChange(event: Event): void {
    const input = event.target as HTMLInputElement;
    const session = this.view.value?.session;
    if (!session) return;
    if (input.checked) session.turnOn();
    else session.turnOff();
    this.dispatchEvent(new AiOpsSwitchChangeEvent({ tool: session.tool, on: input.checked }));
    // A click the session does not follow renders nothing new; the update puts the checkbox back.
    this.requestUpdate();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ai-ops-switch': AiOpsSwitch;
  }
}
