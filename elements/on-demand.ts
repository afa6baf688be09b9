/**
 * Where `<ai-ops-confirm>` and `<ai-ops-log>` come from when a page defines them on demand: their
 * code loads when a switch first shows its tool on, not with the page (PKG-4). Neither renders
 * anything while every switch is off (LOG-1), so waiting costs the page nothing.
 * @module
 */

/** The tags defined on demand, each with the import that brings its class. */
export const onDemand = {
  'ai-ops-confirm': () => import('./ai-ops-confirm.js').then((m) => m.AiOpsConfirm),
  'ai-ops-log': () => import('./ai-ops-log.js').then((m) => m.AiOpsLog),
} as const;

const loading = new WeakMap<CustomElementRegistry, Promise<void>>();
/** Registries whose dialog and log wait for the first switch-on. */
const waiting = new Set<CustomElementRegistry>();

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
 * Defines the dialog and the log in `registry` when a switch first shows its tool on (tags defined
 * by then are skipped).
 */
export function loadOnSwitchOn(registry: CustomElementRegistry): void {
  waiting.add(registry);
}

/**
 * A switch shows its tool on or starting: the registries waiting for that define the dialog and
 * the log now. `<ai-ops-switch>` calls it.
 */
export function switchShownOn(): void {
  for (const registry of waiting) void loadAiOpsElements(registry);
  waiting.clear();
}
