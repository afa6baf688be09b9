// The document pages' shared bar (playground/shared/document-bar.tsx) in real Chromium, over a
// real document state and IndexedDB, driven by the keyboard like a person.
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import * as React from 'react';
import { flushSync } from 'react-dom';
import { DocumentBar } from '../../playground/shared/document-bar.js';
import { createDocumentState } from '../../playground/shared/document-state.js';
import { reactRootPerTest } from '../helpers/react-root.js';

let n = 0;
function documents() {
  return createDocumentState({
    storeName: `ai-ops-test-bar-${Date.now()}-${++n}`,
    field: 'text',
    idPrefix: 'doc',
    welcome: { name: 'ようこそ', text: 'welcome' },
    blank: (name) => `# ${name}`,
  });
}

const until = (check: () => boolean, what: string, ms = 3000): Promise<void> =>
  waitUntil(check, `timed out waiting for ${what}`, { interval: 10, timeout: ms });

describe('playground: the shared document bar', () => {
  const react = reactRootPerTest();
  const startUrl = location.href;

  afterEach(() => {
    history.replaceState(null, '', startUrl);
  });

  const render = (state: ReturnType<typeof documents>) =>
    flushSync(() => react.root.render(React.createElement(DocumentBar, { documents: state, label: 'スライドの操作', newName: '新しいスライド' })));
  const nameInput = () => react.container.querySelector<HTMLInputElement>('input[type="text"]')!;
  const openSelect = () => react.container.querySelector('select')!;

  it('[APP-5] a named toolbar of labelled controls (axe); the name is disabled until a document is open', async () => {
    const state = documents();
    render(state);
    expect(react.container.querySelector('[role="toolbar"]')?.getAttribute('aria-label')).to.equal('スライドの操作');
    expect(nameInput().disabled).to.equal(true);
    await state.open('welcome');
    await until(() => !nameInput().disabled && nameInput().value === 'ようこそ', 'the name');
    await expect(react.container).to.be.accessible();
  });

  it('[DOC-3] Enter renames the open document; Escape puts the name back without renaming', async () => {
    const state = documents();
    await state.open('welcome');
    render(state);
    nameInput().focus();
    nameInput().select();
    await sendKeys({ type: '週報' });
    await sendKeys({ press: 'Enter' });
    await until(() => state.openDocument()?.name === '週報', 'the rename');
    expect(document.activeElement).not.to.equal(nameInput());

    nameInput().focus();
    nameInput().select();
    await sendKeys({ type: '取り消す名前' });
    expect(nameInput().value).to.equal('取り消す名前');
    await sendKeys({ press: 'Escape' });
    await until(() => nameInput().value === '週報', 'the name back');
    // A rename happens when the name loses focus (the bar's commit, synchronously in the blur):
    // once Escape's blur has happened, a rename it made would be in the state already.
    await until(() => document.activeElement !== nameInput(), 'the blur after Escape');
    expect(state.openDocument()?.name).to.equal('週報');
  });

  it('[DOC-1] 「開く」 lists the saved documents (enabled from two on); choosing one and 「新しいスライド」 go to ?doc=<id> without loading a page', async () => {
    const state = documents();
    await state.open('welcome');
    render(state);
    await until(() => openSelect().options.length === 1, 'the one document listed');
    expect(openSelect().disabled).to.equal(true);
    const seen: string[] = [];
    const onPop = () => seen.push(location.search);
    addEventListener('popstate', onPop);
    try {
      react.container.querySelector('button')!.click();
      await until(() => seen.length === 1, 'the navigation to the new document');
      expect(seen[0]).to.match(/^\?doc=doc-[\w-]+$/);
      const id = seen[0].slice('?doc='.length);
      await state.open(id);
      await until(() => openSelect().options.length === 2 && !openSelect().disabled, 'both documents listed');
      expect(openSelect().value).to.equal(id);
      expect(Array.from(openSelect().options, (option) => option.text)).to.include.members(['新しいスライド', 'ようこそ']);
      openSelect().value = 'welcome';
      openSelect().dispatchEvent(new Event('change', { bubbles: true }));
      await until(() => seen.length === 2, 'the navigation to welcome');
      expect(seen[1]).to.equal('?doc=welcome');
    } finally {
      removeEventListener('popstate', onPop);
    }
  });
});
