// The document pages' shared state (playground/shared/document-state.ts, documents.ts) in real
// Chromium with real IndexedDB: each test uses a database of its own.
import { expect } from '@open-wc/testing';
import { createDocumentState } from '../../playground/shared/document-state.js';
import { openDocumentStore, type SavedDocument } from '../../playground/shared/documents.js';

let n = 0;
const freshDatabase = () => `ai-ops-test-documents-${Date.now()}-${++n}`;

function pageState(storeName = freshDatabase()) {
  return createDocumentState({
    storeName,
    field: 'text',
    idPrefix: 'doc',
    welcome: { name: 'ようこそ', text: 'welcome text' },
    blank: (name) => `# ${name}`,
  });
}

/** A record as the old pages wrote it: database `name`, object store `documents`, keyed by id. */
function writeOldRecord(name: string, record: SavedDocument & { text: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => open.result.createObjectStore('documents', { keyPath: 'id' });
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction('documents', 'readwrite');
      tx.objectStore('documents').put(record);
      tx.oncomplete = () => {
        open.result.close();
        resolve();
      };
      tx.onerror = () => reject(tx.error);
    };
  });
}

describe('playground: the document pages\' state', () => {
  it('[APP-5] documents saved by the old pages (database per page, store "documents") open through the one IndexedDB helper, listed newest first', async () => {
    const name = freshDatabase();
    await writeOldRecord(name, { id: 'old', name: '前からある', text: 'saved before', updatedAt: 1000 });
    await writeOldRecord(name, { id: 'newer', name: '新しめ', text: 'saved later', updatedAt: 2000 });
    const store = openDocumentStore<SavedDocument & { text: string }>(name);
    expect((await store.get('old'))?.text).to.equal('saved before');
    expect(await store.list()).to.deep.equal([
      { id: 'newer', name: '新しめ', updatedAt: 2000 },
      { id: 'old', name: '前からある', updatedAt: 1000 },
    ]);
    expect(store.persistent).to.equal(true);

    const state = pageState(name);
    await state.open('old');
    expect(state.openDocument()).to.deep.equal({ id: 'old', name: '前からある' });
    expect(state.getState().document?.text).to.equal('saved before');
  });

  it('[DOC-1] opening another document first saves the typing of the one open before (typing waits otherwise)', async () => {
    const name = freshDatabase();
    const state = pageState(name);
    await state.open('first');
    await state.setText('typed, not saved yet', 'typing');
    await state.open('second');
    expect(state.openDocument()).to.deep.equal({ id: 'second', name: 'second' });
    const saved = await openDocumentStore<SavedDocument & { text: string }>(name).get('first');
    expect(saved?.text).to.equal('typed, not saved yet');
  });

  it('[DOC-1] the last document asked for is the one open, however the reads finish; an id outside [A-Za-z0-9_-] opens welcome', async () => {
    const state = pageState();
    await state.open('existing');
    await state.open('welcome');
    // A new document takes a read and a write, an existing one a read only: the second finishes first.
    await Promise.all([state.open('brand-new'), state.open('existing')]);
    expect(state.openDocument()?.id).to.equal('existing');
    // Asked twice at once (StrictMode's second effect): one opening, one outcome.
    const twice = [state.open('twice'), state.open('twice')];
    expect(twice[0]).to.equal(twice[1]);
    await Promise.all(twice);
    expect(state.openDocument()?.id).to.equal('twice');
    await state.open('../etc');
    expect(state.openDocument()).to.deep.equal({ id: 'welcome', name: 'ようこそ' });
    expect(state.getState().document?.text).to.equal('welcome text');
  });

  it('[SHAPE-6] getState() is a new snapshot after each change and the same object otherwise (useSyncExternalStore)', async () => {
    const state = pageState();
    const changes: string[] = [];
    const stop = state.subscribe((change) => changes.push(`${change.source}:${change.kind}`));
    await state.open('snap');
    const opened = state.getState();
    expect(state.getState()).to.equal(opened);
    await state.setText('agent text', 'agent');
    const written = state.getState();
    expect(written).not.to.equal(opened);
    expect(written.document?.text).to.equal('agent text');
    expect(opened.document?.text).to.equal('# snap', 'an earlier snapshot is not changed afterwards');
    expect(written.canUndo).to.equal(true);
    await state.rename('  名前  ');
    expect(state.getState().document?.name).to.equal('名前');
    stop();
    await state.setText('after unsubscribe', 'agent');
    expect(changes).to.deep.equal(['load:document', 'agent:text', 'user:document']);
  });
});
