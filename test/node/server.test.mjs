// The demo server's static side and its request checks (playground/server/serve.mjs).
// Run: node --test test/node/server.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_ROUTES, TOKEN_PLACEHOLDER, startServer } from '../../playground/server/serve.mjs';

/** Raw HTTP request (no URL normalisation, any Host header). */
function send(port, { method = 'GET', path = '/', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    // Named as the browser names it: http://localhost:<port> (127.0.0.1 is sent there, UV-4).
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host: `localhost:${port}`, ...headers } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function tryConnect(host, port) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => { socket.destroy(); resolve('connected'); });
    socket.once('error', (error) => resolve(error.code));
  });
}

describe('playground server: static files', () => {
  let parent;
  let root;
  let server;

  before(async () => {
    parent = await mkdtemp(join(tmpdir(), 'ai-ops-serve-test-'));
    root = join(parent, 'site');
    await mkdir(join(root, 'tool'), { recursive: true });
    for (const route of APP_ROUTES) await mkdir(join(root, route), { recursive: true });
    await mkdir(join(root, 'sample'), { recursive: true });
    await mkdir(join(root, 'other'), { recursive: true });
    // A file beside the root that traversal attempts try to reach.
    await writeFile(join(parent, 'package.json'), '{"secret":"outside-the-root"}');
    await writeFile(join(root, 'index.html'), `<!doctype html><title>home</title><meta content="${TOKEN_PLACEHOLDER}">`);
    await writeFile(join(root, 'tool', 'index.html'), '<!doctype html><title>tool</title>');
    for (const route of APP_ROUTES.filter((r) => r !== '/')) {
      await writeFile(join(root, route, 'index.html'), `<title>app</title><meta name="ai-ops-runner-token" content="${TOKEN_PLACEHOLDER}">`);
    }
    await writeFile(join(root, 'sample', 'index.html'), `<p>${TOKEN_PLACEHOLDER}</p>`);
    await writeFile(join(root, 'other', 'index.html'), `<p>${TOKEN_PLACEHOLDER}</p>`);
    const files = {
      'a.js': 'text/javascript', 'b.mjs': 'text/javascript', 'c.css': 'text/css', 'd.json': 'application/json',
      'e.wasm': 'application/wasm', 'f.data': 'application/octet-stream', 'g.woff2': 'font/woff2',
      'h.svg': 'image/svg+xml', 'i.png': 'image/png', 'j.tar.gz': 'application/gzip', 'k.unknownext': 'application/octet-stream',
    };
    for (const name of Object.keys(files)) await writeFile(join(root, name), `content of ${name}`);
    await symlink(join(parent, 'package.json'), join(root, 'leak.json'));
    server = await startServer({ port: 0, root });
    server.types = files;
  });

  after(async () => {
    await server.close();
    await rm(parent, { recursive: true, force: true });
  });

  it('[RUNNER] [UV-4] is named http://localhost:<port> (a page there can hold a credential) and listens on 127.0.0.1 only', async () => {
    assert.equal(server.origin, `http://localhost:${server.port}`);
    assert.equal(server.url, `http://localhost:${server.port}/`);
    assert.equal(await tryConnect('127.0.0.1', server.port), 'connected');
    assert.notEqual(await tryConnect('::1', server.port), 'connected');
    const external = Object.values(networkInterfaces()).flat()
      .filter((a) => a && !a.internal && a.family === 'IPv4').map((a) => a.address);
    for (const address of external) assert.notEqual(await tryConnect(address, server.port), 'connected', address);
  });

  it('[RUNNER] serves files from the root with their content types', async () => {
    for (const [name, type] of Object.entries(server.types)) {
      const res = await send(server.port, { path: `/${name}` });
      assert.equal(res.status, 200, name);
      assert.equal(res.headers['content-type'].split(';')[0], type, name);
      assert.equal(res.body.toString(), `content of ${name}`);
      assert.equal(res.headers['content-encoding'], undefined, name);
    }
    const home = await send(server.port, { path: '/' });
    assert.equal(home.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(home.body.toString(), /<title>home/);
  });

  it('[RUNNER] /tool/ serves /tool/index.html and /tool redirects to /tool/', async () => {
    const page = await send(server.port, { path: '/tool/' });
    assert.equal(page.status, 200);
    assert.match(page.body.toString(), /<title>tool/);
    const redirect = await send(server.port, { path: '/tool?x=1' });
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.location, '/tool/?x=1');
  });

  it('[RUNNER] refuses directory traversal: /../package.json and its encoded forms', async () => {
    for (const path of ['/../package.json', '/%2e%2e/package.json', '/..%2fpackage.json', '/tool/../../package.json', '/..\\package.json', '/%2e%2e%5cpackage.json']) {
      const res = await send(server.port, { path });
      assert.ok(res.status === 403 || res.status === 400, `${path} → ${res.status}`);
      assert.doesNotMatch(res.body.toString(), /outside-the-root/, path);
    }
  });

  it('[RUNNER] a symlink inside the root that leads outside is not followed', async () => {
    const res = await send(server.port, { path: '/leak.json' });
    assert.equal(res.status, 404);
    assert.doesNotMatch(res.body.toString(), /outside-the-root/);
  });

  it('[RUNNER] answers 404 for a missing file and 204 for a missing favicon', async () => {
    assert.equal((await send(server.port, { path: '/nope.js' })).status, 404);
    assert.equal((await send(server.port, { path: '/favicon.ico' })).status, 204);
  });

  it('[RUNNER] a Host header other than 127.0.0.1:<port> or localhost:<port> is refused (DNS rebinding)', async () => {
    for (const host of ['evil.example', `evil.example:${server.port}`, `127.0.0.1:${server.port + 1}`, '127.0.0.1', `localhost.evil.example:${server.port}`]) {
      const res = await send(server.port, { path: '/index.html', headers: { host } });
      assert.equal(res.status, 403, host);
      assert.doesNotMatch(res.body.toString(), /<title>home/);
    }
    assert.equal((await send(server.port, { path: '/index.html', headers: { host: `localhost:${server.port}` } })).status, 200);
  });

  it('[UV-4] the same server named by its address (Host 127.0.0.1:<port>) answers every path with a redirect to http://localhost:<port>, the runner included', async () => {
    for (const [method, path] of [['GET', '/'], ['GET', '/sql/?doc=a'], ['HEAD', '/sample/'], ['POST', '/__runner/info']]) {
      const res = await send(server.port, { method, path, headers: { host: `127.0.0.1:${server.port}`, 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
      assert.equal(res.status, 308, `${method} ${path}`);
      assert.equal(res.headers.location, `http://localhost:${server.port}${path}`);
      assert.doesNotMatch(res.body.toString(), /<title>|"ok"/);
    }
  });

  it('[RUNNER] the token replaces the placeholder in the app document at / and each tool path only, never cached', async () => {
    assert.deepEqual(APP_ROUTES, ['/', '/sql/', '/slides/', '/excalidraw/', '/drawio/', '/node/', '/go/']);
    for (const path of [...APP_ROUTES, '/node/index.html', '/index.html', '//sql/index.html']) {
      const page = await send(server.port, { path });
      assert.equal(page.status, 200, path);
      const html = page.body.toString();
      assert.ok(html.includes(server.token), path);
      assert.ok(!html.includes(TOKEN_PLACEHOLDER), path);
      assert.equal(page.headers['cache-control'], 'no-store', path);
      assert.equal(page.headers.etag, undefined, path);
    }
    for (const path of ['/other/', '/sample/', '/sample/index.html']) {
      const other = (await send(server.port, { path })).body.toString();
      assert.ok(other.includes(TOKEN_PLACEHOLDER), path);
      assert.ok(!other.includes(server.token), path);
    }
    assert.ok(server.token.length >= 40);
  });

  it('[RUNNER] never sends CORS headers, even to a foreign Origin or a preflight', async () => {
    const evil = { origin: 'http://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-ai-ops-token' };
    for (const [method, path, status] of [['GET', '/index.html', 200], ['OPTIONS', '/index.html', 405], ['OPTIONS', '/__runner/info', 405], ['POST', '/__runner/info', 403]]) {
      const res = await send(server.port, { method, path, headers: evil });
      for (const name of Object.keys(res.headers)) assert.ok(!name.startsWith('access-control-'), `${method} ${path}: ${name}`);
      assert.equal(res.status, status, `${method} ${path}`);
    }
  });

  it('[RUNNER] sends nosniff and revalidation headers; answers 304 to a matching ETag; HEAD has no body', async () => {
    const first = await send(server.port, { path: '/a.js' });
    assert.equal(first.headers['x-content-type-options'], 'nosniff');
    assert.equal(first.headers['cache-control'], 'no-cache');
    assert.ok(first.headers.etag);
    const again = await send(server.port, { path: '/a.js', headers: { 'if-none-match': first.headers.etag } });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    const head = await send(server.port, { method: 'HEAD', path: '/a.js' });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(Number(head.headers['content-length']), 'content of a.js'.length);
  });

  it('[SW-4] every response asks for an origin-keyed agent cluster (Origin-Agent-Cluster: ?1): without it Firefox keys the page by site and the WebMCP polyfill refuses every call', async () => {
    for (const path of ['/a.js', '/missing.js']) {
      const res = await send(server.port, { path });
      assert.equal(res.headers['origin-agent-cluster'], '?1', path);
    }
  });

  it('[RUNNER] static files accept GET and HEAD only', async () => {
    const res = await send(server.port, { method: 'POST', path: '/a.js', body: 'x' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.allow, 'GET, HEAD');
  });
});

describe('playground server: lifecycle', () => {
  it('[RUNNER] each start has its own token and workspace; close() deletes the workspace and frees the port', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ai-ops-serve-test-'));
    const one = await startServer({ port: 0, root });
    const two = await startServer({ port: 0, root });
    try {
      assert.notEqual(one.token, two.token);
      assert.notEqual(one.workspace, two.workspace);
      assert.ok(existsSync(join(one.workspace, 'package.json')));
    } finally {
      await one.close();
      await two.close();
    }
    assert.ok(!existsSync(one.workspace));
    assert.notEqual(await tryConnect('127.0.0.1', one.port), 'connected');
    await rm(root, { recursive: true, force: true });
  });

  it('[RUNNER] [UV-4] a port another program holds on [::1] is in use: a browser would reach that program at http://localhost:<port>', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ai-ops-serve-test-'));
    const other = createNetServer((socket) => socket.destroy());
    await new Promise((resolve) => other.listen(0, '::1', resolve));
    const { port } = other.address();
    try {
      await assert.rejects(startServer({ port, root }), (error) => error.code === 'EADDRINUSE' && /\[::1\]/.test(error.message));
      assert.notEqual(await tryConnect('127.0.0.1', port), 'connected', 'nothing left listening on 127.0.0.1');
    } finally {
      await new Promise((resolve) => other.close(resolve));
      await rm(root, { recursive: true, force: true });
    }
  });
});
