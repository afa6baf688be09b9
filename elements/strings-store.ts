/**
 * The page-wide strings store and the switch's own default words. Apart from elements/strings.ts
 * (which re-exports them with every other default) so that a page whose switches are all off loads
 * the switch's two strings, not the dialog's and the log's (PKG-4).
 * @module
 */
import { createStore, type ReadableStore } from '../src/store.js';
import type { AiOpsStrings } from './strings.js';

/** The switch's words in Japanese, as the design doc words them (SW-1, SW-4), and SAFE-3's notice. */
export const switchStrings = Object.freeze({
  switchLabel: 'AI からの操作',
  startFailedTitle: 'AI からの操作を始められません',
  storedOnTitle: '許可を消せませんでした',
  storedOn: 'ページを開き直すと、AI からの操作がまた始まります。',
}) satisfies Partial<AiOpsStrings>;

const pageStrings = createStore<Readonly<Partial<AiOpsStrings>>>({});

/**
 * The page-wide overrides, as a store the elements subscribe to.
 * @example aiOpsStringsStore.subscribe(() => console.log(aiOpsStringsStore.getState()));
 */
export const aiOpsStringsStore: ReadableStore<Readonly<Partial<AiOpsStrings>>> = pageStrings;

/**
 * Sets the page-wide strings: `strings` is merged over the Japanese defaults (not over an earlier
 * call, so switching locales never leaves words of the previous one); `{}` restores the defaults.
 * Every element on the page renders again.
 * @example
 * import { aiOpsStringsEn } from 'ai-ops/elements/strings-en.js';
 * setAiOpsStrings(aiOpsStringsEn);
 */
export function setAiOpsStrings(strings: Partial<AiOpsStrings>): void {
  pageStrings.setState({ ...strings });
}
