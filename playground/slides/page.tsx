/**
 * The slide editor page: the Markdown in the shared CodeMirror editor, a live Marp preview in a
 * shadow root (so Marp's CSS stays inside it), the theme select, 「元に戻す」, and the shared
 * document bar. The state and the operations live in ./state.ts; this module shows them and turns
 * a person's input into state changes. An agent's `slides_write` reaches the open editor as one
 * step of its undo history (APP-4): 「元に戻す」 and Ctrl+Z both undo it.
 * @module
 */
import { useEffect, useRef, useState } from 'react';
import { undo, undoDepth } from '@codemirror/commands';
import type { EditorView } from '@codemirror/view';
import { CodeEditor } from '../shared/code-editor.js';
import { DocumentPage, useOpenDocument } from '../shared/document-bar.js';
import { renderDeck, sanitizeFragment } from './marp.js';
import { bootSlides, setDeckTheme, slides, themes } from './state.js';

/** Layout of the preview around Marp's own CSS: one slide per row, scaled to the pane's width. */
const PREVIEW_CSS = `
  :host { display: block; }
  .marpit { display: flex; flex-direction: column; gap: 16px; }
  .marpit > svg[data-marpit-svg] { display: block; width: 100%; height: auto; background: #fff; box-shadow: 0 1px 4px rgb(0 0 0 / .25); }
`;

/**
 * The rendered deck. Marp's HTML is parsed in an inert `<template>`, sanitised (nothing fetched
 * from another origin, no script), then adopted into the shadow root; many changes between two
 * frames cost one render.
 */
function Preview({ markdown }: { markdown: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current!;
    const frame = requestAnimationFrame(() => {
      const rendered = renderDeck(markdown);
      const template = document.createElement('template');
      template.innerHTML = rendered.html;
      sanitizeFragment(template.content);
      const style = document.createElement('style');
      style.textContent = `${rendered.css}\n${PREVIEW_CSS}`;
      (element.shadowRoot ?? element.attachShadow({ mode: 'open' })).replaceChildren(style, template.content);
      element.dataset.slideCount = String(rendered.slideCount);
      element.dataset.theme = rendered.theme;
    });
    return () => cancelAnimationFrame(frame);
  }, [markdown]);
  return <div id="preview" ref={host} className="preview" role="region" aria-label="スライドのプレビュー" tabIndex={0} />;
}

/** The page at /slides/. */
export default function SlidesPage() {
  const view = useOpenDocument(slides, { boot: bootSlides, what: 'スライド' });
  const deck = view.shown;
  const editor = useRef<EditorView | null>(null);
  // 「元に戻す」 is the editor's own undo, so it and Ctrl+Z walk one history (the agent's writes in it).
  const [canUndo, setCanUndo] = useState(false);
  const rendered = deck ? renderDeck(deck.markdown) : null;
  const onChange = (markdown: string) => {
    setCanUndo(editor.current ? undoDepth(editor.current.state) > 0 : false);
    void slides.setText(markdown, 'typing');
  };
  useEffect(() => setCanUndo(false), [deck?.id]);

  const controls = (
    <>
      <label className="field">
        テーマ{' '}
        <select disabled={!deck} value={rendered?.theme ?? ''} onChange={(event) => void setDeckTheme(event.currentTarget.value, 'user')}>
          {themes.map((theme) => (
            <option key={theme} value={theme}>{theme}</option>
          ))}
        </select>
      </label>
      {/* FIRST-7: not 「元に戻す」, which the log's rows say: this steps back the editor's history (the
          last change, whoever made it), the log's undoes one chosen agent call after asking. */}
      <button type="button" className="tool-button" disabled={!canUndo} onClick={() => editor.current && undo(editor.current)}>
        直前の変更を取り消す
      </button>
    </>
  );
  const markdownEditor = deck ? (
    <CodeEditor key={deck.id} language="markdown" label="Markdown" describedBy="slide-count" value={deck.markdown} onChange={onChange} editorRef={editor} />
  ) : (
    <p className="loading" role="status">読み込み中…</p>
  );
  return (
    <DocumentPage
      tool="slides"
      title="スライド"
      what="スライド"
      view={view}
      documents={slides}
      controls={controls}
      editor={markdownEditor}
      count={{ id: 'slide-count', text: rendered ? `${rendered.slideCount} 枚` : '' }}
      preview={<Preview markdown={deck?.markdown ?? ''} />}
    />
  );
}
