// The browser client playground/node/engine/node-runtime.ts against a real demo server. The client uses
// only fetch, streams and TextDecoder, which Node has too; the test compiles it with esbuild and
// adds the Origin header a browser would add. Run: node --test test/node/runner-client.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { startServer } from '../../playground/server/serve.mjs';

const source = fileURLToPath(new URL('../../playground/node/engine/node-runtime.ts', import.meta.url));

let dir;
let server;
let NodeRuntime;
let NodeRuntimeError;

/** fetch as the node page's browser would send it: same origin, so with Origin = the server. */
const pageFetch = (input, init = {}) => fetch(input, { ...init, headers: { ...init.headers, origin: server.origin } });

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ai-ops-runner-client-'));
  const out = join(dir, 'node-runtime.mjs');
  await esbuild.build({ entryPoints: [source], outfile: out, format: 'esm', platform: 'neutral', target: 'es2022', logLevel: 'error' });
  ({ NodeRuntime, NodeRuntimeError } = await import(pathToFileURL(out).href));
  server = await startServer({ port: 0, root: dir });
});

after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const newRuntime = (options = {}) => new NodeRuntime({ baseUrl: `${server.origin}/__runner/`, token: server.token, fetch: pageFetch, ...options });

describe('NodeRuntime against the runner', () => {
  it('[NODE-1] boot() resolves when the runner answers and rejects with a wrong token', async () => {
    const runtime = newRuntime();
    await runtime.boot();
    assert.deepEqual(runtime.excludes.patterns, ['node_modules/', '.git/']);
    assert.deepEqual(runtime.files.tree.getState().map((e) => e.path), ['README.md', 'index.js', 'package.json']);
    const wrong = newRuntime({ token: 'nope' });
    await assert.rejects(wrong.boot(), (error) => error instanceof NodeRuntimeError && error.status === 403 && error.code === 'bad_token');
    const away = new NodeRuntime({ baseUrl: 'http://127.0.0.1:1/__runner/', token: 'x', fetch: pageFetch });
    await assert.rejects(away.boot(), (error) => error instanceof NodeRuntimeError && error.code === 'unreachable');
  });

  it('[NODE-6] files.write/remove update the tree store before they resolve; read reports failures as codes', async () => {
    const runtime = newRuntime();
    await runtime.boot();
    let notified = 0;
    const stop = runtime.files.tree.subscribe(() => { notified += 1; });
    assert.deepEqual(await runtime.files.write('lib/util.js', 'module.exports = 42;\n'), { ok: true });
    const paths = runtime.files.tree.getState().map((e) => e.path);
    assert.ok(paths.includes('lib') && paths.includes('lib/util.js'));
    assert.equal(notified, 1);
    assert.equal(runtime.files.tree.getSnapshot(), runtime.files.tree.getState());
    assert.deepEqual(await runtime.files.read('lib/util.js'), { ok: true, contents: 'module.exports = 42;\n' });
    assert.equal((await runtime.files.read('nope.js')).code, 'not_found');
    assert.equal((await runtime.files.read('lib')).code, 'is_directory');
    assert.equal((await runtime.files.read('../x')).code, 'invalid_path');
    await writeFile(join(server.workspace, 'bin.dat'), Buffer.from([0, 1, 2]));
    assert.equal((await runtime.files.read('bin.dat')).code, 'not_text');
    assert.equal((await runtime.files.remove('lib')).code, 'is_directory');
    assert.deepEqual(await runtime.files.remove('lib/util.js'), { ok: true });
    assert.ok(!runtime.files.tree.getState().some((e) => e.path === 'lib/util.js'));
    const before = notified;
    await runtime.files.tree.refresh();
    assert.equal(notified, before, 'no notification when nothing changed');
    stop();
  });

  it('[NODE-3] processes.start streams output live, resolves exit with the code and lists the process by name', async () => {
    const runtime = newRuntime();
    await runtime.boot();
    const proc = await runtime.processes.start('node', ['-e', "console.log('a'); setTimeout(() => { console.log('b'); process.exit(4) }, 200)"], { name: 'ai: node' });
    assert.equal(proc.name, 'ai: node');
    const chunks = [];
    proc.output.subscribe((chunk) => chunks.push(chunk));
    assert.deepEqual(runtime.processes.list.getState().map((p) => [p.name, p.status]), [['ai: node', 'running']]);
    assert.equal(await proc.exit, 4);
    assert.equal(chunks.join(''), 'a\nb\n');
    assert.equal(proc.output.getText(), 'a\nb\n');
    assert.equal(proc.output.truncated, false);
    assert.deepEqual(runtime.processes.list.getState().map((p) => [p.name, p.status, p.exitCode]), [['ai: node', 'exited', 4]]);
  });

  it('[NODE-6] the tree store is refreshed after a process exits', async () => {
    const runtime = newRuntime();
    await runtime.boot();
    const proc = await runtime.processes.start('node', ['-e', "require('fs').writeFileSync('made-by-process.txt', 'x')"]);
    const changed = new Promise((resolve) => {
      const stop = runtime.files.tree.subscribe(() => {
        if (runtime.files.tree.getState().some((e) => e.path === 'made-by-process.txt')) { stop(); resolve(); }
      });
    });
    assert.equal(await proc.exit, 0);
    await changed;
  });

  it('[NODE-4] kill() ends a running process; exit resolves with 128 + SIGKILL', async () => {
    const runtime = newRuntime();
    await runtime.boot();
    const proc = await runtime.processes.start('node', ['-e', "console.log('up'); setInterval(() => {}, 1000)"]);
    await new Promise((resolve) => proc.output.subscribe((chunk) => chunk.includes('up') && resolve()));
    await proc.kill();
    assert.equal(await proc.exit, 137);
    assert.equal(runtime.processes.list.getState()[0].status, 'exited');
  });

  it('[NODE-5] a late subscriber gets the kept output replayed; a refused command exits 127 with the reason', async () => {
    const runtime = newRuntime();
    await runtime.boot();
    const proc = await runtime.processes.start('node', ['-e', "process.stdout.write('x'.repeat(250000))"]);
    assert.equal(await proc.exit, 0);
    let replayed = '';
    proc.output.subscribe((chunk) => { replayed += chunk; });
    assert.equal(replayed.length, 200_000);
    assert.equal(proc.output.truncated, true);
    const refused = await runtime.processes.start('curl', ['http://example.com']);
    assert.equal(refused.pid, null);
    assert.equal(await refused.exit, 127);
    assert.match(refused.output.getText(), /not allowed/);
  });

  it('[UNDO-1] files.snapshot gives the kept files with texts and versions; after a command, versions tell what it changed', async () => {
    const runtime = newRuntime();
    await runtime.boot();
    await runtime.files.write('undo/a.js', 'a\r\n');
    const before = await runtime.files.snapshot({ contents: true });
    assert.equal(before.truncated, false);
    const a = before.files.find((f) => f.path === 'undo/a.js');
    assert.equal(a.contents, 'a\r\n');
    assert.match(a.version, /^[0-9a-f]{64}$/);
    assert.ok(before.files.every((f) => !f.path.startsWith('node_modules/')));
    const proc = await runtime.processes.start('node', ['-e', "const fs = require('fs'); fs.writeFileSync('undo/a.js', 'b'); fs.mkdirSync('node_modules/x', { recursive: true }); fs.writeFileSync('node_modules/x/i.js', '1')"]);
    assert.equal(await proc.exit, 0);
    const after = await runtime.files.snapshot({ contents: false });
    assert.equal(after.files.find((f) => f.path === 'undo/a.js').contents, undefined);
    assert.notEqual(after.files.find((f) => f.path === 'undo/a.js').version, a.version);
    assert.ok(!after.files.some((f) => f.path.startsWith('node_modules/')), 'node_modules/ is not kept');
    const [now, none] = await runtime.files.versions(['undo/a.js', 'undo/none.js']);
    assert.equal(now, after.files.find((f) => f.path === 'undo/a.js').version);
    assert.equal(none, null);
    await assert.rejects(runtime.files.versions(['../x']), (error) => error instanceof NodeRuntimeError && error.code === 'invalid_path');
  });

  it('[UNDO-1] files.keep / files.changes: the runner holds the before-state and answers only what a command changed, with its text before; the tree comes with it', async () => {
    const runtime = newRuntime();
    await runtime.boot();
    await runtime.files.write('keep/a.js', 'a\r\n');
    await runtime.files.write('keep/b.js', 'b');
    const mark = await runtime.files.keep();
    assert.equal(typeof mark, 'string');
    const proc = await runtime.processes.start('node', ['-e', "const fs = require('fs'); fs.writeFileSync('keep/a.js', 'A'); fs.rmSync('keep/b.js'); fs.writeFileSync('keep/c.js', 'c'); fs.mkdirSync('node_modules/y', { recursive: true }); fs.writeFileSync('node_modules/y/i.js', '1')"]);
    assert.equal(await proc.exit, 0);
    const { files, complete } = await runtime.files.changes(mark);
    assert.equal(complete, true);
    assert.deepEqual(files.map((f) => [f.path, f.before, f.version === null]), [
      ['keep/a.js', 'a\r\n', false],
      ['keep/b.js', 'b', true],
      ['keep/c.js', null, false],
    ]);
    const [a] = await runtime.files.versions(['keep/a.js']);
    assert.equal(files[0].version, a, 'the version now is the one versions gives');
    const paths = runtime.files.tree.getState().map((e) => e.path);
    assert.ok(paths.includes('keep/c.js') && !paths.includes('keep/b.js'), 'the tree was loaded from the same walk');
    assert.deepEqual(await runtime.files.changes(mark), { files: [], complete: false }, 'a mark is used up');
  });

  it('[NODE-6] a tree the page holds already is not sent again: the runner answers its version unchanged, and a change sends the entries', async () => {
    const answers = [];
    const recording = async (input, init) => {
      const response = await pageFetch(input, init);
      if (String(input).endsWith('/tree')) answers.push(await response.clone().json());
      return response;
    };
    const runtime = newRuntime({ fetch: recording });
    await runtime.boot();
    await runtime.files.tree.refresh();
    assert.ok(Array.isArray(answers[0].entries), 'the first listing is sent whole');
    assert.deepEqual(Object.keys(answers[1]).sort(), ['ok', 'truncated', 'unchanged', 'version'], 'the same listing again: no entries');
    assert.equal(answers[1].version, answers[0].version);
    assert.ok(runtime.files.tree.getState().some((e) => e.path === 'index.js'), 'the store still holds the listing');
    const proc = await runtime.processes.start('node', ['-e', "require('fs').writeFileSync('tree-new.txt', 'x')"]);
    assert.equal(await proc.exit, 0);
    await runtime.files.tree.refresh();
    assert.ok(answers.slice(2).some((a) => a.entries?.some((e) => e.path === 'tree-new.txt')), 'a changed listing is sent whole');
    assert.ok(runtime.files.tree.getState().some((e) => e.path === 'tree-new.txt'));
  });

  it('[UNDO-1] what the terminal and the page wrote between two agent commands is the next command\'s before-state', async () => {
    const runtime = newRuntime();
    await runtime.boot();
    const run = async (script) => {
      const proc = await runtime.processes.start('node', ['-e', script]);
      assert.equal(await proc.exit, 0);
    };
    await runtime.files.write('between/t.js', 'page');
    const first = await runtime.files.keep();
    await run("require('fs').writeFileSync('between/t.js', 'agent 1')");
    assert.deepEqual((await runtime.files.changes(first)).files.map((f) => [f.path, f.before]), [['between/t.js', 'page']]);
    await run("require('fs').writeFileSync('between/t.js', 'terminal')"); // the user's terminal
    const second = await runtime.files.keep();
    await run("require('fs').writeFileSync('between/t.js', 'agent 2')");
    assert.deepEqual((await runtime.files.changes(second)).files.map((f) => [f.path, f.before]), [['between/t.js', 'terminal']]);
    await runtime.files.write('between/t.js', 'page again'); // the page's editor
    const third = await runtime.files.keep();
    await run("require('fs').writeFileSync('between/t.js', 'agent 3')");
    assert.deepEqual((await runtime.files.changes(third)).files.map((f) => [f.path, f.before]), [['between/t.js', 'page again']]);
  });

  it('[RUNNER] round trip of node -e "console.log(1)" through the runner', async (t) => {
    const runtime = newRuntime();
    await runtime.boot();
    const times = [];
    for (let i = 0; i < 5; i += 1) {
      const start = performance.now();
      const proc = await runtime.processes.start('node', ['-e', 'console.log(1)']);
      assert.equal(await proc.exit, 0);
      assert.equal(proc.output.getText(), '1\n');
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    t.diagnostic(`node -e "console.log(1)": median ${times[2].toFixed(1)} ms, min ${times[0].toFixed(1)} ms, max ${times[4].toFixed(1)} ms`);
    assert.ok(times[2] < 5000);
    assert.ok(existsSync(server.workspace));
  });
});
