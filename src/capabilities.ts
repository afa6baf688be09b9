/**
 * What the page's own elements may do once the runtime's on-demand part loaded (`on-demand.ts`
 * builds it; `aiOps.capabilities` holds it): decide the requests the dialog shows, follow and
 * reconnect the relay, show and remove the enrolled key, say where the operations are registered.
 * Each is a function of its own, so nothing behind it (the queue, the relay connection, the
 * consent gate, the verifier) is reachable from a page script through the runtime.
 * @module
 */
import type { ApproveOptions } from './confirmation.js';
import type { PublicKeyRecord } from './consent-proof.js';
import type { ReadableStore } from './store.js';
import type { RelayStatus } from './relay-connection.js';

/** The user's decisions on the requests the dialog shows (CONF-3, CONF-6, BATCH-2). */
export interface PageDecisions {
  /** The action button: the request runs (verified first where consent says so, UV-1). */
  approve(id: number, options?: ApproveOptions): void;
  /** やめる, Esc or the backdrop: the user's "no" (CONF-6, BATCH-3). */
  decline(id: number): void;
  /** 「すべて承認」 over exactly `ids`, what the dialog showed at the press (BATCH-2). */
  approveAll(ids: readonly number[]): void;
  /** 「すべてやめる」 over exactly `ids` (BATCH-2). */
  declineAll(ids: readonly number[]): void;
}

/** The relay widget as the log uses it (RELAY-5, DOOR-5). */
export interface PageRelay {
  /** Re-creates the widget (the log's reconnect button). */
  reconnect(): Promise<void>;
  /** Whether a relay answered. */
  isConnected(): boolean;
  /** The origin the relay on the port serves instead of this page, or null (DOOR-5). */
  readonly refused: ReadableStore<string | null>;
  /** Whether the page is paired, and which agent is connected since when (DOOR-6, DOOR-10). */
  readonly status: ReadableStore<RelayStatus>;
  /** Pairs with the relay by the one-time code the user types (DOOR-6); rejects with a `PairingError`. */
  pair(code: string): Promise<void>;
  /** 「接続を解除」: ends the pairing (DOOR-6). */
  unpair(): Promise<void>;
}

/** The page's user verification as the log uses it (UV-5, UV-2, AUDIT-1). */
export interface PageVerification {
  /** The enrolled key's fingerprint, or null when none is enrolled. */
  fingerprint(): Promise<string | null>;
  /** The enrolled public key, for the audit export; null when none. */
  publicKey(): Promise<PublicKeyRecord | null>;
  /** Removes the enrolment; asks the user's verification first (UV-2). */
  unenrol(): Promise<void>;
}

/** Everything the page's elements may do, once the on-demand part loaded. */
export interface PageCapabilities {
  readonly decide: PageDecisions;
  readonly relay: PageRelay;
  /** Null when the page has no verifier (every consent is the click). */
  readonly verification: PageVerification | null;
  /** Where the operations are registered: the browser's own WebMCP (true), the polyfill's (false), none yet (null) (NAT-1). */
  readonly native: boolean | null;
}
