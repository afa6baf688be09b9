/**
 * ai-ops elements (SHAPE-2): `<ai-ops-switch>`, `<ai-ops-confirm>`, `<ai-ops-log>` as thin Lit
 * shells over the runtime's stores. Importing this module defines the three tags.
 * @module
 */
export { AiOpsElement } from './ai-ops-element.js';
export { AiOpsSwitch } from './ai-ops-switch.js';
export { AiOpsConfirm } from './ai-ops-confirm.js';
export { AiOpsLog } from './ai-ops-log.js';
export type { AiOpsLogMode } from './ai-ops-log.js';
export { aiOpsElements, defineAiOpsElements } from './define.js';
export { aiOpsContext } from './context.js';
export { StoreController } from './store-controller.js';
export {
  AiOpsSwitchChangeEvent, AiOpsConfirmApproveEvent, AiOpsConfirmDeclineEvent, AiOpsLogVisibilityChangeEvent,
} from './events.js';
export type {
  AiOpsSwitchChangeDetail, AiOpsConfirmApproveDetail, AiOpsConfirmDeclineDetail, AiOpsDeclineReason,
  AiOpsLogVisibilityChangeDetail,
} from './events.js';
export { defaultAiOpsStrings, setAiOpsStrings, resolveAiOpsStrings, aiOpsStringsStore, fillString } from './strings.js';
export type { AiOpsStrings } from './strings.js';
export { aiOpsStringsEn } from './strings-en.js';
export {
  SUMMARY_CHARS, DETAIL_CHARS, cutText, formatValue, formatInline, summarizeArgs, summarizeResult, formatTime,
} from './format.js';
export type { CutText } from './format.js';
