// The node operations (tools/node/operations.ts) through the real call path (src/pipeline.ts) on the
// real runtime client (playground/node/engine/node-runtime.ts) against a real demo server and its runner:
// what an agent gets back for terminal output, a cut tree, commands too long for the runner,
// timeouts and cancelled calls. The sources are bundled with esbuild, as in runner-client.test.mjs.
// Run: node --test test/node/node-tools.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { startServer } from '../../playground/server/serve.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

let dir;
let server;
let lib;

const pageFetch = (input, init = {}) => fetch(input, { ...init, headers: { ...init.headers, origin: server.origin } });

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ai-ops-node-tools-'));
  const entry = join(dir, 'entry.ts');
  await writeFile(entry, [
    `export { NodeRuntime } from ${JSON.stringify(here('../../playground/node/engine/node-runtime.ts'))};`,
    `export { createNodeOperations } from ${JSON.stringify(here('../../tools/node/operations.ts'))};`,
    `export { compileOperation, runCall } from ${JSON.stringify(here('../../src/pipeline.ts'))};`,
  ].join('\n'));
  const out = join(dir, 'bundle.mjs');
  await esbuild.build({ entryPoints: [entry], outfile: out, bundle: true, format: 'esm', platform: 'node', target: 'es2022', logLevel: 'error' });
  lib = await import(pathToFileURL(out).href);
  server = await startServer({ port: 0, root: dir });
});

after(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A booted runtime and a caller over the five node operations on it. */
async function setup() {
  const runtime = new lib.NodeRuntime({ baseUrl: `${server.origin}/__runner/`, token: server.token, fetch: pageFetch });
  await runtime.boot();
  const operations = new Map(lib.createNodeOperations({ getRuntime: () => runtime }).map((d) => [d.name, lib.compileOperation(d)]));
  const hooks = { isEnabled: () => true, skipsConfirmation: () => true, confirm: async () => () => {} };
  const call = async (name, input, options) => JSON.parse((await lib.runCall(operations.get(name), input, hooks, options)).json);
  return { runtime, call };
}

/** The handle of the first process named `name` that is running, once the runtime's list shows it. */
function runningProcess(runtime, name) {
  return new Promise((resolve) => {
    let stop = null;
    let done = false;
    const check = () => {
      const entry = done ? null : runtime.processes.list.getState().find((p) => p.name === name && p.status === 'running');
      const handle = entry && runtime.processes.get(entry.id);
      if (!handle) return;
      done = true;
      stop?.();
      resolve(handle);
    };
    stop = runtime.processes.list.subscribe(check);
    if (done) stop();
    else check();
  });
}

/** Resolves once `handle`'s output holds `text` (on its own chunk notifications). */
function outputOf(handle, text) {
  return new Promise((resolve) => {
    let stop = null;
    let done = false;
    stop = handle.output.subscribe(() => {
      if (done || !handle.output.getText().includes(text)) return;
      done = true;
      stop?.();
      resolve();
    });
    if (done) stop();
  });
}

const statusOf = (runtime, name) => runtime.processes.list.getState().filter((p) => p.name === name).map((p) => p.status);

describe('node operations on the real runner', () => {
  it('[NODE-7] output is what a terminal shows: no ESC(B, ESC7/8, ESC=/>, DCS, OSC or 8-bit CSI residue; CR frames collapse', async () => {
    const { call } = await setup();
    const script = [
      "process.stdout.write('\\x1b[1mbold\\x1b(B\\x1b[m plain\\n');", // what `tput bold; tput sgr0` writes
      "process.stdout.write('\\x1b7saved\\x1b8 \\x1b=keypad\\x1b>\\n');",
      "process.stdout.write('\\x1bP1$r0m\\x1b\\\\dcs \\x1b]0;title\\x07osc \\x1b]8;;http://x.test/\\x1b\\\\link\\x1b]8;;\\x1b\\\\\\n');",
      "process.stdout.write('\\u009b31mc1\\u009b0m\\n');",
      "for (const p of [10, 20, 30]) process.stdout.write(`\\r${p}%`); process.stdout.write('\\r\\n');",
    ].join('');
    const result = await call('node_run_command', { command: 'node', args: ['-e', script], timeoutMs: 20_000 });
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(result.output, 'bold plain\nsaved keypad\ndcs osc link\nc1\n30%\n');
  });

  it('[NODE-8] node_list_files says truncated when the runner cut the tree at 10,000 entries, also for a directory past the cut', async () => {
    const { call } = await setup();
    await mkdir(join(server.workspace, 'many'), { recursive: true });
    await mkdir(join(server.workspace, 'zz'), { recursive: true });
    await Promise.all(Array.from({ length: 10_001 }, (_, i) => writeFile(join(server.workspace, 'many', `f${i}.txt`), '')));
    await writeFile(join(server.workspace, 'zz', 'late.txt'), 'x');
    // A command refreshes the tree when it ends (NODE-6), as after any agent run.
    assert.equal((await call('node_run_command', { command: 'node', args: ['-e', '0'] })).ok, true);
    // `zz` sorts after the 10,000 entries the runner listed: it is not in the tree at all.
    const late = await call('node_list_files', { path: 'zz' });
    assert.deepEqual(late, { ok: true, entries: [], truncated: true });
    const all = await call('node_list_files', {});
    assert.equal(all.truncated, true);
    assert.equal((await call('node_list_files', { path: 'nowhere' })).error.code, 'not_found');
    assert.equal((await call('node_read_file', { path: 'zz/late.txt' })).contents, 'x'); // it is there
    await rm(join(server.workspace, 'many'), { recursive: true, force: true });
    await rm(join(server.workspace, 'zz'), { recursive: true, force: true });
  });

  it('[NODE-9] a command the runner would refuse for its length, or a script over its 64 KiB body, is refused first with a clear message', async () => {
    const { call, runtime } = await setup();
    const long = await call('node_run_command', { command: 'n'.repeat(253) });
    assert.equal(long.error.code, 'too_large');
    assert.match(long.error.message, /252/);
    const script = `console.log(${JSON.stringify('x'.repeat(70_000))})`;
    const big = await call('node_run_command', { command: 'node', args: ['-e', script] });
    assert.equal(big.error.code, 'too_large');
    const many = await call('node_run_command', { command: 'node', args: ['-e', 'console.log(1)', ...Array.from({ length: 40 }, () => 'a'.repeat(2000))] });
    assert.equal(many.error.code, 'too_large');
    assert.match(many.error.message, /node_write_file/);
    // At the limits the runner takes them: 252 characters reach it (and it refuses the unknown command as a result, not an HTTP error).
    const edge = await call('node_run_command', { command: 'n'.repeat(252) });
    assert.equal(edge.ok, true, JSON.stringify(edge));
    assert.equal(edge.exitCode, 127);
    const near = await call('node_run_command', { command: 'node', args: ['-e', `console.log(${JSON.stringify('y'.repeat(60_000))}.length)`] });
    assert.equal(near.ok, true, JSON.stringify(near).slice(0, 300));
    assert.equal(near.output, '60000\n');
    assert.equal(statusOf(runtime, `ai: ${'n'.repeat(253)}`).length, 0);
  });

  it('[NODE-4] a timeout answers after the runner confirmed the kill: the process is listed as exited', async () => {
    const { call, runtime } = await setup();
    const result = await call('node_run_command', { command: 'node', args: ['-e', "console.log('up'); setInterval(() => {}, 1000)"], timeoutMs: 1000 });
    assert.equal(result.error.code, 'timeout');
    assert.match(result.error.message, /was killed/);
    assert.equal(result.output, 'up\n');
    assert.deepEqual(statusOf(runtime, 'ai: node'), ['exited']);
  });

  it('[NAT-6] [NAT-2] a cancelled node_run_command stops its process and answers declined with the output so far', async () => {
    const { call, runtime } = await setup();
    const controller = new AbortController();
    const pending = call('node_run_command', { command: 'node', args: ['-e', "console.log('serving'); setInterval(() => {}, 1000)"], timeoutMs: 60_000 }, { signal: controller.signal });
    // The first line has arrived (the process's own output stream says so): then cancel.
    await outputOf(await runningProcess(runtime, 'ai: node'), 'serving\n');
    controller.abort();
    const started = Date.now();
    const result = await pending;
    assert.ok(Date.now() - started < 10_000);
    assert.equal(result.ok, false);
    assert.equal(result.error.code, 'declined');
    assert.match(result.error.message, /cancelled/);
    assert.equal(result.output, 'serving\n');
    assert.deepEqual(statusOf(runtime, 'ai: node'), ['exited']);
  });
});
