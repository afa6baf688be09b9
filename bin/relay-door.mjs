// The relay's door (DOOR-1..DOOR-4, issue 35): what `ai-ops-relay` adds to
// `@mcp-b/webmcp-local-relay` 2.2.0 so that only the pages of `--widget-origin` and other relays get in.
//
// Why here and how (PLATFORM-NOTES, "The relay's door"): 2.2.0's WebSocketServer has no
// `verifyClient` and drops the upgrade request, so a connection's `Origin` header is never read; any
// `relay/*` message goes to the relay-to-relay handler on any subprotocol, before any hello; and
// `--widget-origin` is compared with the origin a page *declares*. The package has no option for any
// of it, and a fork or `patch-package` would not reach the people who install ai-ops. Its exported
// `RelayBridgeServer` can be subclassed and handed to `new LocalRelayMcpServer({ bridge })`; the
// subclass leans on private names of 2.2.0 (pinned exactly), so {@link missingRelayParts} checks them
// before the command starts, and {@link probeDoor} checks the door itself once it listens.
import { createRequire } from 'node:module';
import {
  MSG, nonce, proof, sameProof, ephemeralKey, pairingKey, readRelaySecret,
} from './relay-pairing.mjs';

/** The subprotocol of relay-to-relay connections (2.2.0's `RELAY_INTERNAL_PROTOCOL`). */
export const RELAY_PROTOCOL = 'webmcp-relay.v1';

/**
 * The Origin {@link probeDoor} sends: a name that cannot exist (`.invalid`, RFC 2606), so no
 * `--widget-origin` lists it and a guarded relay refuses it whatever it serves.
 */
export const PROBE_ORIGIN = 'http://ai-ops-door-check.invalid';

/** How long {@link probeDoor} waits for each of its two answers; a relay answers in milliseconds. */
const PROBE_TIMEOUT_MS = 2000;

/** The flags 2.2.0's parseCliOptions reads as the allowed page origins. */
export const ORIGIN_FLAGS = ['--widget-origin', '--allowed-origin', '--ws-origin'];

/** The ws module the relay package itself uses (its dependency, wherever the installer put it). */
function relayWs() {
  return createRequire(import.meta.resolve('@mcp-b/webmcp-local-relay'))('ws');
}

/** The Origin a WebSocket upgrade request carries (`Sec-WebSocket-Origin` for version 8), or undefined. */
function originOf(req) {
  const origin = req?.headers?.origin ?? req?.headers?.['sec-websocket-origin'];
  return typeof origin === 'string' ? origin : undefined;
}

/** The subprotocols an upgrade request offers. */
function offeredProtocols(req) {
  const header = req?.headers?.['sec-websocket-protocol'];
  return typeof header === 'string' ? header.split(',').map((p) => p.trim()).filter(Boolean) : [];
}

/** A message's text, whichever of ws's data forms it arrived in. */
function textOf(raw) {
  if (typeof raw === 'string') return raw;
  if (Buffer.isBuffer(raw)) return raw.toString('utf8');
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  if (raw instanceof ArrayBuffer) return Buffer.from(raw).toString('utf8');
  return String(raw);
}

/** A message as a JSON object, or undefined. */
function parse(raw) {
  try {
    const message = JSON.parse(textOf(raw));
    return message !== null && typeof message === 'object' ? message : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a method's source calls `this.<name>(`: the override of `<name>` is then reached. */
const calls = (method, name) => typeof method === 'function' && Function.prototype.toString.call(method).includes(`this.${name}(`);

/**
 * The parts of the relay package the door leans on that are not there (DOOR-3), each with why it
 * is needed; empty when all are. Reads the classes and builds one bridge without starting it
 * (nothing listens, nothing is written).
 * @param {{RelayBridgeServer?: unknown, LocalRelayMcpServer?: unknown, parseCliOptions?: unknown}} relayPackage
 *   the package's exports (`import * as relayPackage from '@mcp-b/webmcp-local-relay'`)
 * @returns {string[]}
 * @example
 * const missing = missingRelayParts(await import('@mcp-b/webmcp-local-relay'));
 * if (missing.length) throw new Error(missing.join('; '));
 */
export function missingRelayParts(relayPackage) {
  const missing = [];
  const { RelayBridgeServer, LocalRelayMcpServer, parseCliOptions } = relayPackage;
  if (typeof parseCliOptions !== 'function') missing.push('the export parseCliOptions');
  if (typeof RelayBridgeServer !== 'function') missing.push('the export RelayBridgeServer (the bridge the door subclasses)');
  if (typeof LocalRelayMcpServer !== 'function') missing.push('the export LocalRelayMcpServer (which takes the guarded bridge)');
  if (missing.length) return missing;
  const proto = RelayBridgeServer.prototype;
  for (const [name, why] of [
    ['startAsServer', 'after which the door sets wss.options.verifyClient'],
    ['onSocketMessage', 'which the door wraps to hold relay/* and check a page\'s hello'],
    ['tryAttachToExistingRelay', 'which the door wraps to attach only to a guarded relay'],
    ['startUsingPortStrategy', 'which must call tryAttachToExistingRelay'],
    ['setupClientHandlers', 'after which the door asks an attached relay for its tools again'],
    ['onSocketClose', 'which the door calls as a page\'s close frame arrives, so its tools leave first'],
    ['startAsClient', 'which must call connectToRelayServer'],
    ['connectToRelayServer', 'which the door replaces with a handshake that proves the per-start secret (DOOR-7)'],
  ]) {
    if (typeof proto[name] !== 'function') missing.push(`RelayBridgeServer.prototype.${name} (${why})`);
  }
  if (typeof proto.startAsServer === 'function' && !calls(proto.startAsServer, 'onSocketMessage')) {
    missing.push('a call of this.onSocketMessage( in startAsServer (else the door\'s override is never reached)');
  }
  if (typeof LocalRelayMcpServer.prototype.registerStaticTool !== 'function') {
    missing.push('LocalRelayMcpServer.prototype.registerStaticTool (which adds ai_ops_pair, the pairing code, DOOR-6)');
  }
  if (typeof proto.startAsClient === 'function' && !calls(proto.startAsClient, 'connectToRelayServer')) {
    missing.push('a call of this.connectToRelayServer( in startAsClient (else a held port is joined without proof)');
  }
  if (typeof proto.startUsingPortStrategy === 'function' && !calls(proto.startUsingPortStrategy, 'tryAttachToExistingRelay')) {
    missing.push('a call of this.tryAttachToExistingRelay( in startUsingPortStrategy (else a held port is joined unchecked)');
  }
  let bridge;
  try {
    bridge = new RelayBridgeServer({ port: 0, allowedOrigins: ['http://localhost'] });
  } catch (error) {
    missing.push(`a RelayBridgeServer that can be built (${error instanceof Error ? error.message : String(error)})`);
    return missing;
  }
  if (!(bridge.socketByConnectionId instanceof Map)) missing.push('RelayBridgeServer#socketByConnectionId, a Map (the door finds a connection\'s socket there)');
  if (!Array.isArray(bridge.allowedOrigins)) missing.push('RelayBridgeServer#allowedOrigins, an array (the door reads the served origins)');
  if (!('wss' in bridge)) missing.push('RelayBridgeServer#wss (the WebSocketServer whose options the door sets)');
  try {
    if (new LocalRelayMcpServer({ bridge }).bridge !== bridge) missing.push('LocalRelayMcpServer({ bridge }) using the bridge it is given');
  } catch (error) {
    missing.push(`LocalRelayMcpServer({ bridge }) (${error instanceof Error ? error.message : String(error)})`);
  }
  return missing;
}

/** Thrown when the door cannot be put in place, or a held port belongs to an unguarded relay. */
export class DoorError extends Error {
  name = 'DoorError';
}

/**
 * Subclasses the relay package's `RelayBridgeServer` with the door (DOOR-1, DOOR-2, DOOR-4,
 * DOOR-6..DOOR-8):
 * - at the handshake (HTTP 403): an `Origin` header that `allowedOrigins` does not list (unless it
 *   lists `*`), `webmcp-relay.v1` offered by any connection that has an `Origin` header, and a page
 *   connection (anything but `webmcp-relay.v1`) without an `Origin` header (DOOR-8);
 * - every accepted connection is sent a challenge (`ai-ops/challenge`, a fresh nonce) first;
 * - a page: nothing it says is taken until it paired (`ai-ops/pair`, a one-time code's proof) or
 *   proved a pairing (`ai-ops/auth`), each over the challenge and a nonce of its own; the relay
 *   answers with its own proof, so the page knows it reached the relay it paired with (DOOR-6). A
 *   page's `hello` declaring another origin than its connection's `Origin` header: closed (1008);
 * - `relay/*`: only on a `webmcp-relay.v1` connection without an `Origin` header, and only after a
 *   `relay/hello` that proves the per-start secret over the challenge (DOOR-7); any other `relay/*`,
 *   and anything but `relay/*` on such a connection, closes it (1008) unanswered;
 * - a held port: joined only when the relay there proves the per-start secret the user's relay
 *   wrote for that port; anything else stops the start with a {@link DoorError} naming the port and
 *   `--port`.
 * @template {new (...args: any[]) => any} T
 * @param {T} Base the package's RelayBridgeServer
 * @param {{log?: (line: string) => void, runtimeDir?: string | null, book?: import('./relay-pairing.mjs').PairingBook | null,
 *   client?: () => ({name: string, version: string} | null), writeSecret?: (port: number) => {secret: Buffer, remove(): void}}} [options]
 *   `log`: where refusals are reported (once per origin); `runtimeDir`: where the per-start secrets
 *   are (bin/relay-pairing.mjs); `writeSecret`: writes this relay's once it listens; `book`: the
 *   pairings and codes (none: no page gets in); `client`: the MCP client's clientInfo (DOOR-10)
 * @returns {T}
 * @example
 * const Guarded = guardRelayBridge(RelayBridgeServer, { runtimeDir, book, writeSecret });
 * const relay = new LocalRelayMcpServer({ bridge: new Guarded(bridgeOptions) });
 */
export function guardRelayBridge(Base, { log = () => {}, runtimeDir = null, book = null, client = () => null, writeSecret = null } = {}) {
  return class GuardedRelayBridge extends Base {
    /** What the door knows of each accepted socket: Origin header, subprotocol, challenge, relay/hello, pairing. */
    #doors = new WeakMap();
    /** Origins already reported as refused (a page's widget retries every ~0.5 s). */
    #reported = new Set();
    /** This relay's per-start secret while it listens (DOOR-7). */
    #secret = null;

    async startAsServer(port) {
      await super.startAsServer(port);
      const wss = this.wss;
      if (!wss || typeof wss.options !== 'object' || wss.options === null || typeof wss.prependListener !== 'function') {
        try {
          wss?.close?.();
        } catch {
          // closing is all that is left to do
        }
        this.wss = null;
        throw new DoorError('the relay package has no wss.options to set verifyClient on; refusing to run unguarded');
      }
      // Set before any upgrade can arrive: super resolved on `listening`, and no socket event runs
      // between its return and this line (only promise reactions do).
      wss.options.verifyClient = (info, answer) => {
        const refusal = this.#refusal(info.req);
        if (refusal) answer(false, 403, refusal);
        else answer(true);
      };
      wss.prependListener('connection', (socket, req) => {
        const door = { origin: originOf(req), protocol: socket.protocol, relayHello: false, challenge: nonce(), pairing: null };
        this.#doors.set(socket, door);
        this.#withdrawOnClose(socket);
        // Before the package's server-hello: a peer has what it must prove before it can say anything.
        this.#send(socket, { type: MSG.challenge, nonce: door.challenge });
      });
      this.#answerPlainRequests(wss);
      this.#secret?.remove();
      this.#secret = writeSecret ? writeSecret(this.port) : null;
    }

    async stop() {
      try {
        await super.stop();
      } finally {
        this.#secret?.remove();
        this.#secret = null;
      }
    }

    /**
     * SAFE-5, DOOR-9: a page that goes closes its socket, and its tools leave the list as its close
     * frame arrives, before the relay answers it: ws answers a close frame by calling the socket's
     * `close`, so by the time the page sees its socket closed (the answer), the agent lists none of
     * them. Without this they left only once the TCP connection had closed, a moment after the page
     * was told (2–80 ms measured), and a page that read "off" could still be listed.
     */
    #withdrawOnClose(socket) {
      const close = socket.close;
      socket.close = (...args) => {
        for (const [connectionId, known] of this.socketByConnectionId) {
          if (known === socket) this.onSocketClose(connectionId);
        }
        return close.apply(socket, args);
      };
    }

    /** Whether a page of `origin` is let in. */
    #serves(origin) {
      return this.allowedOrigins.includes('*') || this.allowedOrigins.includes(origin);
    }

    /**
     * DOOR-5: a page refused at the handshake sees only that its WebSocket failed, as if nothing
     * listened (the browser shows no status to scripts). So a plain GET to the relay port (ws's own
     * HTTP server answers it 426, which Chromium logs as an error) is answered here instead, readable
     * by any page: `{"service":"ai-ops-relay","served":<whether the asking page's origin is served>}`.
     * It tells the asker about itself only, never which origins are served. Without ws's `_server`
     * (a relay given its own server) pages just cannot tell; the door itself does not depend on it.
     */
    #answerPlainRequests(wss) {
      const server = wss._server;
      const listeners = typeof server?.listeners === 'function' ? server.listeners('request') : [];
      if (listeners.length !== 1) {
        log('warning: the relay port cannot tell a refused page why (no HTTP request hook); the door holds all the same');
        return;
      }
      const [upgradeRequired] = listeners;
      server.removeListener('request', upgradeRequired);
      server.on('request', (req, res) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') return upgradeRequired(req, res);
        const origin = originOf(req);
        const body = JSON.stringify({ service: 'ai-ops-relay', served: origin !== undefined && this.#serves(origin) });
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'Access-Control-Allow-Origin': '*',
          'Cache-Control': 'no-store',
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      });
    }

    /** Why a handshake is refused, or null to let it through (DOOR-1, DOOR-8). */
    #refusal(req) {
      const origin = originOf(req);
      const relay = offeredProtocols(req).includes(RELAY_PROTOCOL);
      // DOOR-8: every browser sends an Origin with a WebSocket; a "page" without one is a local program.
      if (origin === undefined) return relay ? null : 'a page connection carries an Origin header';
      if (relay) return 'webmcp-relay.v1 is for relays, not pages';
      if (this.#serves(origin)) return null;
      if (origin !== PROBE_ORIGIN && !this.#reported.has(origin)) {
        this.#reported.add(origin);
        log(`refused a page of ${origin}: not in --widget-origin (${this.allowedOrigins.join(', ')})`);
      }
      return 'origin not served by this relay';
    }

    onSocketMessage(connectionId, raw) {
      const socket = this.socketByConnectionId.get(connectionId);
      const door = socket && this.#doors.get(socket);
      // A socket the door did not see accepted: nothing it says is taken.
      if (!door) return this.#shut(socket, 'unknown connection');
      const message = parse(raw);
      const type = message?.type;
      if (typeof type === 'string' && type.startsWith('relay/')) {
        if (door.protocol !== RELAY_PROTOCOL || door.origin !== undefined) return this.#shut(socket, 'relay messages are for relays');
        if (type === 'relay/hello' && !door.relayHello) return this.#relayHello(socket, door, message, connectionId, raw);
        if (!door.relayHello) return this.#shut(socket, 'relay/hello first');
        return super.onSocketMessage(connectionId, raw);
      }
      if (door.protocol === RELAY_PROTOCOL) return this.#shut(socket, 'a relay connection carries relay messages only');
      if (door.pairing === null) {
        if (type === MSG.pair) return this.#pair(socket, door, message);
        if (type === MSG.auth) return this.#auth(socket, door, message);
        return this.#shut(socket, 'pair first');
      }
      if (type === MSG.unpair) return this.#unpair(door.pairing);
      if (type === 'hello' && message.origin !== door.origin) {
        return this.#shut(socket, 'declared origin differs from the connection\'s Origin');
      }
      return super.onSocketMessage(connectionId, raw);
    }

    /** DOOR-7: a relay/hello is taken when it proves this relay's per-start secret over the challenge. */
    #relayHello(socket, door, message, connectionId, raw) {
      const secret = this.#secret?.secret;
      const theirs = typeof message.nonce === 'string' && message.nonce.length <= 200 ? message.nonce : null;
      if (!secret || !theirs || !sameProof(proof(secret, 'ai-ops relay hello', door.challenge, theirs), message.proof)) {
        return this.#shut(socket, 'relay/hello without the proof');
      }
      door.relayHello = true;
      this.#send(socket, { type: MSG.relayProof, proof: proof(secret, 'ai-ops relay server', door.challenge, theirs) });
      return super.onSocketMessage(connectionId, raw);
    }

    /** DOOR-6: a page with a one-time code pairs; the code is taken once, whatever the outcome. */
    #pair(socket, door, message) {
      const { nonce: theirs, pub, until } = message ?? {};
      if (!book || typeof theirs !== 'string' || theirs.length > 200 || typeof pub !== 'string' || pub.length > 200) {
        return this.#shut(socket, 'bad pairing request');
      }
      const taken = book.takeCode((key) => proof(key, 'ai-ops pair page', door.challenge, theirs, pub, door.origin), message.proof);
      if (!taken) {
        this.#send(socket, { type: MSG.pairRefused });
        return this.#shut(socket, 'pairing code refused');
      }
      let key, mine;
      try {
        mine = ephemeralKey();
        key = pairingKey(mine.privateKey, pub, taken.key, door.origin);
      } catch {
        return this.#shut(socket, 'bad pairing request');
      }
      const id = nonce(16);
      book.addPairing({ id, origin: door.origin, key, until: typeof until === 'number' ? until : undefined, client: taken.client });
      door.pairing = id;
      log(`paired with a page of ${door.origin}`);
      this.#send(socket, {
        type: MSG.paired, id, pub: mine.pub, port: this.port, client: client() ?? taken.client,
        proof: proof(taken.key, 'ai-ops pair relay', door.challenge, theirs, pub, mine.pub, id, this.port),
      });
    }

    /** DOOR-6: a paired page proves its pairing over the challenge; the relay proves it back. */
    #auth(socket, door, message) {
      const { id, nonce: theirs } = message ?? {};
      const pairing = book && typeof id === 'string' && typeof theirs === 'string' && theirs.length <= 200 ? book.pairing(id, door.origin) : null;
      if (!pairing || !sameProof(proof(pairing.key, 'ai-ops auth page', door.challenge, theirs, door.origin), message.proof)) {
        this.#send(socket, { type: MSG.authRefused });
        return this.#shut(socket, 'not paired');
      }
      door.pairing = id;
      this.#send(socket, {
        type: MSG.authOk, port: this.port, client: client() ?? pairing.client, until: pairing.until,
        proof: proof(pairing.key, 'ai-ops auth relay', door.challenge, theirs, door.origin),
      });
    }

    /** 「接続を解除」, an off or the period's end: the pairing ends, and every connection of it closes (its tools leave). */
    #unpair(id) {
      book?.removePairing(id);
      for (const socket of [...this.socketByConnectionId.values()]) {
        if (this.#doors.get(socket)?.pairing === id) this.#shut(socket, 'unpaired');
      }
    }

    /** Sends a message, if the socket is still open. */
    #send(socket, message) {
      try {
        socket.send(JSON.stringify(message));
      } catch {
        // closing
      }
    }

    /** Closes a connection (1008) without answering what it sent. */
    #shut(socket, reason) {
      try {
        socket?.close(1008, reason);
      } catch {
        // already closing
      }
    }

    /**
     * 2.2.0 asks the relay it attaches to for its tools before it listens for the answer: it stops
     * reading at the `server-hello` and starts its handlers a promise later, so a `relay/tools` that
     * came in the same read as the hello was dropped, and the attached relay listed nothing until
     * the pages' tools next changed (seen on a busy machine: [DOOR-4] waited 10 s for a tool). Asked
     * again once the handlers listen, the answer is taken whatever the timing.
     */
    setupClientHandlers(socket, bufferedMessages) {
      super.setupClientHandlers(socket, bufferedMessages);
      try {
        socket.send(JSON.stringify({ type: 'relay/list-tools' }));
      } catch {
        // closing: the package reconnects and asks again
      }
    }

    /** DOOR-7: the relay on `port` is joined only through a handshake in which it proves the user's per-start secret. */
    async connectToRelayServer(port) {
      const secret = runtimeDir ? readRelaySecret(runtimeDir, port) : null;
      if (!secret) throw new DoorError(`no per-start secret of yours for port ${port}`);
      const socket = await relayHandshake(this.host, port, secret);
      if (!socket) throw new DoorError(`the relay on port ${port} did not prove the per-start secret`);
      return { socket, bufferedMessages: [] };
    }

    async tryAttachToExistingRelay(port) {
      // DOOR-7: a challenge–response, never a behaviour check: only the user's own relay, which
      // wrote its secret where only the user can read it, can answer.
      const secret = runtimeDir ? readRelaySecret(runtimeDir, port) : null;
      const socket = secret ? await relayHandshake(this.host, port, secret) : null;
      if (!socket) {
        throw new DoorError(
          `port ${port} is held by something that did not prove it is your ai-ops-relay (it could not answer the `
          + 'challenge with the secret your relay keeps in a file only you can read); not attaching to it. Stop it, '
          + 'or run this relay on another port with --port <n> and give your pages the same port (their relayPort option).',
        );
      }
      socket.close(1000);
      return super.tryAttachToExistingRelay(port);
    }
  };
}

/**
 * DOOR-7: the handshake of a relay joining the user's relay on `host:port`: the relay there sends a
 * challenge; this side answers it in `relay/hello` with a proof of `secret` over the challenge and a
 * nonce of its own; the relay there proves the secret back over both. Resolves with the open socket
 * (`relay/list-tools` asked) once both proofs held; null when anything else happened (nothing there,
 * another service, a wrong or missing proof, 3 s without an answer).
 * @param {string} host
 * @param {number} port
 * @param {Buffer} secret
 * @returns {Promise<import('ws').WebSocket | null>}
 */
export function relayHandshake(host, port, secret) {
  const WebSocket = relayWs();
  return new Promise((resolve) => {
    const mine = nonce();
    let challenge = null;
    const ws = new WebSocket(`ws://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`, [RELAY_PROTOCOL], {
      handshakeTimeout: PROBE_TIMEOUT_MS,
    });
    const timer = setTimeout(() => finish(false), PROBE_TIMEOUT_MS + 1000);
    function finish(ok) {
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on('error', () => {});
      if (ok) return resolve(ws);
      try {
        ws.terminate();
      } catch {
        // gone already
      }
      resolve(null);
    }
    ws.on('unexpected-response', (_req, res) => {
      res.resume();
      finish(false);
    });
    ws.on('error', () => finish(false));
    ws.on('close', () => finish(false));
    ws.on('message', (raw) => {
      const message = parse(raw);
      if (message?.type === MSG.challenge && challenge === null && typeof message.nonce === 'string') {
        challenge = message.nonce;
        // The tool list is asked at once: a relay that fails the proof below is closed before
        // anything it sent is read, and the bridge asks again once its handlers listen.
        ws.send(JSON.stringify({ type: 'relay/hello', nonce: mine, proof: proof(secret, 'ai-ops relay hello', challenge, mine) }));
        ws.send(JSON.stringify({ type: 'relay/list-tools' }));
      } else if (message?.type === MSG.relayProof && challenge !== null) {
        finish(sameProof(proof(secret, 'ai-ops relay server', challenge, mine), message.proof));
      }
    });
  });
}

/**
 * Tells a guarded relay on `host:port` from a stock one by how it behaves (DOOR-3, DOOR-4), with two
 * short WebSocket connections:
 * 1. `webmcp-relay.v1` with an `Origin` header ({@link PROBE_ORIGIN}): a guarded relay refuses it at
 *    the handshake (403); a stock one accepts it and sends its `server-hello`.
 * 2. `webmcp-relay.v1` without an `Origin`, `relay/list-tools` before any `relay/hello`: a guarded
 *    relay closes the connection unanswered; a stock one answers `relay/tools`.
 * @param {string} host
 * @param {number} port
 * @returns {Promise<'guarded' | 'unguarded' | 'not-a-relay'>} `not-a-relay` when the port answers
 *   neither way (nothing there, or another service)
 * @example if (await probeDoor('127.0.0.1', 9333) !== 'guarded') process.exit(1);
 */
export async function probeDoor(host, port) {
  const first = await probeOnce(host, port, { origin: PROBE_ORIGIN });
  if (first.relayHello) return 'unguarded';
  if (first.status !== 403) return 'not-a-relay';
  const second = await probeOnce(host, port, { send: { type: 'relay/list-tools' } });
  if (second.relayTools) return 'unguarded';
  return second.relayHello && second.closed ? 'guarded' : 'not-a-relay';
}

/** One probe connection: its handshake status, whether a relay's server-hello and relay/tools came, whether it closed. */
function probeOnce(host, port, { origin, send }) {
  const WebSocket = relayWs();
  return new Promise((resolve) => {
    const seen = { status: null, relayHello: false, relayTools: false, closed: false };
    const ws = new WebSocket(`ws://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`, [RELAY_PROTOCOL], {
      ...(origin ? { origin } : {}),
      handshakeTimeout: PROBE_TIMEOUT_MS,
    });
    const timer = setTimeout(() => finish(), PROBE_TIMEOUT_MS);
    function finish() {
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on('error', () => {});
      try {
        if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.terminate();
      } catch {
        // gone already
      }
      resolve(seen);
    }
    ws.on('unexpected-response', (_req, res) => {
      seen.status = res.statusCode;
      res.resume();
      finish();
    });
    ws.on('error', finish);
    ws.on('message', (raw) => {
      const message = parse(raw);
      if (message?.type === 'server-hello' && message.service === 'webmcp-local-relay') {
        seen.relayHello = true;
        if (!send) return finish();
        ws.send(JSON.stringify(send));
      }
      if (message?.type === 'relay/tools' || message?.type === 'relay/tools-changed') {
        seen.relayTools = true;
        finish();
      }
    });
    ws.on('close', () => {
      seen.closed = true;
      finish();
    });
  });
}
