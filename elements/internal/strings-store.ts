/**
 * The page-wide strings store and the switch's own default words. Apart from elements/internal/strings.ts
 * (which re-exports them with every other default) so that a page whose switches are all off loads
 * the switch's two strings, not the dialog's and the log's (PKG-4). The words' type is here too, so
 * that this module, which strings.ts builds on, imports nothing back from it.
 * @module
 */
import type { ToolSessionState } from '../../src/tool-session.js';
import { createStore, type ReadableStore } from '../../src/store.js';

/**
 * Every string the elements show. `{name}`-style placeholders are filled by the element; keep them
 * when translating.
 * @example
 * const fr: Partial<AiOpsStrings> = { switchLabel: 'Opérations par IA', confirmCancel: 'Annuler' };
 */
export interface AiOpsStrings {
  /** The switch's label (SW-1). */
  switchLabel: string;
  /** Title of the notice under the switch when starting failed (SW-4); the body is the reason. */
  startFailedTitle: string;
  /**
   * Title of the notice under the switch when turning off could not remove the stored permission
   * (storage refuses every write): a reload would turn the switch back on (SAFE-3).
   */
  storedOnTitle: string;
  /** Body of that notice: what a reload then does (SAFE-3). */
  storedOn: string;
  /** First sentence of a consent refusal where the browser says a program drives it (UV-4, AGENT-3). */
  consentAutomated: string;
  /** UV-4: this browser and device offer no user verification. */
  consentUnavailable: string;
  /** UV-4: this address cannot hold a credential; `{origin}` is where to open the page instead. */
  consentOrigin: string;
  /** UV-4: the page is at an IP address of another machine: open it at a named address. */
  consentOriginByName: string;
  /** UV-4: the user cancelled the verification. */
  consentCancelled: string;
  /** UV-10: the verification got no answer in time. */
  consentTimeout: string;
  /** UV-4: the verification's result did not check. */
  consentInvalid: string;
  /** UV-4: the verification was aborted. */
  consentAborted: string;
  /** UV-10: verification is not asked for `{seconds}` s after it failed twice in a row. */
  consentCooldown: string;
  /** UV-3: a stored "on" without a receipt that checks stays off. */
  consentStoredOnUnverified: string;
  /** UV-15: `navigator.credentials` is not the browser's own: nothing was asked. */
  consentReplaced: string;
  /** UV-14: the consent records were reset or written behind the page's back; the next switch-on enrols again. */
  consentReset: string;
  /** UV-14: as {@link consentReset}, naming the key the page knew (`{fingerprint}`). */
  consentResetKey: string;
  /** First sentence of the dialog body; `{name}` is the operation name (CONF-2). */
  confirmCalledBy: string;
  /** The dialog says the operation cannot be undone (CONF-2). */
  confirmIrreversible: string;
  /** Said instead when the tool's 「元に戻す」 restores the agent's change (CONF-2). */
  confirmUndoable: string;
  /** The disclosure that holds the full content handed in (CONF-2). */
  confirmDetail: string;
  /** Shown in the dialog when a program drives the browser (`navigator.webdriver`, AGENT-3). */
  confirmAutomated: string;
  /** The skip action, a button of its own after the action button: approves and skips later confirmations (CONF-3, UV-18). */
  confirmSkipFuture: string;
  /** The secondary button (CONF-3). */
  confirmCancel: string;
  /** The action button while the approved operation runs (CONF-4). */
  confirmRunning: string;
  /**
   * First sentence of the dialog body when the user's own 「元に戻す」 asks (UNDO-2), instead of
   * {@link confirmCalledBy}; `{name}` is the operation being undone.
   */
  confirmUndoBy: string;
  /** Said in that dialog: the undo is a row of its own, which can be undone where the tool keeps what it took (UV-17). */
  confirmUndoFinal: string;
  /** That dialog's title; `{name}` is the operation being undone. */
  confirmUndoTitle: string;
  /** That dialog's list of what goes too; `{changes}` is the list. */
  confirmUndoLater: string;
  /** One later row in that list; `{name}` its operation, `{time}` its time. */
  confirmUndoLaterRow: string;
  /** In that list: the target changed outside the log (the user's own edit). */
  confirmUndoEdited: string;
  /** Between the items of that list. */
  confirmUndoSeparator: string;
  /**
   * Said in the dialog when approving needs the platform's user verification (UV-1): a program that
   * drives the browser cannot give it. Replaces {@link confirmAutomated} then.
   */
  confirmVerificationRequired: string;
  /** The live region's words while the OS prompt is up (UV-7). */
  confirmVerifying: string;
  /** Under the buttons, the skip action's description: what it grants (UV-9, UV-18). */
  confirmSkipChosen: string;
  /** The live region's words while the OS prompt for the skip action is up: what is being signed (UV-18). */
  confirmVerifyingSkip: string;
  /** How many more calls wait behind the dialog's (BATCH-1); `{count}` is the number. Also the list's label, announced on change. */
  confirmBatchCount: string;
  /** An item of that list: its tool and the seconds left of its 50 s (BATCH-1); `{tool}`, `{seconds}`. */
  confirmBatchMeta: string;
  /** Approves the dialog's call and every listed one with one decision (BATCH-2). */
  confirmApproveAll: string;
  /** Declines the dialog's call and every listed one (BATCH-2). */
  confirmDeclineAll: string;
  /** Said while 「すべて承認」 is not offered yet: not every listed call has been on screen (BATCH-2). */
  confirmApproveAllHint: string;
  /** The log's line with the enrolled key's fingerprint (UV-5); `{fingerprint}` is it. */
  logVerificationKey: string;
  /** The button that removes the enrolment, itself verified (UV-2). */
  logUnenrol: string;
  /** Said once the enrolment was removed. */
  logUnenrolled: string;
  /** Said when removing it failed; `{reason}` is why. */
  logUnenrolFailed: string;
  /** Marks a row whose approval was verified (UV-5). */
  logVerified: string;
  /** Marks the rows approved together by one 「すべて承認」 (BATCH-4); `{count}` is how many. */
  logBatch: string;
  /** The log panel's title (LOG-1). */
  logTitle: string;
  /** Accessible name of the rows (`role="log"`). */
  logLabel: string;
  /** Shown while the log has no row yet. */
  logEmpty: string;
  /**
   * What the collapsed panel's live region says for a new row (SAFE-9); `{name}` is the operation,
   * `{status}` its badge text.
   */
  logAnnouncement: string;
  /** The first disclosure of the log (LOG-2). */
  logConnectTitle: string;
  /** Before the relay command. */
  logConnectCommand: string;
  /** Before the MCP client configuration example. */
  logConnectConfig: string;
  /** Explains the reconnect button. */
  logConnectReconnectHint: string;
  /** The button that re-creates the relay widget. */
  logReconnect: string;
  /** Shown when reconnecting failed; `{reason}` is why. */
  logReconnectFailed: string;
  /**
   * Shown above 「AI のエージェントのつなぎ方」 while the relay on the page's port says it does not
   * serve this page (DOOR-5): `{port}` is the port, `{origin}` the page's origin.
   */
  logRelayRefused: string;
  logPairHint: string;
  logPairCode: string;
  logPair: string;
  logPairWrongCode: string;
  logPairNoRelay: string;
  logPairNotRelay: string;
  logPairBadCode: string;
  logPairOff: string;
  logRelayConnected: string;
  logRelayPaired: string;
  logRelayNotKnown: string;
  logUnpair: string;
  logVia: string;
  logViaRelayClient: string;
  logViaRelay: string;
  logViaWebmcp: string;
  logViaPolyfill: string;
  logViaPage: string;
  logViaUser: string;
  /** Label of the arguments of an expanded row (LOG-4). */
  logArguments: string;
  /** Label of the result of an expanded row (LOG-4). */
  logResult: string;
  /** Shown under text cut at the limit; `{count}` is the limit (LOG-4). */
  logTruncated: string;
  /**
   * FIRST-4: what a failed row says for each envelope code, in place of the code and the message
   * written for the agent (which stays under {@link logRawDetails}).
   */
  logCodeInvalidInput: string;
  /** FIRST-4: `not_found`. */
  logCodeNotFound: string;
  /** FIRST-4: `too_large`. */
  logCodeTooLarge: string;
  /** FIRST-4: `not_ready`. */
  logCodeNotReady: string;
  /** FIRST-4: `declined`. */
  logCodeDeclined: string;
  /** FIRST-4: `timeout`. */
  logCodeTimeout: string;
  /** FIRST-4: `failed`. */
  logCodeFailed: string;
  /** FIRST-4: the disclosure of a failed row that holds the result as the agent got it. */
  logRawDetails: string;
  /** FIRST-7: accessible name of the toolbar under the rows (記録を保存, the key, 本人確認の登録を解除). */
  logActions: string;
  /** The row's undo button (UNDO-1). */
  logUndo: string;
  /** Its accessible name; `{name}` is the operation, `{time}` the row's time. Starts with the button's text. */
  logUndoLabel: string;
  /** Said in a row once the user undid it (UNDO-2). */
  logUndone: string;
  /** Said in a row whose before-state the budget let go (UNDO-4). */
  logUndoDropped: string;
  /** Said when an undo could not put the target back; `{reason}` is why. */
  logUndoFailed: string;
  /** Marks the rows of the user's own undo (UNDO-3). */
  logByUser: string;
  /** The button that downloads the log as JSON Lines (AUDIT-1). */
  logExport: string;
  /** Badge of an `ok` result (LOG-3). */
  statusSuccess: string;
  /** Badge of a `declined` result (LOG-3). */
  statusDeclined: string;
  /** Badge of any other failure (LOG-3). */
  statusFailure: string;
  /** Accessible name of the × that closes the switch's notice (FIRST-2). */
  noticeClose: string;
}


/**
 * The Japanese defaults loaded so far: the switch's words (SW-1, SW-4) and SAFE-3's notice while
 * every switch is off, then every default once strings.ts loads (it adds them here, with the
 * dialog and the log, at the moment the consent part loads), so consent's refusals
 * (UV-4) are worded without loading with the switch (PKG-4).
 */
export const switchStrings = ({
  switchLabel: 'AI からの操作',
  startFailedTitle: 'AI からの操作を始められません',
  storedOnTitle: '許可を消せませんでした',
  storedOn: 'ページを開き直すと、AI からの操作がまた始まります。',
}) satisfies Partial<AiOpsStrings>;

const pageStrings = createStore<Readonly<Partial<AiOpsStrings>>>({});

/**
 * How the switch words why it stayed off (SW-4): the failure's `error` until strings.ts loads (with
 * the dialog and the log, when the on-demand part does, before any consent can be refused) and puts
 * consent's wording here (`failureText`, UV-4), so its sentences and code stay out of what loads
 * while every switch is off (PKG-4).
 */
export const switchWording: {
  failure: (text: Partial<AiOpsStrings>, state: Pick<ToolSessionState, 'reason' | 'error'>) => string | null;
  /**
   * FIRST-2: the notice as the on-demand part draws it (elements/switch/switch-notice.ts, set with
   * `failure`): in the top layer, inside the viewport, with a × that closes it. `key` is the state
   * the notice is about: a closed notice stays closed until the key changes. Until then (or when the
   * on-demand part could not load) the switch draws its own plain notice under itself.
   */
  notice?: (host: HTMLElement & { requestUpdate(): void }, text: AiOpsStrings, title: string, body: string | null, key: object) => unknown;
  /** FIRST-2: places the notice `notice` drew, after each render of the switch. */
  place?: (host: HTMLElement) => void;
} = {
  failure: (_text, state) => state.error,
};

/**
 * The page-wide overrides, as a store the elements subscribe to.
 * @example aiOpsStringsStore.subscribe(() => console.log(aiOpsStringsStore.getState()));
 */
export const aiOpsStringsStore: ReadableStore<Readonly<Partial<AiOpsStrings>>> = pageStrings;

/**
 * Sets the page-wide strings: `strings` is merged over the Japanese defaults (not over an earlier
 * call, so switching locales never leaves words of the previous one); `{}` restores the defaults.
 * Every element on the page renders again.
 * @example
 * import { aiOpsStringsEn } from 'ai-ops/elements/strings-en.js';
 * setAiOpsStrings(aiOpsStringsEn);
 */
export function setAiOpsStrings(strings: Partial<AiOpsStrings>): void {
  pageStrings.setState({ ...strings });
}
