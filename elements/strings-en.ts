/**
 * English strings, for pages in English and as an example of supplying a locale.
 * @module
 */
import type { AiOpsStrings } from './strings.js';

/**
 * The elements' strings in English.
 * @example setAiOpsStrings(aiOpsStringsEn);
 */
export const aiOpsStringsEn: Readonly<AiOpsStrings> = Object.freeze({
  switchLabel: 'Operations from AI',
  startFailedTitle: 'Operations from AI could not start',
  storedOnTitle: 'The permission could not be removed',
  storedOn: 'Reloading this page starts operations from AI again.',
  confirmCalledBy: 'An AI agent called the operation {name}.',
  confirmIrreversible: 'This cannot be undone.',
  confirmUndoable: 'Undo restores what this operation changes.',
  confirmDetail: 'Full content passed in',
  confirmAutomated: 'A program is controlling this browser. That program could press the buttons of this dialog itself.',
  confirmSkipFuture: 'Do not ask again on this page',
  confirmCancel: 'Cancel',
  confirmRunning: 'Running…',
  confirmUndoBy: 'Undo from the log takes back what the operation {name} changed.',
  confirmUndoFinal: 'Once undone, the change cannot be redone.',
  confirmUndoTitle: 'Undo {name}',
  confirmUndoLater: 'The later changes go too: {changes}',
  confirmUndoLaterRow: '{name} ({time})',
  confirmUndoEdited: 'a change the log does not show (an edit on the page)',
  confirmUndoSeparator: ', ',
  confirmVerificationRequired: 'Approving needs your fingerprint, PIN or other verification by your device. A program that drives the browser cannot give it.',
  confirmVerifying: 'Waiting for your verification',
  confirmProtect: 'Protect approvals with device verification',
  logTitle: 'Operations from AI',
  logLabel: 'Operation log',
  logEmpty: 'Nothing has been called yet.',
  logAnnouncement: '{name}: {status}',
  logConnectTitle: 'How to connect an AI agent',
  logConnectCommand: 'Start the relay with this command; --widget-origin is the origin of this page.',
  logConnectConfig: 'In an MCP client configuration, for example:',
  logConnectReconnectHint: 'If the agent started after this page was opened, press Reconnect.',
  logReconnect: 'Reconnect',
  logReconnectFailed: 'Could not reconnect. {reason}',
  logArguments: 'Arguments',
  logResult: 'Result',
  logTruncated: 'Only the first {count} characters are shown.',
  logUndo: 'Undo',
  logUndoLabel: 'Undo: {name} ({time})',
  logUndone: 'Undone.',
  logUndoDropped: 'Can no longer be undone (the state before it was let go to stay within memory).',
  logUndoFailed: 'Could not undo. {reason}',
  logByUser: 'Undone by you',
  logExport: 'Save the log',
  logVerificationKey: 'Verification key: {fingerprint}',
  logUnenrol: 'Remove device verification',
  logUnenrolled: 'Device verification was removed.',
  logUnenrolFailed: 'Could not remove it. {reason}',
  logVerified: 'Verified',
  statusSuccess: 'Succeeded',
  statusDeclined: 'Declined',
  statusFailure: 'Failed',
});
