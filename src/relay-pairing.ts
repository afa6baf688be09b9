/**
 * The page's side of the relay pairing (DOOR-6, DOOR-9, issue 43): the one-time code the user
 * types in the log's つなぎ方, the key it yields, and the proof of that key on every connection.
 *
 * Why: 127.0.0.1 is shared by every process of every OS user. Before pairing, whatever answered on
 * the relay port got the page's tools (a neighbour listening there read the note), and the relay
 * took any local program as a page or a peer. Now the page hands its tools only to the relay that
 * proves the key they share, and the relay lists only pages that prove it back.
 *
 * The exchange (the relay's side is `bin/relay-door.mjs` and `bin/relay-pairing.mjs`; the fields and
 * labels must stay the same on both): the relay opens every connection with a challenge (a fresh
 * nonce). Pairing: the page sends an ephemeral P-256 public key, a nonce of its own and an HMAC over
 * both nonces, the key and its origin keyed by the code; the relay, which issued the code to its MCP
 * client, answers with its own public key and an HMAC over everything keyed by the code. Both derive
 * the pairing key from the ECDH secret (HKDF, salted with the code): a listener who saw the exchange
 * has no key, and an impostor relay without the code cannot answer. Every later connection: the
 * page proves the key over the relay's challenge and its own nonce, the relay proves it back over
 * both, so nothing that crosses the wire can be replayed.
 *
 * The key is a non-extractable HMAC `CryptoKey` kept in the consent store (IndexedDB, out of reach
 * of a program that only writes the origin's storage, and no script can read its bytes).
 * @module
 */
import type { ConsentStore } from './consent-store.js';

/** The consent store's key of the pairing. */
export const PAIRING_KEY = 'relay-pairing';

/** The MCP client that asked the relay for the code (its `initialize` clientInfo; DOOR-10). */
export interface RelayClientInfo {
  readonly name: string;
  readonly version: string;
}

/** What the page keeps of a pairing. */
export interface Pairing {
  readonly id: string;
  readonly key: CryptoKey;
  /** Where the page paired with the relay (the port it proved itself on): the page looks there only. */
  readonly port: number;
  readonly client: RelayClientInfo | null;
}

/** Why a pairing did not happen, for the log's message. */
export type PairingFailure = 'code' | 'no-relay' | 'relay' | 'bad-code' | 'off';

/** Thrown by {@link pairWithCode}. */
export class PairingError extends Error {
  override name = 'PairingError';
  constructor(readonly reason: PairingFailure) {
    super(`pairing failed: ${reason}`);
  }
}

const utf8 = (text: string) => new TextEncoder().encode(text);

function toBase64Url(bytes: ArrayBuffer | Uint8Array): string {
  let text = '';
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A fresh nonce (32 random bytes, base64url). */
export function newNonce(crypto: Crypto): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** A code as the user may type it: case, spaces and dashes do not matter; I/L read as 1, O as 0. */
export function normalizeCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
}

/** Whether `code` can be a code at all (10 characters of Crockford's base32), so a typo is told at once. */
export function looksLikeCode(code: string): boolean {
  return /^[0-9A-HJKMNP-TV-Z]{10}$/.test(normalizeCode(code));
}

/** The bytes a code stands for: SHA-256 of `ai-ops pairing code\n<normalised code>`. */
async function codeBytes(crypto: Crypto, code: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest('SHA-256', utf8(`ai-ops pairing code\n${normalizeCode(code)}`));
}

function hmacKey(crypto: Crypto, raw: ArrayBuffer): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** HMAC-SHA-256 of `label` and `fields` joined by "\n", as base64url (the relay's `proof`). */
export async function proof(crypto: Crypto, key: CryptoKey, label: string, ...fields: Array<string | number>): Promise<string> {
  return toBase64Url(await crypto.subtle.sign('HMAC', key, utf8([label, ...fields.map(String)].join('\n'))));
}

/** Whether two proofs are equal, comparing every character whatever differs. */
export function sameProof(a: unknown, b: string): boolean {
  if (typeof a !== 'string' || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** A message as a JSON object with a string `type`, or null. */
export function parseMessage(data: unknown): { type: string; [field: string]: unknown } | null {
  try {
    const message = JSON.parse(String(data)) as unknown;
    return message && typeof message === 'object' && typeof (message as { type?: unknown }).type === 'string'
      ? (message as { type: string })
      : null;
  } catch {
    return null;
  }
}

/** The relay's answer about its MCP client, if it is one. */
export function clientInfoOf(value: unknown): RelayClientInfo | null {
  if (!value || typeof value !== 'object') return null;
  const { name, version } = value as { name?: unknown; version?: unknown };
  return typeof name === 'string' && name ? { name: name.slice(0, 100), version: typeof version === 'string' ? version.slice(0, 50) : '' } : null;
}

/** What {@link pairWithCode} needs. */
export interface PairOptions {
  /** Where the WebSocket is opened from (the page, or the relay widget's document). */
  context: Window & typeof globalThis;
  /** The page's origin, which the relay reads from the connection's Origin header. */
  origin: string;
  port: number;
  code: string;
  /** Cancels the exchange (the switch went off, the page went away). */
  signal?: AbortSignal;
  /** How long the relay may take; default 10 s. */
  timeoutMs?: number;
}

/**
 * Pairs with the relay on `port` by the user's one-time code (DOOR-6). Resolves with the pairing
 * (not yet kept: {@link keepPairing}); rejects with a {@link PairingError}: `code` when the relay
 * refused the code (wrong, used or expired), `no-relay` when nothing answered as a relay, `relay`
 * when what answered could not prove it issued the code.
 * @example const pairing = await pairWithCode({ context: window, origin: location.origin, port: 9333, code: 'ABCDE-FGHJK' });
 */
export async function pairWithCode({ context, origin, port, code, signal, timeoutMs = 10_000 }: PairOptions): Promise<Pairing> {
  if (!looksLikeCode(code)) throw new PairingError('bad-code');
  const { crypto } = context;
  const codeRaw = await codeBytes(crypto, code);
  const codeKey = await hmacKey(crypto, codeRaw);
  const ecdh = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits']) as CryptoKeyPair;
  const pub = toBase64Url(await crypto.subtle.exportKey('raw', ecdh.publicKey));
  const mine = newNonce(crypto);
  return new Promise<Pairing>((resolve, reject) => {
    const socket = new context.WebSocket(`ws://127.0.0.1:${port}/`, ['webmcp.v1']);
    let challenge: string | null = null;
    let settled = false;
    const timer = context.setTimeout(() => fail('no-relay'), timeoutMs);
    const end = () => {
      settled = true;
      context.clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.onmessage = socket.onclose = socket.onerror = null;
      try {
        socket.close();
      } catch {
        // closed already
      }
    };
    const fail = (reason: PairingFailure) => {
      if (settled) return;
      end();
      reject(new PairingError(reason));
    };
    const onAbort = () => fail('no-relay');
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.onerror = () => fail(challenge === null ? 'no-relay' : 'relay');
    socket.onclose = () => fail(challenge === null ? 'no-relay' : 'relay');
    // Messages are handled one at a time: each may await WebCrypto.
    let queue = Promise.resolve();
    socket.onmessage = (event) => {
      queue = queue.then(async () => {
        if (settled) return;
        const message = parseMessage(event.data);
        if (message?.type === 'ai-ops/challenge' && challenge === null && typeof message.nonce === 'string') {
          challenge = message.nonce;
          socket.send(JSON.stringify({
            type: 'ai-ops/pair', nonce: mine, pub, proof: await proof(crypto, codeKey, 'ai-ops pair page', challenge, mine, pub, origin),
          }));
        } else if (message?.type === 'ai-ops/pair-refused') {
          fail('code');
        } else if (message?.type === 'ai-ops/paired' && challenge !== null) {
          const { id, pub: theirs, port: relayPort } = message;
          if (typeof id !== 'string' || typeof theirs !== 'string' || typeof relayPort !== 'number') return fail('relay');
          const expected = await proof(crypto, codeKey, 'ai-ops pair relay', challenge, mine, pub, theirs, id, relayPort);
          if (!sameProof(message.proof, expected)) return fail('relay');
          const key = await deriveKey(crypto, ecdh.privateKey, theirs, codeRaw, origin).catch(() => null);
          if (!key) return fail('relay');
          end();
          // Where the page reached the relay: the relay's own port, or a port forwarded to it.
          resolve({ id, key, port, client: clientInfoOf(message.client) });
        }
      }).catch(() => fail('relay'));
    };
  });
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The pairing key (HKDF-SHA-256 of the ECDH secret, salted with the code, bound to the origin), non-extractable. */
async function deriveKey(crypto: Crypto, privateKey: CryptoKey, theirs: string, salt: ArrayBuffer, origin: string): Promise<CryptoKey> {
  const publicKey = await crypto.subtle.importKey('raw', fromBase64Url(theirs), { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  const shared = await crypto.subtle.deriveBits({ name: 'ECDH', public: publicKey }, privateKey, 256);
  const hkdf = await crypto.subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt, info: utf8(`ai-ops pairing key\n${origin}`) },
    hkdf,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign'],
  );
}

/** Keeps the pairing in the consent store (its key stays a non-extractable CryptoKey). */
export function keepPairing(store: ConsentStore, pairing: Pairing): Promise<void> {
  return store.set(PAIRING_KEY, { v: 1, ...pairing });
}

/** The kept pairing, or null for anything that is not exactly one. */
export async function readPairing(store: ConsentStore): Promise<Pairing | null> {
  const value = (await store.get(PAIRING_KEY)) as Record<string, unknown> | undefined;
  if (!value || typeof value !== 'object' || value.v !== 1) return null;
  const { id, key, port, client } = value;
  if (typeof id !== 'string' || typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) return null;
  if (typeof CryptoKey === 'undefined' || !(key instanceof CryptoKey) || key.extractable || key.algorithm.name !== 'HMAC') return null;
  return { id, key, port, client: clientInfoOf(client) };
}

/** Forgets the pairing. */
export function forgetPairing(store: ConsentStore): Promise<void> {
  return store.delete(PAIRING_KEY);
}

/** The page's answer to the relay's challenge on a connection (DOOR-6): the message, and the relay's proof it expects back. */
export async function answerChallenge(crypto: Crypto, pairing: Pairing, challenge: string, origin: string): Promise<{ message: string; expected: string }> {
  const mine = newNonce(crypto);
  return {
    message: JSON.stringify({ type: 'ai-ops/auth', id: pairing.id, nonce: mine, proof: await proof(crypto, pairing.key, 'ai-ops auth page', challenge, mine, origin) }),
    expected: await proof(crypto, pairing.key, 'ai-ops auth relay', challenge, mine, origin),
  };
}
