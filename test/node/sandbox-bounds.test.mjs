// The sandbox's bounds (BOX-3), its refusal to run unconfined (BOX-5), the end of a server's
// processes with the server, and the everyday path inside it, through the runner's HTTP API.
// Run: node --test test/node/sandbox-bounds.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../playground/server/serve.mjs';
import { descendantsOf, isGone, manualTimers, runnerClient, waitUntil } from './sandbox-harness.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// Small bounds, so an attack ends quickly and cannot hurt the shared machine.
const LIMITS = {
  processes: 48,
  memoryBytes: 512 * 1024 * 1024,
  fileBytes: 8 * 1024 * 1024,
  cpuSeconds: 30,
  outputChars: 2 * 1024 * 1024,
  timeMs: 600_000,
  diskBytes: 24 * 1024 * 1024,
  diskCheckMs: 1000,
};

let root;
let server;
let timers;
const client = runnerClient(() => server);
const { call, run, node, follow } = client;

/**
 * The server answers `info` while the command runs: it stays responsive. Within 5 s: a server the
 * command starves (no bound on its processes or CPU) takes far longer; on two shared cores a
 * tighter bound fails on load, not on a broken sandbox.
 */
async function assertResponsive() {
  const started = Date.now();
  const info = await call('info');
  assert.equal(info.ok, true);
  assert.ok(Date.now() - started < 5000, `info took ${Date.now() - started} ms`);
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'ai-ops-bounds-test-'));
  timers = manualTimers();
  server = await startServer({ port: 0, root, runner: { limits: LIMITS, timers } });
});

after(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

describe('sandbox: bounds (BOX-3)', () => {
  it('[BOX-3] a fork bomb stays under the process limit, the server keeps answering, and the time limit ends it whole', async () => {
    // A shell fork bomb (dash gives up once fork fails) plus a flood that keeps refilling the
    // table with long sleeps, so the limit is held for as long as the test looks.
    const bomb = [
      "const { spawn } = require('child_process');",
      "spawn('/bin/sh', ['-c', 'exec 2>/dev/null; f(){ while :; do f & done; }; f'], { stdio: 'ignore' }).on('error', () => {});",
      "const flood = () => { try { spawn('sleep', ['1000'], { stdio: 'ignore' }).on('error', () => {}); } catch {} setTimeout(flood, 1); };",
      'flood();',
    ].join(' ');
    const started = await call('spawn', { command: 'node', args: ['-e', bomb] });
    assert.equal(started.ok, true);
    const lines = [];
    const done = follow(started.process.id, 0, (line) => lines.push(line));
    // Until the bomb holds the process table full: the same count, near the limit, ten looks in a
    // row (without a bound it would not stop growing there).
    let most = 0;
    const counts = [];
    await waitUntil(() => {
      counts.push(descendantsOf(started.process.pid).length);
      most = Math.max(most, counts.at(-1));
      const last = counts.slice(-10);
      return last.length === 10 && last[0] >= LIMITS.processes - 12 && last.every((n) => n === last[0]);
    }, 30_000, 'the bomb to fill the process table');
    // bwrap outside + the processes inside; threads count against the limit too.
    assert.ok(most <= LIMITS.processes + 2, `${most} processes`);
    await assertResponsive();
    const pids = descendantsOf(started.process.pid);
    timers.fire(LIMITS.timeMs);
    const end = await done;
    const exit = end.find((l) => l.type === 'exit');
    assert.equal(exit.process.reason, 'time');
    assert.equal(exit.process.exitCode, 137);
    assert.match(client.outputOf(end), /ai-ops runner: stopped: the command ran longer than 600 s/);
    await waitUntil(() => pids.every(isGone), 5000, 'every bomb process to be gone');
    await assertResponsive();
  });

  it('[BOX-3] a memory hog and a 10 GB allocation end with a memory message; the server keeps answering', async () => {
    for (const script of [
      'const kept = []; for (;;) kept.push(Buffer.alloc(64 * 1024 * 1024, 1));',
      'const big = new ArrayBuffer(10 * 1024 ** 3); console.log(big.byteLength);',
      'const kept = []; for (;;) kept.push(new Array(1e6).fill(1.5));',
    ]) {
      const result = await node(script);
      assert.notEqual(result.exitCode, 0, script);
      assert.equal(result.info.reason, 'memory', `${script}: ${result.output.slice(-400)}`);
      assert.match(result.output, /ai-ops runner: ran out of memory: the sandbox allows 512 MiB of memory per process/);
      await assertResponsive();
    }
  });

  it('[BOX-3] a disk fill (yes > file, an endless write) stops at the file size limit', async () => {
    const yes = await node("const r = require('child_process').spawnSync('/bin/sh', ['-c', 'yes > yes.txt'], { stdio: 'inherit' }); process.exit(r.status ?? 128 + require('os').constants.signals[r.signal])");
    assert.equal(yes.exitCode, 153);
    assert.equal(yes.info.reason, 'file_size');
    assert.match(yes.output, /ai-ops runner: a file reached the size limit \(8 MiB per file\)/);
    assert.ok(statSync(join(server.workspace, 'yes.txt')).size <= LIMITS.fileBytes);
    const write = await node("const fs = require('fs'); const fd = fs.openSync('fill.bin', 'w'); const b = Buffer.alloc(1 << 20); for (;;) fs.writeSync(fd, b);");
    assert.notEqual(write.exitCode, 0);
    assert.equal(write.info.reason, 'file_size');
    assert.ok(statSync(join(server.workspace, 'fill.bin')).size <= LIMITS.fileBytes);
    await call('remove', { path: 'yes.txt' });
    await call('remove', { path: 'fill.bin' });
    await assertResponsive();
  });

  it('[BOX-3] a disk fill of many files, each under the file size limit, is stopped at the workspace disk limit', async () => {
    const started = await call('spawn', { command: 'node', args: ['-e', "const fs = require('fs'); fs.mkdirSync('fill', { recursive: true }); let i = 0; const b = Buffer.alloc(4 << 20, 1); const go = () => { fs.writeFileSync('fill/' + i++, b); setTimeout(go, 5); }; go();"] });
    const done = follow(started.process.id);
    const { diskUsage } = await import('../../playground/node/server/workspace.mjs');
    await waitUntil(async () => (await diskUsage(server.workspace)) > LIMITS.diskBytes, 15_000, 'the workspace to pass the limit');
    timers.fire(LIMITS.diskCheckMs);
    const lines = await done;
    const exit = lines.find((l) => l.type === 'exit');
    assert.equal(exit.process.reason, 'disk');
    assert.match(client.outputOf(lines), /ai-ops runner: stopped: the workspace takes more than 24 MiB of disk; delete files to go on/);
    await rm(join(server.workspace, 'fill'), { recursive: true });
    await assertResponsive();
  });

  it('[BOX-3] an endless print is stopped at the output limit with a reason', async () => {
    // Paced by the pipe (each write waits for the last): the output limit ends it.
    const paced = await node("const line = 'y'.repeat(999) + '\\n'; const go = () => process.stdout.write(line, go); go();");
    assert.equal(paced.exitCode, 137);
    assert.equal(paced.info.reason, 'output', `exit ${paced.exitCode}: ${paced.output.slice(-300)}`);
    assert.match(paced.output, /ai-ops runner: stopped: the command printed more than 2,097,152 characters\n$/);
    await assertResponsive();
    // A loop that never yields queues its output in memory instead: the memory bound ends it.
    const tight = await node("const line = 'y'.repeat(999) + '\\n'; for (;;) process.stdout.write(line);");
    assert.notEqual(tight.exitCode, 0);
    assert.ok(['output', 'memory'].includes(tight.info.reason), `exit ${tight.exitCode}, reason ${tight.info.reason}`);
    assert.match(tight.output, /ai-ops runner: (stopped: the command printed more than|crashed \(SIG\w+\), most likely out of memory|ran out of memory)/);
    await assertResponsive();
  });

  it('[BOX-3] an endless loop is stopped by the CPU time limit', async () => {
    // Its own server with a 1 s CPU bound: CPU time is the kernel's clock, so this one takes 1 s.
    const other = await startServer({ port: 0, root, runner: { limits: { ...LIMITS, cpuSeconds: 1 } } });
    try {
      const result = await runnerClient(() => other).node('for (;;) {}');
      assert.equal(result.exitCode, 152); // 128 + SIGXCPU
      assert.equal(result.info.reason, 'cpu');
      assert.match(result.output, /ai-ops runner: stopped by the CPU time limit \(1 s per process\)/);
    } finally {
      await other.close();
    }
  });
});

describe('sandbox: the everyday path inside it', () => {
  it('[BOX-1] node index.js, npm init -y and npm test work; files written by commands can be read, changed and deleted', async () => {
    const hello = await run('node', ['index.js']);
    assert.equal(hello.exitCode, 0, hello.output);
    assert.match(hello.output, /^Hello from Node v\d+/);
    const init = await run('npm', ['init', '-y']);
    assert.equal(init.exitCode, 0, init.output);
    assert.equal(JSON.parse((await call('read', { path: 'package.json' })).contents).name, 'playground');
    const pkg = JSON.parse((await call('read', { path: 'package.json' })).contents);
    pkg.scripts = { ...pkg.scripts, test: 'node check.js' };
    assert.equal((await call('write', { path: 'package.json', contents: JSON.stringify(pkg, null, 2) })).ok, true);
    assert.equal((await call('write', { path: 'lib/check.txt', contents: 'made by the agent' })).ok, true);
    assert.equal((await call('write', { path: 'check.js', contents: "const fs = require('fs'); console.log('checked:', fs.readFileSync('lib/check.txt', 'utf8')); fs.writeFileSync('lib/check.txt', 'changed by the test'); fs.writeFileSync('lib/new.txt', 'new');" })).ok, true);
    const test = await run('npm', ['test']);
    assert.equal(test.exitCode, 0, test.output);
    assert.match(test.output, /checked: made by the agent/);
    // A file the server wrote was changed by the command, a file the command made is read back.
    assert.equal((await call('read', { path: 'lib/check.txt' })).contents, 'changed by the test');
    assert.equal((await call('read', { path: 'lib/new.txt' })).contents, 'new');
    assert.deepEqual(await call('remove', { path: 'lib/new.txt' }), { ok: true });
    assert.ok(!existsSync(join(server.workspace, 'lib/new.txt')));
    const failing = await run('npm', ['test', '--', '--nothing'], {});
    assert.equal(failing.exitCode, 0);
    assert.equal((await call('write', { path: 'check.js', contents: 'process.exit(4)' })).ok, true);
    const red = await run('npm', ['test']);
    assert.notEqual(red.exitCode, 0);
    assert.equal(red.info.reason, null, 'a failing test is not blamed on a bound');
  });

  it('[BOX-1] the terminal pane gets output live, before the exit', async () => {
    const started = await call('spawn', { command: 'node', args: ['-e', "console.log('one'); setTimeout(() => console.log('two'), 400)"] });
    let sawOneBeforeExit = false;
    const lines = await follow(started.process.id, 0, (line, all) => {
      if (line.type === 'output' && client.outputOf(all).includes('one') && !all.some((l) => l.type === 'exit')) sawOneBeforeExit = true;
    });
    assert.ok(sawOneBeforeExit);
    assert.equal(client.outputOf(lines), 'one\ntwo\n');
  });
});

describe('sandbox: never unconfined (BOX-5)', () => {
  for (const [label, bwrap, pattern] of [
    ['bubblewrap is missing', join(root ?? tmpdir(), 'no-such-dir', 'bwrap'), /install bubblewrap: sudo apt-get install bubblewrap/],
    ['bubblewrap cannot make a sandbox (as without user namespaces)', '/usr/bin/false', /user namespaces must be enabled/],
  ]) {
    it(`[BOX-5] when ${label}, every command answers a message naming what is missing and nothing runs`, async () => {
      const other = await startServer({ port: 0, root: repo, runner: { bwrap } });
      const otherClient = runnerClient(() => other);
      try {
        for (const [command, args] of [['node', ['-e', "require('fs').writeFileSync('ran.txt', 'x')"]], ['touch', ['ran.txt']], ['npm', ['--version']]]) {
          const result = await otherClient.run(command, args);
          assert.equal(result.exitCode, 126, command);
          assert.match(result.output, pattern, command);
          assert.match(result.output, /Commands are not run without the sandbox/);
          assert.equal(result.info.reason, 'sandbox_unavailable');
        }
        assert.ok(!existsSync(join(other.workspace, 'ran.txt')), 'nothing ran');
        const info = await otherClient.call('info');
        assert.equal(info.sandbox.available, false);
        assert.match(info.sandbox.message, pattern);
      } finally {
        await other.close();
      }
    });
  }
});

/** Starts a demo server in another process (as `nobody` when the tests run as root). */
async function startServerProcess({ unprivileged = false } = {}) {
  const script = `
    import { startServer } from ${JSON.stringify(join(repo, 'playground/server/serve.mjs'))};
    const s = await startServer({ port: 0, root: ${JSON.stringify(tmpdir())} });
    console.log(JSON.stringify({ port: s.port, origin: s.origin, token: s.token, workspace: s.workspace }));
    process.once('SIGTERM', () => s.close().finally(() => process.exit(0)));
    setInterval(() => {}, 1000);`;
  const asUser = unprivileged && process.getuid() === 0 ? ['setpriv', '--reuid', '65534', '--regid', '65534', '--clear-groups'] : [];
  const [file, ...args] = [...asUser, process.execPath, '--input-type=module', '-e', script];
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await new Promise((resolve) => child.stdout.once('data', (chunk) => resolve(String(chunk))));
  return { child, server: JSON.parse(first) };
}

describe('sandbox: a server run by an unprivileged user', () => {
  it('[BOX-1] confines its commands the same way: the sandbox root only, no host processes, files shared with the page', async () => {
    const { child, server: other } = await startServerProcess({ unprivileged: true });
    const otherClient = runnerClient(() => other);
    try {
      const info = await otherClient.call('info');
      assert.equal(info.sandbox.available, true, info.sandbox.message);
      const ls = await otherClient.run('ls', ['/']);
      assert.equal(ls.exitCode, 0, ls.output);
      const top = ls.output.split('\n').filter(Boolean);
      assert.ok(top.includes('usr') && top.includes('tmp'), top.join(' '));
      for (const hidden of ['root', 'work', 'boot', 'var']) assert.ok(!top.includes(hidden), `${hidden} is visible: ${top.join(' ')}`);
      const env = await otherClient.run('cat', [`/proc/${child.pid}/environ`]);
      assert.notEqual(env.exitCode, 0);
      const made = await otherClient.call('write', { path: 'by-page.txt', contents: 'from the page' });
      assert.equal(made.ok, true);
      const changed = await otherClient.node("const fs = require('fs'); fs.appendFileSync('by-page.txt', ', then the command'); console.log(fs.readFileSync('by-page.txt', 'utf8'))");
      assert.equal(changed.output, 'from the page, then the command\n');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(dirname(other.workspace), { recursive: true, force: true });
    }
  });
});

describe('sandbox: ends with the server', () => {
  it('[BOX-1] when the server process dies, every process of its sandboxes dies too', async () => {
    const { child, server: other } = await startServerProcess();
    const otherClient = runnerClient(() => other);
    try {
      const started = await otherClient.call('spawn', { command: 'node', args: ['-e', "require('child_process').spawn('sleep', ['60']); console.log('up'); setInterval(() => {}, 1000)"] });
      await waitUntil(() => descendantsOf(started.process.pid).length >= 3, 10_000, 'node and sleep');
      const pids = descendantsOf(child.pid).filter((pid) => pid !== child.pid);
      child.kill('SIGKILL');
      await waitUntil(() => pids.every(isGone), 5000, 'the sandbox to die with the server');
    } finally {
      child.kill('SIGKILL');
      await rm(dirname(other.workspace), { recursive: true, force: true });
    }
  });
});
