// The Node runner's sandbox (BOX-1..4) attacked through the runner's HTTP API, with the requests
// the node page sends for node_run_command and the file operations. Each test asserts what the
// agent gets back and that the host is untouched. Run: node --test test/node/sandbox.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../playground/server/serve.mjs';
import { descendantsOf, isGone, manualTimers, runnerClient, waitUntil } from './sandbox-harness.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SECRET = `box-secret-${process.pid}-${Date.now()}`;

const LIMITS = {
  processes: 48,
  memoryBytes: 768 * 1024 * 1024,
  fileBytes: 8 * 1024 * 1024,
  cpuSeconds: 20,
  outputChars: 2 * 1024 * 1024,
  timeMs: 600_000,
};

let root;
let outside;
let server;
let timers;
let markers;
const { call, run, node, follow } = runnerClient(() => server);

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'ai-ops-box-test-'));
  outside = join(root, 'outside');
  await mkdir(outside);
  process.env.AI_OPS_TEST_SECRET = SECRET;
  // Markers the sandbox must not see: one in the server's HOME, one in /root.
  markers = [join(homedir(), `.ai-ops-marker-${process.pid}`), `/root/.ai-ops-marker-root-${process.pid}`];
  for (const marker of markers) await writeFile(marker, `marker ${SECRET}\n`);
  timers = manualTimers();
  server = await startServer({ port: 0, root, runner: { limits: LIMITS, timers } });
});

after(async () => {
  await server?.close();
  for (const marker of markers ?? []) await rm(marker, { force: true });
  await rm(root, { recursive: true, force: true });
});

describe('sandbox: what a command can see (BOX-1)', () => {
  it('[BOX-1] a marker file in the server HOME and in /root cannot be read (cat, node, a child process)', async () => {
    for (const marker of markers) {
      const cat = await run('cat', [marker]);
      assert.notEqual(cat.exitCode, 0, cat.output);
      assert.doesNotMatch(cat.output, new RegExp(SECRET));
      const child = await node(`try { console.log(require('child_process').execSync(${JSON.stringify(`cat ${marker}`)}, { stdio: 'pipe' }).toString()) } catch (e) { console.log('failed', e.status) }`);
      assert.doesNotMatch(child.output, new RegExp(SECRET));
      assert.match(child.output, /failed/);
      assert.ok(readFileSync(marker, 'utf8').includes(SECRET), 'the marker is still there on the host');
    }
  });

  it('[BOX-1] the repository, /root and the server environment are invisible; commands run as an unprivileged user', async () => {
    const ls = await run('ls', [repo]);
    assert.notEqual(ls.exitCode, 0, ls.output);
    assert.doesNotMatch(ls.output, /package\.json/);
    const env = await run('cat', [`/proc/${process.pid}/environ`]);
    assert.notEqual(env.exitCode, 0);
    assert.doesNotMatch(env.output, new RegExp(SECRET));
    const self = await node("console.log(JSON.stringify({ uid: process.getuid(), env: process.env, pid: process.pid })); setTimeout(() => {}, 300)");
    const seen = JSON.parse(self.output);
    assert.notEqual(seen.uid, 0);
    assert.equal(seen.env.AI_OPS_TEST_SECRET, undefined);
    assert.ok(!self.output.includes(server.token), 'the token is not in the environment');
    assert.ok(seen.pid < 10, `own PID namespace: node is pid ${seen.pid} inside`);
  });

  it('[BOX-1] the host uid of every sandboxed process is not root', async () => {
    const started = await call('spawn', { command: 'node', args: ['-e', "require('child_process').spawn('sleep', ['5']); console.log('up'); setTimeout(() => {}, 5000)"] });
    const lines = [];
    const stream = follow(started.process.id, 0, (line) => lines.push(line));
    await waitUntil(() => lines.some((l) => l.type === 'output' && l.data.includes('up')), 15_000, 'node to print up');
    const pids = descendantsOf(started.process.pid);
    assert.ok(pids.length >= 3, `bwrap, node and sleep at least: ${pids}`);
    for (const pid of pids) {
      const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      assert.notEqual(uid, '0', `pid ${pid} runs as host uid ${uid}`);
    }
    await call('kill', { id: started.process.id });
    await stream;
    // The kernel tears the PID namespace down once its init is gone; that takes a moment.
    await waitUntil(() => pids.every(isGone), 5000, 'every sandboxed process to be gone').catch(() => {});
    for (const pid of pids) assert.ok(isGone(pid), `pid ${pid} is gone after kill`);
  });

  it('[BOX-1] writes outside the workspace do not reach the host: direct, through /proc/self/root, through ..', async () => {
    const targets = {
      touch: join(outside, 'touched'),
      proc: join(outside, 'via-proc-root'),
      dotdot: join(outside, 'via-dotdot'),
    };
    await run('touch', [targets.touch]);
    await node(`try { require('child_process').execSync(${JSON.stringify(`echo x > /proc/self/root${targets.proc}`)}, { stdio: 'pipe' }) } catch {}`);
    const up = relative(server.workspace, targets.dotdot);
    await node(`try { require('child_process').execSync(${JSON.stringify(`echo x > ${up}`)}, { stdio: 'pipe' }) } catch {}`);
    for (const [how, target] of Object.entries(targets)) assert.ok(!existsSync(target), `${how}: ${target} exists on the host`);
    const etc = await node(`try { require('child_process').execSync('echo x >> /etc/ai-ops-box', { stdio: 'pipe' }); console.log('wrote') } catch { console.log('refused') }`);
    assert.match(etc.output, /refused/);
    assert.ok(!existsSync('/etc/ai-ops-box'));
  });

  it('[BOX-1] the server process and other host processes cannot be signalled', async () => {
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const result = await node(`for (const pid of [${process.pid}, ${sleeper.pid}]) { try { process.kill(pid, pid === ${sleeper.pid} ? 'SIGKILL' : 0); console.log(pid, 'signalled') } catch (e) { console.log(pid, e.code) } }`);
      assert.doesNotMatch(result.output, /signalled/);
      assert.ok(!isGone(sleeper.pid), 'the host process still runs');
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});

describe('sandbox: network (BOX-2)', () => {
  it('[BOX-2] the demo server port and a relay-like port on 127.0.0.1 are unreachable from inside', async () => {
    let connections = 0;
    const relay = createServer((socket) => { connections += 1; socket.end('relay'); });
    await new Promise((resolve) => relay.listen(0, '127.0.0.1', resolve));
    try {
      const ports = [server.port, relay.address().port];
      const script = `const net = require('net'); let left = ${ports.length};
        for (const port of ${JSON.stringify(ports)}) {
          const s = net.connect(port, '127.0.0.1');
          s.setTimeout(3000, () => { console.log(port, 'timeout'); s.destroy(); });
          s.on('connect', () => { console.log(port, 'connected'); s.destroy(); });
          s.on('error', (e) => console.log(port, e.code));
          s.on('close', () => { if (--left === 0) process.exit(0); });
        }`;
      const result = await node(script);
      assert.doesNotMatch(result.output, /connected/);
      assert.equal(connections, 0);
    } finally {
      relay.close();
    }
  });

  it('[BOX-2] npm install says that the sandbox has no network', async () => {
    const result = await run('npm', ['install', 'left-pad', '--no-audit']);
    assert.notEqual(result.exitCode, 0);
    assert.match(result.output, /ai-ops runner: the sandbox has no network/);
    assert.ok(!existsSync(join(server.workspace, 'node_modules', 'left-pad')));
  });
});

describe('sandbox: file operations stay inside (BOX-4)', () => {
  it('[BOX-4] node_write_file through a dangling symlink does not write outside the workspace', async () => {
    const target = join(outside, 'dangling-target.txt');
    await symlink(target, join(server.workspace, 'dangling'));
    await symlink(relative(server.workspace, join(outside, 'dangling-relative.txt')), join(server.workspace, 'dangling-rel'));
    for (const path of ['dangling', 'dangling-rel']) {
      const res = await call('write', { path, contents: 'escaped' });
      assert.deepEqual([res.ok, res.code], [false, 'invalid_path'], path);
    }
    assert.ok(!existsSync(target), 'nothing was written outside');
    assert.ok(!existsSync(join(outside, 'dangling-relative.txt')));
    await rm(join(server.workspace, 'dangling'));
    await rm(join(server.workspace, 'dangling-rel'));
  });

  it('[BOX-4] links through .. and links to links outside are refused for read, write and delete', async () => {
    await writeFile(join(outside, 'victim.txt'), 'keep');
    await symlink('..', join(server.workspace, 'up'));
    await symlink(outside, join(server.workspace, 'out'));
    await symlink('out', join(server.workspace, 'hop'));
    await mkdir(join(server.workspace, 'sub'), { recursive: true });
    await symlink('../hop/victim.txt', join(server.workspace, 'sub', 'deep'));
    const paths = ['up/outside/victim.txt', 'out/victim.txt', 'hop/victim.txt', 'sub/deep', 'sub/../hop/victim.txt'];
    for (const path of paths) {
      for (const [op, body] of [['read', { path }], ['write', { path, contents: 'x' }], ['remove', { path }]]) {
        const res = await call(op, body);
        if (op === 'remove' && path === 'sub/deep') {
          assert.equal(res.ok, true, 'the link itself may be removed'); // it is an entry of the workspace
          continue;
        }
        assert.deepEqual([res.ok, res.code], [false, 'invalid_path'], `${op} ${path}: ${JSON.stringify(res)}`);
      }
    }
    assert.equal(await readFile(join(outside, 'victim.txt'), 'utf8'), 'keep');
    for (const name of ['up', 'out', 'hop']) await rm(join(server.workspace, name));
    await rm(join(server.workspace, 'sub'), { recursive: true });
  });

  it('[BOX-4] a FIFO in the workspace is refused by read and write without hanging', async () => {
    const made = await run('node', ['-e', "require('child_process').execSync('mkfifo pipe')"]);
    assert.equal(made.exitCode, 0, made.output);
    const read = await call('read', { path: 'pipe' });
    assert.deepEqual([read.ok, read.code], [false, 'not_text']);
    const write = await call('write', { path: 'pipe', contents: 'x' });
    assert.deepEqual([write.ok, write.code], [false, 'invalid_path']);
    const tree = await call('tree');
    assert.equal(tree.ok, true);
    assert.ok(!tree.entries.some((e) => e.path === 'pipe'), 'a FIFO is neither a file nor a directory');
    assert.deepEqual(await call('remove', { path: 'pipe' }), { ok: true });
  });

  it('[BOX-4] links that stay inside the workspace still work for read and write', async () => {
    await mkdir(join(server.workspace, 'real'), { recursive: true });
    await writeFile(join(server.workspace, 'real', 'a.txt'), 'inside');
    await symlink('real', join(server.workspace, 'alias'));
    assert.equal((await call('read', { path: 'alias/a.txt' })).contents, 'inside');
    assert.equal((await call('write', { path: 'alias/b.txt', contents: 'via link' })).ok, true);
    assert.equal(await readFile(join(server.workspace, 'real', 'b.txt'), 'utf8'), 'via link');
    await rm(join(server.workspace, 'alias'));
    await rm(join(server.workspace, 'real'), { recursive: true });
  });

  it('[BOX-4] a link swapped between inside and outside while writes run never lets one land outside', async () => {
    await mkdir(join(server.workspace, 'real'), { recursive: true });
    const race = join(server.workspace, 'race');
    await symlink('real', race);
    // Another process flips `race` (atomically, by renaming a new link over it) between a
    // directory of the workspace and the outside, as fast as it can.
    const flipper = spawn(process.execPath, ['-e', `
      const fs = require('fs'); const race = ${JSON.stringify(race)}; const tmp = race + '.tmp';
      let told = false;
      for (;;) { try { fs.symlinkSync(${JSON.stringify(outside)}, tmp); fs.renameSync(tmp, race); fs.symlinkSync('real', tmp); fs.renameSync(tmp, race); if (!told) { told = true; process.stdout.write('flipping\\n'); } } catch {} }`], { stdio: ['ignore', 'pipe', 'ignore'] });
    const codes = new Map();
    try {
      await once(flipper.stdout, 'data'); // it flipped the link both ways once: it is flipping
      for (let i = 0; i < 500; i++) {
        const res = await call('write', { path: `race/f${i}.txt`, contents: 'x' });
        const key = res.ok ? 'ok' : res.code;
        codes.set(key, (codes.get(key) ?? 0) + 1);
      }
    } finally {
      flipper.kill('SIGKILL');
      await new Promise((resolve) => flipper.once('exit', resolve));
    }
    assert.ok(codes.get('ok') > 0 && codes.get('invalid_path') > 0, `the link did flip: ${JSON.stringify([...codes])}`);
    const landed = readdirSync(outside).filter((n) => n.startsWith('f'));
    assert.deepEqual(landed, [], 'no write landed outside');
    await rm(race, { force: true });
    await rm(`${race}.tmp`, { force: true });
    await rm(join(server.workspace, 'real'), { recursive: true });
  });
});
