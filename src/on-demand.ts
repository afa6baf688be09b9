/**
 * The on-demand part of the runtime: everything that runs only once a switch is on or a call
 * arrives — the polyfill and relay loading, the registration, the call path with its validator, and
 * the confirmation queue.
 *
 * Why it is a part of its own (PKG-4): a page whose switches are all off may load at most 12 KB
 * (min + gzip) of ai-ops and Lit, and these modules alone would take most of that. So the runtime
 * (`runtime.ts`) imports this module on demand, once, on the first switch-on or call, and hands
 * what it creates to the sessions; nothing else imports it, and nothing loaded with the switch
 * imports the modules behind it. Other files refer here rather than repeat this.
 * @module
 */
import type { PageCapabilities } from './capabilities.js';
import type { Clock } from './clock.js';
import { createConfirmationQueue, type PageConfirmationQueue, type ConfirmationState } from './confirmation-queue.js';
import { createModelContextProvider, type ModelContextLike, type ModelContextProvider } from './model-context.js';
import { RelayConnection } from './relay-connection.js';
import { createDomScriptLoader, type ScriptLoader } from './script-loader.js';
import { createSessionOperations, type SessionOperations } from './session-operations.js';
import type { CallVia, OperationLogWriter } from './operation-log.js';
import type { WritableStore } from './store.js';
import { createUndoKeeper, type UndoKeeper } from './undo-keeper.js';
import { createConsentGate, type ConsentGate } from './consent-gate.js';
import { defaultConsentStore, type ConsentStore } from './consent-store.js';
import { anchorConsentStore } from './consent-anchor.js';
import type { NativeWebAuthn } from './native-webauthn.js';
import { createWebAuthnVerifier, type ConsentOption, type UserVerifier } from './user-verifier.js';

/**
 * After the last call answered, how long the relay widget stays for the answer to cross it (page →
 * widget frame → WebSocket) before the last switch-off removes it (APP-1): a message posted to a
 * frame removed at once is lost.
 */
const ANSWER_CROSSES_MS = 200;

/** What {@link createOnDemandParts} needs from the runtime. */
export interface OnDemandOptions {
  window: Window;
  clock: Clock;
  loader?: ScriptLoader;
  assetsBase?: string;
  relayPort?: number;
  /** Look for a relay started after the page (RELAY-5, {@link RelayConnection.keepLooking}). */
  autoReconnect: boolean;
  browserModelContext?: ModelContextLike | null;
  /** The runtime's confirmation state, which the elements read before this part loads. */
  confirmationState: WritableStore<ConfirmationState>;
  /** True while any switch of the page is on or starting. */
  anyOn(): boolean;
  /** True while any switch of the page is on, its page shown or not (DOOR-6: the pairing lasts as long). */
  anyEnabled?(): boolean;
  /** The runtime's log, whose rows own the undo steps (UNDO-1). */
  log: OperationLogWriter;
  /** The undo keeper's budget (UNDO-4); default 64 MB. */
  undoBudgetBytes?: number;
  /** Where the enrolment and the receipts are kept (UV-8); default IndexedDB, under the page's own anchor (UV-14). */
  consentStore?: ConsentStore;
  /** The page author's consent choice (UV-2); default `auto`. */
  consent?: ConsentOption;
  /** The page's verifier; default WebAuthn on this origin; null: none (every consent is the click). */
  verifier?: UserVerifier | null;
  /** Whether a program drives the browser; default `navigator.webdriver`. */
  automated?: boolean;
  /** How long one verification may wait for the user (UV-10); default 50 s (CONF-8's). */
  verificationTimeoutMs?: number;
  /** The platform's WebAuthn as the runtime captured it when it loaded (UV-15); default the verifier's own. */
  nativeWebAuthn?: NativeWebAuthn;
}

/** What the runtime hands its sessions once this part loaded. */
export interface OnDemandParts {
  modelContext: ModelContextProvider;
  relay: RelayConnection;
  queue: PageConfirmationQueue;
  /** The runtime's `undo` (see {@link UndoKeeper.undo}). */
  undo: UndoKeeper['undo'];
  /** Verified consent (UV-1..UV-4): the switch-on, the stored "on", the approvals. */
  consent: ConsentGate;
  /** What the page's elements may do (`aiOps.capabilities`), each a function of its own. */
  capabilities: PageCapabilities;
  /** A session's operations, with the runtime's keeper and consent gate. */
  createSessionOperations(deps: Omit<Parameters<typeof createSessionOperations>[0], 'keeper' | 'consent'>): SessionOperations;
  /** Follows the switches: the relay is looked for while one is on (RELAY-5). */
  update(): void;
  /** Removes the widget and every listener and timer of the relay. */
  dispose(): void;
}


/** The parts of one runtime: one script loader, one model context, one relay connection, one queue. */
export function createOnDemandParts(options: OnDemandOptions): OnDemandParts {
  const { window: win, clock, assetsBase, relayPort, autoReconnect, anyOn } = options;
  const loader = options.loader ?? createDomScriptLoader(win.document);
  const modelContext = createModelContextProvider({ loader, window: win, clock, assetsBase, browserModelContext: options.browserModelContext });
  const consentStore = options.consentStore ?? anchorConsentStore(defaultConsentStore(win));
  // DOOR-6: the pairing is kept under the consent store's protection, beside the enrolment.
  const relay = new RelayConnection({ assetsBase, relayPort, loader, window: win, clock, discovery: autoReconnect ? 'probe' : 'widget', pairingStore: consentStore });
  // Every session's operations, so the last switch-off can wait for their calls to answer (APP-1).
  const sessions: SessionOperations[] = [];
  let closing = false;
  // DOOR-10: a call through the relay names the agent whose relay is connected, as its MCP client
  // said in initialize; `relay` alone when none is (another caller of navigator.modelContextTesting).
  const relayChannel = (via: CallVia): CallVia => {
    const { connected, client } = relay.status.getState();
    return via === 'relay' && connected && client ? `relay ${client.name}${client.version ? ` ${client.version}` : ''}` : via;
  };
  // DOOR-6, DOOR-9: the last switch off (or its period's end) ends the pairing too; a page merely
  // left (APP-1) only drops the widget, and coming back connects again without a code.
  const end = () => {
    if (!(options.anyEnabled?.() ?? false)) void relay.unpair();
    relay.disconnect();
  };
  const update = () => {
    if (autoReconnect) relay.keepLooking(anyOn);
    if (anyOn() || closing) return;
    // SW-7: the last switch off removes the widget, so nothing talks to the relay port; with a call
    // still answering (a declined dialog, a call already executing), once it answered and the
    // answer had a moment to cross the widget, unless a switch came back on meanwhile (SAFE-5).
    // DOOR-6, DOOR-9: the off ends the pairing too; the relay withdraws the page's tools as it hears so.
    if (!sessions.some((s) => s.busy())) return end();
    closing = true;
    void Promise.all(sessions.map((s) => s.settled()))
      .then(() => new Promise<void>((resolve) => clock.setTimeout(resolve, ANSWER_CROSSES_MS)))
      .then(() => {
        closing = false;
        if (!anyOn()) end();
      });
  };
  update();
  const automated = options.automated ?? win.navigator.webdriver === true;
  const verifier = options.verifier !== undefined ? options.verifier
    : createWebAuthnVerifier({ window: win, store: consentStore, consent: options.consent, timeoutMs: options.verificationTimeoutMs, native: options.nativeWebAuthn });
  const consent = createConsentGate({ verifier, clock, automated, store: consentStore });
  const queue = createConfirmationQueue({ clock, store: options.confirmationState, gate: consent });
  const keeper = createUndoKeeper({ log: options.log, queue, clock, budgetBytes: options.undoBudgetBytes });
  // Functions of their own, not the parts: a page script reading aiOps.capabilities reaches no
  // queue, connection, gate or verifier (its request, declineTool, verify stay here).
  const capabilities: PageCapabilities = {
    decide: {
      approve: (id, approval) => queue.approve(id, approval),
      decline: (id) => queue.decline(id),
      approveAll: (ids) => queue.approveAll(ids),
      declineAll: (ids) => queue.declineAll(ids),
    },
    relay: {
      reconnect: () => relay.reconnect(),
      isConnected: () => relay.isConnected(),
      refused: relay.refused,
      status: relay.status,
      pair: (code) => relay.pair(code),
      unpair: () => relay.unpair(),
    },
    verification: verifier && {
      fingerprint: () => verifier.fingerprint(),
      publicKey: () => verifier.enrolled(),
      unenrol: () => verifier.unenrol(),
    },
    get native() {
      return modelContext.native;
    },
  };
  return {
    capabilities,
    modelContext,
    relay,
    queue,
    undo: keeper.undo,
    consent,
    createSessionOperations: (deps) => {
      const operations = createSessionOperations({ ...deps, keeper, consent, channel: relayChannel });
      sessions.push(operations);
      return operations;
    },
    update,
    dispose: () => relay.dispose(),
  };
}
