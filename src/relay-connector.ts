/**
 * The relay connection's shape (SW-7, RELAY-5, DOOR-5, DOOR-6, DOOR-10): what the runtime and the
 * log element use of it, and its options. `relay-connection.ts` is the implementation.
 * @module
 */
import type { Clock } from './clock.js';
import type { ConsentStore } from './consent-store.js';
import type { RelayStatus } from './relay-paired.js';
import type { ScriptLoader } from './script-loader.js';
import type { ReadableStore } from './store.js';

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
