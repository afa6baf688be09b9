/**
 * The log's first item (LOG-2): the disclosure 「AI のエージェントのつなぎ方」 with the relay
 * command and an MCP client configuration for this page's origin and relay port, and 「つなぎ直す」,
 * which asks the runtime to look for the relay again (started after the switch, say). Above it,
 * while the relay on the page's port says it does not serve this page's origin, a note saying so
 * (DOOR-5): the page's WebSocket alone cannot tell that from no relay at all.
 * @module
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { relayConnectionText } from '../../src/connection-text.js';
import { describeError } from '../../src/result.js';
import type { ReadableStore } from '../../src/store.js';
import { fillString, type AiOpsStrings } from '../internal/strings.js';

/** What the log's connection part reads of the runtime. */
export interface RelayConnectSource {
  readonly port: number;
  reconnect(): Promise<unknown>;
  /** The relay connection's `refused` store, once the runtime's on-demand part loaded (DOOR-5). */
  refused(): Promise<ReadableStore<string | null>>;
}

/**
 * The relay instructions and the reconnect in progress of one log element; it stops following the
 * relay's answer when the log leaves the document, and follows it again when the log renders.
 * @example
 * private readonly connect = new RelayConnect(this, () => ({ port, reconnect, refused }));
 * html`${this.connect.render(this.text)}`;
 */
export class RelayConnect implements ReactiveController {
  private reconnecting = false;
  private error: string | null = null;
  /** The `refused` store followed, and how to stop following it. */
  private refusal: ReadableStore<string | null> | null = null;
  private stopFollowing: (() => void) | null = null;
  private following: Promise<unknown> | null = null;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly relay: () => RelayConnectSource,
  ) {
    host.addController(this);
  }

  /** Stops following the relay's answer (the log left the document). */
  hostDisconnected(): void {
    this.stopFollowing?.();
    this.stopFollowing = null;
    this.refusal = null;
    this.following = null;
  }

  /** Follows the relay connection's `refused` store, once per connection of the log. */
  private follow() {
    this.following ??= this.relay().refused().then((store) => {
      if (this.following === null) return;
      this.refusal = store;
      this.stopFollowing = store.subscribe(() => this.host.requestUpdate());
      this.host.requestUpdate();
    }, () => {});
  }

  render(text: AiOpsStrings) {
    this.follow();
    const { port } = this.relay();
    const { command, config } = relayConnectionText(globalThis.location.origin, port);
    const refused = this.refusal?.getState() ?? null;
    return html`
      ${refused === null ? nothing : html`<p class="note refused" part="relay-refused" role="alert">${
        fillString(text.logRelayRefused, { port: String(port), origin: refused }).join('')}</p>`}
      <details class="connect" part="connect">
        <summary>${text.logConnectTitle}</summary>
        <p>${text.logConnectCommand}</p>
        <pre part="command" tabindex="0"><code>${command}</code></pre>
        <p>${text.logConnectConfig}</p>
        <pre part="config" tabindex="0"><code>${config}</code></pre>
        <p>${text.logConnectReconnectHint}</p>
        <button type="button" part="reconnect-button" ?disabled=${this.reconnecting}
          aria-busy=${this.reconnecting ? 'true' : nothing} @click=${this.reconnect}>${text.logReconnect}</button>
        ${this.error === null ? nothing
          : html`<p class="note" role="status">${fillString(text.logReconnectFailed, { reason: this.error }).join('')}</p>`}
      </details>
    `;
  }

  private readonly reconnect = async (): Promise<void> => {
    this.reconnecting = true;
    this.error = null;
    this.host.requestUpdate();
    try {
      await this.relay().reconnect();
    } catch (error) {
      this.error = describeError(error);
    } finally {
      this.reconnecting = false;
      this.host.requestUpdate();
    }
  };
}
