/**
 * The log's record and the key it is checked against: 「記録を保存」 downloads the page's rows as
 * JSON Lines (AUDIT-1), with the enrolled key's public part beside the receipts (UV-5); the key's
 * fingerprint shows so the user can compare it with the key they hold, and 「本人確認の登録を解除」
 * removes the enrolment (itself verified, UV-2). Each acts on the user's click only.
 * @module
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { auditFileName, auditRecord } from '../../src/audit-export.js';
import type { Clock } from '../../src/clock.js';
import type { LogEntry } from '../../src/operation-log.js';
import { describeError } from '../../src/result.js';
import type { PageVerification } from '../../src/capabilities.js';
import { fillString, type AiOpsStrings } from '../internal/strings.js';

/** What the record needs from its log element. */
export interface RecordSource {
  /** Where the download's link is put for its click. */
  root(): HTMLElement | DocumentFragment;
  clock(): Clock;
  /** Every row of the page's runtime (the record holds them all, not only this log's tool). */
  entries(): readonly LogEntry[];
  /** The page's user verification, or null when it has none. */
  verification(): Promise<PageVerification | null>;
  text(): AiOpsStrings;
  /** Whether the panel is open, and the rows it shows in this update. */
  shown(): { open: boolean; rows: readonly LogEntry[] };
}

/**
 * The record's buttons and the key's fingerprint of one log element.
 * @example
 * private readonly record = new LogRecord(this, { root: () => this.renderRoot, clock: () => this.clock, … });
 * html`<div class="actions">${this.record.render(this.text)}</div>`;
 */
export class LogRecord implements ReactiveController {
  /** The enrolled key's fingerprint (UV-5), read when the panel opens and after a verified row; null when none. */
  private fingerprint: string | null = null;
  /** What the last 「本人確認の登録を解除」 did. */
  private unenrolNote: string | null = null;
  /** How many rows were shown at the last update. */
  private lastRowCount = 0;

  /** `host` renders again when the fingerprint or the note changes. */
  constructor(private readonly host: ReactiveControllerHost, private readonly source: RecordSource) {
    host.addController(this);
  }

  /** The first verified approval enrolled a key: show its fingerprint in the open panel (UV-5). */
  hostUpdated(): void {
    const { open, rows } = this.source.shown();
    if (open && rows.length > this.lastRowCount && this.fingerprint === null && rows.some((e) => e.receipt)) void this.readKey();
    this.lastRowCount = rows.length;
  }

  render(text: AiOpsStrings) {
    return html`
      <button type="button" part="export-button" @click=${this.save}>${text.logExport}</button>
      ${this.fingerprint === null ? nothing : html`
        <span class="key" part="verification-key">${fillString(text.logVerificationKey, { fingerprint: this.fingerprint }).join('')}</span>
        <button type="button" part="unenrol-button" @click=${this.unenrol}>${text.logUnenrol}</button>`}
      ${this.unenrolNote === null ? nothing : html`<span class="note" role="status">${this.unenrolNote}</span>`}
    `;
  }

  /** The enrolled key's fingerprint, shown so the user can compare it with the key they hold (UV-5). */
  async readKey(): Promise<void> {
    const verification = await this.source.verification();
    this.fingerprint = (await verification?.fingerprint().catch(() => null)) ?? null;
    this.host.requestUpdate();
  }

  /**
   * AUDIT-1: on the user's click only, the page's rows as JSON Lines, downloaded as a file (a Blob
   * behind an object URL, revoked once the download has it). Nothing is written before that click.
   */
  private readonly save = async (event: MouseEvent): Promise<void> => {
    if (!event.isTrusted) return;
    const { source } = this;
    // UV-5: each receipt goes with the enrolled key's public part (an auditor still checks against their own copy).
    const key = (await (await source.verification())?.publicKey()) ?? null;
    const blob = new Blob([auditRecord(source.entries(), key)], { type: 'application/x-ndjson' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = auditFileName(source.clock().now());
    link.hidden = true;
    source.root().appendChild(link);
    link.click();
    link.remove();
    // The download took its bytes when it started: a task later the URL can go.
    source.clock().setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  /** UV-2: removing the enrolment is itself verified (the verifier asks first); a script's click does nothing. */
  private readonly unenrol = async (event: MouseEvent): Promise<void> => {
    if (!event.isTrusted) return;
    this.unenrolNote = null;
    const text = this.source.text();
    try {
      await (await this.source.verification())?.unenrol();
      this.unenrolNote = text.logUnenrolled;
    } catch (error) {
      this.unenrolNote = fillString(text.logUnenrolFailed, { reason: describeError(error) }).join('');
    }
    await this.readKey();
  };
}
