/**
 * Small pieces of `<ai-ops-log>` that need none of its state: waiting for the runtime's on-demand
 * part, comparing row lists, and the footer toolbar's keys.
 * @module
 */
import type { PageCapabilities } from '../../src/capabilities.js';
import type { ReadableStore } from '../../src/store.js';

/** True when both lists hold the same items in the same order. */
export const sameItems = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * What the page's elements may do, once the runtime's on-demand part loaded: the log shows only
 * while a switch is on, so by then it has (or is loading).
 */
export function loaded(capabilities: ReadableStore<PageCapabilities | null>): Promise<PageCapabilities> {
  return new Promise((resolve) => {
    const check = () => {
      const now = capabilities.getState();
      if (now) resolve(now), stop();
    };
    const stop = capabilities.subscribe(check);
    check();
  });
}

/**
 * FIRST-7: the toolbar's arrow keys, Home and End move between its buttons (each stays in the Tab
 * order too, so a user who does not know the toolbar pattern still reaches them).
 */
export function moveInToolbar(event: KeyboardEvent): void {
  const moves: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  if (!(event.key in moves) && event.key !== 'Home' && event.key !== 'End') return;
  const buttons = [...(event.currentTarget as HTMLElement).querySelectorAll<HTMLButtonElement>('button:not([disabled])')];
  const at = buttons.indexOf((event.currentTarget as HTMLElement).querySelector(':focus') as HTMLButtonElement);
  if (at < 0) return;
  const next = event.key === 'Home' ? 0 : event.key === 'End' ? buttons.length - 1 : (at + moves[event.key] + buttons.length) % buttons.length;
  event.preventDefault();
  buttons[next].focus();
}

