/**
 * `<ai-ops-log>`: the log of operations from AI (LOG-1..LOG-6), each row's 「元に戻す」
 * (UNDO-1..UNDO-4), and 「記録を保存」 (AUDIT-1).
 * @module
 */
import { css, html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import { repeat } from 'lit/directives/repeat.js';
import type { LogEntry, LogStatus, OperationLog } from '../src/operation-log.js';
import { auditFileName, auditRecord } from '../src/audit-export.js';
import { relayConnectionText } from '../src/connection-text.js';
import { describeError } from '../src/result.js';
import { AiOpsPanel } from './ai-ops-panel.js';
import { AiOpsLogVisibilityChangeEvent } from './events.js';
import { DETAIL_CHARS, formatTime, type CutText } from './format.js';
import { StoreController } from './store-controller.js';
import { fillString, type AiOpsStrings } from './strings.js';

/** How long after a change the log renders (see `scheduleUpdate`). */
const RENDER_DELAY_MS = 16;

/**
 * How a log is laid out.
 * @example log.mode = 'tab';
 */
export type AiOpsLogMode = 'panel' | 'tab';

/** Times are formatted once per entry object (a row renders often; an entry changed later is a new object with the same time). */
const rowTimes = new WeakMap<LogEntry, string>();
const rowTime = (entry: LogEntry): string => {
  let time = rowTimes.get(entry);
  if (time === undefined) {
    time = formatTime(entry.time);
    rowTimes.set(entry, time);
  }
  return time;
};

/** What the runtime's log holds. */
type OperationLogState = ReturnType<OperationLog['getState']>;

/** True when both lists hold the same items in the same order. */
const sameItems = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((item, i) => item === b[i]);

const badgeText = (status: LogStatus, text: AiOpsStrings) =>
  status === 'success' ? text.statusSuccess : status === 'declined' ? text.statusDeclined : text.statusFailure;

/**
 * @summary The log of the calls agents made, shown only while a switch is on: first how to connect
 * an agent, then one row per call (`role="log"`, newest at the bottom). Arguments and results are
 * text, never HTML.
 * @tagname ai-ops-log
 *
 * In `panel` mode (default) it is a collapsible panel for the page bottom that shows, collapsed,
 * its title 「AI からの操作」 and the last row. Collapsed, the `role="log"` rows are inside a closed
 * `<details>`, out of the accessibility tree; a visually hidden `role="status"` region outside it
 * then says each new row, e.g. 「sql_query: 成功」 (SAFE-9). In `tab` mode it renders only the content, to sit in
 * a host's own tab panel; the host shows its tab while `visible` is true. While not visible it
 * renders nothing and sets its own `hidden`.
 *
 * @event {AiOpsLogVisibilityChangeEvent} ai-ops-log-visibility-change - `visible` changed;
 *   `detail: {visible}`.
 *
 * @csspart panel - The panel's `<details>` (panel mode).
 * @csspart announcer - The visually hidden live region that says new rows while collapsed (panel mode).
 * @csspart panel-summary - The panel's `<summary>`: title and, collapsed, the last row.
 * @csspart title - The panel's title.
 * @csspart last-row - The last row in the collapsed panel.
 * @csspart content - The connection instructions and the rows.
 * @csspart connect - The disclosure 「AI のエージェントのつなぎ方」.
 * @csspart command - The relay command.
 * @csspart config - The MCP client configuration example.
 * @csspart reconnect-button - 「つなぎ直す」.
 * @csspart rows - The `role="log"` container.
 * @csspart row - One call's row (`data-id`; `data-undo` = `available`, `undone` or `dropped` when the
 *   call handed an undo step; `data-by` = `agent` or `user`; `open` while its details are expanded).
 * @csspart row-details - A row's `<details>`.
 * @csspart row-summary - A row's `<summary>`.
 * @csspart by - The mark of the user's own undo rows (UNDO-3).
 * @csspart undo-button - 「元に戻す」 of a row that can be undone (UNDO-1): only a trusted click undoes.
 * @csspart undo-state - What a row says once undone, or once it can no longer be (UNDO-2, UNDO-4).
 * @csspart export-button - 「記録を保存」: downloads the page's rows as JSON Lines (AUDIT-1).
 * @csspart time - A row's time.
 * @csspart name - A row's operation name.
 * @csspart args-summary - A row's argument summary.
 * @csspart badge - A row's status badge (also `badge-success`, `badge-declined`, `badge-failure`).
 * @csspart result-summary - A row's result summary.
 * @csspart args - An expanded row's arguments.
 * @csspart result - An expanded row's result.
 *
 * 「元に戻す」 and 「記録を保存」 act on input the browser delivered only (`event.isTrusted`): a page
 * script's `click()` does nothing, so neither an agent's operation nor a script undoes or writes a
 * file (UNDO-3, AUDIT-1). The record holds every row of the page's runtime, not only this log's tool.
 *
 * @cssproperty --ai-ops-log-height - Maximum height of the rows before they scroll.
 * @cssproperty --ai-ops-success-subtle - Background of the 成功 badge.
 * @cssproperty --ai-ops-success-text - Text of the 成功 badge.
 * @cssproperty --ai-ops-neutral-subtle - Background of the 中止 badge.
 * @cssproperty --ai-ops-neutral-text - Text of the 中止 badge.
 * @cssproperty --ai-ops-danger-subtle - Background of the 失敗 badge.
 * @cssproperty --ai-ops-danger-text - Text of the 失敗 badge.
 * @cssproperty --ai-ops-surface - Background.
 * @cssproperty --ai-ops-subtle - Background of code blocks and the panel's bar.
 * @cssproperty --ai-ops-border - Borders.
 *
 * @example
 * <ai-ops-log></ai-ops-log>
 * <ai-ops-log tool="node" mode="tab"></ai-ops-log>
 */
export class AiOpsLog extends AiOpsPanel {
  static override styles = [...AiOpsPanel.styles, css`
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
    .undo .state {
      color: var(--_muted);
    }
    .by {
      padding: 0 0.45rem;
      border: 1px solid var(--_border);
      border-radius: 999px;
      font-size: 0.8125rem;
    }
    .actions {
      display: flex;
      justify-content: flex-end;
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
  `];

  // No decorators: esbuild's decorator helper would land in a chunk the switch loads (PKG-4).
  static override properties: PropertyDeclarations = {
    tool: { reflect: true },
    mode: { reflect: true },
    open: { type: Boolean, reflect: true },
    reconnecting: { state: true, attribute: false },
    reconnectError: { state: true, attribute: false },
    undoing: { state: true, attribute: false },
    keyFingerprint: { state: true, attribute: false },
    unenrolNote: { state: true, attribute: false },
  };

  /** Show only this tool: its switch decides visibility. Without it: every tool of the page. */
  tool?: string;

  /** `panel` (a collapsible panel for the page bottom) or `tab` (content only, for a host's tab). */
  mode: AiOpsLogMode = 'panel';

  /** Whether the panel is expanded (panel mode). */
  open = false;

  private reconnecting = false;
  private reconnectError: string | null = null;
  /** The enrolled key's fingerprint (UV-5), read when the panel opens and after each row; null when none. */
  private keyFingerprint: string | null = null;
  /** What the last 「本人確認の登録を解除」 did. */
  private unenrolNote: string | null = null;
  /** The rows whose undo the user started and which have not answered yet. */
  private undoing: ReadonlySet<number> = new Set();
  /** Why an undo of a row failed, said under it until it is tried again. */
  private readonly undoErrors = new Map<number, string>();
  /** The row whose state note takes focus after its undo, so focus does not fall to the page. */
  private focusAfterUndo: number | null = null;
  private get rowsElement(): HTMLElement | null {
    return this.renderRoot.querySelector('.rows');
  }

  /**
   * What the log shows, from one controller: whether any switch it follows is on (the session list,
   * then each session shown) and its rows. Renders again only when one of the two changed.
   */
  private readonly view = new StoreController(this, undefined, (log: OperationLogState, get) => {
    const sessions = get(this.runtime.sessions).filter((s) => !this.tool || s.tool === this.tool);
    return {
      visible: !this.runtime.embedded && sessions.some((s) => get(s).status !== 'off'),
      entries: this.tool ? log.entries.filter((e) => e.tool === this.tool) : log.entries,
    };
  }, (a, b) => a?.visible === b?.visible && sameItems(a.entries, b.entries));
  private readonly openRows = new Set<number>();
  private isVisible = false;
  private announcedVisible = false;
  private lastRowCount = 0;
  /** The newest row already said (or seen in the open panel), and what the live region says. */
  private announcedId = 0;
  private announcement: { readonly id: number; readonly text: string } | null = null;
  private stuckToBottom = true;
  /** The rows of this update. */
  private rows: readonly LogEntry[] = [];

  /** True while the log shows: its tool's switch (or, without `tool`, any switch) is on. */
  get visible(): boolean {
    return this.isVisible;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.view.setStore(this.runtime.log);
    const { visible = false, entries = [] } = this.view.value ?? {};
    this.rows = entries;
    this.isVisible = visible;
    this.hidden = !visible;
    this.updateAnnouncement();
  }

  /**
   * SAFE-9: collapsed, the newest row since the last one said goes to the live region. Expanded,
   * the `role="log"` rows announce themselves, so the region stays quiet (no double reading).
   */
  private updateAnnouncement(): void {
    const last = this.rows.at(-1);
    if (!last || last.id <= this.announcedId) return;
    this.announcedId = last.id;
    const collapsed = this.mode === 'panel' && !this.open && this.isVisible;
    this.announcement = collapsed
      ? { id: last.id, text: fillString(this.text.logAnnouncement, { name: this.rowName(last), status: badgeText(last.status, this.text) }).join('') }
      : null;
  }

  /** A row's operation, with the mark of the user's own undo (UNDO-3), as the live region says it. */
  private rowName(entry: LogEntry): string {
    return entry.by === 'user' ? `${entry.name} (${this.text.logByUser})` : entry.name;
  }

  /**
   * Renders a little after the change, never inside the call that caused it: a log row is added
   * while the call's result is on its way to the agent, and rendering up to 200 rows then would
   * delay every answer. A burst of calls renders once. The delay runs on the element's `clock`.
   */
  protected override async scheduleUpdate(): Promise<void> {
    await new Promise<void>((resolve) => this.clock.setTimeout(resolve, RENDER_DELAY_MS));
    super.scheduleUpdate();
  }

  private onRowsScroll(event: Event): void {
    // Read layout only when the user scrolls, not on every update.
    const rows = event.currentTarget as HTMLElement;
    this.stuckToBottom = rows.scrollHeight - rows.scrollTop - rows.clientHeight < 4;
  }

  protected override render() {
    if (!this.isVisible) return nothing;
    const entries = this.rows;
    if (this.mode === 'tab') return this.renderContent(entries);
    const last = entries.at(-1);
    const said = this.announcement;
    return html`
      <div class="announcer" part="announcer" role="status" aria-live="polite">${said
        ? keyed(said.id, html`<span>${said.text}</span>`) : nothing}</div>
      <details class="panel" part="panel" ?open=${this.open} @toggle=${this.onPanelToggle}>
        <summary part="panel-summary">
          <span class="title" part="title">${this.text.logTitle}</span>
          ${!this.open && last ? html`<span class="last" part="last-row">${this.renderLine(last)}</span>` : nothing}
        </summary>
        ${this.renderContent(entries)}
      </details>
    `;
  }

  private renderContent(entries: readonly LogEntry[]) {
    const { text } = this;
    return html`
      <div class="content" part="content">
        ${this.renderConnect()}
        <div class="rows" part="rows" role="log" aria-label=${text.logLabel} tabindex="0" @scroll=${this.onRowsScroll}>
          ${entries.length === 0 ? html`<p class="empty">${text.logEmpty}</p>` : nothing}
          ${repeat(entries, (entry) => entry.id, (entry) => this.renderRow(entry))}
        </div>
        <div class="actions">
          <button type="button" part="export-button" @click=${this.saveRecord}>${text.logExport}</button>
          ${this.keyFingerprint === null ? nothing : html`
            <span class="key" part="verification-key">${fillString(text.logVerificationKey, { fingerprint: this.keyFingerprint }).join('')}</span>
            <button type="button" part="unenrol-button" @click=${this.unenrol}>${text.logUnenrol}</button>`}
          ${this.unenrolNote === null ? nothing : html`<span class="note" role="status">${this.unenrolNote}</span>`}
        </div>
      </div>
    `;
  }

  private renderConnect() {
    const { text } = this;
    const { command, config } = relayConnectionText(globalThis.location.origin, this.runtime.relayPort);
    return html`
      <details class="connect" part="connect">
        <summary>${text.logConnectTitle}</summary>
        <p>${text.logConnectCommand}</p>
        <pre part="command" tabindex="0"><code>${command}</code></pre>
        <p>${text.logConnectConfig}</p>
        <pre part="config" tabindex="0"><code>${config}</code></pre>
        <p>${text.logConnectReconnectHint}</p>
        <button type="button" part="reconnect-button" ?disabled=${this.reconnecting}
          aria-busy=${this.reconnecting ? 'true' : nothing} @click=${this.reconnect}>${text.logReconnect}</button>
        ${this.reconnectError === null ? nothing
          : html`<p class="note" role="status">${fillString(text.logReconnectFailed, { reason: this.reconnectError }).join('')}</p>`}
      </details>
    `;
  }

  /** Time, name, argument summary, badge, result summary (LOG-3). */
  private renderLine(entry: LogEntry) {
    const ellipsis = (cut: CutText) => (cut.truncated ? '…' : '');
    return html`<span class="line">
      <time part="time" datetime=${new Date(entry.time).toISOString()}>${rowTime(entry)}</time>
      <span class="name" part="name">${entry.name}</span>
      ${entry.by === 'user' ? html`<span class="by" part="by">${this.text.logByUser}</span>` : nothing}
      ${entry.receipt ? html`<span class="by" part="verified">${this.text.logVerified}</span>` : nothing}
      ${entry.batch ? html`<span class="by" part="batch">${fillString(this.text.logBatch, { count: String(entry.batch.size) }).join('')}</span>` : nothing}
      <span class="args-summary" part="args-summary">${entry.argsSummary.text}${ellipsis(entry.argsSummary)}</span>
      <span class="badge ${entry.status}" part="badge badge-${entry.status}">${badgeText(entry.status, this.text)}</span>
      <span class="result-summary" part="result-summary">${entry.resultSummary.text}${ellipsis(entry.resultSummary)}</span>
    </span>`;
  }

  private renderRow(entry: LogEntry) {
    const open = this.openRows.has(entry.id);
    // `open` mirrors the details' own, so a row reads as a disclosure from outside too.
    return html`
      <div class="row" part="row" data-id=${entry.id} data-by=${entry.by ?? 'agent'} data-undo=${entry.undo ?? nothing} ?open=${open}>
        <details part="row-details" ?open=${open} @toggle=${this.onRowToggle}>
          <summary part="row-summary">${this.renderLine(entry)}</summary>
          ${open ? this.renderFull(entry) : nothing}
        </details>
        ${entry.undo ? this.renderUndo(entry) : nothing}
      </div>
    `;
  }

  /** The row's 「元に戻す」 while it can be undone, else what became of it (UNDO-1, UNDO-2, UNDO-4). */
  private renderUndo(entry: LogEntry) {
    const { text } = this;
    const failed = this.undoErrors.get(entry.id);
    const busy = this.undoing.has(entry.id);
    const state = entry.undo === 'undone' ? text.logUndone : entry.undo === 'dropped' ? text.logUndoDropped : null;
    return html`<div class="undo">
      ${state === null
        ? html`<button type="button" part="undo-button" data-undo-id=${entry.id} ?disabled=${busy} aria-busy=${busy ? 'true' : nothing}
            aria-label=${fillString(text.logUndoLabel, { name: entry.name, time: rowTime(entry) }).join('')}
            @click=${this.onUndo}>${text.logUndo}</button>`
        : html`<span class="state" part="undo-state" tabindex="-1">${state}</span>`}
      ${failed === undefined ? nothing
        : html`<span class="note" role="status">${fillString(text.logUndoFailed, { reason: failed }).join('')}</span>`}
    </div>`;
  }

  /** UNDO-1, UNDO-3: the user's click (never a script's) undoes the row's call through the runtime. */
  private async onUndo(event: MouseEvent): Promise<void> {
    if (!event.isTrusted) return;
    const button = event.currentTarget as HTMLButtonElement;
    const id = Number(button.dataset.undoId);
    if (this.undoing.has(id)) return;
    this.undoing = new Set([...this.undoing, id]);
    this.undoErrors.delete(id);
    try {
      const answer = await this.runtime.undo(id);
      if (answer.status === 'failed') this.undoErrors.set(id, answer.message);
      if (answer.status === 'undone' && this.renderRoot.contains(button) && button.matches(':focus')) this.focusAfterUndo = id;
    } finally {
      const rest = new Set(this.undoing);
      rest.delete(id);
      this.undoing = rest;
    }
  }

  /**
   * AUDIT-1: on the user's click only, the page's rows as JSON Lines, downloaded as a file (a Blob
   * behind an object URL, revoked once the download has it). Nothing is written before that click.
   */
  private async saveRecord(event: MouseEvent): Promise<void> {
    if (!event.isTrusted) return;
    // UV-5: each receipt goes with the enrolled key's public part (an auditor still checks against their own copy).
    const key = (await this.verifier())?.enrolled() ?? null;
    const blob = new Blob([auditRecord(this.runtime.log.getState().entries, key)], { type: 'application/x-ndjson' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = auditFileName(this.clock.now());
    link.hidden = true;
    this.renderRoot.appendChild(link);
    link.click();
    link.remove();
    // The download took its bytes when it started: a task later the URL can go.
    this.clock.setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  /** Arguments and result in full, each cut at 10,000 characters when logged (LOG-4), as text (LOG-6). */
  private renderFull(entry: LogEntry) {
    const { text } = this;
    const block = (label: string, part: string, cut: CutText) => html`
      <p class="field">${label}</p>
      <pre part=${part} tabindex="0">${cut.text}</pre>
      ${cut.truncated ? html`<p class="note">${fillString(text.logTruncated, { count: DETAIL_CHARS.toLocaleString('en-US') }).join('')}</p>` : nothing}
    `;
    return html`
      ${block(text.logArguments, 'args', entry.args)}
      ${block(text.logResult, 'result', entry.result)}
    `;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (this.isVisible !== this.announcedVisible) {
      this.announcedVisible = this.isVisible;
      const changed = new AiOpsLogVisibilityChangeEvent({ visible: this.isVisible });
      this.dispatchEvent(changed);
    }
    // New rows land at the bottom (LOG-5); follow them unless the user scrolled up to read.
    const count = this.rows.length;
    const rows = this.rowsElement;
    if (rows && count > this.lastRowCount && this.stuckToBottom) rows.scrollTop = rows.scrollHeight;
    // The first verified approval enrolled a key: show its fingerprint in the open panel (UV-5).
    if (this.open && count > this.lastRowCount && this.keyFingerprint === null && this.rows.some((e) => e.receipt)) void this.readKey();
    this.lastRowCount = count;
    if (this.focusAfterUndo !== null) {
      const note = this.renderRoot.querySelector<HTMLElement>(`[part~="row"][data-id="${this.focusAfterUndo}"] [part~="undo-state"]`);
      if (note) {
        this.focusAfterUndo = null;
        note.focus();
      }
    }
  }

  private onPanelToggle(event: Event): void {
    this.open = (event.target as HTMLDetailsElement).open;
    if (this.open) void this.readKey();
  }

  /** The page's verifier (UV-5), or null when it has none or the on-demand part cannot load. */
  private verifier() {
    return this.runtime.onDemand().then((parts) => parts.consent.verifier, () => null);
  }

  /** The enrolled key's fingerprint, shown so the user can compare it with the key they hold (UV-5). */
  private async readKey(): Promise<void> {
    const verifier = await this.verifier();
    this.keyFingerprint = (await verifier?.fingerprint().catch(() => null)) ?? null;
  }

  /** UV-2: removing the enrolment is itself verified (the verifier asks first); a script's click does nothing. */
  private async unenrol(event: MouseEvent): Promise<void> {
    if (!event.isTrusted) return;
    this.unenrolNote = null;
    try {
      await (await this.verifier())?.unenrol();
      this.unenrolNote = this.text.logUnenrolled;
    } catch (error) {
      this.unenrolNote = fillString(this.text.logUnenrolFailed, { reason: describeError(error) }).join('');
    }
    await this.readKey();
  }

  private onRowToggle(event: Event): void {
    const row = event.target as HTMLDetailsElement;
    const id = Number(row.parentElement!.dataset.id);
    if (row.open) this.openRows.add(id);
    else this.openRows.delete(id);
    this.requestUpdate();
  }

  private async reconnect(): Promise<void> {
    this.reconnecting = true;
    this.reconnectError = null;
    try {
      await this.runtime.relay.reconnect();
    } catch (error) {
      this.reconnectError = describeError(error);
    } finally {
      this.reconnecting = false;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ai-ops-log': AiOpsLog;
  }
}
