/**
 * The self-contained module for pages without a bundler (`dist/ai-ops.js`): the runtime, the
 * elements and Lit. `<ai-ops-switch>` is defined on import; `<ai-ops-confirm>` and `<ai-ops-log>`
 * are chunks defined when a switch first turns on, so a page whose switches are all off loads
 * neither (PKG-4). It holds the page author's names (those of `ai-ops`) and the elements' few a
 * page without a bundler calls; the tool kit (`ai-ops/tools`), the English strings and
 * `defaultAiOpsStrings` (every default word, which would load with the switch: PKG-4) are ES
 * modules in `dist/lib/`, for a bundler.
 * @example
 * <script type="module">
 *   import { provideOperations, defineOperation, succeed } from '/ai-ops/ai-ops.js';
 * </script>
 * @module
 */
// Exactly the root entry's names (`ai-ops`), so that a page moves between the two unchanged.
export * from '../src/index.js';
export { AiOpsSwitch } from './switch/ai-ops-switch.js';
export { defineAiOpsElements, loadAiOpsElements } from './define.js';
export { aiOpsContext } from './internal/context.js';
export { setAiOpsStrings } from './internal/strings-store.js';
export type { AiOpsStrings } from './internal/strings.js';
