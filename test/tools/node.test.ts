import { expect } from '@open-wc/testing';
import { MAX_OUTPUT_CHARS, MAX_TEXT_BYTES } from '../../src/limits.js';
import { createNodeOperations } from '../../tools/node/operations.js';
import { createExcludeMatcher } from '../../tools/node/exclude.js';
import { caller } from '../helpers/tools-call.js';
import { FakeNodeRuntime, createFrozenClock, createImmediateClock, nodeAdapter } from '../helpers/tools-fakes.js';
import { FakeClock } from '../runtime/helpers.js';

/** Lets pending callbacks run until `done()` holds (or a few dozen turns passed). */
async function settle(done: () => boolean) {
  for (let i = 0; i < 50 && !done(); i++) await new Promise((r) => setTimeout(r, 0));
}

function setup(files: Record<string, string> = { 'index.js': 'console.log(1)\n', 'src/a.js': 'a\n', 'src/b/c.js': 'c\n' }, dirs: string[] = []) {
  const runtime = new FakeNodeRuntime(files, dirs);
  const adapter = nodeAdapter(runtime);
  const clock = createImmediateClock();
  runtime.clock = clock;
  const call = caller(createNodeOperations(adapter));
  return { runtime, adapter, clock, call };
}

const VALID: [string, unknown][] = [
  ['node_list_files', {}],
  ['node_read_file', { path: 'index.js' }],
  ['node_write_file', { path: 'x.txt', contents: 'x' }],
  ['node_delete_file', { path: 'index.js' }],
  ['node_run_command', { command: 'node' }],
];

describe('tools/node', () => {
  it('[NODE-1] every node operation answers not_ready while the runtime is not booted or failed to boot', async () => {
    const { adapter, call, runtime } = setup();
    adapter.runtime = null;
    for (const [name, input] of VALID) {
      const { result, confirmations } = await call(name, input);
      expect(result.error?.code, name).to.equal('not_ready');
      expect(confirmations, name).to.have.length(0);
    }
    expect(runtime.started).to.have.length(0);
    expect(runtime.fileMap.has('x.txt')).to.equal(false);
  });

  it('[NODE-2] every call reads the current runtime instance: a reboot replaces it', async () => {
    const adapter = nodeAdapter(null);
    const call = caller(createNodeOperations(adapter));
    expect((await call('node_read_file', { path: 'a.txt' })).result.error?.code).to.equal('not_ready');
    const first = new FakeNodeRuntime({ 'a.txt': 'first' });
    adapter.runtime = first;
    expect((await call('node_read_file', { path: 'a.txt' })).result.contents).to.equal('first');
    adapter.runtime = new FakeNodeRuntime({ 'a.txt': 'second' });
    expect((await call('node_read_file', { path: 'a.txt' })).result.contents).to.equal('second');
    await call('node_write_file', { path: 'b.txt', contents: 'b' });
    expect(first.fileMap.has('b.txt')).to.equal(false);
    expect((adapter.runtime as FakeNodeRuntime).fileMap.get('b.txt')).to.equal('b');
  });

  it('[NODE-2] a runtime that goes away while a delete waits for confirmation is not used', async () => {
    const { adapter, runtime, call } = setup();
    const { result, confirmations } = await call('node_delete_file', { path: 'index.js' }, () => {
      adapter.runtime = null;
      return 'accept';
    });
    expect(confirmations).to.have.length(1);
    expect(result.ok).to.equal(false);
    expect(result.error?.code).to.equal('not_ready');
    expect(runtime.fileMap.has('index.js')).to.equal(true);
  });

  it('[NODE-3] command and args go to processes.start unchanged, named "ai: <command>"; a non-zero exit is ok with exitCode', async () => {
    const { runtime, call } = setup();
    runtime.programs.set('node', (p) => {
      p.write('boom\n');
      p.end(3);
    });
    const args = ['-e', 'console.log("a b"); process.exit(3)', '--', '*.js'];
    const { result } = await call('node_run_command', { command: 'node', args, timeoutMs: 5000 });
    expect(result).to.deep.equal({ ok: true, exitCode: 3, output: 'boom\n', truncated: false });
    expect(runtime.started).to.have.length(1);
    expect(runtime.started[0].command).to.equal('node');
    expect(runtime.started[0].args).to.deep.equal(args);
    expect(runtime.started[0].name).to.equal('ai: node');
    // The string is never split into arguments.
    await call('node_run_command', { command: 'npm run build' });
    expect(runtime.started[1].command).to.equal('npm run build');
    expect(runtime.started[1].args).to.deep.equal([]);
    expect(runtime.started[1].name).to.equal('ai: npm run build');
  });

  it('[NODE-4] a command past timeoutMs is killed and answers timeout with the output and truncated so far', async () => {
    const { runtime, clock, call } = setup();
    runtime.programs.set('sleep', (p) => p.write('\u001b[32mstarted\u001b[0m\n')); // never exits
    const { result } = await call('node_run_command', { command: 'sleep', args: ['1000'], timeoutMs: 1000 });
    expect(result.ok).to.equal(false);
    expect(result.error?.code).to.equal('timeout');
    expect(result.output).to.equal('started\n');
    expect(result.truncated).to.equal(false);
    expect(clock.delays[0]).to.equal(1000);
    expect(runtime.started[0].killed).to.equal(true); // killed before the answer, not after
  });

  it('[NODE-4] a timeout answers only once the runtime confirms the process has exited', async () => {
    const runtime = new FakeNodeRuntime();
    const clock = new FakeClock();
    runtime.clock = clock;
    const call = caller(createNodeOperations(nodeAdapter(runtime)));
    let confirmExit: (() => void) | null = null;
    runtime.programs.set('stubborn', (p) => {
      p.write('working\n');
      // kill() is asked, but the process takes a while to go (it traps the signal, the runner is slow).
      p.kill = () => {
        p.killed = true;
        confirmExit = () => p.end(137);
        return Promise.resolve();
      };
    });
    let answered = false;
    const pending = call('node_run_command', { command: 'stubborn', timeoutMs: 1000 }).then((r) => { answered = true; return r; });
    await settle(() => runtime.started.length > 0);
    clock.advance(1000);
    await settle(() => confirmExit !== null);
    expect(runtime.started[0].killed).to.equal(true);
    clock.advance(1000);
    await settle(() => answered);
    expect(answered).to.equal(false);
    confirmExit!();
    const { result } = await pending;
    expect(result.error?.code).to.equal('timeout');
    expect(result.error?.message).to.match(/was killed/);
    expect(result.output).to.equal('working\n');
  });

  it('[NODE-4] a process whose end is never confirmed still answers timeout, after a bound, saying so', async () => {
    const runtime = new FakeNodeRuntime();
    const clock = new FakeClock();
    runtime.clock = clock;
    const call = caller(createNodeOperations(nodeAdapter(runtime)));
    runtime.programs.set('zombie', (p) => {
      p.kill = () => { p.killed = true; return Promise.resolve(); }; // never exits
    });
    let answered = false;
    const pending = call('node_run_command', { command: 'zombie', timeoutMs: 1000 }).then((r) => { answered = true; return r; });
    await settle(() => runtime.started.length > 0);
    clock.advance(1000);
    await settle(() => runtime.started[0].killed);
    clock.advance(4999);
    await settle(() => answered);
    expect(answered).to.equal(false);
    clock.advance(1);
    const { result } = await pending;
    expect(result.error?.code).to.equal('timeout');
    expect(result.error?.message).to.match(/not confirmed/);
  });

  it('[NAT-6] [NAT-2] node_run_command cancelled by its caller kills the process and answers declined with the output so far', async () => {
    const runtime = new FakeNodeRuntime();
    runtime.programs.set('server', (p) => p.write('listening\n')); // runs until killed
    runtime.clock = createFrozenClock();
    const call = caller(createNodeOperations(nodeAdapter(runtime)));
    const controller = new AbortController();
    const pending = call('node_run_command', { command: 'server' }, 'accept', { signal: controller.signal });
    for (let i = 0; i < 20 && runtime.started.length === 0; i++) await new Promise((r) => setTimeout(r, 0));
    expect(runtime.started[0].killed).to.equal(false);
    controller.abort();
    const { result } = await pending;
    expect(result.ok).to.equal(false);
    expect(result.error?.code).to.equal('declined');
    expect(result.error?.message).to.match(/cancelled/);
    expect(result.output).to.equal('listening\n');
    expect(runtime.started[0].killed).to.equal(true);
  });

  it('[NAT-2] a call cancelled before it runs starts no process and answers declined', async () => {
    const { runtime, call } = setup();
    const controller = new AbortController();
    controller.abort();
    expect((await call('node_run_command', { command: 'node' }, 'accept', { signal: controller.signal })).result.error?.code).to.equal('declined');
    expect(runtime.started).to.have.length(0);
  });

  it('[NODE-8] node_list_files reports truncated when the runner cut the tree, even under 1,000 entries', async () => {
    const { runtime, call } = setup();
    expect((await call('node_list_files')).result.truncated).to.equal(false);
    runtime.treeTruncated = true;
    const { result } = await call('node_list_files');
    expect(result.entries.length).to.be.lessThan(1000);
    expect(result.truncated).to.equal(true);
  });

  it('[NODE-9] a command over 252 characters (the runner names it "ai: <command>", 256 at most) is too_large with a clear message', async () => {
    const { runtime, call } = setup();
    const { result } = await call('node_run_command', { command: 'x'.repeat(253) });
    expect(result.error?.code).to.equal('too_large');
    expect(result.error?.message).to.match(/\/command.*252/);
    expect((await call('node_run_command', { command: 'x'.repeat(252) })).result.exitCode).to.equal(127); // reaches the runtime
    expect(runtime.started).to.have.length(1);
  });

  it('[NODE-9] args over the runner\'s 64 KiB request are too_large with a message that says what to do, before any process starts', async () => {
    const { runtime, call } = setup();
    const script = 'console.log(1);'.repeat(5000); // 75,000 characters
    const one = await call('node_run_command', { command: 'node', args: ['-e', script] });
    expect(one.result.error?.code).to.equal('too_large');
    expect(one.result.error?.message).to.match(/\/args\/1.*61440/); // the schema's per-argument bound
    // Arguments under the per-argument bound that add up to more than the runner's request limit.
    const many = await call('node_run_command', { command: 'node', args: Array.from({ length: 40 }, () => 'a'.repeat(2000)) });
    expect(many.result.error?.code).to.equal('too_large');
    expect(many.result.error?.message).to.match(/65536.*node_write_file/);
    // Control characters grow sixfold in the runner's JSON: counted as sent.
    const escaped = await call('node_run_command', { command: 'node', args: ['-e', '\u0001'.repeat(12_000)] });
    expect(escaped.result.error?.code).to.equal('too_large');
    expect((await call('node_run_command', { command: 'node', args: Array.from({ length: 1001 }, () => 'a') })).result.error?.code).to.equal('too_large'); // maxItems 1000
    expect(runtime.started).to.have.length(0);
  });

  it('[NODE-4] [IN-5] without timeoutMs the command gets 30,000 ms from the runtime\'s run function', async () => {
    const runtime = new FakeNodeRuntime();
    runtime.programs.set('node', (p) => p.end(0));
    const clock = createFrozenClock();
    runtime.clock = clock;
    const call = caller(createNodeOperations(nodeAdapter(runtime)));
    expect((await call('node_run_command', { command: 'node' })).result.exitCode).to.equal(0);
    expect(runtime.runs.map((run) => run.timeoutMs)).to.deep.equal([30_000]);
    expect(clock.delays).to.deep.equal([30_000]);
  });

  it('[NODE-5] output has terminal controls removed and keeps the last 100,000 characters with truncated', async () => {
    const { runtime, call } = setup();
    runtime.programs.set('color', (p) => {
      p.write('\u001b[1;31mred\u001b[0m \u001b]0;title\u0007plain\r\n');
      p.end(0);
    });
    expect((await call('node_run_command', { command: 'color' })).result).to.deep.equal({ ok: true, exitCode: 0, output: 'red plain\n', truncated: false });
    runtime.programs.set('flood', (p) => {
      for (let i = 0; i < 30; i++) p.write(`\u001b[33m${String(i).padStart(2, '0')}${'x'.repeat(9_997)}\n\u001b[0m`);
      p.end(0);
    });
    const { result } = await call('node_run_command', { command: 'flood' });
    expect(result.truncated).to.equal(true);
    expect(result.output.length).to.equal(MAX_OUTPUT_CHARS);
    expect(result.output).to.not.include('\u001b');
    expect(result.output.endsWith(`29${'x'.repeat(9_997)}\n`)).to.equal(true);
  });

  it('[NODE-6] node_list_files lists the current value of the file-tree store', async () => {
    const { runtime, call } = setup();
    runtime.put('later.txt', 'x', false); // on disk, but the store has not caught up
    expect((await call('node_list_files')).result.entries.map((e: { path: string }) => e.path)).to.not.include('later.txt');
    runtime.rebuildTree();
    expect((await call('node_list_files')).result.entries.map((e: { path: string }) => e.path)).to.include('later.txt');
  });

  it('[NODE-6] a command refreshes the tree when it ends, so its files are listed at once', async () => {
    const { runtime, call } = setup();
    runtime.programs.set('touch', (p) => {
      runtime.put('made.txt', '', false);
      p.end(0);
    });
    await call('node_run_command', { command: 'touch', args: ['made.txt'] });
    expect(runtime.refreshes).to.equal(1);
    expect((await call('node_list_files')).result.entries.map((e: { path: string }) => e.path)).to.include('made.txt');
  });

  it('[NODE-6] the node page exposes no sql_* operation', () => {
    const names = createNodeOperations(nodeAdapter(null)).map((d) => d.name);
    expect(names.filter((n) => !n.startsWith('node_'))).to.deep.equal([]);
  });

  it('[FILE-2] absolute paths and .. that leaves the working directory are invalid_input', async () => {
    const { call, runtime } = setup();
    for (const path of ['../x', '/etc/passwd', 'a/../../b', 'C:/x', 'a\\b']) {
      for (const name of ['node_read_file', 'node_delete_file', 'node_list_files']) {
        expect((await call(name, { path })).result.error?.code, `${name} ${path}`).to.equal('invalid_input');
      }
      expect((await call('node_write_file', { path, contents: 'x' })).result.error?.code).to.equal('invalid_input');
    }
    expect((await call('node_read_file', { path: 'src/../index.js' })).result.path).to.equal('index.js');
    expect([...runtime.fileMap.keys()].some((k) => k.includes('..'))).to.equal(false);
  });

  it('[FILE-3] node_list_files returns every level under path, kinds file/directory, omitting exclude matches', async () => {
    const { call } = setup(
      {
        'index.js': '', 'src/a.js': '', 'src/b/c.js': '', 'debug.log': '', 'src/b/trace.log': '',
        'node_modules/x/index.js': '', 'lib/node_modules/y.js': '', '.git/HEAD': '',
      },
      ['empty'],
    );
    const all = (await call('node_list_files')).result;
    expect(all.truncated).to.equal(false);
    expect(all.entries).to.deep.equal([
      { path: 'empty', kind: 'directory' },
      { path: 'index.js', kind: 'file' },
      { path: 'lib', kind: 'directory' },
      { path: 'src', kind: 'directory' },
      { path: 'src/a.js', kind: 'file' },
      { path: 'src/b', kind: 'directory' },
      { path: 'src/b/c.js', kind: 'file' },
    ]);
    expect((await call('node_list_files', { path: 'src' })).result.entries.map((e: { path: string }) => e.path)).to.deep.equal(['src/a.js', 'src/b', 'src/b/c.js']);
    expect((await call('node_list_files', { path: './src/b/' })).result.entries).to.deep.equal([{ path: 'src/b/c.js', kind: 'file' }]);
    expect((await call('node_list_files', { path: 'nope' })).result.error?.code).to.equal('not_found');
    expect((await call('node_list_files', { path: 'index.js' })).result.error?.code).to.equal('invalid_input');
  });

  it('[FILE-3] node_list_files answers at most 1,000 entries, with truncated', async () => {
    const files = Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`f/${String(i).padStart(4, '0')}.txt`, '']));
    const { call } = setup(files);
    const { result } = await call('node_list_files');
    expect(result.entries).to.have.length(1000);
    expect(result.truncated).to.equal(true);
    expect(result.entries[0]).to.deep.equal({ path: 'f', kind: 'directory' });
  });

  it('[FILE-3] the exclude matcher follows .gitignore patterns', () => {
    const excluded = createExcludeMatcher(['node_modules/', '*.log', '/dist', 'build/**/*.map', '!keep.log', '# comment', '']);
    expect(excluded('node_modules', 'directory')).to.equal(true);
    expect(excluded('a/node_modules/b/c.js', 'file')).to.equal(true);
    expect(excluded('node_modules', 'file')).to.equal(false); // a file of that name is not a directory
    expect(excluded('x/y.log', 'file')).to.equal(true);
    expect(excluded('keep.log', 'file')).to.equal(false);
    expect(excluded('dist/app.js', 'file')).to.equal(true);
    expect(excluded('src/dist/app.js', 'file')).to.equal(false); // anchored at the working directory
    expect(excluded('build/a/b/app.js.map', 'file')).to.equal(true);
    expect(excluded('build/app.js', 'file')).to.equal(false);
    expect(excluded('src/main.js', 'file')).to.equal(false);
    expect(createExcludeMatcher([])('anything', 'file')).to.equal(false);
  });

  it('[FILE-4] node_read_file: over 1 MB too_large, not text invalid_input, missing not_found, directory invalid_input', async () => {
    const { call } = setup({ 'big.txt': 'a'.repeat(MAX_TEXT_BYTES + 1), 'bin.dat': 'a\u0000b', 'ok.txt': 'テキスト' });
    expect((await call('node_read_file', { path: 'big.txt' })).result.error?.code).to.equal('too_large');
    expect((await call('node_read_file', { path: 'bin.dat' })).result.error?.code).to.equal('invalid_input');
    expect((await call('node_read_file', { path: 'none.txt' })).result.error?.code).to.equal('not_found');
    expect((await call('node_read_file', { path: '.' })).result.error?.code).to.equal('invalid_input');
    expect((await call('node_read_file', { path: 'ok.txt' })).result).to.deep.equal({ ok: true, path: 'ok.txt', contents: 'テキスト' });
  });

  it('[FILE-5] node_write_file overwrites without confirmation and creates missing parents', async () => {
    const { runtime, call } = setup();
    const first = await call('node_write_file', { path: 'index.js', contents: 'new' });
    expect(first.result).to.deep.equal({ ok: true, path: 'index.js' });
    expect(first.confirmations).to.have.length(0);
    expect(runtime.fileMap.get('index.js')).to.equal('new');
    expect((await call('node_write_file', { path: 'deep/er/file.txt', contents: 'x' })).result.ok).to.equal(true);
    expect(runtime.dirs.has('deep/er')).to.equal(true);
    expect((await call('node_write_file', { path: 'src', contents: 'x' })).result.error?.code).to.equal('invalid_input');
  });

  it('[FILE-6] node_delete_file deletes files only, after confirmation: directory invalid_input, missing not_found', async () => {
    const { runtime, call } = setup();
    expect((await call('node_delete_file', { path: 'src/b' })).result.error?.code).to.equal('invalid_input');
    expect((await call('node_delete_file', { path: 'nothing.js' })).result.error?.code).to.equal('not_found');
    const declined = await call('node_delete_file', { path: 'src/a.js' }, 'decline');
    expect(declined.result.error?.code).to.equal('declined');
    expect(declined.confirmations[0]).to.deep.include({ title: 'ファイル「src/a.js」を削除する', actionLabel: '削除する', undoable: true });
    expect(runtime.fileMap.has('src/a.js')).to.equal(true);
    const done = await call('node_delete_file', { path: 'src/a.js' });
    expect(done.result).to.deep.equal({ ok: true, path: 'src/a.js' });
    expect(done.steps).to.deep.equal(['confirm', 'done']);
    expect(runtime.fileMap.has('src/a.js')).to.equal(false);
  });

  it('[FILE-6] a file the tree does not show yet (not refreshed, or under an excluded directory) can still be deleted', async () => {
    const { runtime, call } = setup();
    runtime.put('fresh.txt', 'x', false);
    runtime.put('node_modules/pkg/index.js', 'x');
    expect((await call('node_delete_file', { path: 'fresh.txt' })).result.ok).to.equal(true);
    expect((await call('node_delete_file', { path: 'node_modules/pkg/index.js' })).result.ok).to.equal(true);
    expect((await call('node_delete_file', { path: 'node_modules/pkg' })).result.error?.code).to.equal('invalid_input');
  });
});
