// Reading and typing into the playground's CodeMirror editors (playground/shared/code-editor.tsx)
// and reading its xterm terminal (playground/shared/terminal.tsx) the way a person sees them.

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

/**
 * The text an xterm terminal (playground/shared/terminal.tsx) shows on screen: its rows with the
 * trailing blanks cut, the empty rows at the end left out, each line ended by `\n` as a process
 * wrote it.
 * @param {import('playwright-core').Locator} terminal the terminal's region
 */
export function terminalText(terminal) {
  return terminal.evaluate((region) => {
    const rows = [...region.querySelectorAll('.xterm-rows > div')].map((row) => row.textContent.replace(/[\s\u00a0]+$/, ''));
    while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
    return rows.map((row) => `${row}\n`).join('');
  });
}

