/**
 * The confirmation dialog's own styles, after the panel's shared ones (`AiOpsPanel.styles`): the
 * native `<dialog>` and its backdrop, the request's body, the buttons and spinner, and the batch
 * list under them (BATCH-1). Restyled from outside through `::part` and the `--ai-ops-*` properties.
 * @module
 */
import { css } from 'lit';

/**
 * The `<ai-ops-confirm>` sheet.
 * @example static override styles = [...AiOpsPanel.styles, confirmStyles];
 */
export const confirmStyles = css`
  :host {
    display: contents;
  }
  dialog {
    width: calc(100vw - 2rem);
    max-width: var(--ai-ops-dialog-width, 34rem);
    max-height: calc(100vh - 2rem);
    padding: 0;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 1.5);
    background: var(--_surface);
    color: var(--_text);
    box-shadow: 0 12px 32px rgb(0 0 0 / 0.25);
  }
  dialog::backdrop {
    background: var(--ai-ops-backdrop, rgb(0 0 0 / 0.45));
  }
  .panel {
    display: flex;
    flex-direction: column;
    gap: 0.75rem;
    padding: 1.25rem;
  }
  h2 {
    margin: 0;
    font-size: 1.0625rem;
    line-height: 1.4;
    overflow-wrap: anywhere;
  }
  h2:focus {
    outline: none;
  }
  .body p {
    margin: 0 0 0.5rem;
    line-height: 1.6;
    overflow-wrap: anywhere;
  }
  code {
    padding: 0.05rem 0.3rem;
    border-radius: 4px;
    background: var(--_subtle);
  }
  details summary {
    cursor: pointer;
  }
  details pre {
    max-height: 16rem;
    margin: 0.5rem 0 0;
    padding: 0.5rem;
    overflow: auto;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_subtle);
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  /* Always in the tree, so that the words put in it are announced (UV-7). */
  .status {
    margin: 0;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    justify-content: flex-end;
    align-items: center;
    gap: 0.5rem;
  }
  /* UV-9, UV-18: what the skip action grants, under the buttons (its aria-describedby). */
  .choice {
    flex-basis: 100%;
    margin: 0;
    text-align: end;
    font-size: 0.875em;
  }
  button {
    display: inline-flex;
    align-items: center;
    gap: 0.4rem;
    min-height: 2.25rem;
    padding: 0.4rem 1rem;
  }
  button.action {
    border-color: var(--_danger);
    background: var(--_danger);
    color: var(--_on-danger);
  }
  button:disabled, button[aria-disabled='true'] {
    cursor: default;
  }
  button.action[aria-disabled='true'], button.skip[aria-disabled='true'] {
    opacity: 0.6;
  }
  .automation {
    padding: 0.5rem 0.75rem;
    border-left: 3px solid var(--_danger);
    border-radius: var(--_radius);
    background: var(--_subtle);
  }
  button.cancel:disabled {
    color: var(--_muted);
  }
  .spinner {
    width: 0.875rem;
    height: 0.875rem;
    border: 2px solid currentColor;
    border-right-color: transparent;
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  .batch-count {
    margin: 0;
    font-weight: 600;
  }
  .batch-count:empty {
    display: none;
  }
  .batch {
    max-height: 14rem;
    margin: 0;
    padding: 0;
    overflow: auto;
    list-style: none;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .batch li {
    padding: 0.4rem 0.6rem;
    border-top: 1px solid var(--_border);
  }
  .batch li:first-child {
    border-top: none;
  }
  .batch summary {
    overflow-wrap: anywhere;
  }
  .batch .meta {
    color: var(--_muted);
  }
  .batch li p {
    margin: 0.4rem 0 0;
  }
  .hint {
    margin: 0;
    color: var(--_muted);
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
    }
  }
`;
