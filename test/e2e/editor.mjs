// Reading and typing into the playground's CodeMirror editors (playground/shared/code-editor.tsx)
// the way a person does: the editor is found by its accessible name (the textbox's aria-label).

/**
 * The text an editor shows: its lines, joined by newlines (the documents of these tests are
 * short, so every line is rendered).
 * @param {import('playwright-core').Locator} editor the `.cm-content` textbox
 */
export function editorText(editor) {
  return editor.evaluate((content) => [...content.querySelectorAll('.cm-line')].map((line) => line.textContent).join('\n'));
}

/** True while the editor takes no input (the page is still loading its text). */
export function editorIsDisabled(editor) {
  return editor.evaluate((content) => content.getAttribute('contenteditable') !== 'true' && content.getAttribute('aria-disabled') === 'true');
}

/**
 * The classes CodeMirror's syntax highlighting gave the text `word` (empty when the mode is not
 * loaded: plain text has no token spans).
 */
export function tokenClasses(editor, word) {
  return editor.evaluate((content, w) => {
    const span = [...content.querySelectorAll('.cm-line span')].find((s) => s.textContent === w);
    return span ? span.className : '';
  }, word);
}
