// The undo steps of go_write_file and go_delete_file (UNDO-1, UNDO-2, UNDO-5): a change, its step's
// undo(), the file read back byte-identical; the project it was made in, even after a switch.
import { expect } from '@open-wc/testing';
import { createGoOperations } from '../../tools/go/operations.js';
import type { GoFilesModule, GoToolAdapter } from '../../tools/go/adapter.js';
import { FakeGoPage } from '../helpers/tools-fakes.js';
import { stepOf, undoCaller } from '../helpers/undo-call.js';

const FILES = { 'main.go': 'package main\n\nfunc main() { println("日本語 \u{1F600}") }\r\n', 'lib/lib.go': 'package lib\n' };

function setup() {
  const page = new FakeGoPage(FILES, ['assets']);
  return { page, call: undoCaller(createGoOperations(page)) };
}

describe('tools/go undo', () => {
  it('[UNDO-1] go_write_file over a file: undo puts back its previous text byte for byte; the agent never sees the step', async () => {
    const { page, call } = setup();
    const { result, json, undo } = await call('go_write_file', { path: 'main.go', contents: 'package main\n' });
    expect(result).to.deep.equal({ ok: true, path: 'main.go' });
    expect(json).to.not.include('undo');
    const step = stepOf(undo);
    expect(step.targets).to.deep.equal(['go:file:main.go']);
    expect(step.bytes).to.be.at.least(FILES['main.go'].length);
    await step.undo();
    expect(page.fileMap.get('main.go')).to.equal(FILES['main.go']);
    expect((await call('go_read_file', { path: 'main.go' })).result.contents).to.equal(FILES['main.go']);
  });

  it('[UNDO-1] go_write_file that created a file: undo removes it again (the file stays absent)', async () => {
    const { page, call } = setup();
    const step = stepOf((await call('go_write_file', { path: 'cmd/x.go', contents: 'package main' })).undo);
    expect(step.targets).to.deep.equal(['go:file:cmd/x.go']);
    await step.undo();
    expect(page.fileMap.has('cmd/x.go')).to.equal(false);
    expect((await call('go_read_file', { path: 'cmd/x.go' })).result.error?.code).to.equal('not_found');
  });

  it('[UNDO-1] undo of a write that created directories removes them again while empty; the empty directories there before stay', async () => {
    const { page, call } = setup();
    page.files.removeDirectory = async (path) => {
      for (const dir of [...page.dirs]) if (dir === path || dir.startsWith(`${path}/`)) page.dirs.delete(dir);
    };
    await stepOf((await call('go_write_file', { path: 'cmd/tool/main.go', contents: 'package main' })).undo).undo();
    await stepOf((await call('go_write_file', { path: 'assets/x.go', contents: 'package assets' })).undo).undo();
    const listed = (await call('go_list_files')).result.entries.map((e: { path: string }) => e.path).sort();
    expect(listed).to.deep.equal(['assets', 'lib', 'lib/lib.go', 'main.go']);
  });

  it('[UNDO-1] reads, failures, declined calls, runs and a write of the same text hand no step', async () => {
    const { page, call } = setup();
    for (const [name, input] of [
      ['go_list_files', {}],
      ['go_read_file', { path: 'main.go' }],
      ['go_write_file', { path: 'assets', contents: 'x' }],
      ['go_write_file', { path: 'main.go', contents: FILES['main.go'] }],
      ['go_delete_file', { path: 'nothing.go' }],
      ['go_run', {}],
      ['go_test', {}],
    ] as const) {
      expect((await call(name, input)).undo, `${name} ${JSON.stringify(input)}`).to.equal(null);
    }
    const declined = await call('go_delete_file', { path: 'main.go' }, 'decline');
    expect(declined.undo).to.equal(null);
    expect(page.fileMap.get('main.go')).to.equal(FILES['main.go']);
  });

  it('[UNDO-1] [UNDO-5] go_delete_file: its dialog says 「元に戻す」 restores it, and undo writes the file back byte-identical', async () => {
    const { page, call } = setup();
    const { result, undo, confirmations } = await call('go_delete_file', { path: 'main.go' });
    expect(confirmations[0]).to.deep.include({ title: 'ファイル「main.go」を削除する', actionLabel: '削除する', undoable: true });
    expect(result).to.deep.equal({ ok: true, path: 'main.go' });
    expect(page.fileMap.has('main.go')).to.equal(false);
    await stepOf(undo).undo();
    expect(page.fileMap.get('main.go')).to.equal(FILES['main.go']);
  });

  it('[UNDO-2] changedSince tells the user\'s own edit (typed in the editor) from a later logged change', async () => {
    const { page, call } = setup();
    const first = stepOf((await call('go_write_file', { path: 'lib/lib.go', contents: 'package lib // 1\n' })).undo);
    const second = stepOf((await call('go_write_file', { path: 'lib/lib.go', contents: 'package lib // 2\n' })).undo);
    expect(await first.changedSince!()).to.equal(false);
    // Same length, one character differs: still told.
    page.fileMap.set('lib/lib.go', 'package lib // 3\n');
    expect(await first.changedSince!()).to.equal(true);
    expect(await second.changedSince!()).to.equal(true);
    await second.undo();
    expect(await first.changedSince!()).to.equal(false);
    await first.undo();
    expect(page.fileMap.get('lib/lib.go')).to.equal(FILES['lib/lib.go']);
  });

  it('[UNDO-1] an undo goes back to the project the change was made in, after the user switched to another', async () => {
    const projects = { a: new FakeGoPage(FILES), b: new FakeGoPage({ 'main.go': 'package b\n' }) };
    let shown = projects.a;
    const files: GoFilesModule = {
      isLoaded: () => shown.files.isLoaded(),
      list: () => shown.files.list(),
      read: (path) => shown.files.read(path),
      write: (path, contents) => shown.files.write(path, contents),
      remove: (path) => shown.files.remove(path),
      pin: () => shown.files,
    };
    const adapter: GoToolAdapter = { files, getRunnerState: () => 'idle', run: async () => ({ kind: 'busy' }) };
    const call = undoCaller(createGoOperations(adapter));
    const step = stepOf((await call('go_write_file', { path: 'main.go', contents: 'package changed\n' })).undo);
    shown = projects.b;
    await step.undo();
    expect(projects.a.fileMap.get('main.go')).to.equal(FILES['main.go']);
    expect(projects.b.fileMap.get('main.go')).to.equal('package b\n');
  });
});
