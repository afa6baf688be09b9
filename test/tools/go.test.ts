import { expect } from '@open-wc/testing';
import { MAX_OUTPUT_CHARS, MAX_TEXT_BYTES } from '../../src/limits.js';
import { createGoOperations } from '../../tools/go/operations.js';
import type { GoRunOutcome } from '../../tools/go/adapter.js';
import { caller } from '../helpers/tools-call.js';
import { FakeGoPage } from '../helpers/tools-fakes.js';

function setup(files: Record<string, string> = { 'main.go': 'package main\n', 'lib/lib.go': 'package lib\n', 'lib/lib_test.go': 'package lib\n' }, emptyDirs = ['assets/empty']) {
  const page = new FakeGoPage(files, emptyDirs);
  return { page, call: caller(createGoOperations(page)) };
}

const VALID: [string, unknown][] = [
  ['go_list_files', {}],
  ['go_read_file', { path: 'main.go' }],
  ['go_write_file', { path: 'x.go', contents: 'package main' }],
  ['go_delete_file', { path: 'main.go' }],
  ['go_run', {}],
  ['go_test', {}],
];

/** A run the test finishes by hand. */
function deferred() {
  let resolve!: (outcome: GoRunOutcome) => void;
  const promise = new Promise<GoRunOutcome>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('tools/go', () => {
  it('[GO-1] every go operation answers not_ready until the project and saved files are loaded', async () => {
    const { page, call } = setup();
    page.loaded = false;
    for (const [name, input] of VALID) {
      const { result, confirmations } = await call(name, input);
      expect(result.error?.code, name).to.equal('not_ready');
      expect(confirmations, name).to.have.length(0);
    }
    expect(page.runs).to.have.length(0);
    expect(page.fileMap.has('x.go')).to.equal(false);
    page.loaded = true;
    expect((await call('go_read_file', { path: 'main.go' })).result.ok).to.equal(true);
  });

  it('[GO-2] file operations edit the page files module; empty directories are kept and listed', async () => {
    const { page, call } = setup();
    await call('go_write_file', { path: 'cmd/tool/main.go', contents: 'package main\n' });
    expect(page.fileMap.get('cmd/tool/main.go')).to.equal('package main\n');
    const { result } = await call('go_list_files');
    expect(result.entries).to.deep.include({ path: 'assets/empty', kind: 'directory' });
    expect(result.entries).to.deep.include({ path: 'cmd/tool', kind: 'directory' });
    await call('go_delete_file', { path: 'lib/lib.go' });
    await call('go_delete_file', { path: 'lib/lib_test.go' });
    // The directory stays, now empty.
    expect((await call('go_list_files', { path: 'lib' })).result).to.deep.equal({ ok: true, entries: [], truncated: false });
  });

  it('[GO-3] go_run and go_test call the page run function in run and test mode; neither takes code', async () => {
    const { page, call } = setup();
    expect((await call('go_run')).result.ok).to.equal(true);
    expect((await call('go_test')).result.ok).to.equal(true);
    expect(page.runs.map((r) => r.mode)).to.deep.equal(['run', 'test']);
    expect((await call('go_run', { code: 'package main' })).result.error?.code).to.equal('invalid_input');
    expect((await call('go_test', { files: {} })).result.error?.code).to.equal('invalid_input');
  });

  it('[GO-4] a Yaegi load failure answers failed; a call while loading answers not_ready', async () => {
    const { page, call } = setup();
    page.outcomes.push(async () => {
      throw new Error('could not load engine/yaegi.wasm: HTTP 404');
    });
    const failed = (await call('go_run')).result;
    expect(failed.error?.code).to.equal('failed');
    expect(failed.error?.message).to.include('yaegi.wasm');
    page.state = 'loading';
    expect((await call('go_run')).result.error?.code).to.equal('not_ready');
    expect((await call('go_test')).result.error?.code).to.equal('not_ready');
  });

  it('[GO-4] file operations during a run go ahead and do not change the running snapshot', async () => {
    const { page, call } = setup();
    const job = deferred();
    page.outcomes.push(() => job.promise);
    const running = call('go_run');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(page.state).to.equal('running');
    expect((await call('go_write_file', { path: 'main.go', contents: 'package main // edited\n' })).result.ok).to.equal(true);
    expect((await call('go_read_file', { path: 'main.go' })).result.contents).to.equal('package main // edited\n');
    job.resolve({ kind: 'exited', exitCode: 0, output: 'done\n' });
    expect((await running).result).to.deep.equal({ ok: true, exitCode: 0, output: 'done\n', truncated: false });
    expect(page.runs[0].snapshot['main.go']).to.equal('package main\n');
  });

  it('[GO-5] compile errors and failed tests are ok with exitCode 1; os.Exit(n) gives n; panic gives 2; test output comes raw', async () => {
    const { page, call } = setup();
    const testOutput = '=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n    b_test.go:9: nope\n--- FAIL: TestB (0.00s)\nFAIL\n';
    page.outcomes.push(
      () => ({ kind: 'exited', exitCode: 1, output: './main.go:3:1: undefined: fmt\n' }),
      () => ({ kind: 'exited', exitCode: 3, output: '' }),
      () => ({ kind: 'exited', exitCode: 2, output: 'panic: boom\n' }),
      () => ({ kind: 'exited', exitCode: 1, output: testOutput }),
    );
    expect((await call('go_run')).result).to.deep.equal({ ok: true, exitCode: 1, output: './main.go:3:1: undefined: fmt\n', truncated: false });
    expect((await call('go_run')).result.exitCode).to.equal(3);
    expect((await call('go_run')).result).to.deep.include({ ok: true, exitCode: 2, output: 'panic: boom\n' });
    expect((await call('go_test')).result).to.deep.equal({ ok: true, exitCode: 1, output: testOutput, truncated: false });
  });

  it('[GO-6] a timeout answers timeout with the output and truncated so far, tailed to 100,000 characters', async () => {
    const { page, call } = setup();
    page.outcomes.push(() => ({ kind: 'timeout', output: 'tick\n' }));
    const short = (await call('go_run', { timeoutMs: 1000 })).result;
    expect(short).to.deep.equal({ ok: false, error: short.error, output: 'tick\n', truncated: false });
    expect(short.error?.code).to.equal('timeout');
    expect(page.runs[0].timeoutMs).to.equal(1000);
    const long = `${'a'.repeat(50)}${'b'.repeat(MAX_OUTPUT_CHARS)}`;
    page.outcomes.push(() => ({ kind: 'timeout', output: long }), () => ({ kind: 'exited', exitCode: 0, output: long }));
    const cut = (await call('go_test')).result;
    expect(cut.error?.code).to.equal('timeout');
    expect(cut.output).to.equal('b'.repeat(MAX_OUTPUT_CHARS));
    expect(cut.truncated).to.equal(true);
    const done = (await call('go_run')).result;
    expect(done.output).to.have.length(MAX_OUTPUT_CHARS);
    expect(done.truncated).to.equal(true);
  });

  for (const mode of ['run', 'test'] as const) {
    it(`[NAT-6] go_${mode} cancelled by its caller answers declined with the output so far; 停止 answers declined saying the user stopped it`, async () => {
      const { page, call } = setup();
      // The page's run function stops the job and resolves to `cancelled` once the call's signal aborts (NAT-2).
      page.outcomes.push((_mode, _snapshot, { signal }) => new Promise((resolve) => signal?.addEventListener('abort', () => resolve({ kind: 'cancelled', output: 'tick\n' }))));
      const controller = new AbortController();
      const pending = call(`go_${mode}`, {}, 'accept', { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(page.state).to.equal('running');
      controller.abort();
      const cancelled = (await pending).result;
      expect(cancelled).to.deep.equal({ ok: false, error: cancelled.error, output: 'tick\n', truncated: false });
      expect(cancelled.error?.code).to.equal('declined');
      expect(cancelled.error?.message).to.match(/caller cancelled/);
      page.outcomes.push(() => ({ kind: 'stopped', output: 'tock\n' }));
      const stopped = (await call(`go_${mode}`)).result;
      expect(stopped).to.deep.include({ ok: false, output: 'tock\n' });
      expect(stopped.error?.code).to.equal('declined');
      expect(stopped.error?.message).to.match(/the user stopped/);
    });
  }

  it('[GO-7] a run or test while one runs (agent or user) answers not_ready', async () => {
    const { page, call } = setup();
    const job = deferred();
    page.outcomes.push(() => job.promise);
    const first = call('go_test');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await call('go_run')).result.error?.code).to.equal('not_ready');
    expect((await call('go_test')).result.error?.code).to.equal('not_ready');
    job.resolve({ kind: 'exited', exitCode: 0, output: '' });
    await first;
    page.state = 'running'; // started by the user's button
    expect((await call('go_run')).result.error?.code).to.equal('not_ready');
    page.state = 'idle';
    page.outcomes.push(() => ({ kind: 'busy' }));
    expect((await call('go_run')).result.error?.code).to.equal('not_ready');
  });

  it('[FILE-2] absolute paths and .. leaving the project are invalid_input', async () => {
    const { call } = setup();
    for (const path of ['../x', '/abs', 'a/../../b']) {
      for (const name of ['go_list_files', 'go_read_file', 'go_delete_file']) {
        expect((await call(name, { path })).result.error?.code, `${name} ${path}`).to.equal('invalid_input');
      }
      expect((await call('go_write_file', { path, contents: '' })).result.error?.code).to.equal('invalid_input');
    }
  });

  it('[FILE-3] go_list_files lists every level under path with no exclude rule, at most 1,000 with truncated', async () => {
    const { call } = setup({ 'main.go': '', 'node_modules/x.go': '', 'a.log': '', 'pkg/a/a.go': '' }, ['pkg/empty']);
    const { result } = await call('go_list_files');
    expect(result.entries.map((e: { path: string }) => e.path)).to.deep.equal([
      'a.log', 'main.go', 'node_modules', 'node_modules/x.go', 'pkg', 'pkg/a', 'pkg/a/a.go', 'pkg/empty',
    ]);
    expect((await call('go_list_files', { path: 'pkg' })).result.entries).to.deep.equal([
      { path: 'pkg/a', kind: 'directory' }, { path: 'pkg/a/a.go', kind: 'file' }, { path: 'pkg/empty', kind: 'directory' },
    ]);
    expect((await call('go_list_files', { path: 'nope' })).result.error?.code).to.equal('not_found');
    expect((await call('go_list_files', { path: 'main.go' })).result.error?.code).to.equal('invalid_input');
    const many = setup(Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`f${String(i).padStart(4, '0')}.go`, ''])), []);
    const big = (await many.call('go_list_files')).result;
    expect(big.entries).to.have.length(1000);
    expect(big.truncated).to.equal(true);
  });

  it('[FILE-4] go_read_file: over 1 MB too_large, not text invalid_input, missing not_found, directory invalid_input', async () => {
    const { call } = setup({ 'big.go': 'あ'.repeat(MAX_TEXT_BYTES / 3 + 1), 'bin.go': '\u0000', 'ok.go': 'package ok' });
    expect((await call('go_read_file', { path: 'big.go' })).result.error?.code).to.equal('too_large');
    expect((await call('go_read_file', { path: 'bin.go' })).result.error?.code).to.equal('invalid_input');
    expect((await call('go_read_file', { path: 'no.go' })).result.error?.code).to.equal('not_found');
    expect((await call('go_read_file', { path: 'assets' })).result.error?.code).to.equal('invalid_input');
    expect((await call('go_read_file', { path: 'ok.go' })).result).to.deep.equal({ ok: true, path: 'ok.go', contents: 'package ok' });
  });

  it('[FILE-5] go_write_file overwrites without confirmation and creates missing parents; a directory or a file parent is invalid_input', async () => {
    const { page, call } = setup();
    const written = await call('go_write_file', { path: 'main.go', contents: 'package main // 2\n' });
    expect(written.result).to.deep.equal({ ok: true, path: 'main.go' });
    expect(written.confirmations).to.have.length(0);
    expect(page.fileMap.get('main.go')).to.equal('package main // 2\n');
    expect((await call('go_write_file', { path: 'a/b/c.go', contents: '' })).result.ok).to.equal(true);
    expect(page.dirs.has('a/b')).to.equal(true);
    expect((await call('go_write_file', { path: 'lib', contents: '' })).result.error?.code).to.equal('invalid_input');
    expect((await call('go_write_file', { path: 'main.go/x.go', contents: '' })).result.error?.code).to.equal('invalid_input');
  });

  it('[FILE-6] go_delete_file deletes files only, after confirmation: directory invalid_input, missing not_found', async () => {
    const { page, call } = setup();
    expect((await call('go_delete_file', { path: 'lib' })).result.error?.code).to.equal('invalid_input');
    expect((await call('go_delete_file', { path: 'gone.go' })).result.error?.code).to.equal('not_found');
    const declined = await call('go_delete_file', { path: 'lib/lib.go' }, 'decline');
    expect(declined.result.error?.code).to.equal('declined');
    expect(declined.confirmations[0]).to.deep.include({ title: 'ファイル「lib/lib.go」を削除する', actionLabel: '削除する' });
    expect(page.fileMap.has('lib/lib.go')).to.equal(true);
    expect((await call('go_delete_file', { path: 'lib/lib.go' })).result).to.deep.equal({ ok: true, path: 'lib/lib.go' });
    expect(page.fileMap.has('lib/lib.go')).to.equal(false);
  });

  it('[FILE-6] a file removed by the user while the dialog was open answers not_found', async () => {
    const page = new FakeGoPage({ 'main.go': '' });
    const call = caller(createGoOperations(page));
    const { result, confirmations } = await call('go_delete_file', { path: 'main.go' }, () => {
      page.fileMap.delete('main.go');
      return 'accept';
    });
    expect(confirmations).to.have.length(1);
    expect(result.ok).to.equal(false);
    expect(result.error?.code).to.equal('not_found');
  });
});
