/**
 * The relay widget of one page (SW-7, RELAY-5, SAFE-5, SAFE-6, DOOR-6, DOOR-9):
 * `@mcp-b/webmcp-local-relay` 2.2.0's embed.js inserts a hidden iframe whose document opens
 * `ws://127.0.0.1:<port>`. Facts this class answers (PLATFORM-NOTES):
 * - no pairing, no widget (DOOR-9): until the user paired, nothing opens, scans or logs; once
 *   paired, the widget's document gets the paired WebSocket (relay-socket.ts) before it connects;
 * - a relay started after the page is only found when the widget is re-created (RELAY-5);
 * - Chromium delays every new WebSocket of a page by 1–5 s once it has seen about 16 failed ones in
 *   2–4 minutes. So in `probe` discovery the widget is added idle and told to connect only once
 *   something listens on the paired port: at most one failed WebSocket, then fetches (not counted);
 * - relay 2.2.0 answers a plain HTTP request `426`, which Chromium logs as an error, so the first
 *   check is a WebSocket (`ai-ops-relay` answers a GET 200, with its door's answer);
 * - a classic script removed before it ran still runs and fires `load` (Chromium 156), so every
 *   asynchronous step re-checks that the connection is still wanted, and a widget that appears
 *   while it is not is removed as soon as its script settles (SAFE-5);
 * - `ai-ops-relay`'s door refuses a page of another origin at the handshake (HTTP 403, a failed
 *   WebSocket to a script; the GET says `{"served":false}`): {@link RelayConnection.refused} (DOOR-5).
 * @module
 */
import { systemClock, type Clock } from './clock.js';
import type { RelayConnector, RelayConnectionOptions } from './relay-connector.js';
import { DEFAULT_ASSETS_BASE, DEFAULT_RELAY_PORT } from './defaults.js';
import { RelayLookout, askDoor, openSocket, widgetLoaded } from './relay-probe.js';
import { SCRIPT_LOAD_TIMEOUT_MS, within, type ScriptLoader } from './script-loader.js';
import { createStore, readableStore, type ReadableStore } from './store.js';
import { createMemoryConsentStore } from './consent-store.js';
import { pairWithCode, PairingError, type Pairing } from './relay-pairing.js';
import { PairedRelay, type RelayStatus } from './relay-paired.js';

export type { RelayStatus } from './relay-paired.js';
export type { RelayOptions, RelayConnector, RelayConnectionOptions } from './relay-connector.js';

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
  /** The embed.js load in flight (it may still run after a timeout or a disconnect). */
  #embedding: Promise<unknown> | null = null;
  /** The widget last told to connect, and when: once told, it ignores another request. */
  #told: Element | null = null;
  #toldAt = 0;
  /** The widget a discovery is running for. */
  #discovering: Element | null = null;
  /** Cancels the discovery's waits and its probe request. */
  #discovery = new AbortController();
  /** Whether the next probe is a WebSocket: not after one that did not open (at most one fails). */
  #probeBySocket = true;
  /** {@link keepLooking}'s watch for a relay started after the page. */
  readonly #lookout: RelayLookout;
  readonly #refused = createStore<string | null>(null);
  readonly refused = readableStore(this.#refused);
  /** The pairing, its status and the widget document's paired sockets (DOOR-6, DOOR-10). */
  readonly #paired: PairedRelay;
  readonly status: ReadableStore<RelayStatus>;

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
    this.#paired = new PairedRelay(options.pairingStore ?? createMemoryConsentStore(), this.#clock, this.#win.location.origin);
    this.status = this.#paired.status;
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
    if (!(await this.#paired.read()) || !this.#current(epoch)) return;
    if (!this.#doc.querySelector(WIDGET_SELECTOR)) await this.#addWidget();
    if (this.#current(epoch)) void this.discover();
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
    // An off (or 「接続を解除」) while the code was checked or kept: nothing is kept, nothing connects.
    if (!this.#current(epoch) || !(await this.#paired.keep(pairing, () => this.#current(epoch)))) throw new PairingError('off');
    this.#refused.setState(null);
    await this.reconnect();
  }

  async unpair(): Promise<void> {
    // Said on the live socket first, synchronously: the relay withdraws the tools as it reads it.
    const ended = this.#paired.end();
    // The switch stays as it is: only the widget goes (a new code pairs again at once).
    this.#dropWidget();
    await ended;
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
    this.#paired.closeSockets();
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
   * Finds a relay started after the page (RELAY-5; see {@link RelayLookout}): call it again whenever
   * the switches change; {@link dispose} stops it.
   * @example relay.keepLooking(() => aiOps.anyOn());
   */
  keepLooking(anyOn: () => boolean): void {
    if (!this.#disposed) this.#lookout.keepLooking(anyOn);
  }

  async discover(): Promise<boolean> {
    const current = this.#doc.querySelector<HTMLIFrameElement>(WIDGET_SELECTOR);
    if (!this.#paired.pairing && this.#wanted) {
      // Another tab of this origin may have paired: an IndexedDB read, nothing on the network.
      const epoch = this.#epoch;
      if (await this.#paired.read() && this.#current(epoch) && !current) await this.connect();
      return false;
    }
    if (!this.#paired.pairing || !this.#wanted || this.#connected || !current || current === this.#discovering) return false;
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
      const armed = this.#paired.arm(frame, {
        // The relay went (the agent quit): the lookout looks for it again, a focus re-creates the widget (RELAY-5).
        lost: () => (this.#connected = false),
        forgotten: () => this.#dropWidget(),
      });
      if (!armed) return false;
      frame.contentWindow?.postMessage({ type: 'webmcp.connect' }, new URL(frame.src).origin);
      this.#told = frame;
      this.#toldAt = this.#clock.now();
      return true;
    } finally {
      if (this.#discovering === current) this.#discovering = null;
    }
  }

  /** True while the connection is wanted and no disconnect happened since `epoch` was read. */
  #current(epoch: number) {
    return this.#wanted && epoch === this.#epoch;
  }

  async #addWidget() {
    // Always idle at first: the widget's document gets the paired WebSocket before it connects (#arm).
    const attributes: Record<string, string> = { 'data-relay-port': String(this.#paired.pairing?.port ?? this.#port), 'data-ai-ops-relay': '', 'data-auto-connect': 'false' };
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
    const port = String(this.#paired.pairing?.port ?? this.#port);
    const answered = this.#probeBySocket
      ? openSocket(context, port, timeout.signal, this.#paired.nativeSocket(context) ?? context.WebSocket).then((opened) => {
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
