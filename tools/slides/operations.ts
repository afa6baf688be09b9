/**
 * The three slides operations (SLI-1, DOC-1, DOC-2, IN-7); the two that change the deck hand the
 * log an undo step (UNDO-1).
 * @module
 */
import { defineOperation, type AnyOperationDefinition, type PrepareContext } from '../../src/definition.js';
import { succeed, type OperationResult } from '../../src/result.js';
import { createDocumentGuard, documentChange, emptyInputSchema, textBytes, textInputSchema, type OpenDocument } from '../shared.js';
import type { SlidesToolAdapter } from './adapter.js';

/** `slides_write`'s input (IN-3, IN-4). */
export const slidesWriteSchema = textInputSchema('markdown', 'スライドの Markdown の全文(UTF-8 で 1 MB まで)。');

/**
 * `slides_set_theme`'s input: `theme` is an enum of the editor's theme names, given at runtime, so no
 * theme name is written here (IN-7).
 */
function slidesSetThemeSchema(themes: readonly string[]) {
  // Typed without `enum` on purpose: the handler sees `theme: string`; the enum is for the validator and the agent.
  const theme: { readonly type: 'string'; readonly description: string } = Object.assign(
    { type: 'string' as const, description: 'テーマの名前。スライドのエディタが持つテーマの名前のどれか。' },
    { enum: [...themes] },
  );
  return { type: 'object', properties: { theme }, required: ['theme'], additionalProperties: false } as const;
}

/** The type of `slides_set_theme`'s input schema (its enum is filled at runtime). */
export type SlidesSetThemeSchema = ReturnType<typeof slidesSetThemeSchema>;

/**
 * Creates the slides operations; they act on the deck open in the page only (DOC-1).
 * Throws a TypeError when the editor has no theme, since `slides_set_theme` could then accept nothing.
 * @example
 * provideOperations('slides', createSlidesOperations(slidesAdapter));
 */
export function createSlidesOperations(adapter: SlidesToolAdapter): AnyOperationDefinition[] {
  const themes = [...adapter.getThemes()];
  if (themes.length === 0) throw new TypeError('createSlidesOperations: the editor has no theme, so slides_set_theme would accept nothing');
  const openDeck = createDocumentGuard(() => adapter.getOpenDocument(), 'slide deck');
  const prepare = async (_input: unknown, call: PrepareContext) => openDeck(call);

  /**
   * Runs `change` on the open deck and answers `result` with the undo step that puts back its
   * Markdown and theme as they were (UNDO-1), or alone when nothing changed (the same text, the
   * same theme).
   */
  const changeDeck = async (document: OpenDocument, change: () => unknown, result: () => Promise<OperationResult>) => {
    const markdown = adapter.getMarkdown();
    const theme = adapter.getTheme();
    await change();
    const changed = adapter.getMarkdown() !== markdown || adapter.getTheme() !== theme;
    return documentChange(await result(), changed, { tool: 'slides', document, adapter, ...deckNow(markdown, theme), save: () => deckNow() });
  };

  /** The deck's Markdown and theme (now, unless given), with how to put them back. */
  const deckNow = (markdown = adapter.getMarkdown(), theme = adapter.getTheme()) => ({
    bytes: textBytes(markdown, theme),
    // The theme may live in the Markdown (Marp's directive): set it only if the text did not bring it back.
    restore: async () => {
      await adapter.setMarkdown(markdown);
      if (adapter.getTheme() !== theme) await adapter.setTheme(theme);
    },
  });

  const read = defineOperation({
    name: 'slides_read',
    description: 'ページで開いているスライドの、Markdown の全文、テーマの名前、スライドの枚数と、スライドの識別子と名前(document)を返す。',
    inputSchema: emptyInputSchema,
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    prepare,
    execute: async (_input, { document }) =>
      succeed({ document, markdown: adapter.getMarkdown(), theme: adapter.getTheme(), slideCount: await adapter.getSlideCount() }),
  });

  const write = defineOperation({
    name: 'slides_write',
    description:
      'ページで開いているスライドの Markdown の全文を、渡した Markdown に置き換え、置き換えた後のスライドの枚数(slideCount)を返す。利用者が確認の画面で確定してから実行する。markdown は UTF-8 で 1 MB まで。',
    inputSchema: slidesWriteSchema,
    prepare,
    confirmation: (input, { document: { name } }) => ({
      title: `スライド「${name}」の全文を置き換える`,
      summary: `スライド「${name}」の Markdown の全文を、AI のエージェントが渡した Markdown(${input.markdown.length.toLocaleString('ja-JP')} 文字)に置き換えます。`,
      actionLabel: '置き換える',
      detail: input.markdown,
      // True: the log's 「元に戻す」 puts the deck back (UNDO-5).
      undoable: true,
    }),
    execute: async (input, { document }) =>
      changeDeck(document, () => adapter.setMarkdown(input.markdown), async () => succeed({ slideCount: await adapter.getSlideCount() })),
  });

  const setTheme = defineOperation({
    name: 'slides_set_theme',
    description: 'ページで開いているスライドのテーマを変え、変えた後のテーマの名前(theme)を返す。渡せる名前は、入力の theme の enum にある。',
    inputSchema: slidesSetThemeSchema(themes),
    prepare,
    execute: async (input, { document }) =>
      changeDeck(document, () => adapter.setTheme(input.theme), async () => succeed({ theme: adapter.getTheme() })),
  });

  return [read, write, setTheme];
}
