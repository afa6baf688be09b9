/**
 * Design tokens shared by the three elements. Every colour, font and radius is a CSS custom
 * property with a default, so a host design system restyles the elements without forking them;
 * `::part` reaches the rest.
 * @module
 */
import { css } from 'lit';

/**
 * The defaults behind the `--ai-ops-*` custom properties the switch uses, and the reset the
 * elements share. The log's and the dialog's further properties are in `panelTokens` (elements/internal/panel-styles.ts), which
 * loads with them on the first switch-on rather than with the page (PKG-4).
 * @example
 * // a host page
 * ai-ops-switch, ai-ops-confirm, ai-ops-log { --ai-ops-accent: #7c3aed; --ai-ops-radius: 2px; }
 */
export const tokens = css`
  :host {
    --_text: var(--ai-ops-text, #1f2328);
    --_accent: var(--ai-ops-accent, #0b57d0);
    --_on-accent: var(--ai-ops-on-accent, #ffffff);
    --_danger: var(--ai-ops-danger, #b3261e);
    --_danger-subtle: var(--ai-ops-danger-subtle, #fce8e6);
    --_danger-text: var(--ai-ops-danger-text, #8c1d18);
    --_radius: var(--ai-ops-radius, 6px);
    --_focus: var(--ai-ops-focus-ring, 2px solid var(--_accent));
    font-family: var(--ai-ops-font, system-ui, sans-serif);
    font-size: var(--ai-ops-font-size, 0.875rem);
    color: var(--_text);
  }
  :host([hidden]) {
    display: none !important;
  }
  *, *::before, *::after {
    box-sizing: border-box;
  }
  :focus-visible {
    outline: var(--_focus);
    outline-offset: 2px;
  }
`;
