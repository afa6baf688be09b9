/**
 * The words the elements show. Japanese by default, exactly as the design doc words them; a page
 * supplies another locale without forking, page-wide with {@link setAiOpsStrings} or per element
 * with its `strings` property (a partial object merged over the defaults).
 * @module
 */
import type { ToolSessionState } from '../../src/tool-session.js';
import { aiOpsStringsStore, setAiOpsStrings, switchStrings, switchWording, type AiOpsStrings } from './strings-store.js';
import { noticeView, placeNotice } from '../switch/switch-notice.js';

export type { AiOpsStrings } from './strings-store.js';

// The page-wide store and the switch's own words live in strings-store.ts, so the switch loads them
// without the dialog's and the log's (PKG-4).
export { aiOpsStringsStore, setAiOpsStrings } from './strings-store.js';


/**
 * The Japanese strings of the design doc.
 * @example defaultAiOpsStrings.switchLabel // 'AI からの操作'
 */
export const defaultAiOpsStrings: Readonly<AiOpsStrings> = Object.freeze({
  ...switchStrings,
  consentAutomated: 'このブラウザーはプログラムから操作されています。AI からの操作を始めるには、指紋や PIN などの本人確認が必要です。',
  consentUnavailable: 'このブラウザーとこの端末では本人確認 (パスキー、指紋、PIN) を使えません。セキュリティキーをつなぐか、スマートフォンのパスキーを使ってください。',
  consentOrigin: 'このアドレスでは本人確認を使えません。{origin} で開いてください。',
  consentOriginByName: 'このアドレスでは本人確認を使えません。IP アドレスではなく、名前のついたアドレス (https://…) で開いてください。',
  consentCancelled: '本人確認が取り消されたため、AI からの操作を始めませんでした。',
  consentTimeout: '本人確認に時間内に答えがなかったため、AI からの操作を始めませんでした。',
  consentInvalid: '本人確認の結果を確かめられなかったため、AI からの操作を始めませんでした。',
  consentAborted: '本人確認が中断されました。',
  consentCooldown: '本人確認が続けて完了しなかったため、{seconds} 秒のあいだ本人確認を求めません。その後でもう一度始めてください。',
  consentStoredOnUnverified: '保存されていた許可には確かめられる本人確認の記録がないため、AI からの操作を始めませんでした。もう一度始めてください。',
  consentReplaced: 'このページの本人確認 (WebAuthn) がブラウザー本来のものではなく、別のプログラムに置き換えられています。本人確認を求めず、AI からの操作を始めませんでした。ブラウザーを操作しているプログラムを止めてから、開き直してください。',
  consentReset: '本人確認の登録の記録が、このページの外で消されたか書き換えられていました。AI からの操作は始めていません。もう一度始めると、この端末を本人確認で登録し直します。',
  consentResetKey: '本人確認の登録の記録 (鍵 {fingerprint}) が、このページの外で消されたか書き換えられていました。AI からの操作は始めていません。もう一度始めると、この端末を本人確認で登録し直します。',
  confirmCalledBy: 'AI のエージェントが、操作 {name} を呼び出しました。',
  confirmIrreversible: 'この操作は元に戻せません。',
  confirmUndoable: 'この操作は「元に戻す」で戻せます。',
  confirmDetail: '渡された内容の全文',
  confirmAutomated: 'このブラウザーは、プログラムから操作されています。そのプログラムは、このダイアログのボタンを自分で押すこともできます。',
  confirmSkipFuture: 'このページでは今後尋ねない',
  confirmCancel: 'やめる',
  confirmRunning: '実行中…',
  confirmUndoBy: '記録の「元に戻す」で、操作 {name} による変更を元に戻します。',
  confirmUndoFinal: '元に戻すと記録に行が加わります。ツールが対応していれば、その行の「元に戻す」で取り消せます。',
  confirmUndoTitle: '{name} を元に戻す',
  confirmUndoLater: 'あとの変更も元に戻ります: {changes}',
  confirmUndoLaterRow: '{name} ({time})',
  confirmUndoEdited: '記録にない変更 (ページでの編集)',
  confirmUndoSeparator: '、',
  confirmVerificationRequired: '承認するには、指紋や PIN などの本人確認が必要です。ブラウザーを操作するプログラムには、本人確認はできません。',
  confirmVerifying: '本人確認を待っています',
  confirmSkipChosen: '「このページでは今後尋ねない」は、この操作を実行し、スイッチを切るまで（最長 7 日）このツールの操作を確認なしで実行します。',
  confirmVerifyingSkip: '本人確認を待っています（この操作と、今後尋ねないことの承認）',
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
  logRelayRefused: 'ポート {port} の relay は、このページの origin ({origin}) を受け付けていません。ほかの origin のために起動された relay です。--widget-origin {origin} をつけて起動し直します。',
  logPairHint: 'エージェントに「ai-ops のページとつないで」と頼むと、エージェントがコードを伝えます。そのコードを入れて「つなぐ」を押します。',
  logPairCode: 'エージェントが伝えたコード',
  logPair: 'つなぐ',
  logPairWrongCode: 'このコードではつなげません (違うコードか、使用済みか、2 分を過ぎています)。エージェントに新しいコードを頼みます。',
  logPairNoRelay: 'ポート {port} に relay が見つかりません。エージェントを起動してから、もう一度押します。',
  logPairNotRelay: 'ポート {port} で答えたものは、このコードを出した relay ではありません。つなぎませんでした。',
  logPairBadCode: 'コードは 10 文字です (例: ABCDE-FGHJK)。',
  logPairOff: 'スイッチを入れてから、つなぎます。',
  logRelayConnected: '{client} とつながっています ({time} から)。',
  logRelayPaired: 'relay とつなぐ設定があります。relay が動いていれば、つながります。',
  logRelayNotKnown: 'ポート {port} の relay は、このページとのつなぎを知りません。エージェントに新しいコードを頼みます。',
  logUnpair: '接続を解除',
  logVia: '経路: {via}',
  logViaRelayClient: 'relay ({client})',
  logViaRelay: 'relay',
  logViaWebmcp: 'ブラウザの WebMCP',
  logViaPolyfill: 'ブラウザのエージェント (WebMCP の polyfill 経由)',
  logViaPage: 'このページのスクリプト',
  logViaUser: 'あなた',
  logArguments: '引数',
  logResult: '結果',
  logTruncated: '先頭の {count} 文字までを出しています。',
  logCodeInvalidInput: 'エージェントが渡した内容が、この操作の受け付ける形に合いませんでした。何も実行していません。',
  logCodeNotFound: '指定されたものが見つかりませんでした。',
  logCodeTooLarge: '内容が大きすぎるため、実行しませんでした。',
  logCodeNotReady: 'まだ準備ができていないため、実行しませんでした。',
  logCodeDeclined: '実行しませんでした (やめたか、時間内に答えがなかったか、途中で止められました)。',
  logCodeTimeout: '時間内に終わらなかったため、止めました。',
  logCodeFailed: '実行中にエラーが起きました。',
  logRawDetails: '詳細',
  logActions: '記録の操作',
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
  noticeClose: '閉じる',
});

/**
 * Why the switch stayed off, under it (SW-4): for a refused consent (UV-4) its sentence in the
 * page's strings, with AGENT-3's first sentence where a program drives the browser; otherwise, or
 * while the strings hold no sentence for it, the failure's `error`.
 * @example failureText(aiOpsStringsEn, session.getState()) // 'User verification got no answer in time, so this stayed off.'
 */
export function failureText(text: Partial<AiOpsStrings>, { reason, error }: Pick<ToolSessionState, 'reason' | 'error'>): string | null {
  // The values are the runtime's own (origin, seconds): every placeholder of these sentences has one.
  const sentence = reason && text[reason.code]?.replace(/{(\w+)}/g, (_, key: string) => reason.values[key]);
  return !sentence ? error : reason.automated ? `${text.consentAutomated} ${sentence}` : sentence;
}

// The switch words consent's refusals (UV-4) once these loaded, with the dialog and the log: the
// defaults and the wording added to the switch's here (not in strings-store.ts, which loads with
// it, PKG-4), and the page's own strings set again, unchanged, so every element renders with them.
Object.assign(switchStrings, defaultAiOpsStrings);
switchWording.failure = failureText;
switchWording.notice = noticeView;
switchWording.place = placeNotice;
setAiOpsStrings(aiOpsStringsStore.getState());

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
