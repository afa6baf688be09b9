/**
 * What the slide editor page hands to {@link createSlidesOperations}: the open deck (DOC-1) and its
 * Markdown, theme and slide count. With Marp (`@marp-team/marp-core`) the theme list is the names
 * in `marp.themeSet` and the slide count is `marp.render(markdown).comments.length`. The log's
 * 「元に戻す」 of a change puts back the Markdown and the theme read just before it (UNDO-1).
 * @module
 */
import type { OpenDocument } from '../shared.js';

/** What the slides page passes to {@link createSlidesOperations}. Read on every call (DEF-6). */
export interface SlidesToolAdapter {
  /** The deck open in the page, or null while the editor loads or nothing is open (DOC-1). */
  getOpenDocument(): OpenDocument | null;
  /** The open deck's whole Markdown. */
  getMarkdown(): string;
  /** Replaces the open deck's whole Markdown, as an edit in the editor would. */
  setMarkdown(markdown: string): void | Promise<void>;
  /** The editor's theme names. Read once, when the definitions are created: they become an enum (IN-7). */
  getThemes(): readonly string[];
  /** The open deck's theme. */
  getTheme(): string;
  /** Sets the open deck's theme. */
  setTheme(theme: string): void | Promise<void>;
  /** How many slides the open deck's current Markdown makes. */
  getSlideCount(): number | Promise<number>;
  /**
   * The open deck's revision: a value that changes whenever its Markdown or theme changes, by anyone
   * (the user's typing, an agent, an undo). The log's 「元に戻す」 compares it with the one a call
   * left, to say that a later change goes too (UNDO-2). Omitted: only logged calls are known.
   */
  getRevision?(): number | string;
  /**
   * True when the editor's own 「元に戻す」 restores a change an agent made. The operations' dialog
   * says the change can be undone in any case: the log's 「元に戻す」 puts back the deck as it was
   * (UNDO-5), through `setMarkdown` and `setTheme`.
   */
  readonly undoRestoresAgentChanges?: boolean;
}
