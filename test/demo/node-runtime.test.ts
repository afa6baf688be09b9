// The node page's runner client in real Chromium, against a scripted fetch (web-test-runner has
// no demo server; test/node/runner-client.test.mjs runs the same client against the real one).
import { expect } from '@open-wc/testing';
import { KILL_WAIT_MS, NodeRuntime, NodeRuntimeError, TOKEN_PLACEHOLDER, isExcludedPath, readRunnerToken } from '../../playground/node/engine/node-runtime.js';
import { FakeClock } from '../runtime/helpers.js';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

/**
 * A response whose body arrives in the given pieces, cut anywhere (even inside a line): one piece
 * per read, each given only when the reader asks for the next (the stream pulls it), then the end.
 */
const chunked = (pieces: string[]) => {
  const encoder = new TextEncoder();
  const left = [...pieces];
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const piece = left.shift();
        if (piece === undefined) controller.close();
        else controller.enqueue(encoder.encode(piece));
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(stream, { headers: { 'content-type': 'application/x-ndjson' } });
};

const info = { ok: true, api: 1, excludes: { patterns: ['node_modules/'], maxFileBytes: 1048576, textOnly: true }, outputLimit: 200000 };

function scriptedFetch(routes: Record<string, (call: Call) => Response>) {
  const calls: Call[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: Call = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: init?.headers as Record<string, string>,
      body: JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>,
    };
    calls.push(call);
    const endpoint = call.url.split('/').pop() ?? '';
    const route = routes[endpoint];
    if (!route) return json({ ok: false, code: 'unknown_endpoint' }, 404);
    return route(call);
  }) as typeof fetch;
  return { calls, fetchImpl };
}

/** An output stream the test writes line by line, as the runner does while a process runs. */
function liveOutput() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    response: () => new Response(stream, { headers: { 'content-type': 'application/x-ndjson' } }),
    line: (value: unknown) => controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`)),
    close: () => controller.close(),
  };
}

/** A runner with one long-running process `p1` whose kill the test decides on. */
async function runnerWithServer(onKill: (out: ReturnType<typeof liveOutput>) => void) {
  const wire = { id: 'p1', name: 'ai: node', command: 'node', args: ['server.js'], pid: 7, status: 'running', exitCode: null };
  const out = liveOutput();
  let killed!: () => void;
  const kill = new Promise<void>((resolve) => (killed = resolve));
  const { calls, fetchImpl } = scriptedFetch({
    info: () => json(info),
    tree: () => json({ ok: true, truncated: false, entries: [] }),
    spawn: () => json({ ok: true, process: wire }),
    output: () => out.response(),
    kill: () => {
      onKill(out);
      killed();
      return json({ ok: true });
    },
  });
  const clock = new FakeClock();
  const runtime = new NodeRuntime({ token: 'T', fetch: fetchImpl, clock });
  await runtime.boot();
  /** Resolves once `p1` has shown `text` to the page (its output as the terminal pane follows it). */
  const shown = (text: string) =>
    new Promise<void>((resolve) => {
      const follow = () => {
        const proc = runtime.processes.get('p1');
        if (!proc) return;
        stopList();
        proc.output.subscribe((chunk) => {
          if (proc.output.getText().includes(text)) resolve();
        });
      };
      const stopList = runtime.processes.list.subscribe(follow);
      follow();
    });
  const exitLine = { type: 'exit', process: { ...wire, status: 'exited', exitCode: 137 } };
  return { runtime, out, clock, calls, kill, shown, exitLine };
}

describe('NodeRuntime.run: the node page\'s run race behind the adapter (run contract)', () => {
  it('[NAT-6] [NAT-2] the call\'s signal kills the process; run resolves cancelled with the output so far once the runner confirms the exit', async () => {
    const server = await runnerWithServer((out) => {
      out.line(server.exitLine);
      out.close();
    });
    const controller = new AbortController();
    const running = server.runtime.run('node', ['server.js'], { name: 'ai: node', timeoutMs: 30_000, signal: controller.signal });
    const listening = server.shown('listening\n');
    // The spawn call has to be made before the stream can carry a line.
    while (!server.calls.some((c) => c.url.endsWith('/output'))) await new Promise((r) => setTimeout(r, 0));
    server.out.line({ type: 'output', offset: 0, data: 'listening\n' });
    await listening;
    controller.abort();
    expect(await running).to.deep.equal({ kind: 'cancelled', output: 'listening\n', truncated: false, killConfirmed: true });
    expect(server.calls.filter((c) => c.url.endsWith('/kill')).map((c) => c.body)).to.deep.equal([{ id: 'p1' }]);
    expect(server.calls.find((c) => c.url.endsWith('/spawn'))?.body).to.deep.equal({ command: 'node', args: ['server.js'], name: 'ai: node' });
  });

  it('[NODE-4] timeoutMs on the injected clock kills the process; an end never confirmed resolves timeout after the bound, saying so', async () => {
    const server = await runnerWithServer(() => {}); // the kill is accepted, the exit never comes
    const running = server.runtime.run('node', ['server.js'], { name: 'ai: node', timeoutMs: 1000 });
    let answered = false;
    void running.then(() => (answered = true));
    while (!server.calls.some((c) => c.url.endsWith('/output'))) await new Promise((r) => setTimeout(r, 0));
    server.clock.advance(999);
    expect(server.calls.some((c) => c.url.endsWith('/kill'))).to.equal(false);
    server.clock.advance(1);
    await server.kill;
    server.clock.advance(KILL_WAIT_MS - 1);
    await new Promise((r) => setTimeout(r, 0));
    expect(answered).to.equal(false);
    server.clock.advance(1);
    // The same wait sees the answer once the bound has passed: the check above gave it long enough.
    await new Promise((r) => setTimeout(r, 0));
    expect(answered).to.equal(true);
    expect(await running).to.deep.equal({ kind: 'timeout', output: '', truncated: false, killConfirmed: false });
    server.out.close();
  });

  it('[NAT-2] a signal aborted before the start starts nothing', async () => {
    const server = await runnerWithServer(() => {});
    const controller = new AbortController();
    controller.abort();
    expect(await server.runtime.run('node', [], { name: 'ai: node', timeoutMs: 1000, signal: controller.signal })).to.deep.equal({
      kind: 'cancelled', output: '', killConfirmed: true,
    });
    expect(server.calls.some((c) => c.url.endsWith('/spawn'))).to.equal(false);
  });
});

describe('NodeRuntime (browser)', () => {
  it('[NODE-1] readRunnerToken returns the injected token and null for an unreplaced placeholder', () => {
    const doc = document.implementation.createHTMLDocument('x');
    expect(readRunnerToken(doc)).to.equal(null);
    doc.head.innerHTML = `<meta name="ai-ops-runner-token" content="${TOKEN_PLACEHOLDER}">`;
    expect(readRunnerToken(doc)).to.equal(null);
    doc.head.innerHTML = '<meta name="ai-ops-runner-token" content="abc123">';
    expect(readRunnerToken(doc)).to.equal('abc123');
  });

  it('[NODE-1] boot() posts JSON with the token to the base URL and loads rules and tree', async () => {
    const { calls, fetchImpl } = scriptedFetch({
      info: () => json(info),
      tree: () => json({ ok: true, truncated: false, entries: [{ path: 'index.js', kind: 'file', excluded: false }] }),
    });
    const runtime = new NodeRuntime({ baseUrl: '/__runner', token: 'T', fetch: fetchImpl });
    await runtime.boot();
    expect(calls.map((c) => [c.url, c.method])).to.deep.equal([['/__runner/info', 'POST'], ['/__runner/tree', 'POST']]);
    expect(calls[0].headers).to.include({ 'x-ai-ops-token': 'T', 'content-type': 'application/json' });
    expect(runtime.excludes.patterns).to.deep.equal(['node_modules/']);
    expect(runtime.files.tree.getState()).to.deep.equal([{ path: 'index.js', kind: 'file', excluded: false }]);
  });

  it('[NODE-1] a refused token makes boot() reject with NodeRuntimeError', async () => {
    const { fetchImpl } = scriptedFetch({ info: () => json({ ok: false, code: 'bad_token', message: 'wrong token' }, 403) });
    const runtime = new NodeRuntime({ token: 'bad', fetch: fetchImpl });
    let error: unknown;
    try {
      await runtime.boot();
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(NodeRuntimeError);
    expect((error as NodeRuntimeError).status).to.equal(403);
    expect((error as NodeRuntimeError).code).to.equal('bad_token');
  });

  it('[NODE-5] output lines split across chunks are reassembled; a dropped beginning sets truncated', async () => {
    const wire = { id: 'p1', name: 'ai: node', command: 'node', args: ['x.js'], pid: 7, status: 'running', exitCode: null };
    const { fetchImpl } = scriptedFetch({
      info: () => json(info),
      tree: () => json({ ok: true, truncated: false, entries: [] }),
      spawn: () => json({ ok: true, process: wire }),
      output: () => chunked([
        '{"type":"output","offset":10,"da',
        'ta":"héllo "}\n{"type":"output","offset":16,"data":"wörld\\n"}\n',
        '{"type":"exit","process":{"id":"p1","name":"ai: node","command":"node","args":["x.js"],"pid":7,"status":"exited","exitCode":2}}\n',
      ]),
    });
    const runtime = new NodeRuntime({ token: 'T', fetch: fetchImpl });
    await runtime.boot();
    const proc = await runtime.processes.start('node', ['x.js'], { name: 'ai: node' });
    const chunks: string[] = [];
    proc.output.subscribe((chunk) => chunks.push(chunk));
    expect(await proc.exit).to.equal(2);
    expect(chunks.join('')).to.equal('héllo wörld\n');
    expect(proc.output.truncated).to.equal(true);
    expect(runtime.processes.list.getState()).to.deep.equal([
      { id: 'p1', name: 'ai: node', command: 'node', args: ['x.js'], status: 'exited', exitCode: 2 },
    ]);
  });

  it('[FILE-3] isExcludedPath matches directory patterns at any depth, not file names', () => {
    const patterns = ['node_modules/', '.git/'];
    expect(isExcludedPath('node_modules', 'directory', patterns)).to.equal(true);
    expect(isExcludedPath('a/node_modules/b/c.js', 'file', patterns)).to.equal(true);
    expect(isExcludedPath('src/.git/HEAD', 'file', patterns)).to.equal(true);
    expect(isExcludedPath('node_modules', 'file', patterns)).to.equal(false);
    expect(isExcludedPath('src/node_modules.js', 'file', patterns)).to.equal(false);
  });
});
