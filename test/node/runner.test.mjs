// The Node runner API (/__runner/) of the demo server: its locks, the workspace file operations
// and the processes. Run: node --test test/node/runner.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../playground/server/serve.mjs';
import { descendantsOf, isGone, waitUntil } from './sandbox-harness.mjs';

let root;
let server;

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'ai-ops-runner-test-'));
  process.env.AI_OPS_TEST_SECRET = 'do-not-leak-this';
  server = await startServer({ port: 0, root });
});

after(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

/** One raw request; `headers` replace the defaults (a value of undefined removes one). */
function raw({ method = 'POST', path, headers = {}, body }) {
  const defaults = {
    host: new URL(server.origin).host,
    origin: server.origin,
    'x-ai-ops-token': server.token,
    'content-type': 'application/json',
  };
  const merged = { ...defaults, ...headers };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path, headers: merged }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let json;
        try { json = JSON.parse(text); } catch { json = undefined; }
        resolve({ status: res.statusCode, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function call(name, body = {}) {
  const res = await raw({ path: `/__runner/${name}`, body });
  assert.equal(res.status, 200, `${name}: ${res.text}`);
  return res.json;
}

/** Opens the NDJSON output stream of a process; lines arrive as they are produced. */
function follow(id, from = 0) {
  const lines = [];
  const waiters = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      if (waiter.test(lines)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(lines);
      }
    }
  };
  let pending = '';
  const done = new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port: server.port, method: 'POST', path: '/__runner/output',
      headers: { host: new URL(server.origin).host, origin: server.origin, 'x-ai-ops-token': server.token, 'content-type': 'application/json' },
    }, (res) => {
      assert.match(res.headers['content-type'], /^application\/x-ndjson/);
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        pending += chunk;
        let nl;
        while ((nl = pending.indexOf('\n')) !== -1) {
          lines.push(JSON.parse(pending.slice(0, nl)));
          pending = pending.slice(nl + 1);
        }
        check();
      });
      res.on('end', () => resolve(lines));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ id, from }));
  });
  const outputOf = (ls) => ls.filter((l) => l.type === 'output').map((l) => l.data).join('');
  return {
    done,
    outputOf,
    waitFor: (test) => new Promise((resolve) => { waiters.push({ test, resolve }); check(); }),
  };
}

/** Starts a command and waits for it to end: { exitCode, output, firstOffset, info }. */
async function run(command, args = [], name) {
  const started = await call('spawn', { command, args, ...(name ? { name } : {}) });
  assert.equal(started.ok, true, JSON.stringify(started));
  const stream = follow(started.process.id);
  const lines = await stream.done;
  const exit = lines.find((l) => l.type === 'exit');
  assert.ok(exit, `no exit line: ${JSON.stringify(lines).slice(0, 500)}`);
  const outputs = lines.filter((l) => l.type === 'output');
  return { exitCode: exit.process.exitCode, output: stream.outputOf(lines), firstOffset: outputs[0]?.offset ?? 0, info: exit.process, started: started.process };
}

describe('runner: who may call it', () => {
  it('[RUNNER] a request from another Origin is refused with 403', async () => {
    const res = await raw({ path: '/__runner/info', body: {}, headers: { origin: 'http://evil.example' } });
    assert.equal(res.status, 403);
    assert.equal(res.json.code, 'forbidden_origin');
    const other = await raw({ path: '/__runner/info', body: {}, headers: { origin: `http://127.0.0.1:${server.port + 1}` } });
    assert.equal(other.status, 403);
    // The page's origin is http://localhost:<port>; the same server named by its IP is another origin.
    const byAddress = await raw({ path: '/__runner/info', body: {}, headers: { origin: `http://127.0.0.1:${server.port}` } });
    assert.equal(byAddress.status, 403);
    assert.equal((await raw({ path: '/__runner/info', body: {} })).status, 200, 'the page\'s own origin, http://localhost:<port>');
  });

  it('[RUNNER] a request without Origin is refused with 403', async () => {
    const res = await raw({ path: '/__runner/info', body: {}, headers: { origin: undefined } });
    assert.equal(res.status, 403);
  });

  it('[RUNNER] a request without the token is refused with 401', async () => {
    const res = await raw({ path: '/__runner/spawn', body: { command: 'echo', args: ['x'] }, headers: { 'x-ai-ops-token': undefined } });
    assert.equal(res.status, 401);
    assert.equal(res.json.code, 'missing_token');
    assert.equal((await call('processes')).processes.length, 0, 'nothing was started');
  });

  it('[RUNNER] a wrong token is refused with 403', async () => {
    for (const token of ['wrong', `${server.token}x`, server.token.slice(0, -1), '']) {
      const res = await raw({ path: '/__runner/info', body: {}, headers: { 'x-ai-ops-token': token } });
      assert.ok(res.status === 403 || (token === '' && res.status === 401), `${token} → ${res.status}`);
    }
  });

  it('[RUNNER] a Host header of evil.example is refused with 403 (DNS rebinding)', async () => {
    const res = await raw({ path: '/__runner/info', body: {}, headers: { host: 'evil.example', origin: 'http://evil.example' } });
    assert.equal(res.status, 403);
    const withPort = await raw({ path: '/__runner/info', body: {}, headers: { host: `evil.example:${server.port}`, origin: `http://evil.example:${server.port}` } });
    assert.equal(withPort.status, 403);
  });

  it('[RUNNER] localhost:<port> with its own origin is accepted; mixing hosts and origins is not', async () => {
    const ok = await raw({ path: '/__runner/info', body: {}, headers: { host: `localhost:${server.port}`, origin: `http://localhost:${server.port}` } });
    assert.equal(ok.status, 200);
    const mixed = await raw({ path: '/__runner/info', body: {}, headers: { host: `localhost:${server.port}`, origin: `http://127.0.0.1:${server.port}` } });
    assert.equal(mixed.status, 403);
    // UV-4: the server named by its address serves nothing of the runner: it sends the request to localhost.
    const byAddress = await raw({ path: '/__runner/info', body: {}, headers: { host: `127.0.0.1:${server.port}`, origin: `http://localhost:${server.port}` } });
    assert.equal(byAddress.status, 308);
    assert.equal(byAddress.headers.location, `http://localhost:${server.port}/__runner/info`);
  });

  it('[RUNNER] only POST with a JSON body; a cross-site Sec-Fetch-Site is refused', async () => {
    const get = await raw({ method: 'GET', path: '/__runner/tree' });
    assert.equal(get.status, 405);
    const form = await raw({ path: '/__runner/info', body: {}, headers: { 'content-type': 'text/plain' } });
    assert.equal(form.status, 415);
    const site = await raw({ path: '/__runner/info', body: {}, headers: { 'sec-fetch-site': 'cross-site' } });
    assert.equal(site.status, 403);
    const unknown = await raw({ path: '/__runner/nope', body: {} });
    assert.equal(unknown.status, 404);
    for (const res of [get, form, site, unknown]) assert.equal(res.headers['access-control-allow-origin'], undefined);
  });

  it('[RUNNER] info reports the exclude rules, limits and allowed commands', async () => {
    const info = await call('info');
    assert.equal(info.ok, true);
    assert.deepEqual(info.excludes.patterns, ['node_modules/', '.git/']);
    assert.equal(info.maxFileBytes, 1024 * 1024);
    assert.equal(info.outputLimit, 200_000);
    assert.ok(info.commands.includes('node'));
  });
});

describe('runner: workspace files', () => {
  it('[FILE-2] paths that leave the workspace are refused: ../x, /etc/passwd, a/../../x', async () => {
    for (const path of ['../x', '/etc/passwd', 'a/../../x', '..', '', '.', 'C:\\x', 'a\\..\\..\\x']) {
      for (const [op, body] of [['read', { path }], ['write', { path, contents: 'x' }], ['remove', { path }]]) {
        const res = await call(op, body);
        assert.deepEqual([res.ok, res.code], [false, 'invalid_path'], `${op} ${JSON.stringify(path)}`);
      }
    }
    assert.ok(!existsSync(join(server.workspace, '..', 'x')));
  });

  it('[FILE-2] a symlink inside the workspace that points to /etc is not followed', async () => {
    await symlink('/etc', join(server.workspace, 'etc-link'));
    await symlink('/etc/passwd', join(server.workspace, 'passwd-link'));
    const before = readFileSync('/etc/hostname', 'utf8');
    for (const path of ['etc-link/passwd', 'passwd-link', 'etc-link/hostname']) {
      const read = await call('read', { path });
      assert.deepEqual([read.ok, read.code], [false, 'invalid_path'], path);
    }
    const write = await call('write', { path: 'etc-link/ai-ops-should-not-exist', contents: 'x' });
    assert.deepEqual([write.ok, write.code], [false, 'invalid_path']);
    assert.ok(!existsSync('/etc/ai-ops-should-not-exist'));
    const remove = await call('remove', { path: 'etc-link/hostname' });
    assert.deepEqual([remove.ok, remove.code], [false, 'invalid_path']);
    assert.equal(readFileSync('/etc/hostname', 'utf8'), before);
    const { entries } = await call('tree');
    assert.ok(!entries.some((e) => e.path.startsWith('etc-link') || e.path === 'passwd-link'), 'links to the outside are not listed');
    // Removing the link itself is fine: it is a file entry of the workspace.
    assert.equal((await call('remove', { path: 'passwd-link' })).ok, true);
    assert.ok(existsSync('/etc/passwd'));
    await rm(join(server.workspace, 'etc-link'));
  });

  it('[FILE-3] the tree lists every level with kinds; exclude-matched directories are flagged and not entered', async () => {
    await mkdir(join(server.workspace, 'node_modules', 'dep'), { recursive: true });
    await writeFile(join(server.workspace, 'node_modules', 'dep', 'index.js'), '');
    await mkdir(join(server.workspace, 'src', '.git'), { recursive: true });
    await writeFile(join(server.workspace, 'src', '.git', 'HEAD'), 'ref');
    await writeFile(join(server.workspace, 'src', 'deep.js'), '1');
    await writeFile(join(server.workspace, 'big.txt'), 'a'.repeat(1024 * 1024 + 1));
    await writeFile(join(server.workspace, 'image.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
    const { ok, entries, truncated } = await call('tree');
    assert.equal(ok, true);
    assert.equal(truncated, false);
    const byPath = Object.fromEntries(entries.map((e) => [e.path, e]));
    assert.deepEqual(byPath['src'], { path: 'src', kind: 'directory', excluded: false });
    assert.deepEqual(byPath['src/deep.js'], { path: 'src/deep.js', kind: 'file', excluded: false });
    assert.deepEqual(byPath['node_modules'], { path: 'node_modules', kind: 'directory', excluded: true });
    assert.deepEqual(byPath['src/.git'], { path: 'src/.git', kind: 'directory', excluded: true });
    assert.equal(byPath['node_modules/dep'], undefined);
    assert.equal(byPath['src/.git/HEAD'], undefined);
    assert.equal(byPath['big.txt'].excluded, true);
    assert.equal(byPath['image.bin'].excluded, true);
    assert.equal(byPath['index.js'].excluded, false);
    assert.deepEqual(entries.map((e) => e.path), entries.map((e) => e.path).sort());
  });

  it('[FILE-4] read: text contents; over 1 MiB too_large; binary not_text; missing not_found; a directory is_directory', async () => {
    await writeFile(join(server.workspace, 'exact.txt'), 'é'.repeat(512 * 1024)); // exactly 1 MiB
    const exact = await call('read', { path: 'exact.txt' });
    assert.equal(exact.ok, true);
    assert.equal(exact.contents.length, 512 * 1024);
    await writeFile(join(server.workspace, 'big.txt'), 'a'.repeat(1024 * 1024 + 1));
    await writeFile(join(server.workspace, 'nul.txt'), 'abc\0def');
    await writeFile(join(server.workspace, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    await mkdir(join(server.workspace, 'dir'), { recursive: true });
    const code = async (path) => (await call('read', { path })).code;
    assert.equal(await code('big.txt'), 'too_large');
    assert.equal(await code('nul.txt'), 'not_text');
    assert.equal(await code('latin1.txt'), 'not_text');
    assert.equal(await code('missing.txt'), 'not_found');
    assert.equal(await code('missing-dir/x.txt'), 'not_found');
    assert.equal(await code('dir'), 'is_directory');
    assert.equal((await call('read', { path: 'package.json' })).contents, await readFile(join(server.workspace, 'package.json'), 'utf8'));
  });

  it('[FILE-5] write overwrites and creates missing parent directories; over 1 MiB is too_large', async () => {
    assert.deepEqual(await call('write', { path: 'a/b/c.txt', contents: 'first' }), { ok: true });
    assert.deepEqual(await call('write', { path: 'a/b/c.txt', contents: 'second ✓\n' }), { ok: true });
    assert.equal(await readFile(join(server.workspace, 'a/b/c.txt'), 'utf8'), 'second ✓\n');
    assert.equal((await call('read', { path: 'a/./b/../b/c.txt' })).contents, 'second ✓\n');
    const big = await call('write', { path: 'huge.txt', contents: 'x'.repeat(1024 * 1024 + 1) });
    assert.deepEqual([big.ok, big.code], [false, 'too_large']);
    const onDir = await call('write', { path: 'a/b', contents: 'x' });
    assert.deepEqual([onDir.ok, onDir.code], [false, 'is_directory']);
  });

  it('[FILE-6] remove deletes files only: a directory is_directory, missing not_found', async () => {
    await call('write', { path: 'gone/soon.txt', contents: 'x' });
    assert.deepEqual(await call('remove', { path: 'gone/soon.txt' }), { ok: true });
    assert.ok(!existsSync(join(server.workspace, 'gone/soon.txt')));
    const dir = await call('remove', { path: 'gone' });
    assert.deepEqual([dir.ok, dir.code], [false, 'is_directory']);
    assert.ok(existsSync(join(server.workspace, 'gone')));
    const missing = await call('remove', { path: 'gone/soon.txt' });
    assert.deepEqual([missing.ok, missing.code], [false, 'not_found']);
  });

  it('[RUNNER] malformed bodies are 400', async () => {
    assert.equal((await raw({ path: '/__runner/read', body: { path: 3 } })).status, 400);
    assert.equal((await raw({ path: '/__runner/write', body: { path: 'x' } })).status, 400);
    assert.equal((await raw({ path: '/__runner/spawn', body: { command: 'node', args: 'x' } })).status, 400);
    const notJson = await new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, method: 'POST', path: '/__runner/read', headers: { host: new URL(server.origin).host, origin: server.origin, 'x-ai-ops-token': server.token, 'content-type': 'application/json' } }, (res) => { res.resume(); resolve(res.statusCode); });
      req.on('error', reject);
      req.end('{not json');
    });
    assert.equal(notJson, 400);
  });
});

describe('runner: processes', () => {
  it('[NODE-3] runs node with args unchanged, under the given name, in the workspace', async () => {
    const result = await run('node', ['-e', 'console.log(process.argv.slice(1).join("|"), process.cwd())', 'a b', '$HOME', '"q"'], 'ai: node');
    assert.equal(result.exitCode, 0);
    assert.equal(result.output, `a b|$HOME|"q" ${server.workspace}\n`);
    assert.equal(result.info.name, 'ai: node');
    const listed = (await call('processes')).processes.find((p) => p.id === result.info.id);
    assert.deepEqual([listed.name, listed.status, listed.exitCode], ['ai: node', 'exited', 0]);
  });

  it('[NODE-3] a non-zero exit code is reported as is, with stderr in the output', async () => {
    const result = await run('node', ['-e', 'console.error("bad"); process.exit(3)']);
    assert.equal(result.exitCode, 3);
    assert.equal(result.output, 'bad\n');
  });

  it('[RUNNER] node runs under the permission model: reading /etc/passwd fails', async () => {
    const result = await run('node', ['-e', "require('fs').readFileSync('/etc/passwd')"]);
    assert.notEqual(result.exitCode, 0);
    assert.match(result.output, /ERR_ACCESS_DENIED/);
    assert.doesNotMatch(result.output, /root:/);
    const write = await run('node', ['-e', `require('fs').writeFileSync(${JSON.stringify(join(root, 'escaped.txt'))}, 'x')`]);
    assert.notEqual(write.exitCode, 0);
    assert.ok(!existsSync(join(root, 'escaped.txt')));
    const inside = await run('node', ['-e', "require('fs').writeFileSync('made.txt', 'ok'); console.log(require('fs').readFileSync('made.txt', 'utf8'))"]);
    assert.deepEqual([inside.exitCode, inside.output], [0, 'ok\n']);
  });

  it('[RUNNER] options that would lift the permission model are refused', async () => {
    for (const arg of ['--allow-fs-read=/', '--allow-fs-write=*', '--no-experimental-permission', '--inspect=0', '--inspect-brk']) {
      const result = await run('node', [arg, '-e', "console.log(require('fs').readFileSync('/etc/passwd', 'utf8').length)"]);
      assert.equal(result.exitCode, 126, arg);
      assert.match(result.output, /not allowed/, arg);
    }
  });

  it('[RUNNER] the environment is cleaned: no server secrets, HOME outside the real home', async () => {
    const result = await run('node', ['-e', 'console.log(JSON.stringify(process.env))']);
    const env = JSON.parse(result.output);
    assert.equal(env.AI_OPS_TEST_SECRET, undefined);
    assert.ok(!result.output.includes(server.token));
    assert.ok(!result.output.includes('do-not-leak-this'));
    assert.notEqual(env.HOME, homedir());
    assert.ok(env.PATH);
    // The sandbox's own set (bwrap --clearenv): PWD comes from bwrap's --chdir.
    assert.deepEqual(Object.keys(env).sort(), ['HOME', 'LANG', 'PATH', 'PWD', 'TMPDIR', 'npm_config_audit', 'npm_config_cache', 'npm_config_fund', 'npm_config_offline', 'npm_config_update_notifier']);
    assert.equal(env.HOME, '/home/sandbox');
  });

  it('[RUNNER] commands outside the allowed list end with 127 and say why; no shell interprets arguments', async () => {
    const bash = await run('bash', ['-c', 'echo hi']);
    assert.equal(bash.exitCode, 127);
    assert.match(bash.output, /command not allowed: bash/);
    const echo = await run('echo', ['$(id)', '; ls', '`whoami`']);
    assert.deepEqual([echo.exitCode, echo.output], [0, '$(id) ; ls `whoami`\n']);
  });

  it('[NODE-4] kill ends the process and the child it started (the whole sandbox)', async () => {
    const script = "const c=require('child_process').spawn('sleep',['30'],{stdio:'ignore'}); console.log('child', c.pid); setInterval(()=>{},1000)";
    const started = await call('spawn', { command: 'node', args: ['-e', script], name: 'ai: node' });
    const stream = follow(started.process.id);
    await stream.waitFor((ls) => /child \d+/.test(stream.outputOf(ls)));
    // Pids printed inside are the sandbox's own PID namespace: look at the host's view instead.
    const pids = descendantsOf(started.process.pid);
    const commands = pids.map((pid) => { try { return readFileSync(`/proc/${pid}/comm`, 'utf8').trim(); } catch { return ''; } });
    assert.ok(commands.includes('sleep') && commands.includes('node'), `node and its child run: ${commands}`);
    const killed = await call('kill', { id: started.process.id });
    assert.equal(killed.ok, true);
    assert.equal(killed.process.status, 'exited');
    assert.equal(killed.process.exitCode, 137); // 128 + SIGKILL
    const end = await stream.done;
    assert.equal(end.at(-1).type, 'exit');
    // The kernel tears the sandbox's PID namespace down once its init is gone; a dead process
    // may stay a zombie until reaped, which isGone counts as gone.
    await waitUntil(() => pids.every(isGone), 5000, 'every process of the sandbox to be gone').catch(() => {});
    for (const pid of pids) assert.ok(isGone(pid), `pid ${pid} (${commands[pids.indexOf(pid)]}) is gone`);
  });

  it('[NODE-5] the runner keeps the last 200,000 characters of output (enough for the last 100,000) and reports how much was dropped', async () => {
    const result = await run('node', ['-e', "process.stdout.write('a'.repeat(150000) + 'b'.repeat(150000) + 'END')"]);
    assert.equal(result.exitCode, 0);
    // A subscriber that was there from the start saw every chunk live; the server kept only the tail.
    const replay = follow(result.info.id);
    const lines = await replay.done;
    const kept = replay.outputOf(lines);
    assert.equal(kept.length, 200_000);
    assert.equal(lines[0].offset, 100_003, 'the offset says how much was dropped');
    assert.ok(kept.endsWith('END'));
    assert.equal(kept.slice(0, 49_997), 'a'.repeat(49_997));
    assert.equal(kept.slice(49_997, -3), 'b'.repeat(150_000));
  });

  it('[RUNNER] the output stream resumes from an offset and shows live output before the exit', async () => {
    const started = await call('spawn', { command: 'node', args: ['-e', "console.log('one'); setTimeout(() => console.log('two'), 300)"] });
    const live = follow(started.process.id);
    const early = await live.waitFor((ls) => live.outputOf(ls).includes('one'));
    assert.ok(!early.some((l) => l.type === 'exit'), 'output arrives before the process ends');
    await live.done;
    const resumed = follow(started.process.id, 4);
    assert.equal(resumed.outputOf(await resumed.done), 'two\n');
    const unknown = await call('kill', { id: 'p-none' });
    assert.deepEqual([unknown.ok, unknown.code], [false, 'not_found']);
    const noStream = follow('p-none');
    assert.deepEqual((await noStream.done).map((l) => l.type), ['error']);
  });

  it('[RUNNER] npm runs from the workspace (sample project start script)', async () => {
    const result = await run('npm', ['start', '--silent']);
    assert.equal(result.exitCode, 0, result.output);
    assert.match(result.output, /Hello from Node v\d+/);
  });
});
