/**
 * `ai-ops/elements`: the classes of `<ai-ops-switch>`, `<ai-ops-confirm>` and `<ai-ops-log>`
 * (SHAPE-2), their events, the context they read the runtime from and their strings, for pages
 * and element sets that extend or place them themselves. Importing this module defines nothing:
 * `ai-ops/elements/define.js` is the one place the tags are defined (the switch at once, the
 * dialog and the log when a switch first turns on, PKG-4); `ai-ops/react` defines them for React.
 * @example
 * import { AiOpsSwitch, type AiOpsSwitchChangeEvent } from 'ai-ops/elements';
 * class MySwitch extends AiOpsSwitch {}
 * customElements.define('my-ai-ops-switch', MySwitch);
 * @module
 */
import { AiOpsConfirm } from './confirm/ai-ops-confirm.js';
import { AiOpsLog } from './log/ai-ops-log.js';
import { AiOpsSwitch } from './switch/ai-ops-switch.js';

export { AiOpsElement } from './internal/ai-ops-element.js';
export { AiOpsSwitch, AiOpsConfirm, AiOpsLog };
export type { AiOpsLogMode } from './log/ai-ops-log.js';

/**
 * Tag names and their classes, to define them under a registry of the page's own.
 * @example for (const [tag, c] of Object.entries(aiOpsElements)) registry.define(tag, c);
 */
export const aiOpsElements = {
  'ai-ops-switch': AiOpsSwitch,
  'ai-ops-confirm': AiOpsConfirm,
  'ai-ops-log': AiOpsLog,
} as const;

export { aiOpsContext } from './internal/context.js';
export { StoreController } from './internal/store-controller.js';
export {
  AiOpsSwitchChangeEvent, AiOpsConfirmApproveEvent, AiOpsConfirmDeclineEvent, AiOpsLogVisibilityChangeEvent,
} from './internal/events.js';
export type {
  AiOpsSwitchChangeDetail, AiOpsConfirmApproveDetail, AiOpsConfirmDeclineDetail, AiOpsDeclineReason,
  AiOpsLogVisibilityChangeDetail,
} from './internal/events.js';
export { defaultAiOpsStrings, setAiOpsStrings, resolveAiOpsStrings, aiOpsStringsStore, fillString } from './internal/strings.js';
export type { AiOpsStrings } from './internal/strings.js';
