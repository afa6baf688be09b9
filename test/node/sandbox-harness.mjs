// Shared by the sandbox suites: a demo server started in this process and the same requests the
// node page sends (playground/node/engine/node-runtime.ts): POST /__runner/<name> with the token.
// Not a test file itself (no `.test.` in the name).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { waitFor } from '../e2e/harness.mjs';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Binds the helpers to one started server.
 * @param {() => {port: number, origin: string, token: string}} getServer
 */
export function runnerClient(getServer) {
  const headers = () => {
    const server = getServer();
    return {
      host: new URL(server.origin).host,
      origin: server.origin,
      'x-ai-ops-token': server.token,
      'content-type': 'application/json',
    };
  };

  /** One POST; resolves with status and parsed JSON. */
  function post(name, body = {}) {
    const server = getServer();
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, method: 'POST', path: `/__runner/${name}`, headers: headers() }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let json;
          try { json = JSON.parse(text); } catch { json = undefined; }
          resolve({ status: res.statusCode, text, json });
        });
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  }

  async function call(name, body = {}) {
    const res = await post(name, body);
    assert.equal(res.status, 200, `${name}: ${res.text}`);
    return res.json;
  }

  /** The NDJSON output stream of a process until its exit line. */
  function follow(id, from = 0, onLine = () => {}) {
    const server = getServer();
    return new Promise((resolve, reject) => {
      const lines = [];
      let pending = '';
      const req = request({ host: '127.0.0.1', port: server.port, method: 'POST', path: '/__runner/output', headers: headers() }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          pending += chunk;
          let nl;
          while ((nl = pending.indexOf('\n')) !== -1) {
            const line = JSON.parse(pending.slice(0, nl));
            pending = pending.slice(nl + 1);
            lines.push(line);
            onLine(line, lines);
          }
        });
        res.on('end', () => resolve(lines));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ id, from }));
    });
  }

  const outputOf = (lines) => lines.filter((l) => l.type === 'output').map((l) => l.data).join('');

  /** Starts a command (as node_run_command does) and waits for its exit: {exitCode, output, info}. */
  async function run(command, args = [], { onLine } = {}) {
    const started = await call('spawn', { command, args, name: `ai: ${command}` });
    assert.equal(started.ok, true, JSON.stringify(started));
    const lines = await follow(started.process.id, 0, onLine);
    const exit = lines.find((l) => l.type === 'exit');
    assert.ok(exit, `no exit line: ${JSON.stringify(lines).slice(0, 500)}`);
    return { exitCode: exit.process.exitCode, output: outputOf(lines), info: exit.process, started: started.process };
  }

  /** `node -e script` through the runner. */
  const node = (script, options) => run('node', ['-e', script], options);

  return { post, call, follow, run, node, outputOf };
}

/** Host pids of `pid` and all its descendants (walks /proc). */
export function descendantsOf(pid) {
  const parents = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(name), ppid);
    } catch {
      // exited meanwhile
    }
  }
  const found = [pid];
  for (let i = 0; i < found.length; i++) {
    for (const [child, parent] of parents) if (parent === found[i]) found.push(child);
  }
  return found;
}

/** Polls `test` (sync or async) until it answers truthy, or throws after `ms` (the e2e harness's waitFor). */
export const waitUntil = (test, ms, what) => waitFor(test, ms, what);

/** True when no live (non-zombie) process has this pid. */
export function isGone(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return error.code === 'ESRCH';
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? false;
  } catch {
    return true;
  }
}

/** Timers a test fires by hand: the runner's wall-clock limit is time, not a wait. */
export function manualTimers() {
  const pending = new Map();
  let next = 1;
  return {
    setTimeout(callback, ms) { const id = next++; pending.set(id, { callback, ms }); return id; },
    clearTimeout(id) { pending.delete(id); },
    /** Runs every pending timer of `ms` milliseconds. */
    fire(ms) { for (const [id, t] of [...pending]) if (t.ms === ms) { pending.delete(id); t.callback(); } },
    count(ms) { return [...pending.values()].filter((t) => t.ms === ms).length; },
  };
}
