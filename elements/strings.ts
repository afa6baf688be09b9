/**
 * The words the elements show. Japanese by default, exactly as the design doc words them; a page
 * supplies another locale without forking, page-wide with {@link setAiOpsStrings} or per element
 * with its `strings` property (a partial object merged over the defaults).
 * @module
 */
import { aiOpsStringsStore, switchStrings } from './strings-store.js';

// The page-wide store and the switch's own words live in strings-store.ts, so the switch loads them
// without the dialog's and the log's (PKG-4).
export { aiOpsStringsStore, setAiOpsStrings } from './strings-store.js';

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
  /** The checkbox under the body (CONF-3). */
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
  /** Said in that dialog: the undo itself is not undone again (UNDO-2). */
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
  /** Beside the action button while 「今後尋ねない」 is ticked: what approving then grants (UV-9). */
  confirmSkipChosen: string;
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
  /** Label of the arguments of an expanded row (LOG-4). */
  logArguments: string;
  /** Label of the result of an expanded row (LOG-4). */
  logResult: string;
  /** Shown under text cut at the limit; `{count}` is the limit (LOG-4). */
  logTruncated: string;
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
}

/**
 * The Japanese strings of the design doc.
 * @example defaultAiOpsStrings.switchLabel // 'AI からの操作'
 */
export const defaultAiOpsStrings: Readonly<AiOpsStrings> = Object.freeze({
  ...switchStrings,
  confirmCalledBy: 'AI のエージェントが、操作 {name} を呼び出しました。',
  confirmIrreversible: 'この操作は元に戻せません。',
  confirmUndoable: 'この操作は「元に戻す」で戻せます。',
  confirmDetail: '渡された内容の全文',
  confirmAutomated: 'このブラウザーは、プログラムから操作されています。そのプログラムは、このダイアログのボタンを自分で押すこともできます。',
  confirmSkipFuture: 'このページでは今後尋ねない',
  confirmCancel: 'やめる',
  confirmRunning: '実行中…',
  confirmUndoBy: '記録の「元に戻す」で、操作 {name} による変更を元に戻します。',
  confirmUndoFinal: '元に戻したあと、その変更をやり直すことはできません。',
  confirmUndoTitle: '{name} を元に戻す',
  confirmUndoLater: 'あとの変更も元に戻ります: {changes}',
  confirmUndoLaterRow: '{name} ({time})',
  confirmUndoEdited: '記録にない変更 (ページでの編集)',
  confirmUndoSeparator: '、',
  confirmVerificationRequired: '承認するには、指紋や PIN などの本人確認が必要です。ブラウザーを操作するプログラムには、本人確認はできません。',
  confirmVerifying: '本人確認を待っています',
  confirmSkipChosen: '承認すると、このページでは今後このツールの操作を確認なしで実行します。',
  confirmBatchCount: 'ほかに {count} 件が待っています',
  confirmBatchMeta: '{tool}・残り {seconds} 秒',
  confirmApproveAll: 'すべて承認',
  confirmDeclineAll: 'すべてやめる',
  confirmApproveAllHint: '「すべて承認」は、待っている操作をすべて表示すると押せます。',
  logTitle: 'AI からの操作',
  logLabel: '操作の記録',
  logEmpty: 'まだ記録はありません。',
  logAnnouncement: '{name}: {status}',
  logConnectTitle: 'AI のエージェントのつなぎ方',
  logConnectCommand: 'relay を、次のコマンドで起動します。--widget-origin には、このページの origin を渡します。',
  logConnectConfig: 'MCP のクライアントの設定では、たとえば次のように書きます。',
  logConnectReconnectHint: 'このページを開いた後にエージェントを起動したときは、「つなぎ直す」を押します。',
  logReconnect: 'つなぎ直す',
  logReconnectFailed: 'つなぎ直せませんでした。{reason}',
  logArguments: '引数',
  logResult: '結果',
  logTruncated: '先頭の {count} 文字までを出しています。',
  logUndo: '元に戻す',
  logUndoLabel: '元に戻す: {name} ({time})',
  logUndone: '元に戻しました。',
  logUndoDropped: 'もう元に戻せません (保持できる量を超えたため、変更前の状態を手放しました)。',
  logUndoFailed: '元に戻せませんでした。{reason}',
  logByUser: 'あなたが元に戻した',
  logExport: '記録を保存',
  logVerificationKey: '本人確認の鍵: {fingerprint}',
  logUnenrol: '本人確認の登録を解除',
  logUnenrolled: '本人確認の登録を解除しました。',
  logUnenrolFailed: '登録を解除できませんでした。{reason}',
  logVerified: '本人確認済み',
  logBatch: 'まとめて承認({count} 件)',
  statusSuccess: '成功',
  statusDeclined: '中止',
  statusFailure: '失敗',
});

/**
 * The strings an element shows: defaults, then the page-wide ones, then the element's own.
 * @example resolveAiOpsStrings({ confirmCancel: 'Cancel' }).confirmCancel // 'Cancel'
 */
export function resolveAiOpsStrings(own?: Partial<AiOpsStrings>): AiOpsStrings {
  return { ...defaultAiOpsStrings, ...aiOpsStringsStore.getState(), ...own };
}

/**
 * Splits `template` at its `{key}` placeholders and puts `values[key]` in their place, so a value
 * can be markup (a `<code>` element) while the sentence around it stays translatable. Unknown
 * placeholders are kept as written.
 * @example fillString('{n} 文字', { n: '80' }) // ['', '80', ' 文字']
 */
export function fillString<T>(template: string, values: Readonly<Record<string, T>>): (string | T)[] {
  return template.split(/\{(\w+)\}/).map((part, index) =>
    index % 2 === 1 ? (Object.hasOwn(values, part) ? values[part] : `{${part}}`) : part);
}
