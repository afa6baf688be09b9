/**
 * The log's first item (LOG-2): the disclosure 「AI のエージェントのつなぎ方」 with the relay
 * command and an MCP client configuration for this page's origin and relay port, the pairing code
 * field and 「つなぐ」 (DOOR-6: the code the user's agent told them), and 「つなぎ直す」, which asks
 * the runtime to look for the relay again (started after the switch, say). Above it: who is
 * connected and since when, with 「接続を解除」 (DOOR-10), and, while the relay on the page's port
 * says it does not serve this page's origin, a note saying so (DOOR-5): the page's WebSocket alone
 * cannot tell that from no relay at all.
 * @module
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { relayConnectionText } from '../../src/connection-text.js';
import { describeError } from '../../src/result.js';
import type { ReadableStore } from '../../src/store.js';
import type { RelayStatus } from '../../src/relay-connection.js';
import { fillString, type AiOpsStrings } from '../internal/strings.js';

/** What the log's connection part reads of the runtime. */
export interface RelayConnectSource {
  readonly port: number;
  reconnect(): Promise<unknown>;
  /** The relay connection's `refused` store, once the runtime's on-demand part loaded (DOOR-5). */
  refused(): Promise<ReadableStore<string | null>>;
  /** The relay connection's `status` store (DOOR-6, DOOR-10). */
  status(): Promise<ReadableStore<RelayStatus>>;
  /** Pairs by the code the user typed (DOOR-6). */
  pair(code: string): Promise<unknown>;
  /** 「接続を解除」 (DOOR-6). */
  unpair(): Promise<unknown>;
}

/** The message key of each way a pairing fails (`PairingError#reason`). */
const PAIR_FAILURES = {
  code: 'logPairWrongCode', 'no-relay': 'logPairNoRelay', relay: 'logPairNotRelay', 'bad-code': 'logPairBadCode', off: 'logPairOff',
} as const;

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
  private statusStore: ReadableStore<RelayStatus> | null = null;
  private stopStatus: (() => void) | null = null;
  private pairing = false;
  private pairError: keyof typeof PAIR_FAILURES | null = null;

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
    this.stopStatus?.();
    this.stopStatus = null;
    this.statusStore = null;
    this.refusal = null;
    this.following = null;
  }

  /** Follows the relay connection's `refused` store, once per connection of the log. */
  private follow() {
    this.following ??= Promise.all([this.relay().refused(), this.relay().status().catch(() => null)]).then(([store, status]) => {
      if (this.following === null) return;
      this.refusal = store;
      this.stopFollowing = store.subscribe(() => this.host.requestUpdate());
      if (status) {
        this.statusStore = status;
        this.stopStatus = status.subscribe(() => this.host.requestUpdate());
      }
      this.host.requestUpdate();
    }, () => {});
  }

  /** DOOR-10: who is connected and since when, with 「接続を解除」; nothing while the page is not paired. */
  private renderStatus(text: AiOpsStrings, port: number) {
    const status = this.statusStore?.getState();
    if (!status?.paired) return nothing;
    const client = status.client ? `${status.client.name}${status.client.version ? ` ${status.client.version}` : ''}` : 'relay';
    const line = status.connected && status.since !== null
      ? fillString(text.logRelayConnected, { client, time: new Date(status.since).toLocaleTimeString() }).join('')
      : status.refused ? fillString(text.logRelayNotKnown, { port: String(port) }).join('') : text.logRelayPaired;
    return html`<div class="relay-status" part="relay-status">
      <p role="status" part="relay-status-text">${line}</p>
      <button type="button" part="unpair-button" @click=${this.unpair}>${text.logUnpair}</button>
    </div>`;
  }

  render(text: AiOpsStrings) {
    this.follow();
    const { port } = this.relay();
    const { command, config } = relayConnectionText(globalThis.location.origin, port);
    const refused = this.refusal?.getState() ?? null;
    return html`
      ${refused === null ? nothing : html`<p class="note refused" part="relay-refused" role="alert">${
        fillString(text.logRelayRefused, { port: String(port), origin: refused }).join('')}</p>`}
      ${this.renderStatus(text, port)}
      <details class="connect" part="connect">
        <summary>${text.logConnectTitle}</summary>
        <form part="pair-form" @submit=${this.pair}>
          <p>${text.logPairHint}</p>
          <label>${text.logPairCode}
            <input part="pair-code" name="code" autocomplete="off" spellcheck="false" autocapitalize="characters"
              maxlength="20" placeholder="ABCDE-FGHJK" aria-invalid=${this.pairError ? 'true' : 'false'}></label>
          <button type="submit" part="pair-button" ?disabled=${this.pairing} aria-busy=${this.pairing ? 'true' : nothing}>${text.logPair}</button>
          ${this.pairError === null ? nothing
            : html`<p class="note" role="alert" part="pair-error">${fillString(text[PAIR_FAILURES[this.pairError]], { port: String(port) }).join('')}</p>`}
        </form>
        <p>${text.logConnectCommand}</p>
        <pre part="command" tabindex="0"><code>${command}</code></pre>
        <p>${text.logConnectConfig}</p>
        <pre part="config" tabindex="0"><code>${config}</code></pre>
        <p>${text.logConnectReconnectHint}</p>
        <button type="button" part="reconnect-button" ?disabled=${this.reconnecting}
          aria-busy=${this.reconnecting ? 'true' : nothing} @click=${this.reconnect}>${text.logReconnect}</button>
        ${this.error === null ? nothing
          : html`<div class="note" role="status">${fillString(text.logReconnectFailed, { reason: '' }).join('').trim()}<details class="raw"><summary>${text.logRawDetails}</summary><pre tabindex="0">${this.error}</pre></details></div>`}
      </details>
    `;
  }

  /** DOOR-6: the user's code goes to the relay; the field empties once paired. */
  private readonly pair = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const input = form.querySelector('input');
    if (this.pairing || !input) return;
    this.pairing = true;
    this.pairError = null;
    this.host.requestUpdate();
    try {
      await this.relay().pair(input.value);
      input.value = '';
    } catch (error) {
      const reason = (error as { reason?: unknown } | null)?.reason;
      this.pairError = typeof reason === 'string' && reason in PAIR_FAILURES ? reason as keyof typeof PAIR_FAILURES : 'no-relay';
    } finally {
      this.pairing = false;
      this.host.requestUpdate();
    }
  };

  private readonly unpair = async (): Promise<void> => {
    await this.relay().unpair().catch(() => {});
    this.host.requestUpdate();
  };

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
