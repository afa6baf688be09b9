/**
 * The self-contained module for pages without a bundler (`dist/ai-ops.js`): the runtime, the
 * elements and Lit. `<ai-ops-switch>` is defined on import; `<ai-ops-confirm>` and `<ai-ops-log>`
 * are chunks defined when a switch first turns on, so a page whose switches are all off loads
 * neither (PKG-4). It leaves out what tool authors use (schema helpers such as `textSchema`, limits,
 * shared file schemas, output tails: `ai-ops/tools` and the root entry have them), the English strings and `defaultAiOpsStrings` (every default word, which
 * would load with the switch: PKG-4): import those from the ES modules in `dist/lib/`
 * with a bundler.
 * @example
 * <script type="module">
 *   import { provideOperations, defineOperation, succeed } from '/ai-ops/ai-ops.js';
 * </script>
 * @module
 */
export {
  ErrorCode, fail, succeed, isFailure, isSuccess, defineOperation,
  createAiOps, configureAiOps, getAiOps, provideOperations, createStore, isEmbedded,
} from '../src/index.js';
export type * from '../src/index.js';
export { AiOpsSwitch } from './ai-ops-switch.js';
export { defineAiOpsElements, loadAiOpsElements } from './define.js';
export { aiOpsContext } from './context.js';
export { setAiOpsStrings } from './strings-store.js';
export type { AiOpsStrings } from './strings.js';
