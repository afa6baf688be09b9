/**
 * The one place the ai-ops elements are defined. Importing this module defines `<ai-ops-switch>` at
 * once, and `<ai-ops-confirm>` and `<ai-ops-log>` when a switch on the page first shows its tool on
 * (elements/on-demand.ts): a page whose switches are all off loads neither (PKG-4). Defining twice
 * (two bundles, hot reload) is a no-op instead of an error.
 * @module
 */
import { AiOpsSwitch } from './ai-ops-switch.js';
import { loadAiOpsElements, loadOnSwitchOn, onDemand } from './on-demand.js';

export { loadAiOpsElements };

/** Tag names of every ai-ops element, the switch first. */
export const aiOpsTagNames = ['ai-ops-switch', ...(Object.keys(onDemand) as (keyof typeof onDemand)[])] as const;

/**
 * Defines `<ai-ops-switch>` in `registry` now and `<ai-ops-confirm>`/`<ai-ops-log>` when a switch's
 * tool first turns on (or at once with `{ now: true }`), skipping tags already defined there.
 * @example
 * import { defineAiOpsElements } from 'ai-ops/elements/define.js';
 * defineAiOpsElements();
 */
export function defineAiOpsElements(registry: CustomElementRegistry = customElements, options: { now?: boolean } = {}): void {
  if (!registry.get('ai-ops-switch')) registry.define('ai-ops-switch', AiOpsSwitch);
  if (options.now) void loadAiOpsElements(registry);
  else loadOnSwitchOn(registry);
}

defineAiOpsElements();
