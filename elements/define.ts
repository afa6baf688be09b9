/**
 * The one place the ai-ops elements are defined. Importing this module defines them; defining
 * twice (two bundles, hot reload) is a no-op instead of an error.
 * @module
 */
import { AiOpsConfirm } from './ai-ops-confirm.js';
import { AiOpsLog } from './ai-ops-log.js';
import { AiOpsSwitch } from './ai-ops-switch.js';

/**
 * Tag names and their classes.
 * @example Object.keys(aiOpsElements) // ['ai-ops-switch', 'ai-ops-confirm', 'ai-ops-log']
 */
export const aiOpsElements = {
  'ai-ops-switch': AiOpsSwitch,
  'ai-ops-confirm': AiOpsConfirm,
  'ai-ops-log': AiOpsLog,
} as const;

/**
 * Defines `<ai-ops-switch>`, `<ai-ops-confirm>` and `<ai-ops-log>` in `registry`, skipping tags
 * already defined there.
 * @example
 * import { defineAiOpsElements } from 'ai-ops/elements/define.js';
 * defineAiOpsElements();
 */
export function defineAiOpsElements(registry: CustomElementRegistry = customElements): void {
  for (const [tag, elementClass] of Object.entries(aiOpsElements)) {
    if (!registry.get(tag)) registry.define(tag, elementClass);
  }
}

defineAiOpsElements();
