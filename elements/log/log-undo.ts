/**
 * A log row's 「元に戻す」 (UNDO-1..UNDO-4): the button while the row can be undone, what became of
 * it once it cannot, the undo in progress and why one failed — and, after an undo the user started
 * from the keyboard, focus on the row's new state so it does not fall to the page.
 * @module
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { LogEntry } from '../../src/operation-log.js';
import type { UndoAnswer } from '../../src/undo-keeper.js';
import { rowTime } from './log-row.js';
import { fillString, type AiOpsStrings } from '../internal/strings.js';

/** The rows' undo state of one log element. */
export class RowUndo implements ReactiveController {
  /** The rows whose undo the user started and which have not answered yet. */
  private undoing: ReadonlySet<number> = new Set();
  /** Why an undo of a row failed, said under it until it is tried again. */
  private readonly errors = new Map<number, string>();
  /** The row whose state note takes focus after its undo. */
  private focusAfter: number | null = null;

  constructor(
    private readonly host: ReactiveControllerHost & { readonly renderRoot: HTMLElement | DocumentFragment },
    private readonly undo: (id: number) => Promise<UndoAnswer>,
  ) {
    host.addController(this);
  }

  /**
   * The row's 「元に戻す」 while it can be undone, else what became of it (UNDO-1, UNDO-2, UNDO-4). A
   * failed undo says so in the page's words; the tool's own message (written for a developer or an
   * agent) is under 「詳細」 (FIRST-4).
   */
  render(entry: LogEntry, text: AiOpsStrings) {
    const failed = this.errors.get(entry.id);
    const busy = this.undoing.has(entry.id);
    const state = entry.undo === 'undone' ? text.logUndone : entry.undo === 'dropped' ? text.logUndoDropped : null;
    return html`<div class="undo">
      ${state === null
        ? html`<button type="button" part="undo-button" data-undo-id=${entry.id} ?disabled=${busy} aria-busy=${busy ? 'true' : nothing}
            aria-label=${fillString(text.logUndoLabel, { name: entry.name, time: rowTime(entry) }).join('')}
            @click=${this.onClick}>${text.logUndo}</button>`
        : html`<span class="state" part="undo-state" tabindex="-1">${state}</span>`}
      ${failed === undefined ? nothing
        : html`<span class="note" role="status">${fillString(text.logUndoFailed, { reason: '' }).join('').trim()}
            <details class="raw"><summary>${text.logRawDetails}</summary><pre tabindex="0">${failed}</pre></details></span>`}
    </div>`;
  }

  /** UNDO-1, UNDO-3: the user's click (never a script's) undoes the row's call through the runtime. */
  private readonly onClick = async (event: MouseEvent): Promise<void> => {
    if (!event.isTrusted) return;
    const button = event.currentTarget as HTMLButtonElement;
    const id = Number(button.dataset.undoId);
    if (this.undoing.has(id)) return;
    this.set(new Set([...this.undoing, id]));
    this.errors.delete(id);
    try {
      const answer = await this.undo(id);
      if (answer.status === 'failed') this.errors.set(id, answer.message);
      if (answer.status === 'undone' && this.host.renderRoot.contains(button) && button.matches(':focus')) this.focusAfter = id;
    } finally {
      const rest = new Set(this.undoing);
      rest.delete(id);
      this.set(rest);
    }
  };

  private set(undoing: ReadonlySet<number>): void {
    this.undoing = undoing;
    this.host.requestUpdate();
  }

  hostUpdated(): void {
    if (this.focusAfter === null) return;
    const note = this.host.renderRoot.querySelector<HTMLElement>(`[part~="row"][data-id="${this.focusAfter}"] [part~="undo-state"]`);
    if (!note) return;
    this.focusAfter = null;
    note.focus();
  }
}
