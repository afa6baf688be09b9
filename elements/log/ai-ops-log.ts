/**
 * `<ai-ops-log>`: the log of operations from AI (LOG-1..LOG-6), each row's 「元に戻す」
 * (UNDO-1..UNDO-4), and 「記録を保存」 (AUDIT-1).
 * @module
 */
import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import { repeat } from 'lit/directives/repeat.js';
import type { LogEntry, OperationLog } from '../../src/operation-log.js';
import { AiOpsPanel } from '../internal/ai-ops-panel.js';
import { AiOpsLogVisibilityChangeEvent } from '../internal/events.js';
import { LogAnnouncer } from './log-announcer.js';
import { RelayConnect } from './log-connect.js';
import { LogRecord } from './log-record.js';
import { renderFull, renderLine, renderRaw } from './log-row.js';
import { logStyles } from './log-styles.js';
import { RowUndo } from './log-undo.js';
import { StoreController } from '../internal/store-controller.js';
import { loaded, moveInToolbar, sameItems } from './log-helpers.js';

/** How long after a change the log renders (see `scheduleUpdate`). */
const RENDER_DELAY_MS = 16;

/**
 * How a log is laid out.
 * @example log.mode = 'tab';
 */
export type AiOpsLogMode = 'panel' | 'tab';

/** What the runtime's log holds. */
type OperationLogState = ReturnType<OperationLog['getState']>;

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
 * @csspart relay-refused - The note shown while the relay on the page's port does not serve this
 *   page's origin (DOOR-5).
 * @csspart relay-status - While the page is paired with a relay: who is connected and since when,
 *   and 「接続を解除」 (DOOR-10).
 * @csspart relay-status-text - The sentence of `relay-status`.
 * @csspart unpair-button - 「接続を解除」: ends the pairing (DOOR-6).
 * @csspart pair-form - The pairing code field and 「つなぐ」 in 「AI のエージェントのつなぎ方」 (DOOR-6).
 * @csspart pair-code - The field for the code the user's agent told them.
 * @csspart pair-button - 「つなぐ」.
 * @csspart pair-error - Why the code did not pair.
 * @csspart rows - The `role="log"` container.
 * @csspart row - One call's row (`data-id`; `data-undo` = `available`, `undone` or `dropped` when the
 *   call handed an undo step; `data-by` = `agent` or `user`; `open` while its details are expanded).
 * @csspart row-details - A row's `<details>`.
 * @csspart row-summary - A row's `<summary>`.
 * @csspart by - The mark of the user's own undo rows (UNDO-3).
 * @csspart verified - The mark of a row whose approval the user verified (UV-5).
 * @csspart batch - The mark of a row approved with others by one press (BATCH-4).
 * @csspart verification-key - The enrolled key's fingerprint (UV-5).
 * @csspart unenrol-button - 「本人確認の登録を解除」: removes the enrolment after a verification (UV-2).
 * @csspart undo-button - 「元に戻す」 of a row that can be undone (UNDO-1): only a trusted click undoes.
 * @csspart undo-state - What a row says once undone, or once it can no longer be (UNDO-2, UNDO-4).
 * @csspart actions - The toolbar under the rows (`role="toolbar"`, named 「記録の操作」): 「記録を保存」, the
 *   key's fingerprint, 「本人確認の登録を解除」; the same in panel and tab mode (FIRST-7).
 * @csspart export-button - 「記録を保存」: downloads the page's rows as JSON Lines (AUDIT-1).
 * @csspart time - A row's time.
 * @csspart name - A row's operation name.
 * @csspart args-summary - A row's argument summary.
 * @csspart badge - A row's status badge (also `badge-success`, `badge-declined`, `badge-failure`).
 * @csspart result-summary - A row's result summary: for a failure, its code's sentence in the page's language (FIRST-4).
 * @csspart result-details - A failed row's 「詳細」 (`<details>`): the result as the agent got it (FIRST-4).
 * @csspart result-details-summary - The `<summary>` 「詳細」.
 * @csspart result-raw - The result as the agent got it, inside `result-details` while open.
 * @csspart via - An expanded row's channel: the relay and its agent, the browser's WebMCP, a browser agent (DOOR-10).
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
  static override styles = [...AiOpsPanel.styles, logStyles];

  // No decorators: esbuild's decorator helper would land in a chunk the switch loads (PKG-4).
  static override properties: PropertyDeclarations = {
    tool: { reflect: true },
    mode: { reflect: true },
    open: { type: Boolean, reflect: true },
  };

  /** Show only this tool: its switch decides visibility. Without it: every tool of the page. */
  tool?: string;

  /** `panel` (a collapsible panel for the page bottom) or `tab` (content only, for a host's tab). */
  mode: AiOpsLogMode = 'panel';

  /** Whether the panel is expanded (panel mode). */
  open = false;

  // Each part of the log is its own module: the row templates (log-row), what the collapsed panel
  // says (log-announcer), the rows' undo (log-undo), the relay instructions (log-connect) and the
  // record with its key (log-record). The element holds what shows and when it renders.
  private readonly announcer = new LogAnnouncer(this, {
    rows: () => this.rows,
    collapsed: () => this.mode === 'panel' && !this.open && this.isVisible,
    text: () => this.text,
  });
  private readonly undo = new RowUndo(this, (id) => this.runtime.undo(id));
  private readonly connect = new RelayConnect(this, () => ({
    port: this.runtime.relayPort,
    reconnect: () => loaded(this.runtime.capabilities).then((c) => c.relay.reconnect()),
    refused: () => loaded(this.runtime.capabilities).then((c) => c.relay.refused),
    status: () => loaded(this.runtime.capabilities).then((c) => c.relay.status),
    pair: (code) => loaded(this.runtime.capabilities).then((c) => c.relay.pair(code)),
    unpair: () => loaded(this.runtime.capabilities).then((c) => c.relay.unpair()),
  }));
  private readonly record = new LogRecord(this, {
    root: () => this.renderRoot,
    clock: () => this.clock,
    entries: () => this.runtime.log.getState().entries,
    verification: () => loaded(this.runtime.capabilities).then((c) => c.verification),
    text: () => this.text,
    // FIRST-7: a tab shows its content whenever it is visible, so the key line is read as for an open panel.
    shown: () => ({ open: this.mode === 'tab' ? this.isVisible : this.open, rows: this.rows }),
  });

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
  /** The rows whose 「詳細」 is open (FIRST-4). */
  private readonly openRaw = new Set<number>();
  private isVisible = false;
  private announcedVisible = false;
  private lastRowCount = 0;
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
    const said = this.announcer.current;
    return html`
      <div class="announcer" part="announcer" role="status" aria-live="polite">${said
        ? keyed(said.id, html`<span>${said.text}</span>`) : nothing}</div>
      <details class="panel" part="panel" ?open=${this.open} @toggle=${this.onPanelToggle}>
        <summary part="panel-summary">
          <span class="title" part="title">${this.text.logTitle}</span>
          ${!this.open && last ? html`<span class="last" part="last-row">${renderLine(last, this.text)}</span>` : nothing}
        </summary>
        ${this.renderContent(entries)}
      </details>
    `;
  }

  private renderContent(entries: readonly LogEntry[]) {
    const { text } = this;
    return html`
      <div class="content" part="content">
        ${this.connect.render(text)}
        <div class="rows" part="rows" role="log" aria-label=${text.logLabel} tabindex="0" @scroll=${this.onRowsScroll}>
          ${entries.length === 0 ? html`<p class="empty">${text.logEmpty}</p>` : nothing}
          ${repeat(entries, (entry) => entry.id, (entry) => this.renderRow(entry))}
        </div>
        <div class="actions" part="actions" role="toolbar" aria-label=${text.logActions} @keydown=${moveInToolbar}>${this.record.render(text)}</div>
      </div>
    `;
  }

  private renderRow(entry: LogEntry) {
    const open = this.openRows.has(entry.id);
    // `open` mirrors the details' own, so a row reads as a disclosure from outside too.
    return html`
      <div class="row" part="row" data-id=${entry.id} data-by=${entry.by ?? 'agent'} data-undo=${entry.undo ?? nothing} ?open=${open}>
        <details part="row-details" ?open=${open} @toggle=${this.onRowToggle}>
          <summary part="row-summary">${renderLine(entry, this.text)}</summary>
          ${open ? renderFull(entry, this.text) : nothing}
        </details>
        ${entry.code === null ? nothing : renderRaw(entry, this.text, this.openRaw.has(entry.id), this.onRawToggle)}
        ${entry.undo ? this.undo.render(entry, this.text) : nothing}
      </div>
    `;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (this.isVisible !== this.announcedVisible) {
      this.announcedVisible = this.isVisible;
      const changed = new AiOpsLogVisibilityChangeEvent({ visible: this.isVisible });
      this.dispatchEvent(changed);
      // FIRST-7: the tab's toolbar shows the key's fingerprint and 「本人確認の登録を解除」 as the panel's
      // does once opened (the tab has no opening of its own: showing it is that).
      if (this.isVisible && this.mode === 'tab') void this.record.readKey();
    }
    // New rows land at the bottom (LOG-5); follow them unless the user scrolled up to read.
    const count = this.rows.length;
    const rows = this.renderRoot.querySelector<HTMLElement>('.rows');
    if (rows && count > this.lastRowCount && this.stuckToBottom) rows.scrollTop = rows.scrollHeight;
    this.lastRowCount = count;
  }

  private onPanelToggle(event: Event): void {
    this.open = (event.target as HTMLDetailsElement).open;
    if (this.open) void this.record.readKey();
  }

  /** A row's details (or its 「詳細」, FIRST-4) opened or closed: kept, so a render keeps it so. */
  private toggled(open: Set<number>, event: Event): void {
    const details = event.target as HTMLDetailsElement;
    const id = Number(details.closest<HTMLElement>('[part~="row"]')!.dataset.id);
    if (details.open) open.add(id);
    else open.delete(id);
    this.requestUpdate();
  }

  private readonly onRawToggle = (event: Event): void => this.toggled(this.openRaw, event);

  private readonly onRowToggle = (event: Event): void => this.toggled(this.openRows, event);
}

declare global {
  interface HTMLElementTagNameMap {
    'ai-ops-log': AiOpsLog;
  }
}
