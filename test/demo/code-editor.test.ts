// The playground's one CodeMirror editor (playground/shared/code-editor.tsx) in React 19, with
// real keyboard input (sendKeys): an outside write is one undo step that never joins typing, the
// modes load by language, the textbox is named and passes axe.
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import * as React from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import type { EditorView } from '@codemirror/view';
import { applyAgentWrite, CodeEditor, languageOfPath, type CodeEditorProps } from '../../playground/shared/code-editor.js';

/** Ctrl plus `key`, pressed on the real keyboard. */
const ctrl = async (key: string) => {
  await sendKeys({ down: 'Control' });
  await sendKeys({ press: key });
  await sendKeys({ up: 'Control' });
};

const until = (check: () => boolean, what: string, ms = 5000): Promise<void> =>
  waitUntil(check, `timed out waiting for ${what}`, { interval: 20, timeout: ms });

describe('CodeEditor', () => {
  let container: HTMLElement;
  let root: Root;
  let view: EditorView | null;
  let changes: string[];

  const render = (props: Partial<CodeEditorProps> & { value: string }) =>
    flushSync(() =>
      root.render(
        React.createElement(CodeEditor, {
          label: 'main.go',
          language: 'go',
          onChange: (text: string) => changes.push(text),
          editorRef: (v: EditorView | null) => {
            view = v;
          },
          ...props,
        }),
      ),
    );
  const content = () => container.querySelector<HTMLElement>('.cm-content')!;
  const text = () => view!.state.doc.toString();

  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    view = null;
    changes = [];
  });

  afterEach(() => {
    root.unmount();
    container.remove();
  });

  it('[APP-4] an outside value is one undo step that does not join the typing just before it', async () => {
    render({ value: 'package main\n' });
    content().focus();
    view!.dispatch({ selection: { anchor: text().length } });
    // One key: typing is one undo step only while its keys come within CodeMirror's 500 ms of each
    // other, which a busy machine does not promise (a run split 'func a() {}' in two). The step
    // under test is the outside value's, right after it.
    await sendKeys({ type: 'x' });
    const typed = text();
    expect(typed).to.equal('package main\nx');
    // The store changed under the editor (an agent's write), within CodeMirror's 500 ms grouping.
    render({ value: 'package main\n\nfunc agent() {}\n' });
    expect(text()).to.equal('package main\n\nfunc agent() {}\n');
    await ctrl('z');
    expect(text()).to.equal(typed);
    await ctrl('z');
    expect(text()).to.equal('package main\n');
    // Every change reached the store, the undo steps included.
    expect(changes.at(-1)).to.equal('package main\n');
    expect(changes).to.include('package main\n\nfunc agent() {}\n');
  });

  it('[APP-4] applyAgentWrite replaces only what changed, as one step; the same text is no step', () => {
    render({ value: 'alpha\nbeta\ngamma\n' });
    expect(applyAgentWrite(view!, 'alpha\nBETA\ngamma\n')).to.equal(true);
    expect(applyAgentWrite(view!, 'alpha\nBETA\ngamma\n')).to.equal(false);
    expect(text()).to.equal('alpha\nBETA\ngamma\n');
  });

  it('[APP-4] a new documentKey starts a fresh history: Ctrl+Z does not bring back the other file', async () => {
    render({ value: 'one\n', documentKey: 'a.go' });
    render({ value: 'two\n', documentKey: 'b.go' });
    content().focus();
    await ctrl('z');
    expect(text()).to.equal('two\n');
  });

  it('[APP-4] the modes load by language: Go, TypeScript, JSON, SQL and Markdown text get token spans', async () => {
    for (const [language, value, token] of [
      ['go', 'package main\n', 'package'],
      ['typescript', 'const x: number = 1;\n', 'const'],
      ['json', '{"k": true}\n', 'true'],
      ['sql', 'select 1;\n', 'select'],
      ['markdown', '# Title\n', '#'],
    ] as const) {
      render({ value, language, documentKey: language });
      await until(() => [...content().querySelectorAll('.cm-line span')].some((s) => s.textContent === token), `${language} highlighting`);
      expect(container.querySelector('.code-editor')!.getAttribute('data-language')).to.equal(language);
    }
    expect(languageOfPath('src/a.ts')).to.equal('typescript');
    expect(languageOfPath('package.json')).to.equal('json');
    expect(languageOfPath('index.mjs')).to.equal('javascript');
    expect(languageOfPath('go.mod')).to.equal(undefined);
  });

  it('[APP-4] the textbox is named, says when it is disabled, and passes axe', async () => {
    render({ value: 'x\n', label: 'SQL', language: 'sql', disabled: true });
    expect(content().getAttribute('role')).to.equal('textbox');
    expect(content().getAttribute('aria-label')).to.equal('SQL');
    expect(content().getAttribute('aria-disabled')).to.equal('true');
    expect(content().getAttribute('contenteditable')).to.equal('false');
    render({ value: 'x\n', label: 'SQL', language: 'sql', disabled: false });
    expect(content().hasAttribute('aria-disabled')).to.equal(false);
    await expect(container).to.be.accessible();
  });

  it('[APP-4] its own keys run before the editor\'s (Mod-Enter does not insert a line)', async () => {
    let runs = 0;
    render({ value: 'select 1;', keys: [{ key: 'Mod-Enter', run: () => (runs++, true) }] });
    content().focus();
    await ctrl('Enter');
    expect(runs).to.equal(1);
    expect(text()).to.equal('select 1;');
  });

  it('[APP-4] unmounting destroys the view (StrictMode\'s second mount starts clean)', () => {
    flushSync(() => root.render(React.createElement(React.StrictMode, null, React.createElement(CodeEditor, { label: 'x', value: 'y' }))));
    expect(container.querySelectorAll('.cm-editor').length).to.equal(1);
    flushSync(() => root.render(React.createElement('p')));
    expect(container.querySelectorAll('.cm-editor').length).to.equal(0);
  });
});
