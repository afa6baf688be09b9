/**
 * The `@lit/context` key that carries a runtime to the elements below a provider, so a page (or a
 * test) with its own runtime needs no property on every element.
 * @module
 */
import { createContext } from '@lit/context';
import type { AiOps } from '../../src/runtime.js';

/**
 * The runtime the elements use, when a provider above them gives one. Without a provider they use
 * their `aiOps` property, and without that the page's default runtime (`getAiOps()`).
 * @example
 * import { ContextProvider } from '@lit/context';
 * new ContextProvider(document.body, { context: aiOpsContext, initialValue: createAiOps() });
 */
export const aiOpsContext = createContext<AiOps>(Symbol('ai-ops'));
