/**
 * The base of the three elements: where the runtime comes from, and which strings they show.
 * @module
 */
import { LitElement, type PropertyDeclarations, type PropertyValues } from 'lit';
import { getAiOps, type AiOps } from '../../src/runtime.js';
import { aiOpsContext } from './context.js';
import { StoreController } from './store-controller.js';
import type { AiOpsStrings } from './strings.js';
import { aiOpsStringsStore, switchStrings } from './strings-store.js';

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
  aiOps?: AiOps;

  /** Strings merged over the page-wide ones (see `setAiOpsStrings`), e.g. for another locale. */
  strings?: Partial<AiOpsStrings>;

  // Declared here rather than with `@property`: the decorator's module would load with the switch
  // while every switch is off (PKG-4). Lit merges these into the subclasses' own.
  static override properties: PropertyDeclarations = { aiOps: { attribute: false }, strings: { attribute: false } };

  /**
   * The Japanese defaults this element shows: the switch's own words here, so the switch loads
   * only those (PKG-4); the dialog and the log set every default (`defaultAiOpsStrings`).
   */
  protected static defaultStrings: Readonly<Partial<AiOpsStrings>> = switchStrings;

  /** The runtime a context provider gave, and how to stop hearing from it; unset while none answered. */
  private provided?: AiOps;
  private stopProvided?: () => void;
  private readonly pageStrings = new StoreController(this, aiOpsStringsStore);

  /** The runtime in use; set before each render. */
  protected runtime!: AiOps;
  /** The strings in use; set before each render. */
  protected text!: AiOpsStrings;

  /**
   * Asks for the {@link aiOpsContext} with the community context protocol's `context-request`
   * event, as `@lit/context`'s ContextConsumer does with `subscribe: true`, in fewer bytes: the
   * switch loads this while every switch is off (PKG-4). A provider (or a ContextRoot, for a
   * provider added later) calls back with the runtime and again when it changes.
   */
  override connectedCallback(): void {
    super.connectedCallback();
    const callback = (value: AiOps, unsubscribe?: () => void) => {
      // A new provider (the element moved, or a closer one appeared) replaces the previous one.
      if (this.stopProvided && this.stopProvided !== unsubscribe) this.stopProvided();
      this.stopProvided = unsubscribe;
      this.provided = value;
      this.requestUpdate();
    };
    this.dispatchEvent(Object.assign(new Event('context-request', { bubbles: true, composed: true }), {
      context: aiOpsContext, contextTarget: this, callback, subscribe: true,
    }));
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopProvided?.();
    this.stopProvided = undefined;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.runtime = this.provided ?? this.aiOps ?? getAiOps();
    const { defaultStrings } = this.constructor as typeof AiOpsElement;
    // As resolveAiOpsStrings: defaults, then the page-wide strings, then the element's own.
    this.text = { ...defaultStrings, ...aiOpsStringsStore.getState(), ...this.strings } as AiOpsStrings;
  }
}
