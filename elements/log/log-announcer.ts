/**
 * What the collapsed log's live region says (SAFE-9): the newest row since the last one said, e.g.
 * 「sql_query: 成功」. Expanded, the `role="log"` rows announce themselves, so it stays quiet (no
 * double reading).
 * @module
 */
import type { LogEntry } from '../../src/operation-log.js';
import { badgeText, rowName } from './log-row.js';
import { fillString, type AiOpsStrings } from '../internal/strings.js';

/** One thing said: keyed by its row, so the same words for a new row are said again. */
export interface Announcement {
  readonly id: number;
  readonly text: string;
}

/** Keeps which row was said last; a plain class, the element renders what it answers. */
export class LogAnnouncer {
  /** The newest row already said (or seen in the open panel). */
  private saidId = 0;
  /** What the live region says now. */
  current: Announcement | null = null;

  /** Called before each render with the rows shown; `collapsed`: the rows are out of the accessibility tree. */
  update(rows: readonly LogEntry[], collapsed: boolean, text: AiOpsStrings): void {
    const last = rows.at(-1);
    if (!last || last.id <= this.saidId) return;
    this.saidId = last.id;
    this.current = collapsed
      ? { id: last.id, text: fillString(text.logAnnouncement, { name: rowName(last, text), status: badgeText(last.status, text) }).join('') }
      : null;
  }
}
