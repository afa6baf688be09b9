/**
 * The page's pairing with its relay as the relay connection holds it (DOOR-6, DOOR-9, DOOR-10):
 * the kept pairing (read from the consent store, again while there is none: another tab of the
 * origin may pair), the status the log shows (paired, connected, which agent, since when), and the
 * widget document's paired sockets (relay-socket.ts). `relay-connection.ts` decides when.
 * @module
 */
import type { Clock } from './clock.js';
import type { ConsentStore } from './consent-store.js';
import { forgetPairing, keepPairing, readPairing, type Pairing, type RelayClientInfo } from './relay-pairing.js';
import { pairedSockets, type PairedSockets } from './relay-socket.js';
import { createStore, readableStore } from './store.js';

/** Whether the page is paired with a relay, and whether that relay is connected now (DOOR-6, DOOR-10). */
export interface RelayStatus {
  /** A pairing is kept: the page looks for its relay (only there). */
  readonly paired: boolean;
  /** The paired relay proved the pairing on the live connection. */
  readonly connected: boolean;
  /** The relay's MCP client (its `initialize` clientInfo), once the relay said. */
  readonly client: RelayClientInfo | null;
  /** When the live connection was proved (the page clock's ms), or null. */
  readonly since: number | null;
  /** The relay on the paired port did not know the pairing at the last try. */
  readonly refused: boolean;
}

const UNPAIRED: RelayStatus = Object.freeze({ paired: false, connected: false, client: null, since: null, refused: false });

/** What the relay connection hears from {@link PairedRelay.arm}'s sockets. */
export interface ArmedEvents {
  /** The connected relay went (the agent quit). */
  lost(): void;
  /** The pairing ended elsewhere (another tab's off or 「接続を解除」): this page is unpaired too. */
  forgotten(): void;
}

/** The pairing of one page's relay connection. */
export class PairedRelay {
  readonly #status = createStore<RelayStatus>(UNPAIRED);
  readonly status = readableStore(this.#status);
  #pairing: Pairing | null = null;
  #reading: Promise<Pairing | null> | null = null;
  #sockets: PairedSockets | null = null;
  /** Each armed widget document's own WebSocket class, for the port probe (which must not be paired). */
  readonly #native = new WeakMap<Window, typeof WebSocket>();

  constructor(private readonly store: ConsentStore, private readonly clock: Clock, private readonly origin: string) {}

  /** The kept pairing, or null. */
  get pairing(): Pairing | null {
    return this.#pairing;
  }

  /** The kept pairing, read from the store while there is none. */
  read(): Promise<Pairing | null> {
    if (this.#pairing) return Promise.resolve(this.#pairing);
    const ended = this.#ended;
    return (this.#reading ??= readPairing(this.store).catch(() => null).then((pairing) => {
      this.#reading = null;
      // A read begun before an end may find the record the end is deleting: not taken up again.
      if (!this.#pairing && pairing && ended === this.#ended) this.#use(pairing);
      return this.#pairing;
    }));
  }

  /** Bumped by every {@link end}. */
  #ended = 0;

  /** Keeps a new pairing; false (and nothing kept) when `stillWanted()` turned false meanwhile. */
  async keep(pairing: Pairing, stillWanted: () => boolean): Promise<boolean> {
    await keepPairing(this.store, pairing);
    if (!stillWanted()) {
      await forgetPairing(this.store);
      return false;
    }
    this.#use(pairing);
    return true;
  }

  #use(pairing: Pairing) {
    this.#pairing = pairing;
    this.#status.setState({ ...UNPAIRED, paired: true, client: pairing.client });
  }

  /** Ends the pairing: the relay hears it on the live sockets first (synchronously), then it is forgotten. */
  end(): Promise<void> {
    this.#ended++;
    this.#reading = null;
    this.#sockets?.unpair();
    this.#sockets = null;
    this.#pairing = null;
    this.#status.setState(UNPAIRED);
    return forgetPairing(this.store);
  }

  /** Closes the widget document's sockets (the widget goes). */
  closeSockets(): void {
    this.#sockets?.closeAll();
    this.#sockets = null;
  }

  /** The widget document's own WebSocket class, once armed. */
  nativeSocket(win: Window): typeof WebSocket | undefined {
    return this.#native.get(win);
  }

  /**
   * Gives the widget's document the paired WebSocket (relay-socket.ts) before it is told to connect:
   * it opens nothing but the paired relay's address and passes the widget nothing until that relay
   * proved the pairing. False when there is no pairing or the document cannot be reached.
   */
  arm(frame: HTMLIFrameElement, events: ArmedEvents): boolean {
    const pairing = this.#pairing;
    let frameWindow: (Window & typeof globalThis) | null = null;
    try {
      frameWindow = frame.contentWindow as (Window & typeof globalThis) | null;
      if (!pairing || !frameWindow?.WebSocket) return false;
    } catch {
      return false;
    }
    this.#sockets?.closeAll();
    const mine = () => this.#pairing === pairing;
    const sockets = pairedSockets(frameWindow, pairing, this.origin, {
      authenticated: (client) => {
        if (mine()) this.#status.setState({ paired: true, connected: true, client: client ?? pairing.client, since: this.clock.now(), refused: false });
      },
      refused: () => {
        if (!mine()) return;
        this.#status.setState({ ...this.#status.getState(), connected: false, since: null, refused: true });
        void readPairing(this.store).catch(() => null).then((kept) => {
          if (!mine() || kept?.id === pairing.id) return;
          this.#pairing = null;
          this.#status.setState(UNPAIRED);
          events.forgotten();
        });
      },
      closed: () => {
        if (!mine()) return;
        this.#status.setState({ ...this.#status.getState(), connected: false, since: null });
        events.lost();
      },
    });
    if (!this.#native.has(frameWindow)) this.#native.set(frameWindow, frameWindow.WebSocket);
    (frameWindow as unknown as { WebSocket: unknown }).WebSocket = sockets.WebSocket;
    this.#sockets = sockets;
    return true;
  }
}
