// The undo steps of the node operations (UNDO-1, UNDO-2, UNDO-4, UNDO-5): a change, its step's
// undo(), the files read back byte-identical; reads, failures, declines and no-op calls hand none.
import { expect } from '@open-wc/testing';
import { contentsVersion } from '../../tools/files.js';
import { createNodeOperations } from '../../tools/node/operations.js';
import type { NodeRuntimeLike } from '../../tools/node/adapter.js';
import { FakeNodeRuntime, nodeAdapter } from '../helpers/tools-fakes.js';
import { stepOf, undoCaller, undoOutcome } from '../helpers/undo-call.js';

/** The fake runtime with the page's snapshot and versions (the runner's kept files, SHA-256 there; a hash here). */
function withSnapshot(rt: FakeNodeRuntime, { keeping = true } = {}): NodeRuntimeLike & { snapshots: boolean[] } {
  const snapshots: boolean[] = [];
  const version = (path: string) => {
    const text = rt.fileMap.get(path);
    return text === undefined || text.includes('\u0000') ? null : contentsVersion(text);
  };
  const kept = () => [...rt.fileMap].filter(([, text]) => !text.includes('\u0000')).sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    snapshots,
    excludes: rt.excludes,
    run: rt.run,
    files: {
      ...rt.files,
      snapshot: async ({ contents }) => {
        snapshots.push(contents);
        return { truncated: false, files: kept().map(([path, text]) => (contents ? { path, version: contentsVersion(text), contents: text } : { path, version: contentsVersion(text) })) };
      },
      removeEmptyDirectory: async (path) => {
        const under = (p: string) => p.startsWith(`${path}/`);
        if (rt.dirs.has(path) && ![...rt.fileMap.keys(), ...rt.dirs].some(under)) {
          rt.dirs.delete(path);
          rt.rebuildTree();
        }
        return { ok: true };
      },
      versions: async (paths) => paths.map(version),
      // The page's one round trip (the runner's write with `keep`).
      ...(keeping ? {
        writeKeeping: async (path: string, contents: string) => {
          const was = rt.fileMap.get(path);
          const written = await rt.files.write(path, contents);
          if (!written.ok) return written;
          const before = was === undefined ? { absent: true as const } : was.includes('\u0000') ? { unkept: true as const } : { contents: was };
          return { ok: true as const, before, version: version(path)! };
        },
      } : {}),
    },
  };
}

const FILES = { 'index.js': 'console.log(1)\n', 'src/a.js': 'héllo\r\n\u{1F600} a\n', 'src/b.js': '\uFEFFb\n' };

function setup(files: Record<string, string> = FILES, options: { keeping?: boolean } = {}) {
  const fake = new FakeNodeRuntime(files);
  const runtime = withSnapshot(fake, options);
  const adapter = nodeAdapter(runtime);
  return { fake, runtime, adapter, call: undoCaller(createNodeOperations(adapter)) };
}

describe('tools/node undo', () => {
  for (const [keeping, how] of [[true, 'the before-state answered by the write'], [false, 'read before the write']] as const) {
    it(`[UNDO-1] node_write_file over a file (${how}): undo puts back its previous text byte for byte; the agent never sees the step`, async () => {
      const { fake, call } = setup(FILES, { keeping });
      const { result, json, undo } = await call('node_write_file', { path: 'src/a.js', contents: 'new\n' });
      expect(result).to.deep.equal({ ok: true, path: 'src/a.js' });
      expect(json).to.not.include('undo');
      const step = stepOf(undo);
      expect(step.targets).to.deep.equal(['node:file:src/a.js']);
      expect(step.bytes).to.be.at.least(FILES['src/a.js'].length);
      expect(fake.fileMap.get('src/a.js')).to.equal('new\n');
      expect(undoOutcome(await step.undo()).envelope).to.deep.include({ ok: true });
      expect(fake.fileMap.get('src/a.js')).to.equal(FILES['src/a.js']);
      expect((await call('node_read_file', { path: 'src/a.js' })).result.contents).to.equal(FILES['src/a.js']);
    });

    it(`[UNDO-1] node_write_file that created a file (${how}): undo removes it again (the file stays absent)`, async () => {
      const { fake, call } = setup(FILES, { keeping });
      const step = stepOf((await call('node_write_file', { path: 'new/c.js', contents: 'c' })).undo);
      expect(step.targets).to.deep.equal(['node:file:new/c.js']);
      await step.undo();
      expect(fake.fileMap.has('new/c.js')).to.equal(false);
      expect((await call('node_read_file', { path: 'new/c.js' })).result.error?.code).to.equal('not_found');
      // Undoing a file already gone again is no failure.
      expect(undoOutcome(await step.undo()).envelope).to.deep.include({ ok: true });
    });
  }

  it('[UNDO-1] undo of a write that created parent directories takes them away again, unless something else is in them now', async () => {
    const { fake, call } = setup();
    await stepOf((await call('node_write_file', { path: 'src/new/deep/c.js', contents: 'c' })).undo).undo();
    expect((await call('node_list_files', { path: 'src' })).result.entries.map((e: { path: string }) => e.path)).to.deep.equal(['src/a.js', 'src/b.js']);
    const step = stepOf((await call('node_write_file', { path: 'made/d.js', contents: 'd' })).undo);
    fake.put('made/users.js', 'the user\'s');
    await step.undo();
    expect(fake.fileMap.has('made/d.js')).to.equal(false);
    expect(fake.fileMap.get('made/users.js')).to.equal('the user\'s');
    expect(fake.dirs.has('made')).to.equal(true);
  });

  it('[UNDO-1] reads, failures, declined calls and a write of the same text hand no step', async () => {
    const { fake, call } = setup();
    for (const [name, input] of [
      ['node_list_files', {}],
      ['node_read_file', { path: 'index.js' }],
      ['node_write_file', { path: 'src', contents: 'x' }],
      ['node_write_file', { path: '../out.js', contents: 'x' }],
      ['node_write_file', { path: 'index.js', contents: FILES['index.js'] }],
      ['node_delete_file', { path: 'nothing.js' }],
    ] as const) {
      expect((await call(name, input)).undo, `${name} ${JSON.stringify(input)}`).to.equal(null);
    }
    const declined = await call('node_delete_file', { path: 'index.js' }, 'decline');
    expect(declined.result.error?.code).to.equal('declined');
    expect(declined.undo).to.equal(null);
    expect(fake.fileMap.get('index.js')).to.equal(FILES['index.js']);
  });

  it('[UNDO-1] node_delete_file: undo writes the deleted file back byte-identical', async () => {
    const { fake, call } = setup();
    const { result, undo } = await call('node_delete_file', { path: 'src/b.js' });
    expect(result).to.deep.equal({ ok: true, path: 'src/b.js' });
    const step = stepOf(undo);
    expect(step.targets).to.deep.equal(['node:file:src/b.js']);
    expect(fake.fileMap.has('src/b.js')).to.equal(false);
    await step.undo();
    expect(fake.fileMap.get('src/b.js')).to.equal(FILES['src/b.js']);
  });

  it('[UNDO-5] node_delete_file\'s dialog says 「元に戻す」 restores it (undoable); a file the page cannot keep (not text) says it cannot, and keeps no step', async () => {
    const { call } = setup({ ...FILES, 'bin.dat': 'a\u0000b' });
    const text = await call('node_delete_file', { path: 'index.js' });
    expect(text.confirmations[0]).to.deep.include({ title: 'ファイル「index.js」を削除する', undoable: true });
    const binary = await call('node_delete_file', { path: 'bin.dat' });
    expect(binary.confirmations[0]).to.deep.include({ undoable: false });
    expect(binary.result.ok).to.equal(true);
    expect(binary.undo).to.equal(null);
  });

  it('[UNDO-1] node_run_command: every kept file the command created, modified or deleted is a target, and undo restores each byte-identical', async () => {
    const { fake, runtime, call } = setup();
    fake.programs.set('node', (p) => {
      fake.put('src/a.js', 'rewritten');
      fake.fileMap.delete('src/b.js');
      fake.put('made.js', 'made');
      fake.put('node_modules/dep/index.js', 'dep');
      fake.put('debug.log', 'log');
      p.end(0);
    });
    const { result, undo } = await call('node_run_command', { command: 'node', args: ['gen.js'] });
    expect(result).to.deep.include({ ok: true, exitCode: 0 });
    const step = stepOf(undo);
    // node_modules/ and *.log are not kept (the exclude rules): not targets, left as they are.
    expect(step.targets).to.deep.equal(['node:file:made.js', 'node:file:src/a.js', 'node:file:src/b.js']);
    // The before-state was taken with contents before the run, compared by versions after it.
    expect(runtime.snapshots).to.deep.equal([true, false]);
    // Only what changed is held: not index.js.
    expect(step.bytes).to.be.below(2 * (FILES['src/a.js'].length + FILES['src/b.js'].length + 40));
    await step.undo();
    expect(Object.fromEntries([...fake.fileMap].filter(([path]) => !/node_modules|\.log$/.test(path)))).to.deep.equal(FILES);
    expect(fake.fileMap.get('node_modules/dep/index.js')).to.equal('dep');
    expect(fake.fileMap.get('debug.log')).to.equal('log');
  });

  it('[UNDO-1] [UNDO-4] node_run_command that changed no kept file hands no step, nor one that timed out or changed only excluded files', async () => {
    const { fake, call } = setup();
    fake.programs.set('node', (p) => {
      p.write('hi\n');
      p.end(0);
    });
    expect((await call('node_run_command', { command: 'node' })).undo).to.equal(null);
    fake.programs.set('npm', (p) => {
      fake.put('node_modules/x/package.json', '{}');
      p.end(0);
    });
    expect((await call('node_run_command', { command: 'npm', args: ['install'] })).undo).to.equal(null);
    fake.programs.set('sleep', () => {
      fake.put('late.js', 'x'); // never exits: the timeout kills it
    });
    const timedOut = await call('node_run_command', { command: 'sleep', timeoutMs: 1000 });
    expect(timedOut.result.error?.code).to.equal('timeout');
    expect(timedOut.undo).to.equal(null);
    // A command not found (127) changed nothing either.
    expect((await call('node_run_command', { command: 'nope' })).undo).to.equal(null);
  });

  it('[UNDO-1] a runtime without snapshot keeps no step for a command (the page did not say what it keeps)', async () => {
    const fake = new FakeNodeRuntime(FILES);
    const call = undoCaller(createNodeOperations(nodeAdapter(fake)));
    fake.programs.set('node', (p) => {
      fake.put('made.js', 'made');
      p.end(0);
    });
    const { result, undo } = await call('node_run_command', { command: 'node' });
    expect(result.ok).to.equal(true);
    expect(undo).to.equal(null);
  });

  it('[UNDO-2] changedSince: false while only logged calls changed the file; true after the user\'s own edit; false again once that is undone too', async () => {
    const { fake, call } = setup();
    const first = stepOf((await call('node_write_file', { path: 'index.js', contents: 'one' })).undo);
    expect(await first.changedSince!()).to.equal(false);
    const second = stepOf((await call('node_write_file', { path: 'index.js', contents: 'two' })).undo);
    // A later logged change is the log's to list, not an unseen edit.
    expect(await first.changedSince!()).to.equal(false);
    fake.put('index.js', 'typed by the user');
    expect(await first.changedSince!()).to.equal(true);
    expect(await second.changedSince!()).to.equal(true);
    await second.undo();
    expect(fake.fileMap.get('index.js')).to.equal('one');
    expect(await first.changedSince!()).to.equal(false);
    await first.undo();
    expect(fake.fileMap.get('index.js')).to.equal(FILES['index.js']);
  });

  it('[UV-17] an undo keeps what it takes back: its own step writes the user\'s later edit back, and a file it removed comes back', async () => {
    const { fake, call } = setup();
    const write = stepOf((await call('node_write_file', { path: 'index.js', contents: 'agent' })).undo);
    fake.put('index.js', 'typed by the user');
    const { envelope, again } = undoOutcome(await write.undo());
    expect(envelope).to.deep.include({ ok: true });
    expect(fake.fileMap.get('index.js')).to.equal(FILES['index.js']);
    expect(stepOf(again).targets).to.deep.equal(['node:file:index.js']);
    expect(await again!.changedSince!()).to.equal(false);
    expect(undoOutcome(await again!.undo()).envelope).to.deep.include({ ok: true });
    expect(fake.fileMap.get('index.js')).to.equal('typed by the user');
    const created = stepOf((await call('node_write_file', { path: 'made.js', contents: 'm' })).undo);
    const removed = undoOutcome(await created.undo());
    expect(fake.fileMap.has('made.js')).to.equal(false);
    await stepOf(removed.again).undo();
    expect(fake.fileMap.get('made.js')).to.equal('m');
  });

  it('[UNDO-1] an undo after a reboot writes into the runtime in use then; while none is booted it answers not_ready', async () => {
    const { adapter, call } = setup();
    const step = stepOf((await call('node_write_file', { path: 'index.js', contents: 'x' })).undo);
    adapter.runtime = null;
    expect(await step.undo()).to.deep.include({ ok: false });
    const rebooted = new FakeNodeRuntime({ 'index.js': 'x' });
    adapter.runtime = withSnapshot(rebooted);
    expect(undoOutcome(await step.undo()).envelope).to.deep.include({ ok: true });
    expect(rebooted.fileMap.get('index.js')).to.equal(FILES['index.js']);
  });

  it('[UNDO-1] with undo off (the bench\'s baseline) no call keeps a before-state: no step, the delete dialog says it cannot be undone', async () => {
    const fake = new FakeNodeRuntime(FILES);
    const runtime = withSnapshot(fake);
    const call = undoCaller(createNodeOperations(nodeAdapter(runtime), { undo: false }));
    fake.programs.set('node', (p) => {
      fake.put('made.js', 'made');
      p.end(0);
    });
    expect((await call('node_write_file', { path: 'index.js', contents: 'x' })).undo).to.equal(null);
    expect((await call('node_run_command', { command: 'node' })).undo).to.equal(null);
    expect(runtime.snapshots).to.deep.equal([]);
    const deleted = await call('node_delete_file', { path: 'src/a.js' });
    expect(deleted.confirmations[0]).to.deep.include({ undoable: false });
    expect(deleted.undo).to.equal(null);
  });
});
