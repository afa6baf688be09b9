/**
 * What the collapsed log's live region says (SAFE-9): the newest row since the last one said, e.g.
 * 「sql_query: 成功」. Expanded, the `role="log"` rows announce themselves, so it stays quiet (no
 * double reading).
 * @module
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { LogEntry } from '../../src/operation-log.js';
import { badgeText, rowName } from './log-row.js';
import { fillString, type AiOpsStrings } from '../internal/strings.js';

/** One thing said: keyed by its row, so the same words for a new row are said again. */
export interface Announcement {
  readonly id: number;
  readonly text: string;
}

/** What the announcer reads from its log before each render. */
export interface AnnouncerSource {
  /** The rows shown in this update. */
  rows(): readonly LogEntry[];
  /** The rows are out of the accessibility tree (the panel is collapsed, the log visible). */
  collapsed(): boolean;
  text(): AiOpsStrings;
}

/**
 * Keeps which row was said last; before each render (after the host's `willUpdate`) it decides what
 * the live region says, and the element renders `current`.
 * @example
 * private readonly announcer = new LogAnnouncer(this, { rows: () => this.rows, collapsed: () => !this.open, text: () => this.text });
 * html`<div role="status">${this.announcer.current?.text}</div>`;
 */
export class LogAnnouncer implements ReactiveController {
  /** The newest row already said (or seen in the open panel). */
  private saidId = 0;
  /** What the live region says now. */
  current: Announcement | null = null;

  constructor(host: ReactiveControllerHost, private readonly source: AnnouncerSource) {
    host.addController(this);
  }

  hostUpdate(): void {
    const { source } = this;
    const rows = source.rows();
    const collapsed = source.collapsed();
    const text = source.text();
    const last = rows.at(-1);
    if (!last || last.id <= this.saidId) return;
    this.saidId = last.id;
    this.current = collapsed
      ? { id: last.id, text: fillString(text.logAnnouncement, { name: rowName(last, text), status: badgeText(last.status, text) }).join('') }
      : null;
  }
}
