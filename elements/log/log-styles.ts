/**
 * The styles of `<ai-ops-log>` (after the panels' shared sheets): the panel bar, the connection
 * instructions, the rows and their badges.
 * @module
 */
import { css } from 'lit';

export const logStyles = css`
  :host {
    display: block;
    background: var(--_surface);
  }
  .panel {
    border-top: 1px solid var(--_border);
  }
  .announcer {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .panel > summary {
    display: flex;
    align-items: baseline;
    gap: 0.75rem;
    padding: 0.375rem 0.75rem;
    background: var(--_subtle);
    cursor: pointer;
    white-space: nowrap;
    overflow: hidden;
  }
  .title {
    font-weight: 600;
  }
  .last {
    display: inline-flex;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .content {
    display: flex;
    flex-direction: column;
    gap: 0.5rem;
    padding: 0.5rem 0.75rem;
  }
  .connect > summary, .row summary {
    cursor: pointer;
  }
  .connect p {
    margin: 0.5rem 0;
    line-height: 1.5;
  }
  pre {
    margin: 0.25rem 0 0.5rem;
    padding: 0.5rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_subtle);
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    max-height: 24rem;
    overflow: auto;
  }
  button {
    padding: 0.25rem 0.75rem;
  }
  .rows {
    max-height: var(--ai-ops-log-height, 40vh);
    overflow: auto;
    border-top: 1px solid var(--_border);
  }
  :host([mode='tab']) .rows {
    max-height: none;
  }
  .row {
    border-bottom: 1px solid var(--_border);
  }
  .row summary {
    padding: 0.25rem 0;
  }
  .undo {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0.25rem 0.625rem;
    padding: 0 0 0.375rem 1.25rem;
  }
  .raw {
    padding: 0 0 0.375rem 1.25rem;
    color: var(--_muted);
  }
  .raw summary {
    cursor: pointer;
    font-size: 0.8125rem;
  }
  .raw pre {
    color: var(--_text);
  }
  .undo .state {
    color: var(--_muted);
  }
  .by {
    padding: 0 0.45rem;
    border: 1px solid var(--_border);
    border-radius: 999px;
    font-size: 0.8125rem;
  }
  /* FIRST-7: the toolbar wraps onto more lines rather than overflow, its items on one baseline. */
  .actions {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    justify-content: flex-end;
    gap: 0.375rem 0.75rem;
  }
  .actions .key, .actions .note {
    margin: 0;
    overflow-wrap: anywhere;
    min-width: 0;
  }
  .line {
    display: inline-flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0.25rem 0.625rem;
    max-width: calc(100% - 1.25rem);
  }
  time, .args-summary, .result-summary {
    color: var(--_muted);
    font-variant-numeric: tabular-nums;
  }
  .name {
    font-weight: 600;
  }
  .args-summary, .result-summary {
    overflow-wrap: anywhere;
  }
  .badge {
    padding: 0 0.45rem;
    border-radius: 999px;
    font-size: 0.8125rem;
    font-weight: 600;
  }
  .badge.success {
    background: var(--_success-subtle);
    color: var(--_success-text);
  }
  .badge.declined {
    background: var(--_neutral-subtle);
    color: var(--_neutral-text);
  }
  .badge.failure {
    background: var(--_danger-subtle);
    color: var(--_danger-text);
  }
  .field {
    margin: 0.5rem 0 0;
    font-weight: 600;
  }
  .note, .empty {
    margin: 0.25rem 0;
    color: var(--_muted);
  }
`;
