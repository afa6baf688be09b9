// Consumer projects for the package tests (PKG-1): the `npm pack` tarball of this checkout,
// installed into a fresh folder outside the repository with nothing of this repository's
// devDependencies, and a static server for that folder.
import { execFile } from 'node:child_process';
import { createReadStream, readFileSync } from 'node:fs';
import { cp, mkdtemp, readdir, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const fixtures = join(repo, 'test/consumers/fixtures');

/**
 * Builds and packs this checkout: `npm run build` (the library only), then `npm pack` (its
 * `prepack` is that same build, run here first so the pack's output is only its JSON).
 * @returns {Promise<string>} the tarball's path
 */
export async function packTarball(into) {
  await run('npm', ['run', 'build'], { cwd: repo, maxBuffer: 64 << 20 });
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', into], { cwd: repo, maxBuffer: 64 << 20 });
  const [{ filename }] = JSON.parse(stdout);
  return join(into, filename);
}

/**
 * A fresh project in a temp folder: `package.json`, the fixture files, then `npm install` of the
 * tarball and `extra` packages only (pinned to this repository's versions, so the npm cache serves
 * them when it can).
 * @param {{ tarball: string, fixture: string, extra?: string[] }} options
 */
export async function createConsumer({ tarball, fixture, extra = [] }) {
  const dir = await mkdtemp(join(tmpdir(), `ai-ops-consumer-${fixture}-`));
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: `consumer-${fixture}`, private: true, type: 'module' }, null, 2)}\n`);
  await cp(join(fixtures, fixture), dir, { recursive: true });
  const started = Date.now();
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-exact', tarball, ...extra], {
    cwd: dir, maxBuffer: 64 << 20, env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  return { dir, installMs: Date.now() - started };
}

let lock;
/** This repository's exact version of a package (from its lock), as `name@version`. */
export function pinned(name) {
  lock ??= JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8'));
  return `${name}@${lock.packages[`node_modules/${name}`].version}`;
}

/** Top-level package names in a project's node_modules (scoped ones as `@scope/name`). */
export async function installedPackages(dir) {
  const names = [];
  const top = join(dir, 'node_modules');
  for (const entry of await readdir(top)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) for (const sub of await readdir(join(top, entry))) names.push(`${entry}/${sub}`);
    else names.push(entry);
  }
  return names.sort();
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.json': 'application/json', '.css': 'text/css', '.txt': 'text/plain' };

/**
 * A static server for a consumer folder, as a page's own server would be set up by the README:
 * `/ai-ops/` is the installed package's `dist/`, everything else the folder itself.
 * @returns {Promise<{ origin: string, close(): Promise<void> }>}
 */
export async function serveConsumer(dir) {
  const mounts = [['/ai-ops/', join(dir, 'node_modules/ai-ops/dist')], ['/', dir]];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const [prefix, base] = mounts.find(([p]) => path.startsWith(p));
    let file = normalize(join(base, path.slice(prefix.length)));
    if (file !== base && !file.startsWith(base + sep)) return res.writeHead(403).end();
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      await stat(file);
    } catch {
      return res.writeHead(404).end('not found');
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    createReadStream(file).pipe(res);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return {
    // Named localhost (bound to 127.0.0.1): a page there can hold a WebAuthn credential, an IP literal cannot (UV-4).
    origin: `http://localhost:${server.address().port}`,
    close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }),
  };
}

/** What an ordinary static server sends (Python's `http.server`, for one): no charset. */
const PLAIN_TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json', '.css': 'text/css', '.html.map': 'application/json' };

/**
 * A plain static server for `dir` (FIRST-1): every file as it is, `index.html` for a folder, the
 * media type from the extension and no charset, as a reader's own `python3 -m http.server` would
 * serve a recipe's `public/` — so a page that does not declare its encoding is read as
 * windows-1252 here too.
 * @returns {Promise<{ origin: string, close(): Promise<void> }>}
 */
export async function servePlain(dir) {
  const server = createServer(async (req, res) => {
    let file = normalize(join(dir, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
    if (file !== dir && !file.startsWith(dir + sep)) return res.writeHead(403).end();
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      await stat(file);
    } catch {
      return res.writeHead(404).end('not found');
    }
    res.writeHead(200, { 'content-type': PLAIN_TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return {
    origin: `http://localhost:${server.address().port}`,
    close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }),
  };
}
