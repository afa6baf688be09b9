// Parts of the relay-door suites (test/node/relay-door.test.mjs, test/e2e/relay-door.test.mjs): the
// real relay command (bin/ai-ops-relay.mjs) with a real MCP SDK client on its stdio, and WebSocket
// clients that try its door the way a local program or a second relay would.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { root, waitFor, RELAY_RUNTIME_DIR } from '../e2e/harness.mjs';

import {
  MSG, codeKey, ephemeralKey, pairingKey, proof, nonce,
} from '../../bin/relay-pairing.mjs';

export { root, waitFor };

/** The runtime directory of this test process's relays (the harness's, see RELAY_RUNTIME_DIR there). */
export const RUNTIME_DIR = RELAY_RUNTIME_DIR;

/** The environment a relay of this test process runs in: its own HOME, the shared runtime directory. */
export const relayEnv = (home) => ({ PATH: process.env.PATH ?? '', HOME: home, AI_OPS_RELAY_RUNTIME_DIR: RUNTIME_DIR });

/**
 * DOOR-6: asks the relay's MCP client for a pairing code, as an agent does (`ai_ops_pair`), and
 * reads the code out of the words it is to tell the user.
 */
export async function pairingCode(client) {
  const result = await client.callTool({ name: 'ai_ops_pair', arguments: {} });
  const match = /コード ([0-9A-Z]{5}-[0-9A-Z]{5}) /.exec(result.content[0].text);
  if (!match) throw new Error(`no code in ${JSON.stringify(result)}`);
  return match[1];
}
export const RELAY_BIN = join(root, 'bin/ai-ops-relay.mjs');
export const STOCK_RELAY_BIN = join(root, 'node_modules/@mcp-b/webmcp-local-relay/dist/cli.js');

/** How long a door attempt waits for an answer that should not come (the relay answers in ms). */
export const QUIET_MS = 400;

/**
 * Starts the relay command with a real MCP SDK client on its stdio, in a HOME of its own (the relay
 * keeps its port in ~/.webmcp). `stderr()` is what the command said so far.
 * @param {{args: string[], nodeArgs?: string[]}} options
 */
export async function startRelayClient({ args, nodeArgs = [] }) {
  const home = await mkdtemp(join(tmpdir(), 'ai-ops-door-home-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, RELAY_BIN, ...args],
    env: relayEnv(home),
    stderr: 'pipe',
  });
  let said = '';
  transport.stderr?.on('data', (chunk) => (said += chunk));
  const client = new Client({ name: 'ai-ops-door-test', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    await rm(home, { recursive: true, force: true });
    error.stderr = said;
    throw error;
  }
  return {
    client,
    stderr: () => said,
    async close() {
      await client.close().catch(() => {});
      await rm(home, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a command (node + args) to its end or until it said `until` on stderr; answers its exit code
 * (null while still running), its stderr, and a `stop()`.
 */
export async function runNode(args, { until, timeoutMs = 15_000 } = {}) {
  const home = await mkdtemp(join(tmpdir(), 'ai-ops-door-home-'));
  const child = spawn(process.execPath, args, { env: relayEnv(home), stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  let code = null;
  const exited = once(child, 'exit').then(([c]) => (code = c));
  const said = new Promise((resolveSaid) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (until && until.test(stderr)) resolveSaid();
    });
  });
  let timer;
  const timedOut = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no end and no ${until} after ${timeoutMs} ms: ${stderr}`)), timeoutMs)));
  try {
    await Promise.race([exited, said, timedOut]);
  } finally {
    clearTimeout(timer);
  }
  return {
    get code() { return code; },
    get stderr() { return stderr; },
    child,
    async stop() {
      if (code === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(home, { recursive: true, force: true });
    },
  };
}

/**
 * Opens a WebSocket to the relay on `port` and tries its door: sends `messages` once open (after the
 * relay's server-hello), then waits until the relay closes, until `until(got)` holds (when given),
 * or else until {@link QUIET_MS} passed with nothing more. With `until`, a busy relay's late answer
 * is waited for (10 s at most): a door that should close the connection is given until it does. Answers what the caller got: `status` (the HTTP status of a refused handshake), `opened`,
 * `closeCode`, every message's `types`, the tool names of any `relay/tools` and the `relay/result`s.
 * @param {{port: number, protocols?: string[], origin?: string, messages?: object[], onMessage?: (message: object, ws: WebSocket) => void, until?: (got: object) => boolean}} options
 */
export function tryDoor({ port, protocols = [], origin, messages = [], onMessage, until }) {
  return new Promise((done) => {
    const got = { status: null, opened: false, protocol: null, closeCode: null, types: [], tools: null, results: [] };
    const ws = new WebSocket(`ws://127.0.0.1:${port}`, protocols, origin ? { origin } : {});
    let quiet;
    const finish = () => {
      clearTimeout(quiet);
      ws.removeAllListeners();
      ws.on('error', () => {});
      if (ws.readyState === WebSocket.OPEN) ws.close();
      done(got);
    };
    const rearm = () => {
      clearTimeout(quiet);
      if (until?.(got)) return finish();
      quiet = setTimeout(finish, until ? 10_000 : QUIET_MS);
    };
    ws.on('unexpected-response', (_req, res) => {
      got.status = res.statusCode;
      res.resume();
      finish();
    });
    ws.on('error', () => finish());
    ws.on('open', () => {
      got.opened = true;
      got.protocol = ws.protocol;
      rearm();
    });
    ws.on('message', (raw) => {
      let message;
      try {
        message = JSON.parse(String(raw));
      } catch {
        return;
      }
      got.types.push(message.type);
      if (message.type === 'server-hello') {
        for (const m of messages) ws.send(JSON.stringify(m));
      }
      if (message.type === 'relay/tools' || message.type === 'relay/tools-changed') got.tools = message.tools.map((t) => t.name);
      if (message.type === 'relay/result') got.results.push(message.result);
      onMessage?.(message, ws);
      rearm();
    });
    ws.on('close', (code) => {
      got.closeCode = code;
      finish();
    });
  });
}

/** The relay-to-relay questions an attacker asks: the tool list, and a call of `toolName`. */
export const relayQuestions = (toolName) => [
  { type: 'relay/list-tools' },
  { type: 'relay/invoke', callId: 'attack-1', toolName, args: {} },
];

/**
 * A page as the widget speaks for it (webmcp.v1: hello, tools/list, answers to invoke, pong),
 * from Node: `origin` is its connection's Origin header, `declared` the origin its hello claims.
 * It pairs first as a page does (DOOR-6): with `code` (from {@link pairingCode}) it pairs on the
 * relay's challenge; with `pairing` (a `{id, key}` an earlier fake page paired) it proves it; with
 * neither it speaks at once, as an unpaired page would. Answers every call with `answered by
 * <label>`. `pairing` resolves with what it paired (null when refused); `refused` with the door's
 * refusal message type, if any.
 */
export async function fakePage({ port, origin, declared = origin, label = 'page', code, pairing, tools = [{ name: 'page_echo', description: 'Echo.', inputSchema: { type: 'object', properties: {} } }], protocols = ['webmcp.v1'] }) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`, protocols, origin ? { origin } : {});
  const closed = new Promise((resolveClosed) => ws.on('close', (code) => resolveClosed(code)));
  const status = new Promise((resolveStatus) => ws.on('unexpected-response', (_req, res) => {
    res.resume();
    resolveStatus(res.statusCode);
  }));
  let paired;
  const pairedPromise = new Promise((resolve) => (paired = resolve));
  const refused = [];
  let challenge = null;
  const mine = nonce();
  const key = ephemeralKey();
  const speak = () => {
    ws.send(JSON.stringify({ type: 'hello', tabId: `tab-${label}`, origin: declared, url: `${declared}/`, title: label }));
    ws.send(JSON.stringify({ type: 'tools/list', tools }));
  };
  ws.on('error', () => {});
  ws.on('close', () => paired(null));
  ws.on('message', (raw) => {
    const message = JSON.parse(String(raw));
    if (message.type === MSG.challenge) {
      challenge = message.nonce;
      if (code) {
        ws.send(JSON.stringify({ type: MSG.pair, nonce: mine, pub: key.pub, proof: proof(codeKey(code), 'ai-ops pair page', challenge, mine, key.pub, origin) }));
      } else if (pairing) {
        ws.send(JSON.stringify({ type: MSG.auth, id: pairing.id, nonce: mine, proof: proof(pairing.key, 'ai-ops auth page', challenge, mine, origin) }));
      }
    }
    if (message.type === MSG.pairRefused || message.type === MSG.authRefused) refused.push(message.type);
    if (message.type === MSG.paired) {
      paired({ id: message.id, key: pairingKey(key.privateKey, message.pub, codeKey(code), origin), client: message.client });
      speak();
    }
    if (message.type === MSG.authOk) {
      paired({ ...pairing, client: message.client });
      speak();
    }
    if (message.type === 'server-hello' && !code && !pairing) speak();
    if (message.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
    if (message.type === 'invoke') {
      ws.send(JSON.stringify({ type: 'result', callId: message.callId, result: { content: [{ type: 'text', text: `answered by ${label}` }] } }));
    }
  });
  return { ws, closed, status, pairing: pairedPromise, refused, close: () => ws.close() };
}

/** The names the relay lists to its MCP client, its own four tools left out. */
export async function relayed(client) {
  const { tools } = await client.listTools();
  return tools.map((t) => t.name).filter((n) => !n.startsWith('webmcp_') && n !== 'ai_ops_pair').sort();
}
