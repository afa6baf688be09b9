/**
 * The self-contained module for pages without a bundler (`dist/ai-ops.js`): the runtime, the three
 * elements (defined on import) and Lit. It leaves out what only the playground's tool definitions
 * need (shared file schemas, output tails), and the English strings: import those from the ES
 * modules in `dist/lib/` with a bundler.
 * @example
 * <script type="module">
 *   import { provideOperations, defineOperation, succeed } from '/ai-ops/ai-ops.js';
 * </script>
 * @module
 */
export {
  ErrorCode, fail, succeed, isFailure, isSuccess, defineOperation, textSchema, timeoutSchema, MAX_TEXT_BYTES,
  createAiOps, configureAiOps, getAiOps, provideOperations, createStore, isEmbedded,
} from '../src/index.js';
export type * from '../src/index.js';
export {
  AiOpsSwitch, AiOpsConfirm, AiOpsLog, defineAiOpsElements, aiOpsContext, setAiOpsStrings, defaultAiOpsStrings,
} from './index.js';
export type { AiOpsStrings } from './index.js';
