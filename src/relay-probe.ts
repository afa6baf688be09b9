/**
 * The relay connection's looks at the relay port (RELAY-5, DOOR-5), from the widget's document: a
 * WebSocket that opens and closes at once, or a GET that tells whether anything listens and, from
 * `ai-ops-relay`, whether it serves this origin; and the lookout that keeps looking for a relay
 * started after the page. `relay-connection.ts` decides what each answer means for the widget.
 * @module
 */
import type { Clock, TimerHandle } from './clock.js';

/** Resolves once the widget's document ran, after `ms`, or when discovery is cancelled. */
export function widgetLoaded(frame: HTMLIFrameElement, signal: AbortSignal, clock: Clock, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    let ready = false;
    try {
      ready = frame.contentDocument?.readyState === 'complete' && frame.contentWindow?.location.href !== 'about:blank';
    } catch {
      // another origin: wait for its load event
    }
    if (ready || signal.aborted) return resolve();
    let timer: TimerHandle = null;
    const done = () => {
      clock.clearTimeout(timer);
      frame.removeEventListener('load', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    frame.addEventListener('load', done, { once: true });
    signal.addEventListener('abort', done, { once: true });
    timer = clock.setTimeout(done, ms);
  });
}

/** A GET of the relay port: `no-cors` resolves whenever anything answers; `cors` lets the page read the answer. */
function fetchPort(context: typeof globalThis, port: string, mode: RequestMode, signal: AbortSignal) {
  return context.fetch(`http://127.0.0.1:${port}/`, { mode, cache: 'no-store', credentials: 'omit', signal });
}

/**
 * Null when nothing listens on the port (each such look is one failed request); else whether the
 * relay there refuses this origin. `ai-ops-relay` answers a readable GET with whether it serves
 * the asking origin (DOOR-5); anything else listening (a stock relay's 426, which the page may not
 * read) counts as not refusing, and is left to the widget.
 */
export function askDoor(context: typeof globalThis, port: string, signal: AbortSignal): Promise<{ refused: boolean } | null> {
  return fetchPort(context, port, 'no-cors', signal).then(() => fetchPort(context, port, 'cors', signal)
    .then((response) => response.json())
    .catch(() => null)
    .then((door: { service?: unknown; served?: unknown } | null) => ({ refused: door?.service === 'ai-ops-relay' && door.served === false })), () => null);
}

/**
 * Opens a WebSocket to the relay port and closes it as soon as it opened: true when it did. `Socket`
 * is the document's own WebSocket class (the widget's document gets a paired one, relay-socket.ts).
 */
export function openSocket(context: typeof globalThis, port: string, signal: AbortSignal, Socket: typeof WebSocket = context.WebSocket): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = new Socket(`ws://127.0.0.1:${port}/`);
    const done = (opened: boolean) => {
      signal.removeEventListener('abort', cancel);
      socket.onopen = socket.onerror = null;
      socket.close();
      resolve(opened);
    };
    const cancel = () => done(false);
    socket.onopen = () => done(true);
    socket.onerror = cancel;
    if (signal.aborted) cancel();
    else signal.addEventListener('abort', cancel, { once: true });
  });
}

/** How often the lookout checks the relay port while a switch is on, for its first {@link QUICK_LOOKS} looks. */
const LOOK_EVERY_MS = 2000;
/**
 * Then it backs off (DOOR-9: each look at a port where nothing listens is a console error in
 * Chromium): 4 s, 8 s … at most every 60 s, until a relay answered, the page wakes or the switches change.
 */
const QUICK_LOOKS = 5;
const LOOK_AT_MOST_EVERY_MS = 60_000;
/** The widget is re-created on focus or visibility at most this often. */
const WAKE_AT_MOST_EVERY_MS = 3000;

/** What the lookout asks of the relay connection. */
export interface LookedAfter {
  connected(): boolean;
  /** Checks the port once and tells the widget to connect when something answers. */
  discover(): Promise<unknown>;
  /** Re-creates the widget. */
  reconnect(): Promise<void>;
}

/**
 * Finds a relay started after the page (RELAY-5, the runtime's `autoReconnect`): while `anyOn()`
 * says a switch is on and the page is visible, the relay port is checked every 2 s until a relay
 * answered; the widget is re-created when the page becomes visible or focused (at most every 3 s).
 */
export class RelayLookout {
  #anyOn: (() => boolean) | null = null;
  #look: TimerHandle = null;
  #wokeAt = -Infinity;
  #disposed = false;

  constructor(private readonly win: Window, private readonly clock: Clock, private readonly relay: LookedAfter) {}

  /** Starts, goes on, or stops, as `anyOn()` says now; call it again whenever the switches change. */
  keepLooking(anyOn: () => boolean): void {
    if (this.#disposed) return;
    if (!this.#anyOn) {
      this.win.document.addEventListener('visibilitychange', this.#wake);
      this.win.addEventListener('focus', this.#wake);
    }
    this.#anyOn = anyOn;
    if (!anyOn()) this.#stop();
    else if (this.#look === null) {
      this.#misses = 0;
      this.#look = this.clock.setTimeout(this.#check, LOOK_EVERY_MS);
    }
  }

  /** Stops for good and removes its listeners. */
  dispose(): void {
    this.#disposed = true;
    this.#stop();
    this.win.document.removeEventListener('visibilitychange', this.#wake);
    this.win.removeEventListener('focus', this.#wake);
  }

  #visible() {
    return this.win.document.visibilityState === 'visible';
  }

  /** Looks since a relay last answered (or the page woke). */
  #misses = 0;

  readonly #check = () => {
    this.#misses = this.relay.connected() ? 0 : this.#misses + 1;
    const backOff = Math.max(0, this.#misses - QUICK_LOOKS);
    this.#look = this.clock.setTimeout(this.#check, Math.min(LOOK_EVERY_MS * 2 ** backOff, LOOK_AT_MOST_EVERY_MS));
    if (this.#visible() && !this.relay.connected()) void this.relay.discover();
  };

  readonly #wake = () => {
    if (this.#disposed || !this.#visible() || !this.#anyOn?.() || this.relay.connected()) return;
    if (this.clock.now() - this.#wokeAt < WAKE_AT_MOST_EVERY_MS) return;
    this.#wokeAt = this.clock.now();
    this.#misses = 0;
    void this.relay.reconnect().catch(() => {});
  };

  #stop() {
    this.clock.clearTimeout(this.#look);
    this.#look = null;
  }
}
