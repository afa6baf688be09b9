// The playground's server behind `npm start`: static files from dist/site plus the Node page's
// runner API (/__runner/, see ../node/server/runner.mjs). Plain Node, no framework. Listens on 127.0.0.1 only and answers
// only requests whose Host header names that address (or localhost) with the right port, which
// defeats DNS rebinding. Never sends CORS headers.
//
// Its origin, as printed and returned, is `http://localhost:<port>`: localhost is a secure context
// that can hold a WebAuthn credential, which the user verification of the switch and the dialog
// (UV-1, UV-4) needs; an IP-literal origin such as http://127.0.0.1 cannot (`SecurityError: This is
// an invalid domain`). Browsers resolve localhost themselves to loopback (Chromium tries [::1] and
// 127.0.0.1; [::1] is refused at once, nothing listens there), so they reach this 127.0.0.1 listener.
//
//   PORT=8000 node playground/server/serve.mjs
import { createReadStream, existsSync } from 'node:fs';
import { readFile, readdir, realpath, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { dirname, extname, isAbsolute, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUNNER_PREFIX, createRunner } from '../node/server/runner.mjs';
import { sandboxOwner } from '../node/server/sandbox.mjs';
import { createWorkspace, removeWorkspace } from '../node/server/workspace.mjs';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Placeholder in the app document that is replaced by the runner token for this server start. */
export const TOKEN_PLACEHOLDER = '%%AI_OPS_RUNNER_TOKEN%%';

/** The playground's routes: `/` and the six tool paths, each answered with the one app document. */
export const APP_ROUTES = Object.freeze(['/', '/sql/', '/slides/', '/excalidraw/', '/drawio/', '/node/', '/go/']);

/**
 * The files that receive the token: the app document at each route. The React app may navigate to
 * the node page from any of them without a reload, so each needs the token; any other page
 * (/sample/, a file dropped into the root) never sees it.
 */
const TOKEN_PAGES = new Set(APP_ROUTES.map((route) => `${route}index.html`));

/** Content types by file-name ending; anything else is application/octet-stream. */
export const CONTENT_TYPES = Object.freeze({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.wasm': 'application/wasm',
  '.data': 'application/octet-stream',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.gz': 'application/gzip',
});

/** The content type for a file name (`.tar.gz` is a gzip file, never Content-Encoding). */
export function contentTypeOf(fileName) {
  if (fileName.endsWith('.tar.gz')) return 'application/gzip';
  return CONTENT_TYPES[extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  // The WebMCP polyfill runs only in a page keyed by origin; Firefox keys by site without this
  // header (window.originAgentCluster false), and the polyfill then refuses every call (issue 36).
  'Origin-Agent-Cluster': '?1',
};

function sendText(res, status, text, extra = {}) {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...extra,
  });
  res.end(text);
}

function isInside(root, target) {
  return target === root || target.startsWith(root + sep);
}

/**
 * Serves one static file request. Answers 400/403/404/405 for anything that is not a plain file
 * inside `root`.
 */
async function serveStatic(req, res, { root, pathname, search, token }) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendText(res, 405, 'Method Not Allowed\n', { Allow: 'GET, HEAD' });
    return;
  }
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    sendText(res, 400, 'Bad Request\n');
    return;
  }
  // Refuse any `..` segment (raw or percent-encoded, either slash) rather than normalising it.
  if (decoded.includes('\0') || decoded.split(/[\\/]/).includes('..')) {
    sendText(res, 403, 'Forbidden\n');
    return;
  }
  let file = join(root, decoded);
  if (!isInside(root, file)) {
    sendText(res, 403, 'Forbidden\n');
    return;
  }
  let info;
  try {
    info = await stat(file);
    if (info.isDirectory()) {
      if (!decoded.endsWith('/')) {
        res.writeHead(301, { ...SECURITY_HEADERS, Location: `${pathname}/${search}`, 'Cache-Control': 'no-cache' });
        res.end();
        return;
      }
      file = join(file, 'index.html');
      decoded = `${decoded}index.html`;
      info = await stat(file);
    }
    // A symlink inside root must not lead out of it.
    if (!isInside(root, await realpath(file))) throw Object.assign(new Error('outside'), { code: 'EOUTSIDE' });
  } catch {
    if (decoded === '/favicon.ico') {
      res.writeHead(204, { ...SECURITY_HEADERS, 'Cache-Control': 'max-age=86400' });
      res.end();
      return;
    }
    sendText(res, 404, 'Not Found\n');
    return;
  }
  if (!info.isFile()) {
    sendText(res, 404, 'Not Found\n');
    return;
  }
  const type = contentTypeOf(file);
  if (TOKEN_PAGES.has(file.slice(root.length).split(sep).join('/'))) {
    // The token changes on every start, so this page is never cached.
    const html = (await readFile(file, 'utf8')).replaceAll(TOKEN_PLACEHOLDER, token);
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': type,
      'Content-Length': Buffer.byteLength(html),
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : html);
    return;
  }
  // Builds change files in place: revalidate every time, cheap with the ETag.
  const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const headers = {
    ...SECURITY_HEADERS,
    'Content-Type': type,
    'Cache-Control': 'no-cache',
    ETag: etag,
    'Last-Modified': info.mtime.toUTCString(),
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Length': info.size });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).on('error', () => res.destroy()).pipe(res);
}

/**
 * Starts the playground's server on 127.0.0.1 with a fresh runner workspace and token. Its `origin`
 * and `url` name it as `http://localhost:<port>` (a page there can hold a WebAuthn credential).
 * @param {{port?: number, root?: string, log?: (line: string) => void, runner?: {limits?: object,
 *   timers?: {setTimeout: Function, clearTimeout: Function}, bwrap?: string|null}}} [options]
 *   `root`: directory of static files; a relative path is taken from the package root.
 *   `port`: 0 picks a free port. `runner`: the sandbox's bounds, timers and bwrap path (tests).
 * @returns {Promise<{url: string, origin: string, port: number, token: string, workspace: string, close: () => Promise<void>}>}
 * @example
 * const server = await startServer({ port: 0, root: '/tmp/site' });
 * await fetch(`${server.url}index.html`);
 * await server.close();
 */
export async function startServer({ port = 0, root = 'dist/site', log = () => {}, runner: runnerOptions = {} } = {}) {
  const absoluteRoot = isAbsolute(root) ? root : resolve(packageRoot, root);
  if (!existsSync(absoluteRoot)) log(`warning: ${absoluteRoot} does not exist (run npm run build)`);
  const realRoot = existsSync(absoluteRoot) ? await realpath(absoluteRoot) : absoluteRoot;
  const owner = sandboxOwner();
  const { base, workspace, home, etcDir } = await createWorkspace({ owner });
  const runner = createRunner({ workspace, home, etcDir, owner, ...runnerOptions });
  let allowedHosts = new Set();

  const server = createServer((req, res) => {
    const host = req.headers.host;
    if (!host || !allowedHosts.has(host.toLowerCase())) {
      sendText(res, 403, 'Forbidden: unexpected Host header\n');
      return;
    }
    const target = req.url ?? '';
    if (!target.startsWith('/')) {
      sendText(res, 400, 'Bad Request\n');
      return;
    }
    // UV-4: the app has one origin, http://localhost:<port>, where verified consent can work; the
    // same server named by its address is sent there, so no page (and no runner workspace) is
    // reached from an origin that cannot hold a credential.
    if (host.toLowerCase().startsWith('127.0.0.1:')) {
      res.writeHead(308, { location: `${origin}${target}`, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end(`Moved to ${origin}${target}\n`);
      return;
    }
    const queryAt = target.indexOf('?');
    const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
    const search = queryAt === -1 ? '' : target.slice(queryAt);
    const handled = pathname.startsWith(RUNNER_PREFIX)
      ? runner.handle(req, res, { ownOrigin: `http://${host.toLowerCase()}`, pathname })
      : serveStatic(req, res, { root: realRoot, pathname, search, token: runner.token });
    handled.catch((error) => {
      log(`error: ${error.message}`);
      if (!res.headersSent) sendText(res, 500, 'Internal Server Error\n');
      else res.destroy();
    });
  });

  // A browser asks [::1] first for localhost (Chromium does, measured) and takes whatever answers
  // there: a port another program holds on [::1] (a dev server bound to "localhost") would show
  // that program at our origin. So that port counts as in use; with port 0, another one is picked.
  for (let attempt = 1; ; attempt++) {
    await new Promise((resolvePromise, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolvePromise();
      });
    });
    if (!(await answersOnIpv6Loopback(server.address().port))) break;
    const taken = server.address().port;
    await new Promise((resolvePromise) => server.close(() => resolvePromise()));
    if (port !== 0 || attempt === 5) {
      await runner.close();
      await removeWorkspace(base);
      throw Object.assign(new Error(`Port ${taken} is in use on [::1] by another program, which http://localhost:${taken} would reach first; set PORT to another port.`), { code: 'EADDRINUSE' });
    }
  }
  const actualPort = server.address().port;
  allowedHosts = new Set([`127.0.0.1:${actualPort}`, `localhost:${actualPort}`]);
  const origin = `http://localhost:${actualPort}`;
  log(`runner workspace: ${workspace}`);

  let closing;
  return {
    url: `${origin}/`,
    origin,
    port: actualPort,
    token: runner.token,
    workspace,
    /** Kills the runner's processes, stops the server and deletes the workspace. */
    close() {
      closing ??= (async () => {
        await runner.close();
        const closed = new Promise((resolvePromise) => server.close(() => resolvePromise()));
        server.closeAllConnections();
        await closed;
        await removeWorkspace(base);
      })();
      return closing;
    },
  };
}

/** Whether something accepts a TCP connection on [::1]:`port` (false when refused or no IPv6). */
function answersOnIpv6Loopback(port) {
  return new Promise((resolvePromise) => {
    const socket = connect({ host: '::1', port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolvePromise(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolvePromise(false);
    });
    socket.once('error', () => resolvePromise(false));
  });
}

async function listPages(root) {
  try {
    const names = await readdir(root, { withFileTypes: true });
    return names.filter((d) => d.isDirectory() && existsSync(join(root, d.name, 'index.html'))).map((d) => `/${d.name}/`);
  } catch {
    return [];
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be a port number, got ${process.env.PORT}`);
    process.exit(1);
  }
  let server;
  try {
    server = await startServer({ port, log: (line) => console.log(line) });
  } catch (error) {
    console.error(error.code === 'EADDRINUSE' ? (error.message.startsWith('Port ') ? error.message : `Port ${port} is in use; set PORT to another port.`) : error.message);
    process.exit(1);
  }
  const pages = await listPages(resolve(packageRoot, 'dist/site'));
  console.log(`\nai-ops playground: ${server.url}`);
  if (pages.length) console.log(`pages: ${pages.map((p) => `${server.origin}${p}`).join('  ')}`);
  console.log(`\nFor agents, run the relay:\n  npx --offline --no-install ai-ops-relay --widget-origin ${server.origin}\n`);
  const stop = () => {
    server.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
