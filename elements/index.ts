/**
 * ai-ops elements (SHAPE-2): `<ai-ops-switch>`, `<ai-ops-confirm>`, `<ai-ops-log>` as thin Lit
 * shells over the runtime's stores. Importing this module brings all three classes and defines the
 * three tags at once; `ai-ops/elements/define.js` alone defines the dialog and the log only when a
 * switch turns on (PKG-4).
 * @module
 */
import { AiOpsConfirm } from './ai-ops-confirm.js';
import { AiOpsLog } from './ai-ops-log.js';
import { AiOpsSwitch } from './ai-ops-switch.js';
import { defineAiOpsElements } from './define.js';

export { AiOpsElement } from './ai-ops-element.js';
export { AiOpsSwitch, AiOpsConfirm, AiOpsLog };
export type { AiOpsLogMode } from './ai-ops-log.js';
export { defineAiOpsElements, loadAiOpsElements, aiOpsTagNames } from './define.js';

/**
 * Tag names and their classes.
 * @example Object.keys(aiOpsElements) // ['ai-ops-switch', 'ai-ops-confirm', 'ai-ops-log']
 */
export const aiOpsElements = {
  'ai-ops-switch': AiOpsSwitch,
  'ai-ops-confirm': AiOpsConfirm,
  'ai-ops-log': AiOpsLog,
} as const;

for (const [tag, elementClass] of Object.entries(aiOpsElements)) {
  if (!customElements.get(tag)) customElements.define(tag, elementClass);
}
defineAiOpsElements();

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
