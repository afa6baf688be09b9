/**
 * The moment `<ai-ops-confirm>` and `<ai-ops-log>` are wanted on a page that defines them on demand:
 * when a switch first shows its tool on. Neither renders anything while every switch is off (LOG-1),
 * so their code (PKG-4) loads only then. This module only carries that moment from the switch to
 * elements/define.ts, the one place tags are defined; it defines nothing itself.
 * @module
 */

/** The tags defined on demand, each with the import that brings its class. */
export const onDemand = {
  'ai-ops-confirm': () => import('./ai-ops-confirm.js').then((m) => m.AiOpsConfirm),
  'ai-ops-log': () => import('./ai-ops-log.js').then((m) => m.AiOpsLog),
} as const;

const waiting = new Set<() => void>();

/** Runs `listener` once, the next time a switch shows its tool on or starting. */
export function onceSwitchShownOn(listener: () => void): void {
  waiting.add(listener);
}

/**
 * A switch shows its tool on or starting: what waits for that runs now. `<ai-ops-switch>` calls it.
 */
export function switchShownOn(): void {
  const listeners = [...waiting];
  waiting.clear();
  for (const listener of listeners) listener();
}
