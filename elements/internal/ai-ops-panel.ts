/**
 * The base of `<ai-ops-confirm>` and `<ai-ops-log>`: what the two share and the switch does not
 * load (PKG-4): every default string, the panel styles, and the injected clock.
 * @module
 */
import type { PropertyDeclarations } from 'lit';
import { systemClock, type Clock } from '../../src/clock.js';
import { AiOpsElement } from './ai-ops-element.js';
import { panelTokens } from './panel-styles.js';
import { defaultAiOpsStrings, type AiOpsStrings } from './strings.js';
import { tokens } from './styles.js';

/**
 * A panel element: the dialog or the log. Every timer it sets runs on `clock`.
 * @example
 * const log = document.createElement('ai-ops-log');
 * log.clock = fakeClock; // a test drives the render delay
 */
export class AiOpsPanel extends AiOpsElement {
  protected static override defaultStrings: Readonly<Partial<AiOpsStrings>> = defaultAiOpsStrings;

  /** The shared sheets; a panel puts its own after them. */
  static override styles = [tokens, panelTokens];

  // No decorators: esbuild's decorator helper would land in a chunk the switch loads (PKG-4).
  static override properties: PropertyDeclarations = { clock: { attribute: false } };

  /** The clock every timer of the element runs on (tests inject one). Default: the real one. */
  clock: Clock = systemClock;
}
