// The Node runner's HTTP API under /__runner/. It runs any allowed command in a temp workspace,
// which is remote code execution by design; it is reachable only when every one of these holds:
//   - the server listens on 127.0.0.1 and the Host header names it (checked by serve.mjs),
//   - the method is POST (a same-origin GET carries no Origin header, so it could not be checked),
//   - Origin is the server's own origin (and Sec-Fetch-Site, when sent, is same-origin),
//   - x-ai-ops-token equals this server start's random token (compared in constant time),
//   - the body is application/json (a cross-site form cannot send that without a preflight).
// No CORS header is ever sent, so a preflight from another origin fails in the browser too.
//
// The undo of an agent's command (UNDO-1) costs what the command changed, not the workspace's
// size (issue 24): `keep` before the command and `changes` after it go through one kept-files
// cache (kept.mjs) that looks only at the paths its change feed (inotify) names, and `changes`
// answers only the changed files' texts, plus the tree from the same look. Measured on 2,000 files
// / 20 MB: the full read it replaced took 1,450 ms with texts, a walk ≈ 9–15 ms, the feed's look
// < 1 ms. Every endpoint that looks first awaits `kept.settle()`, so it sees every change before it.
// Why a token cache and not an overlay mount (which does work here, +3 ms a command): kept.mjs.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ALLOWED_COMMANDS, OUTPUT_LIMIT, createProcessManager } from './processes.mjs';
import { createKeptFiles } from './kept.mjs';
import {
  EXCLUDES, MAX_FILE_BYTES, WorkspaceError, fileVersions, previousText, readTextFile, removeEmptyDirectory, removeFile, textVersion, writeTextFile,
} from './workspace.mjs';

/** The path prefix of every runner endpoint. */
export const RUNNER_PREFIX = '/__runner/';

/** The request header that carries the token. */
export const TOKEN_HEADER = 'x-ai-ops-token';

/** Version of the wire format below; bump on incompatible changes. */
export const RUNNER_API_VERSION = 1;

const SMALL_BODY = 64 * 1024;
const STREAM_BACKLOG_LIMIT = 8 * 1024 * 1024;
// JSON escaping can grow 1 MiB of text several times (control characters become \u00XX).
const WRITE_BODY = 8 * MAX_FILE_BYTES;

/**
 * A listing as sent: its version always, its entries only when the page's (`have`) is another
 * (a 2,000-file tree is ~115 KB of JSON to send, parse and compare after every command).
 */
function treeAnswer({ entries, truncated, version }, have) {
  return have === version ? { unchanged: true, truncated, version } : { entries, truncated, version };
}

class HttpError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A fresh 256-bit token, URL-safe. */
export function createToken() {
  return randomBytes(32).toString('base64url');
}

function digest(value) {
  return createHash('sha256').update(String(value)).digest();
}

/** Constant-time comparison that does not leak the length either (both sides are hashed). */
export function tokenMatches(expected, received) {
  if (typeof received !== 'string' || received.length === 0) return false;
  return timingSafeEqual(digest(expected), digest(received));
}

const RUNNER_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
};

function sendJson(res, status, body, extra = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...RUNNER_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...extra,
  });
  res.end(text);
}

function readBody(req, limit) {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new HttpError(413, 'body_too_large', `request body over ${limit} bytes`));
      req.resume();
      return;
    }
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > limit) {
        reject(new HttpError(413, 'body_too_large', `request body over ${limit} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const isString = (value) => typeof value === 'string';

function requireString(body, key, { optional = false, max = 4096 } = {}) {
  const value = body[key];
  if (value === undefined && optional) return undefined;
  if (!isString(value)) throw new HttpError(400, 'bad_request', `${key} must be a string`);
  if (value.length > max) throw new HttpError(400, 'bad_request', `${key} is too long`);
  return value;
}

function domainError(res, error) {
  if (error instanceof WorkspaceError) {
    sendJson(res, 200, { ok: false, code: error.code, message: error.message });
    return true;
  }
  return false;
}

/**
 * Creates the runner: a workspace-bound process manager plus the request handler. Every command
 * runs in the sandbox (sandbox.mjs); nothing here can switch it off.
 * @param {{workspace: string, home: string, token?: string, outputLimit?: number,
 *   etcDir?: string, owner?: {uid: number, gid: number}|null, limits?: object,
 *   timers?: {setTimeout: Function, clearTimeout: Function}, bwrap?: string|null}} options
 *   `workspace` must be a real path (no symlinks), as returned by createWorkspace, like `etcDir`;
 *   `owner` is the sandbox user that owns the workspace; `limits` override DEFAULT_LIMITS;
 *   `bwrap` names the bubblewrap binary (a test names a missing one).
 */
export function createRunner({ workspace, home, token = createToken(), outputLimit = OUTPUT_LIMIT, etcDir, owner = null, limits, timers, bwrap }) {
  const processes = createProcessManager({
    workspace, home, outputLimit, etcDir, limits, bwrap,
    ...(timers ? { timers } : {}),
  });
  // Writes through the endpoints, counted once done (a walk during one must not pass for after it).
  let endpointWrites = 0;
  const wrote = async (change) => {
    try {
      return await change;
    } finally {
      endpointWrites++;
    }
  };
  // What the runner last saw of each file (tokens, and the kept texts the last `keep` read). Its
  // last walk still holds while nothing could have changed the workspace: no process of this
  // runner ran or ended since, no endpoint wrote (the workspace is this runner's own directory).
  const kept = createKeptFiles(workspace, {
    watch: true,
    activity: () => {
      const { generation, running, confined } = processes.activity();
      return { stamp: `${generation}:${endpointWrites}`, quiet: running === 0 && confined };
    },
  });

  const endpoints = {
    async info() {
      const missing = await processes.sandbox.check();
      return {
        ok: true,
        api: RUNNER_API_VERSION,
        node: process.version,
        commands: ALLOWED_COMMANDS,
        excludes: EXCLUDES,
        maxFileBytes: MAX_FILE_BYTES,
        outputLimit,
        // What confines every command: shown by the page, checked by the tests.
        sandbox: {
          available: missing === null,
          ...(missing ? { message: missing } : {}),
          network: 'none',
          limits: processes.sandbox.limits,
        },
      };
    },
    async tree(body) {
      await kept.settle();
      return { ok: true, ...treeAnswer(kept.tree(), body.have) };
    },
    async read(body) {
      const contents = await readTextFile(workspace, requireString(body, 'path'));
      return { ok: true, contents };
    },
    async write(body) {
      const path = requireString(body, 'path');
      const contents = requireString(body, 'contents', { max: Number.MAX_SAFE_INTEGER });
      // `keep`: the page's undo (UNDO-1) gets what was there and the new version in the same round trip.
      const before = body.keep === true ? await previousText(workspace, path) : undefined;
      await wrote(writeTextFile(workspace, path, contents, { owner }));
      return before === undefined ? { ok: true } : { ok: true, before, version: textVersion(contents) };
    },
    async remove(body) {
      await wrote(removeFile(workspace, requireString(body, 'path')));
      return { ok: true };
    },
    async rmdir(body) {
      return { ok: true, removed: await wrote(removeEmptyDirectory(workspace, requireString(body, 'path'))) };
    },
    // The kept files with their versions (and texts): what a page without keep/changes compares.
    async snapshot(body) {
      await kept.settle();
      const { files, truncated } = kept.snapshot({ contents: body.contents === true });
      return { ok: true, files, truncated };
    },
    // Before an agent's command: what every kept file holds now, by a mark (null: cannot all be kept).
    async keep() {
      await kept.settle();
      return { ok: true, ...kept.mark() };
    },
    // After it: the kept files it changed, each with its text at the mark (UNDO-1), and the tree now.
    async changes(body) {
      const mark = requireString(body, 'mark', { max: 64 });
      await kept.settle();
      const { gone, truncated, files, tree: now } = kept.changes(mark);
      const tree = treeAnswer(now, body.have);
      return gone ? { ok: false, code: 'mark_gone', message: 'no such mark (used, or dropped)', tree } : { ok: true, truncated, files, tree };
    },
    async versions(body) {
      const paths = body.paths;
      if (!Array.isArray(paths) || !paths.every(isString) || paths.length > 10_000) throw new HttpError(400, 'bad_request', 'paths must be an array of strings');
      return { ok: true, versions: await fileVersions(workspace, paths) };
    },
    async spawn(body) {
      const command = requireString(body, 'command', { max: 256 });
      const args = body.args === undefined ? [] : body.args;
      if (!Array.isArray(args) || !args.every(isString) || args.length > 1000) {
        throw new HttpError(400, 'bad_request', 'args must be an array of strings');
      }
      if ([command, ...args].some((value) => value.includes('\0')) || command === '') {
        throw new HttpError(400, 'bad_request', 'command and args must be non-empty strings without NUL');
      }
      const name = requireString(body, 'name', { optional: true, max: 256 });
      try {
        const started = await processes.start(command, args, name);
        // Its end starts the walk its tree and changes need, ahead of the page's requests (kept.mjs,
        // warm). Subscribed before the page's stream, run after every listener (the exit is
        // written to the stream first), and never from an earlier offset than the end (no output).
        processes.subscribe(started.id, Number.MAX_SAFE_INTEGER, {
          output() {},
          exit: () => setImmediate(() => {
            // The workspace gone (the runner closing): the requests, if any, say so themselves.
            kept.warm().catch(() => {});
          }),
        });
        return { ok: true, process: started };
      } catch (error) {
        if (error.code === 'too_many_processes') return { ok: false, code: error.code, message: error.message };
        throw error;
      }
    },
    async kill(body) {
      const found = await processes.kill(requireString(body, 'id', { max: 64 }));
      return found ? { ok: true, process: found } : { ok: false, code: 'not_found', message: 'no such process' };
    },
    async processes() {
      return { ok: true, processes: processes.list() };
    },
  };

  /** NDJSON stream: {"type":"output","offset":n,"data":"…"}… then {"type":"exit","process":{…}}. */
  function streamOutput(req, res, body) {
    const id = requireString(body, 'id', { max: 64 });
    const from = body.from === undefined ? 0 : body.from;
    if (!Number.isSafeInteger(from) || from < 0) throw new HttpError(400, 'bad_request', 'from must be a non-negative integer');
    res.writeHead(200, {
      ...RUNNER_HEADERS,
      'Content-Type': 'application/x-ndjson; charset=utf-8',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    const line = (value) => {
      res.write(`${JSON.stringify(value)}\n`);
      // A reader that does not keep up would make the server buffer without end: drop it. The
      // client reopens the stream from its last offset and gets the kept tail.
      if (res.writableLength > STREAM_BACKLOG_LIMIT) res.destroy();
    };
    const unsubscribe = processes.subscribe(id, from, {
      output: (data, offset) => line({ type: 'output', offset, data }),
      exit: (info) => {
        line({ type: 'exit', process: info });
        res.end();
      },
    });
    if (!unsubscribe) {
      line({ type: 'error', code: 'not_found', message: 'no such process' });
      res.end();
      return;
    }
    res.on('close', unsubscribe);
  }

  /**
   * Handles one request under RUNNER_PREFIX. The caller has already checked the Host header.
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {{ownOrigin: string, pathname: string}} context ownOrigin = `http://${validated host}`
   */
  async function handle(req, res, { ownOrigin, pathname }) {
    try {
      if (req.method !== 'POST') {
        // OPTIONS lands here too: no preflight is ever answered with CORS headers.
        throw new HttpError(405, 'method_not_allowed', 'runner endpoints accept POST only');
      }
      if (req.headers.origin !== ownOrigin) throw new HttpError(403, 'forbidden_origin', 'Origin must be this server');
      const site = req.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin') throw new HttpError(403, 'forbidden_origin', 'cross-site request');
      const received = req.headers[TOKEN_HEADER];
      if (received === undefined) throw new HttpError(401, 'missing_token', `${TOKEN_HEADER} header required`);
      if (!tokenMatches(token, received)) throw new HttpError(403, 'bad_token', 'wrong token');
      const type = String(req.headers['content-type'] ?? '');
      if (!/^application\/json\s*(;|$)/i.test(type)) throw new HttpError(415, 'unsupported_media_type', 'body must be application/json');
      const name = pathname.slice(RUNNER_PREFIX.length);
      const isStream = name === 'output';
      if (!isStream && !Object.hasOwn(endpoints, name)) throw new HttpError(404, 'unknown_endpoint', `no runner endpoint ${name}`);
      const raw = await readBody(req, name === 'write' ? WRITE_BODY : SMALL_BODY);
      let body;
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        throw new HttpError(400, 'bad_request', 'body is not JSON');
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'bad_request', 'body must be a JSON object');
      if (isStream) {
        streamOutput(req, res, body);
        return;
      }
      sendJson(res, 200, await endpoints[name](body));
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof HttpError) {
        const extra = error.status === 405 ? { Allow: 'POST' } : {};
        sendJson(res, error.status, { ok: false, code: error.code, message: error.message }, extra);
        if (error.status === 413) req.resume();
      } else if (!domainError(res, error)) {
        sendJson(res, 500, { ok: false, code: 'internal', message: 'runner error' });
      }
    }
  }

  return {
    token,
    workspace,
    handle,
    /** Kills every process group started by this runner. */
    close: () => {
      kept.close();
      return processes.killAll();
    },
  };
}
