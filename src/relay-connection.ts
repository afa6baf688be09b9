/**
 * The relay widget of one page (SW-7, RELAY-5, SAFE-5, SAFE-6): `@mcp-b/webmcp-local-relay`
 * 2.2.0's embed.js inserts a hidden iframe whose document opens `ws://127.0.0.1:<port>`.
 *
 * Facts this class answers (PLATFORM-NOTES):
 * - a relay started after the page is only found when the widget is re-created (RELAY-5);
 * - Chromium delays every new WebSocket of a page by 1–5 s once that page's process has seen about
 *   16 failed ones in the last 2–4 minutes, and the widget's scan fails 33 per round while no relay
 *   runs. So in `probe` discovery the widget is added idle and told to connect only once something
 *   listens on the relay port: at most one failed WebSocket, and a relay started later is reached at once;
 * - relay 2.2.0 answers every plain HTTP request `426 Upgrade Required`, which Chromium logs as a
 *   console error ("Failed to load resource"), so a page probing it over HTTP shows red where all
 *   went well (`ai-ops-relay` answers a GET 200, with its door's answer, below). The first check opens a WebSocket instead (a relay accepts it: nothing is logged);
 *   only once that failed do later checks fetch (a failed fetch is not counted by the throttle);
 * - a classic script removed before it ran still runs and fires `load` (measured in Chromium 156),
 *   so a late embed.js would insert its widget after the switch went off. Every asynchronous step
 *   here re-checks that the connection is still wanted, and a widget that appears while it is not is
 *   removed as soon as its script settles (SAFE-5);
 * - a relay on the page's relay port that was started for another origin (`--widget-origin`)
 *   accepts the widget's WebSocket and closes it; the widget then retries that port every ~0.5 s and
 *   never reaches a relay of this origin on another port (measured with relay 2.2.0: a relay on 9333
 *   for another origin, ours on 9334, not found in 30 s; the code before this class did the same);
 * - `ai-ops-relay`'s door (DOOR-1, DOOR-5) refuses such a page at the handshake (HTTP 403), which a
 *   script sees only as a WebSocket that failed, as if nothing listened. So the fetch probe reads
 *   the relay's answer to a plain GET, `{"service":"ai-ops-relay","served":false}` for an origin it
 *   does not serve: {@link RelayConnection.refused} says so, and the widget is not told to connect
 *   (its scan would fail at every port). The port is still fetched every 2 s (answered 200, nothing
 *   logged), so a relay restarted for this origin is found as before.
 * @module
 */
import { systemClock, type Clock } from './clock.js';
import { DEFAULT_ASSETS_BASE, DEFAULT_RELAY_PORT } from './defaults.js';
import { RelayLookout, askDoor, openSocket, widgetLoaded } from './relay-probe.js';
import { SCRIPT_LOAD_TIMEOUT_MS, within, type ScriptLoader } from './script-loader.js';
import { createStore, readableStore, type ReadableStore } from './store.js';
import { createMemoryConsentStore, type ConsentStore } from './consent-store.js';
import { forgetPairing, keepPairing, pairWithCode, PairingError, readPairing, type Pairing, type RelayClientInfo } from './relay-pairing.js';
import { pairedSockets, type PairedSockets } from './relay-socket.js';

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

/** Where the vendor files are and which relay port the widget tries first. */
export interface RelayOptions {
  /** URL of the folder holding `mcp-b-global.js` and `relay/embed.js`; default `/ai-ops/vendor/`. */
  assetsBase?: string;
  /** The relay's port (`data-relay-port`); default 9333. */
  relayPort?: number;
}

/** The relay widget as the runtime and the log element use it. */
export interface RelayConnector {
  /** Adds the relay widget if it is not there (rejects when embed.js fails or takes over 15 s). */
  connect(): Promise<void>;
  /** Removes the widget (its WebSocket closes) and adds a new one (RELAY-5). */
  reconnect(): Promise<void>;
  /** Removes the widget: no connection to the relay while every switch is off (SW-7, SAFE-5). */
  disconnect(): void;
  /** True once the widget asked for the tool list since it was last (re)created: it reached a relay. */
  isConnected(): boolean;
  /**
   * `probe` discovery: when no relay answered yet and something listens on the relay port,
   * tells the widget to connect (a widget told before that reached nothing is re-created). Resolves
   * true when it told it. Does nothing in `widget` discovery.
   */
  discover(): Promise<boolean>;
  /**
   * DOOR-5: the origin the relay on the port said it does not serve (the page's, as its widget
   * frame asks), while it says so; null otherwise, and before any probe. `probe` discovery only.
   */
  readonly refused: ReadableStore<string | null>;
  /** DOOR-6, DOOR-10: whether the page is paired, and who is connected since when. */
  readonly status: ReadableStore<RelayStatus>;
  /**
   * DOOR-6: pairs with the relay on the page's relay port by the code the user was given (through
   * their agent); rejects with a {@link PairingError}. Only while a switch is on.
   */
  pair(code: string): Promise<void>;
  /**
   * DOOR-6, DOOR-9: 「接続を解除」, an off, the period's end: tells the relay (its tools leave its
   * list at once), forgets the pairing, removes the widget.
   */
  unpair(): Promise<void>;
}

/** Options of {@link RelayConnection}. */
export interface RelayConnectionOptions extends RelayOptions {
  loader: ScriptLoader;
  window?: Window;
  clock?: Clock;
  /**
   * `widget` (default): the widget searches for a relay as soon as it is added, and keeps searching.
   * `probe`: the widget is added idle; {@link RelayConnection.discover} starts it once the relay port answers.
   */
  discovery?: 'widget' | 'probe';
  /** Where the pairing is kept (DOOR-6): the consent store; default in memory (tests). */
  pairingStore?: ConsentStore;
}

const WIDGET_SELECTOR = '[data-webmcp-relay]';
/** A widget told to connect ignores another request; it is not asked again for this long. */
const TOLD_AGAIN_AFTER_MS = 10_000;
/** How long to wait for the widget's document before probing anyway. */
const WIDGET_LOAD_MS = 10_000;
const PROBE_TIMEOUT_MS = 3000;

/**
 * The relay connection of one page. Nothing is loaded until {@link connect}.
 * @example
 * const relay = new RelayConnection({ loader: createDomScriptLoader(), relayPort: 9333 });
 * await relay.connect();
 * relay.disconnect(); // every switch off
 * relay.dispose();    // the runtime goes away
 */
export class RelayConnection implements RelayConnector {
  readonly #win: Window;
  readonly #doc: Document;
  readonly #clock: Clock;
  readonly #loader: ScriptLoader;
  readonly #embedSrc: string;
  readonly #port: string;
  readonly #probing: boolean;
  /** Whether a widget should exist; every asynchronous step re-checks it. */
  #wanted = false;
  /** Bumped on every disconnect: a step begun before it does nothing after it. */
  #epoch = 0;
  #connected = false;
  #disposed = false;
  /** The embed.js load in flight (the script may still run after a timeout or a disconnect). */
  #embedding: Promise<unknown> | null = null;
  /** The widget last told to connect, and when: once told, it ignores another request. */
  #told: Element | null = null;
  #toldAt = 0;
  /** The widget a discovery is running for. */
  #discovering: Element | null = null;
  /** Cancels the discovery's waits and its probe request. */
  #discovery = new AbortController();
  /**
   * Whether the next probe is a WebSocket: not after one that did not open (until a fetch finds the
   * port listening again), so a page without a relay fails at most one socket.
   */
  #probeBySocket = true;
  /** {@link keepLooking}'s watch for a relay started after the page. */
  readonly #lookout: RelayLookout;
  readonly #refused = createStore<string | null>(null);
  readonly refused = readableStore(this.#refused);
  readonly #status = createStore<RelayStatus>(UNPAIRED);
  readonly status = readableStore(this.#status);
  readonly #store: ConsentStore;
  /** The kept pairing, once read; undefined before. */
  #pairing: Pairing | null = null;
  #reading: Promise<Pairing | null> | null = null;
  /** The paired sockets of the current widget document. */
  #sockets: PairedSockets | null = null;
  /** Each armed widget document's own WebSocket class, for the port probe (which must not be paired). */
  readonly #native = new WeakMap<Window, typeof WebSocket>();

  /** The widget asks the page for its tools right after it reached a relay: the only sign of a live connection. */
  readonly #onMessage = (event: MessageEvent) => {
    const data = event.data as { type?: unknown } | null;
    if (this.#wanted && event.origin === this.#win.location.origin && data?.type === 'webmcp.tools.list.request') {
      this.#connected = true;
      this.#refused.setState(null);
    }
  };

  constructor(options: RelayConnectionOptions) {
    this.#win = options.window ?? window;
    this.#doc = this.#win.document;
    this.#clock = options.clock ?? systemClock;
    this.#loader = options.loader;
    this.#embedSrc = new URL('relay/embed.js', new URL(options.assetsBase ?? DEFAULT_ASSETS_BASE, this.#doc.baseURI)).href;
    this.#port = String(options.relayPort ?? DEFAULT_RELAY_PORT);
    this.#probing = options.discovery === 'probe';
    this.#store = options.pairingStore ?? createMemoryConsentStore();
    this.#win.addEventListener('message', this.#onMessage);
    this.#lookout = new RelayLookout(this.#win, this.#clock, {
      connected: () => this.#connected,
      discover: () => this.discover(),
      reconnect: () => this.reconnect(),
    });
  }

  isConnected(): boolean {
    return this.#connected;
  }

  async connect(): Promise<void> {
    if (this.#disposed) return;
    this.#wanted = true;
    const epoch = this.#epoch;
    // DOOR-9: no pairing, no widget: no WebSocket, no port scanned, nothing logged.
    if (!(await this.#readPairing()) || !this.#current(epoch)) return;
    if (!this.#doc.querySelector(WIDGET_SELECTOR)) await this.#addWidget();
    if (this.#current(epoch)) void this.discover();
  }

  /** The kept pairing, read once from the store. */
  #readPairing(): Promise<Pairing | null> {
    if (this.#pairing) return Promise.resolve(this.#pairing);
    // While unpaired, read again each time: another tab of this origin may have paired since.
    return (this.#reading ??= readPairing(this.#store).catch(() => null).then((pairing) => {
      this.#reading = null;
      if (!this.#pairing && pairing) {
        this.#pairing = pairing;
        this.#status.setState({ ...UNPAIRED, paired: true, client: pairing.client });
      }
      return this.#pairing ?? null;
    }));
  }

  async pair(code: string): Promise<void> {
    if (this.#disposed || !this.#wanted) throw new PairingError('off');
    const epoch = this.#epoch;
    const context = this.#win as Window & typeof globalThis;
    let pairing: Pairing;
    try {
      pairing = await pairWithCode({ context, origin: this.#win.location.origin, port: Number(this.#port), code, signal: this.#discovery.signal });
    } catch (error) {
      // DOOR-5: a relay that refused this origin at the handshake looks like no relay; its plain
      // answer tells the two apart, and the log says which.
      if (error instanceof PairingError && error.reason === 'no-relay' && this.#current(epoch)) {
        const door = await askDoor(context, this.#port, new AbortController().signal).catch(() => null);
        if (door?.refused && this.#current(epoch)) this.#refused.setState(this.#win.location.origin);
      }
      throw error;
    }
    // An off (or 「接続を解除」) while the code was being checked: nothing is kept, nothing connects.
    if (!this.#current(epoch)) throw new PairingError('off');
    this.#refused.setState(null);
    await keepPairing(this.#store, pairing);
    if (!this.#current(epoch)) {
      await forgetPairing(this.#store);
      throw new PairingError('off');
    }
    this.#pairing = pairing;
    this.#status.setState({ ...UNPAIRED, paired: true, client: pairing.client });
    await this.reconnect();
  }

  async unpair(): Promise<void> {
    // Said on the live socket first, synchronously: the relay withdraws the tools as it reads it.
    this.#sockets?.unpair();
    this.#sockets = null;
    this.#pairing = null;
    this.#status.setState(UNPAIRED);
    // The switch stays as it is: only the widget goes (a new code pairs again at once).
    this.#dropWidget();
    await forgetPairing(this.#store);
  }

  async reconnect(): Promise<void> {
    this.disconnect();
    await this.connect();
  }

  disconnect(): void {
    this.#wanted = false;
    this.#dropWidget();
  }

  /** Removes the widget and its sockets; a step begun before it does nothing after it. */
  #dropWidget(): void {
    this.#epoch++;
    this.#discovery.abort();
    this.#discovery = new AbortController();
    this.#sockets?.closeAll();
    this.#sockets = null;
    this.#removeWidget();
  }

  /** Disconnects for good, stops {@link keepLooking}, and removes every page listener this connection added. */
  dispose(): void {
    this.disconnect();
    this.#disposed = true;
    this.#lookout.dispose();
    this.#win.removeEventListener('message', this.#onMessage);
  }

  /**
   * Finds a relay started after the page (RELAY-5, the runtime's `autoReconnect`): while `anyOn()`
   * says a switch is on and the page is visible, the relay port is checked every 2 s until a relay
   * answered ({@link discover}); the widget is re-created when the page becomes visible or focused
   * (at most every 3 s). Call it again whenever the switches change; {@link dispose} stops it.
   * @example relay.keepLooking(() => aiOps.anyOn());
   */
  keepLooking(anyOn: () => boolean): void {
    if (!this.#disposed) this.#lookout.keepLooking(anyOn);
  }

  async discover(): Promise<boolean> {
    const current = this.#doc.querySelector<HTMLIFrameElement>(WIDGET_SELECTOR);
    if (!this.#pairing && this.#wanted) {
      // Another tab of this origin may have paired: an IndexedDB read, nothing on the network.
      const epoch = this.#epoch;
      if (await this.#readPairing() && this.#current(epoch) && !current) await this.connect();
      return false;
    }
    if (!this.#pairing || !this.#wanted || this.#connected || !current || current === this.#discovering) return false;
    if (current === this.#told && this.#clock.now() - this.#toldAt < TOLD_AGAIN_AFTER_MS) return false;
    const epoch = this.#epoch;
    const { signal } = this.#discovery;
    this.#discovering = current;
    try {
      let frame = await this.#ready(current, signal);
      if (!frame || (this.#probing && !(await this.#probe(frame, signal))) || !frame.isConnected || this.#connected || !this.#current(epoch)) return false;
      if (frame === this.#told) {
        this.#removeWidget();
        await this.#addWidget();
        if (!this.#current(epoch)) return false;
        frame = await this.#ready(this.#doc.querySelector(WIDGET_SELECTOR), signal);
        if (!frame || !this.#current(epoch)) return false;
      }
      if (!this.#arm(frame)) return false;
      frame.contentWindow?.postMessage({ type: 'webmcp.connect' }, new URL(frame.src).origin);
      this.#told = frame;
      this.#toldAt = this.#clock.now();
      return true;
    } finally {
      if (this.#discovering === current) this.#discovering = null;
    }
  }

  /**
   * DOOR-6, DOOR-9: gives the widget's document the paired WebSocket (relay-socket.ts) before it is
   * told to connect: it opens nothing but the paired relay's address, and passes the widget nothing
   * until that relay proved the pairing. False when the widget's document cannot be reached.
   */
  #arm(frame: HTMLIFrameElement): boolean {
    const pairing = this.#pairing;
    let frameWindow: (Window & typeof globalThis) | null = null;
    try {
      frameWindow = frame.contentWindow as (Window & typeof globalThis) | null;
      if (!pairing || !frameWindow?.WebSocket) return false;
    } catch {
      return false;
    }
    this.#sockets?.closeAll();
    const sockets = pairedSockets(frameWindow, pairing, this.#win.location.origin, {
      authenticated: (client) => {
        if (this.#pairing !== pairing) return;
        this.#status.setState({ paired: true, connected: true, client: client ?? pairing.client, since: this.#clock.now(), refused: false });
      },
      refused: () => {
        if (this.#pairing !== pairing) return;
        this.#status.setState({ ...this.#status.getState(), connected: false, since: null, refused: true });
        // Ended in another tab of this origin (its off, its 「接続を解除」): then this page is unpaired too.
        void readPairing(this.#store).catch(() => null).then((kept) => {
          if (this.#pairing !== pairing || kept?.id === pairing.id) return;
          this.#pairing = null;
          this.#status.setState(UNPAIRED);
          this.#dropWidget();
        });
      },
      closed: () => {
        if (this.#pairing !== pairing) return;
        // The relay went (the agent quit): the lookout looks for it again, and a focus re-creates the widget (RELAY-5).
        this.#connected = false;
        this.#status.setState({ ...this.#status.getState(), connected: false, since: null });
      },
    });
    if (!this.#native.has(frameWindow)) this.#native.set(frameWindow, frameWindow.WebSocket);
    (frameWindow as unknown as { WebSocket: unknown }).WebSocket = sockets.WebSocket;
    this.#sockets = sockets;
    return true;
  }

  /** True while the connection is wanted and no disconnect happened since `epoch` was read. */
  #current(epoch: number) {
    return this.#wanted && epoch === this.#epoch;
  }

  async #addWidget() {
    // Always idle at first: the widget's document gets the paired WebSocket before it connects (#arm).
    const attributes: Record<string, string> = { 'data-relay-port': String(this.#pairing?.port ?? this.#port), 'data-ai-ops-relay': '', 'data-auto-connect': 'false' };
    // One embed.js at a time: a connect while one loads waits for it rather than adding a second.
    const loading = (this.#embedding ??= this.#loader.load(this.#embedSrc, attributes).finally(() => {
      this.#embedding = null;
      // SAFE-5: a script that ran after the switch went off (or after the bound) leaves nothing.
      if (!this.#wanted) this.#removeWidget();
    }));
    await within(loading, this.#clock, SCRIPT_LOAD_TIMEOUT_MS, this.#embedSrc);
  }

  #removeWidget() {
    for (const element of this.#doc.querySelectorAll(`${WIDGET_SELECTOR}, script[data-ai-ops-relay]`)) element.remove();
    this.#connected = false;
  }

  /** The widget once its document ran (its message listener is there), unless it went away or a relay answered. */
  async #ready(frame: HTMLIFrameElement | null, signal: AbortSignal) {
    if (frame) await widgetLoaded(frame, signal, this.#clock, WIDGET_LOAD_MS);
    return frame?.isConnected && !this.#connected && !signal.aborted ? frame : null;
  }

  /**
   * Whether something listens on the relay port; cancelled by a disconnect. Sent from the widget's
   * document: the page's CSP may allow only ws: to the relay, and the widget frame carries the
   * local-network permissions the page delegates to it. A WebSocket first (a relay accepts it and
   * nothing is logged; a stock relay of another origin accepts it too, as the widget would find);
   * after one that did not open, a fetch until one is answered (a closed port rejects; anything
   * listening answers, a stock relay's 426 included), and then a second, readable one: `ai-ops-relay`
   * answers whether it serves this origin (DOOR-5), and one that does not is not reached. While
   * nothing listens, each check is still one failed request.
   */
  #probe(frame: HTMLIFrameElement, signal: AbortSignal): Promise<boolean> {
    let context = this.#win as Window & typeof globalThis;
    try {
      if (frame.contentWindow?.fetch) context = frame.contentWindow as Window & typeof globalThis;
    } catch {
      // another origin: probe from the page
    }
    const timeout = new AbortController();
    const timer = this.#clock.setTimeout(() => timeout.abort(), PROBE_TIMEOUT_MS);
    const onAbort = () => timeout.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const port = String(this.#pairing?.port ?? this.#port);
    const answered = this.#probeBySocket
      ? openSocket(context, port, timeout.signal, this.#native.get(context) ?? context.WebSocket).then((opened) => {
        this.#probeBySocket = opened;
        if (opened) this.#refused.setState(null);
        return opened;
      })
      : askDoor(context, port, timeout.signal).then((door) => {
        if (door === null) return false;
        this.#refused.setState(door.refused ? context.location.origin : null);
        return door.refused ? false : (this.#probeBySocket = true);
      });
    return answered.then((yes) => yes && !signal.aborted).finally(() => {
      this.#clock.clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    });
  }
}

/**
 * Creates the relay connection of a page (kept for callers of the earlier factory).
 * @example const relay = createRelayConnector({ loader: createDomScriptLoader(), relayPort: 9333 });
 */
export function createRelayConnector(options: RelayConnectionOptions): RelayConnection {
  return new RelayConnection(options);
}
