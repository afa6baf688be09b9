/**
 * The log's and the dialog's share of the design tokens: a module of its own, so it loads with them
 * on the first switch-on and not with the switch (PKG-4).
 * @module
 */
import { css } from 'lit';

/**
 * The rest of the `--ai-ops-*` defaults, used by the log and the dialog (after `tokens` (elements/internal/styles.ts)),
 * and their buttons' look; each panel adds its own sizes.
 * @example static override styles = [tokens, panelTokens, css`…`];
 */
export const panelTokens = css`
  :host {
    --_muted: var(--ai-ops-muted, #5b6169);
    --_surface: var(--ai-ops-surface, #ffffff);
    --_subtle: var(--ai-ops-subtle, #f3f4f6);
    --_border: var(--ai-ops-border, #c9ced6);
    --_on-danger: var(--ai-ops-on-danger, #ffffff);
    --_success-subtle: var(--ai-ops-success-subtle, #e6f4ea);
    --_success-text: var(--ai-ops-success-text, #0d652d);
    --_neutral-subtle: var(--ai-ops-neutral-subtle, #eceff1);
    --_neutral-text: var(--ai-ops-neutral-text, #3c4043);
  }
  pre, code {
    font-family: var(--ai-ops-mono-font, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace);
  }
  button {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    color: var(--_text);
    font: inherit;
    cursor: pointer;
  }
`;
