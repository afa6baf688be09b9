/**
 * The playground's one code editor: CodeMirror 6 in a thin React shell (APP-4). The view is
 * uncontrolled — created by one effect, destroyed by its cleanup — and the page's store keeps the
 * text: typing calls `onChange`, and a `value` that differs from the editor's text (an agent's
 * write reaching the store) is applied with {@link applyAgentWrite}, one step of the undo history
 * that never merges with the user's typing. A new `documentKey` (another file opened) starts a
 * fresh editor state with its own history.
 *
 * Language support is loaded on demand, one chunk per language, so a page loads only the mode it
 * shows.
 * @module
 */
import { useEffect, useRef, type Ref } from 'react';
import { setRef } from './set-ref.js';
import { Compartment, EditorState, Prec, type Extension } from '@codemirror/state';
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection, type KeyBinding,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, isolateHistory } from '@codemirror/commands';
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';

/** The modes the playground's editors use. */
export type CodeLanguage = 'sql' | 'go' | 'javascript' | 'typescript' | 'json' | 'markdown' | 'xml';

/** The `userEvent` of a write that did not come from the keyboard (an agent's, or another tab's). */
export const AGENT_WRITE_EVENT = 'input.agent';

const LANGUAGES: Record<CodeLanguage, () => Promise<Extension>> = {
  sql: () => import('@codemirror/lang-sql').then((m) => m.sql({ dialect: m.PostgreSQL })),
  go: () => import('@codemirror/lang-go').then((m) => m.go()),
  javascript: () => import('@codemirror/lang-javascript').then((m) => m.javascript()),
  typescript: () => import('@codemirror/lang-javascript').then((m) => m.javascript({ typescript: true })),
  json: () => import('@codemirror/lang-json').then((m) => m.json()),
  markdown: () => import('@codemirror/lang-markdown').then((m) => m.markdown()),
  xml: () => import('@codemirror/lang-xml').then((m) => m.xml()),
};

/** Language support already loaded, so a new document of a known mode is highlighted at once. */
const loadedLanguages = new Map<CodeLanguage, Extension>();

async function languageSupport(language: CodeLanguage | undefined): Promise<Extension> {
  if (!language) return [];
  const known = loadedLanguages.get(language);
  if (known) return known;
  const extension = await LANGUAGES[language]();
  loadedLanguages.set(language, extension);
  return extension;
}

/** The mode for a file name by its extension (`.ts` → typescript), or undefined for plain text. */
export function languageOfPath(path: string): CodeLanguage | undefined {
  const ext = /\.([a-z]+)$/i.exec(path)?.[1]?.toLowerCase();
  switch (ext) {
    case 'js': case 'mjs': case 'cjs': case 'jsx':
      return 'javascript';
    case 'ts': case 'mts': case 'cts': case 'tsx':
      return 'typescript';
    case 'json':
      return 'json';
    case 'md': case 'markdown':
      return 'markdown';
    case 'go':
      return 'go';
    case 'sql':
      return 'sql';
    case 'xml': case 'drawio':
      return 'xml';
    default:
      return undefined;
  }
}

/**
 * Replaces the editor's text with `text` as ONE transaction: one step of the undo history
 * (`isolateHistory`), marked {@link AGENT_WRITE_EVENT} so it never joins the user's typing; one
 * Ctrl+Z brings back exactly the text before it. Only the changed middle is replaced, so the
 * user's cursor outside it stays where it was. Returns false when the text was already `text`.
 * @example applyAgentWrite(view, 'select 1;');
 */
export function applyAgentWrite(view: EditorView, text: string): boolean {
  const current = view.state.doc.toString();
  if (current === text) return false;
  let from = 0;
  const max = Math.min(current.length, text.length);
  while (from < max && current.charCodeAt(from) === text.charCodeAt(from)) from++;
  let end = 0;
  while (end < max - from && current.charCodeAt(current.length - 1 - end) === text.charCodeAt(text.length - 1 - end)) end++;
  view.dispatch({
    changes: { from, to: current.length - end, insert: text.slice(from, text.length - end) },
    userEvent: AGENT_WRITE_EVENT,
    annotations: isolateHistory.of('full'),
    scrollIntoView: false,
  });
  return true;
}

/** Props of {@link CodeEditor}. */
export interface CodeEditorProps {
  /** The mode; undefined for plain text. */
  language?: CodeLanguage;
  /** The text the page's store holds. A different value than the editor's is applied as an agent's write. */
  value: string;
  /** The user changed the text (also called after an applied write, with the same text the store has). */
  onChange?(text: string): void;
  /** The editor's accessible name (the textbox's aria-label). */
  label: string;
  /** Ids of elements describing the editor (aria-describedby). */
  describedBy?: string;
  /** Not editable (e.g. while the saved text loads); the textbox says aria-disabled. */
  disabled?: boolean;
  /** The text is not accepted as it is (the page shows why, e.g. in `describedBy`); the textbox says aria-invalid. */
  invalid?: boolean;
  /** Identifies the open document: a new key starts a fresh state (text and undo history). */
  documentKey?: string;
  /** Extra keys, taking precedence over the editor's own (e.g. Mod-Enter runs). */
  keys?: readonly KeyBinding[];
  /** Receives the view while mounted (null after). */
  editorRef?: Ref<EditorView | null>;
  className?: string;
}

/**
 * CodeMirror's default token colours, with the ones under 4.5:1 on a white or active-line
 * background darkened (template strings, regexps and escapes; type names), so axe's contrast
 * check passes.
 */
const highlightStyle = HighlightStyle.define([
  { tag: tags.meta, color: '#404740' },
  { tag: tags.link, textDecoration: 'underline' },
  { tag: tags.heading, textDecoration: 'underline', fontWeight: 'bold' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strong, fontWeight: 'bold' },
  { tag: tags.strikethrough, textDecoration: 'line-through' },
  { tag: tags.keyword, color: '#770088' },
  { tag: [tags.atom, tags.bool, tags.url, tags.contentSeparator, tags.labelName], color: '#221199' },
  { tag: [tags.literal, tags.inserted], color: '#116644' },
  { tag: [tags.string, tags.deleted], color: '#aa1111' },
  { tag: [tags.regexp, tags.escape, tags.special(tags.string)], color: '#a33000' },
  { tag: tags.definition(tags.variableName), color: '#0000dd' },
  { tag: tags.local(tags.variableName), color: '#3300aa' },
  { tag: [tags.typeName, tags.namespace], color: '#006644' },
  { tag: tags.className, color: '#116677' },
  { tag: [tags.special(tags.variableName), tags.macroName], color: '#225566' },
  { tag: tags.definition(tags.propertyName), color: '#0000cc' },
  { tag: tags.comment, color: '#8a3d00' },
  { tag: tags.invalid, color: '#c00000' },
]);

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '13px', backgroundColor: '#fff' },
  '.cm-scroller': { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace', lineHeight: '1.45' },
  '&.cm-focused': { outline: '2px solid var(--page-accent, #0b57d0)', outlineOffset: '-2px' },
  '.cm-gutters': { backgroundColor: '#f6f8fa', color: '#59636e', borderRight: '1px solid #d0d7de' },
});

/**
 * A CodeMirror 6 editor.
 * @example
 * <CodeEditor language="sql" label="SQL" value={state.sql} onChange={(sql) => page.setSql(sql)}
 *   keys={[{ key: 'Mod-Enter', run: () => (void page.runEditor(), true) }]} />
 */
export function CodeEditor(props: CodeEditorProps) {
  const { language, value, label, describedBy, disabled = false, invalid = false, documentKey, editorRef, className } = props;
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The latest props, read by the view's callbacks (which are created once).
  const latest = useRef(props);
  latest.current = props;
  const compartments = useRef({ language: new Compartment(), access: new Compartment(), attributes: new Compartment() });

  const attributes = (): Extension => {
    const attrs: Record<string, string> = { 'aria-label': latest.current.label, spellcheck: 'false', autocapitalize: 'off', autocorrect: 'off' };
    if (latest.current.describedBy) attrs['aria-describedby'] = latest.current.describedBy;
    // The textbox is the editor's one tab stop; saying so lets checkers see the scroller's content is reachable.
    if (latest.current.disabled) attrs['aria-disabled'] = 'true';
    else attrs.tabindex = '0';
    if (latest.current.invalid) attrs['aria-invalid'] = 'true';
    return EditorView.contentAttributes.of(attrs);
  };
  const access = (): Extension => [EditorState.readOnly.of(!!latest.current.disabled), EditorView.editable.of(!latest.current.disabled)];

  const makeState = (text: string): EditorState => {
    const c = compartments.current;
    return EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        drawSelection(),
        history(),
        indentOnInput(),
        bracketMatching(),
        syntaxHighlighting(highlightStyle),
        Prec.highest(keymap.of([{ any: (_view, event) => runExtraKey(event) }])),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        theme,
        c.language.of((latest.current.language && loadedLanguages.get(latest.current.language)) || []),
        c.access.of(access()),
        c.attributes.of(attributes()),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) latest.current.onChange?.(update.state.doc.toString());
        }),
      ],
    });
  };

  /** The page's extra keys, matched against the latest props on each key press, so new handlers apply at once. */
  const runExtraKey = (event: KeyboardEvent): boolean => {
    const keys = latest.current.keys;
    const current = view.current;
    if (!keys?.length || !current) return false;
    const mod = event.ctrlKey || event.metaKey;
    for (const binding of keys) {
      const parts = (binding.key ?? '').split('-');
      const key = parts.pop();
      const wantsMod = parts.includes('Mod') || parts.includes('Ctrl');
      const wantsShift = parts.includes('Shift');
      if (key === undefined || event.key.toLowerCase() !== key.toLowerCase()) continue;
      if (wantsMod !== mod || wantsShift !== event.shiftKey || event.altKey) continue;
      if (binding.run?.(current)) {
        event.preventDefault();
        return true;
      }
    }
    return false;
  };

  // The view: one per mount (StrictMode's second mount starts clean after destroy()).
  useEffect(() => {
    if (!host.current) return;
    const created = new EditorView({ state: makeState(latest.current.value), parent: host.current });
    view.current = created;
    setRef(latest.current.editorRef, created);
    return () => {
      setRef(latest.current.editorRef, null);
      view.current = null;
      created.destroy();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Another document: a fresh state, so undo never crosses files.
  const shownKey = useRef(documentKey);
  useEffect(() => {
    const current = view.current;
    if (!current || shownKey.current === documentKey) return;
    shownKey.current = documentKey;
    current.setState(makeState(latest.current.value));
    void loadLanguage(current, latest.current.language);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [documentKey]);

  // A value the editor does not show came from elsewhere (an agent): one undoable step.
  useEffect(() => {
    const current = view.current;
    if (current && current.state.doc.toString() !== value) applyAgentWrite(current, value);
  }, [value]);

  const loadLanguage = async (target: EditorView, wanted: CodeLanguage | undefined) => {
    let extension: Extension;
    try {
      extension = await languageSupport(wanted);
    } catch {
      // The mode's chunk could not be fetched (offline, a rebuild): the text stays plain and editable.
      return;
    }
    // Still the same view and still the wanted mode once the chunk arrived.
    if (view.current !== target || latest.current.language !== wanted) return;
    target.dispatch({ effects: compartments.current.language.reconfigure(extension) });
  };
  useEffect(() => {
    if (view.current) void loadLanguage(view.current, language);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language]);

  useEffect(() => {
    view.current?.dispatch({
      effects: [compartments.current.access.reconfigure(access()), compartments.current.attributes.reconfigure(attributes())],
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [label, describedBy, disabled, invalid]);

  useEffect(() => {
    setRef(editorRef, view.current);
  }, [editorRef]);

  return <div ref={host} className={['code-editor', className].filter(Boolean).join(' ')} data-language={language ?? 'text'} />;
}
