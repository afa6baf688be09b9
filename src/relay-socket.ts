/**
 * The WebSocket the relay widget gets (DOOR-6, DOOR-9): relay 2.2.0's widget (`widget.html`, a
 * vendor file served from the page's origin) opens its sockets itself, to every candidate port of
 * 127.0.0.1 and [::1] in turn, and hands the page's tools to the first thing that says
 * `server-hello`. The widget's document is of the page's origin, so before the widget is told to
 * connect, its `WebSocket` is replaced with this class, which:
 * - opens nothing for any address but the paired relay's (`ws://127.0.0.1:<port>/`): to the widget
 *   such an attempt just closes, so it scans no port and the console shows nothing;
 * - on the paired address, answers the relay's challenge with the pairing's proof and passes the
 *   widget nothing (no `server-hello`, no call) until the relay proved the pairing back: a relay
 *   that cannot is closed before the widget knows it was there, and the page's tools never leave.
 * The widget sees a socket that opens late and otherwise behaves as a WebSocket.
 * @module
 */
import { answerChallenge, clientInfoOf, parseMessage, sameProof, type Pairing, type RelayClientInfo } from './relay-pairing.js';

/** What the relay connection hears from the paired socket. */
export interface PairedSocketEvents {
  /** The relay proved the pairing: the widget now talks to it. */
  authenticated(client: RelayClientInfo | null): void;
  /** The relay does not know the pairing (it ended there, or it is another relay). */
  refused(): void;
  /** A socket that was authenticated closed. */
  closed(): void;
}

/** The live paired sockets of a widget document, so an off can withdraw through them (DOOR-9). */
export interface PairedSockets {
  /** The WebSocket class to install in the widget's document. */
  readonly WebSocket: unknown;
  /** Sends `ai-ops/unpair` on every authenticated socket, then closes them all. */
  unpair(): void;
  /** Closes every socket. */
  closeAll(): void;
}

/**
 * Builds the widget's WebSocket class for `frameWindow` (the widget's document), for `pairing`.
 * @example
 * const sockets = pairedSockets(frame.contentWindow, pairing, location.origin, events);
 * frame.contentWindow.WebSocket = sockets.WebSocket;
 */
export function pairedSockets(frameWindow: Window & typeof globalThis, pairing: Pairing, origin: string, events: PairedSocketEvents): PairedSockets {
  const Real = frameWindow.WebSocket;
  const { crypto } = frameWindow;
  const allowed = new Set([`ws://127.0.0.1:${pairing.port}`, `ws://127.0.0.1:${pairing.port}/`]);
  const live = new Set<PairedSocket>();
  // Backs off quietly (DOOR-9): after an attempt that reached no relay, the next real one waits
  // 2 s, then 4, 8 … 60 s; the widget's own retries in between close at once without a connection
  // (each failed WebSocket is a console error in Chromium).
  let failures = 0;
  let nextAttemptAt = 0;
  const failed = () => {
    failures = Math.min(failures + 1, 6);
    nextAttemptAt = frameWindow.Date.now() + Math.min(2000 * 2 ** (failures - 1), 60_000);
  };

  class PairedSocket extends frameWindow.EventTarget {
    static readonly CONNECTING = 0;
    static readonly OPEN = 1;
    static readonly CLOSING = 2;
    static readonly CLOSED = 3;
    readonly CONNECTING = 0;
    readonly OPEN = 1;
    readonly CLOSING = 2;
    readonly CLOSED = 3;
    readonly url: string;
    readyState = 0;
    protocol = '';
    binaryType: BinaryType = 'blob';
    #real: WebSocket | null = null;
    #authenticated = false;
    #held: unknown[] = [];
    #queue = Promise.resolve();

    constructor(url: string | URL, protocols?: string | string[]) {
      super();
      this.url = String(url);
      if (!allowed.has(this.url) || frameWindow.Date.now() < nextAttemptAt) {
        // Not the paired relay: as if nothing listened there, without a connection attempt.
        frameWindow.setTimeout(() => this.#close(1006, ''), 0);
        return;
      }
      const real = new Real(this.url, protocols);
      this.#real = real;
      live.add(this);
      real.onmessage = (event) => {
        this.#queue = this.#queue.then(() => this.#receive(event.data)).catch(() => this.close());
      };
      let opened = false;
      real.onopen = () => (opened = true);
      real.onclose = (event) => {
        if (!opened) failed();
        this.#close(event.code, event.reason);
      };
      // The widget logs a warning for every error event; a close follows, which it also sees.
      real.onerror = () => {};
    }

    async #receive(data: unknown) {
      if (this.#authenticated) return this.#deliver(data);
      const message = parseMessage(data);
      const real = this.#real;
      if (!real || !message) return;
      if (message.type === 'ai-ops/challenge' && typeof message.nonce === 'string' && !this.#expected) {
        const { message: answer, expected } = await answerChallenge(crypto, pairing, message.nonce, origin);
        this.#expected = expected;
        real.send(answer);
      } else if (message.type === 'ai-ops/auth-ok' && this.#expected) {
        if (!sameProof(message.proof, this.#expected)) return this.close();
        this.#authenticated = true;
        failures = 0;
        nextAttemptAt = 0;
        this.protocol = real.protocol;
        this.readyState = 1;
        events.authenticated(clientInfoOf(message.client));
        this.dispatchEvent(new frameWindow.Event('open'));
        for (const held of this.#held.splice(0)) this.#deliver(held);
      } else if (message.type === 'ai-ops/auth-refused') {
        events.refused();
        this.close();
      } else {
        // The relay's server-hello, a ping: the widget hears them once the relay proved itself.
        this.#held.push(data);
      }
    }

    #expected: string | null = null;

    #deliver(data: unknown) {
      this.dispatchEvent(new frameWindow.MessageEvent('message', { data }));
    }

    #close(code: number, reason: string) {
      if (this.readyState === 3) return;
      const was = this.#authenticated;
      this.readyState = 3;
      live.delete(this);
      this.dispatchEvent(new frameWindow.CloseEvent('close', { code, reason, wasClean: code === 1000 }));
      if (was) events.closed();
    }

    send(data: string) {
      if (this.#authenticated && this.#real?.readyState === 1) this.#real.send(data);
    }

    close(code?: number, reason?: string) {
      if (this.readyState >= 2) return;
      this.readyState = 2;
      try {
        this.#real?.close(code, reason);
      } catch {
        this.#real?.close();
      }
      if (!this.#real) this.#close(1000, '');
    }

    /** DOOR-9: tells the relay the pairing ended (it withdraws this page's tools at once), then closes. */
    unpair() {
      if (this.#authenticated && this.#real?.readyState === 1) this.#real.send(JSON.stringify({ type: 'ai-ops/unpair' }));
      this.close();
    }
  }

  return {
    WebSocket: PairedSocket,
    unpair: () => {
      for (const socket of [...live]) socket.unpair();
    },
    closeAll: () => {
      for (const socket of [...live]) socket.close();
    },
  };
}
