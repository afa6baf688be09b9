/**
 * The one place the ai-ops elements are defined. Importing this module defines `<ai-ops-switch>` at
 * once, and `<ai-ops-confirm>` and `<ai-ops-log>` when a switch on the page first shows its tool on
 * (elements/on-demand.ts): a page whose switches are all off loads neither (PKG-4). Defining twice
 * (two bundles, hot reload) is a no-op instead of an error.
 * @module
 */
import { AiOpsSwitch } from './ai-ops-switch.js';
import { onDemand, onceSwitchShownOn } from './on-demand.js';

/** Tag names of every ai-ops element, the switch first. */
export const aiOpsTagNames = ['ai-ops-switch', ...(Object.keys(onDemand) as (keyof typeof onDemand)[])] as const;

const loading = new WeakMap<CustomElementRegistry, Promise<void>>();

/**
 * Defines `<ai-ops-confirm>` and `<ai-ops-log>` now (loading their code if needed), skipping tags
 * already defined. Pages call it only when a log or dialog must exist with every switch off, e.g. a
 * page that shows a log but no switch.
 * @example
 * import { loadAiOpsElements } from 'ai-ops/elements/define.js';
 * await loadAiOpsElements();
 */
export function loadAiOpsElements(registry: CustomElementRegistry = customElements): Promise<void> {
  let done = loading.get(registry);
  if (!done) {
    done = Promise.all(Object.entries(onDemand).map(async ([tag, load]) => {
      const elementClass = await load();
      if (!registry.get(tag)) registry.define(tag, elementClass);
    })).then(() => undefined);
    loading.set(registry, done);
  }
  return done;
}

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
  else onceSwitchShownOn(() => void loadAiOpsElements(registry));
}

defineAiOpsElements();
