/**
 * The log's first item (LOG-2): the disclosure 「AI のエージェントのつなぎ方」 with the relay
 * command and an MCP client configuration for this page's origin and relay port, and 「つなぎ直す」,
 * which asks the runtime to look for the relay again (started after the switch, say).
 * @module
 */
import { html, nothing, type ReactiveControllerHost } from 'lit';
import { relayConnectionText } from '../src/connection-text.js';
import { describeError } from '../src/result.js';
import { fillString, type AiOpsStrings } from './strings.js';

/** The relay instructions and the reconnect in progress of one log element. */
export class RelayConnect {
  private reconnecting = false;
  private error: string | null = null;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly relay: () => { readonly port: number; reconnect(): Promise<unknown> },
  ) {}


  render(text: AiOpsStrings) {
    const { command, config } = relayConnectionText(globalThis.location.origin, this.relay().port);
    return html`
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
