/**
 * The one place the ai-ops elements are defined. Importing this module defines `<ai-ops-switch>` at
 * once, and `<ai-ops-confirm>` and `<ai-ops-log>` when the runtime loads its on-demand part (its
 * first switch-on or call, `whenOnDemand` in src/runtime.ts): the page's one lazy moment, so a page
 * whose switches are all off loads neither (PKG-4). Defining twice (two bundles, hot reload) is a
 * no-op instead of an error.
 * @module
 */
import { whenOnDemand } from '../src/runtime.js';
import { AiOpsSwitch } from './switch/ai-ops-switch.js';

/** The tags defined on demand, each with the import that brings its class. */
const onDemand = {
  'ai-ops-confirm': () => import('./confirm/ai-ops-confirm.js').then((m) => m.AiOpsConfirm),
  'ai-ops-log': () => import('./log/ai-ops-log.js').then((m) => m.AiOpsLog),
} as const;

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
 * Defines `<ai-ops-switch>` in `registry` now and `<ai-ops-confirm>`/`<ai-ops-log>` when the runtime
 * first loads its on-demand part (or at once with `{ now: true }`), skipping tags already defined there.
 * @example
 * import { defineAiOpsElements } from 'ai-ops/elements/define.js';
 * defineAiOpsElements();
 */
export function defineAiOpsElements(registry: CustomElementRegistry = customElements, options: { now?: boolean } = {}): void {
  if (!registry.get('ai-ops-switch')) registry.define('ai-ops-switch', AiOpsSwitch);
  if (options.now) void loadAiOpsElements(registry);
  else whenOnDemand(() => void loadAiOpsElements(registry));
}

defineAiOpsElements();
