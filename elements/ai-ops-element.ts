/**
 * The base of the three elements: where the runtime comes from, and which strings they show.
 * @module
 */
import { ContextConsumer } from '@lit/context';
import { LitElement, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import { getAiOps, type AiOps } from '../src/runtime.js';
import { aiOpsContext } from './context.js';
import { StoreController } from './store-controller.js';
import { aiOpsStringsStore, resolveAiOpsStrings, type AiOpsStrings } from './strings.js';

/**
 * An ai-ops element. It reads the runtime from an {@link aiOpsContext} provider when one is above
 * it, else from its `aiOps` property, else the page's default runtime (`getAiOps()`); it never
 * loads scripts or registers tools itself (SHAPE-2).
 * @example
 * const log = document.createElement('ai-ops-log');
 * log.aiOps = createAiOps({ relayPort: 9400 }); // a page with its own runtime
 * log.strings = { logTitle: 'AI operations' };
 */
export class AiOpsElement extends LitElement {
  /**
   * The runtime to show, when no context provider gives one. Default: the page's default runtime.
   */
  @property({ attribute: false }) aiOps?: AiOps;

  /** Strings merged over the page-wide ones (see `setAiOpsStrings`), e.g. for another locale. */
  @property({ attribute: false }) strings?: Partial<AiOpsStrings>;

  private readonly runtimeContext = new ContextConsumer(this, { context: aiOpsContext, subscribe: true });
  private readonly pageStrings = new StoreController(this, aiOpsStringsStore);

  /** The runtime in use; set before each render. */
  protected runtime!: AiOps;
  /** The strings in use; set before each render. */
  protected text!: AiOpsStrings;

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.runtime = this.runtimeContext.value ?? this.aiOps ?? getAiOps();
    this.text = resolveAiOpsStrings(this.strings);
  }
}
