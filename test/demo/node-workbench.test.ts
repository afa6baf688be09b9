// The node page's open file and shown process (playground/node/workbench.ts) over a fake runtime:
// an agent's write shows in the open editor unless the person has unsaved changes (then a note
// says so and their text stays); a removal closes a clean editor; a new process is shown at once.
import { expect, waitUntil } from '@open-wc/testing';
import { createStore } from 'ai-ops';
import type { NodeRuntime, ProcessSummary } from '../../playground/node/engine/node-runtime.js';
import { currentRuntime, runtimeState } from '../../playground/node/state.js';
import { editorNote, editText, isDirty, openFile, saveOpenFile, shownProcess, startWorkbench } from '../../playground/node/workbench.js';

const until = (check: () => boolean, what: string, ms = 2000): Promise<void> =>
  waitUntil(check, `timed out waiting for ${what}`, { interval: 5, timeout: ms });

/** A runtime with files in a map and a process list store: what the workbench reads of it. */
function fakeRuntime(files: Map<string, string>) {
  const tree = Object.assign(createStore([...files.keys()].map((path) => ({ path, kind: 'file' as const, excluded: false }))), {
    refresh: async () => {},
    truncated: false,
  });
  const list = createStore<readonly ProcessSummary[]>([]);
  const runtime = {
    files: {
      tree,
      read: async (path: string) => (files.has(path) ? { ok: true, contents: files.get(path)! } : { ok: false, code: 'not_found', message: 'missing' }),
      write: async (path: string, contents: string) => (files.set(path, contents), { ok: true }),
      remove: async (path: string) => (files.delete(path), { ok: true }),
    },
    processes: { list, get: () => undefined },
    excludes: { patterns: [], maxFileBytes: 1 << 20, textOnly: true },
  };
  return { runtime: runtime as unknown as NodeRuntime, list };
}

describe('node workbench', () => {
  const files = new Map([['index.js', 'console.log(1);\n']]);
  const { runtime, list } = fakeRuntime(files);

  before(async () => {
    runtimeState.setState({ status: 'ready', runtime, error: null, generation: 1 });
    startWorkbench();
    await until(() => openFile.getState().path === 'index.js', 'index.js to open');
  });

  it('[NODE-6] an agent\'s write to the open, unchanged file shows in the editor and is what is saved', async () => {
    await currentRuntime()!.files.write('index.js', 'console.log("agent");\n');
    expect(openFile.getState()).to.include({ text: 'console.log("agent");\n', saved: 'console.log("agent");\n' });
    expect(isDirty()).to.equal(false);
    expect(editorNote(openFile.getState())).to.equal('');
  });

  it('[NODE-6] with unsaved changes the person\'s text stays and a note says the agent rewrote the file; 保存 overwrites it', async () => {
    editText('console.log("person");\n');
    expect(editorNote(openFile.getState())).to.equal('保存していない変更があります');
    await currentRuntime()!.files.write('index.js', 'console.log("agent again");\n');
    expect(openFile.getState().text).to.equal('console.log("person");\n');
    expect(editorNote(openFile.getState())).to.match(/AI のエージェントがこのファイルを書き換えました/);
    await saveOpenFile();
    expect(files.get('index.js')).to.equal('console.log("person");\n');
    expect(editorNote(openFile.getState())).to.equal('');
  });

  it('[NODE-6] an agent\'s removal of the open, unchanged file closes the editor and says so', async () => {
    await currentRuntime()!.files.remove('index.js');
    expect(openFile.getState().path).to.equal(null);
    expect(editorNote(openFile.getState())).to.equal('「index.js」は削除されました');
  });

  it('[NODE-3] a new process, the person\'s or an agent\'s, is shown in the terminal at once', () => {
    list.setState([{ id: 'p1', name: 'ai: node', command: 'node', args: [], status: 'running', exitCode: null }]);
    expect(shownProcess.getState().id).to.equal('p1');
    list.setState([...list.getState(), { id: 'p2', name: 'node index.js', command: 'node', args: ['index.js'], status: 'running', exitCode: null }]);
    expect(shownProcess.getState().id).to.equal('p2');
  });
});
