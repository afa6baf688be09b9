// What the relay's door proves and remembers (DOOR-6, DOOR-7, issue 43): the per-start secret a
// second `ai-ops-relay` proves in `relay/hello`, the one-time pairing codes the relay's MCP client
// hands the user, and the pairings a page proves on every connection — each proof a
// challenge–response, so nothing that crosses the wire can be replayed.
//
// Why files, and which: 127.0.0.1 is shared by every process of every OS user, so "it answered on
// the port" proves nothing (an impostor answering like a guarded door passed the old behaviour
// probe). What the user's own processes can read and others cannot is a file of mode 0600 in a
// directory of mode 0700 that the user owns: `$XDG_RUNTIME_DIR/ai-ops-relay` (per login, on a
// tmpfs), else `<tmpdir>/ai-ops-relay-<uid>`; `AI_OPS_RELAY_RUNTIME_DIR` overrides it (tests, or a
// user who wants it elsewhere). A process running as the same user can read these files (the
// README's L4): pairing stops the neighbours, not the user's own programs.
//
// The wire format is shared with the page (src/relay-pairing.ts), which computes the same HMACs
// with WebCrypto: every proof is HMAC-SHA-256 over its label and fields joined by "\n", base64url.
import { createHash, createHmac, randomBytes, timingSafeEqual, generateKeyPairSync, diffieHellman, createPublicKey, hkdfSync } from 'node:crypto';
import { mkdirSync, lstatSync, readFileSync, writeFileSync, renameSync, rmSync, openSync, closeSync, fchmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How long a pairing code is good for (DOOR-6: at most 120 s). */
export const CODE_TTL_MS = 120_000;
/** Characters of a code: Crockford's base32 (no I, L, O, U), 5 bits each. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Ten characters: 50 bits (DOOR-6 asks at least 40). */
const CODE_LENGTH = 10;
/** Wrong codes tried against one relay before every pending code is void (an online guesser gets 5 tries in 2^50). */
const MAX_WRONG_CODES = 5;
/** The longest a pairing lasts when the page names no end (its switch period's end bounds it). */
const MAX_PAIRING_MS = 24 * 3600_000;

/** The message types of the door's own protocol, beside relay 2.2.0's. */
export const MSG = Object.freeze({
  challenge: 'ai-ops/challenge',
  pair: 'ai-ops/pair',
  paired: 'ai-ops/paired',
  pairRefused: 'ai-ops/pair-refused',
  auth: 'ai-ops/auth',
  authOk: 'ai-ops/auth-ok',
  authRefused: 'ai-ops/auth-refused',
  unpair: 'ai-ops/unpair',
  relayProof: 'ai-ops/relay-proof',
});

/** Random bytes as base64url. */
export const nonce = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** HMAC-SHA-256 of `label` and `fields`, joined by "\n", as base64url. */
export function proof(key, label, ...fields) {
  return createHmac('sha256', key).update([label, ...fields.map(String)].join('\n')).digest('base64url');
}

/** Whether two proofs are equal, in time that does not depend on where they differ. */
export function sameProof(a, b) {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  // Hashed first: equal lengths for timingSafeEqual whatever was sent.
  const digest = (s) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b)) && a.length === b.length;
}

/** A code as the user may type it: case, spaces and dashes do not matter; I/L read as 1, O as 0. */
export function normalizeCode(code) {
  return String(code).toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
}

/** The HMAC key a code stands for: SHA-256 of the normalised code (both sides compute it). */
export function codeKey(code) {
  return createHash('sha256').update(`ai-ops pairing code\n${normalizeCode(code)}`).digest();
}

/** A new code of {@link CODE_LENGTH} characters, shown as `XXXXX-XXXXX`. */
export function newCode() {
  const bytes = randomBytes(CODE_LENGTH);
  let code = '';
  for (const byte of bytes) code += CODE_ALPHABET[byte & 31];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/**
 * The user's runtime directory for the relay's files, created 0700 if missing; throws when it is
 * not a directory the user alone owns and reads (a planted symlink or a shared folder).
 * @param {NodeJS.ProcessEnv} [env]
 */
export function runtimeDir(env = process.env) {
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  const dir = env.AI_OPS_RELAY_RUNTIME_DIR
    || (env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, 'ai-ops-relay') : join(tmpdir(), `ai-ops-relay-${uid ?? 'user'}`));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || stat.isSymbolicLink()) throw new Error(`${dir} is not a directory`);
  if (uid !== null && stat.uid !== uid) throw new Error(`${dir} belongs to another user`);
  if (uid !== null && (stat.mode & 0o077) !== 0) throw new Error(`${dir} can be read by other users (mode ${(stat.mode & 0o777).toString(8)}); make it 0700`);
  return dir;
}

/** Writes `text` to `path` as a file only the user can read (0600), replacing it in one step. */
function writePrivate(path, text) {
  const temp = `${path}.${process.pid}.${nonce(6)}`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/** The text of a file only the user can read, or null (missing, or readable by others: not trusted). */
function readPrivate(path) {
  try {
    const stat = lstatSync(path);
    if (!stat.isFile() || (stat.mode & 0o077) !== 0) return null;
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return null;
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The per-start secret file of the relay listening on `port`. */
const secretPath = (dir, port) => join(dir, `relay-${port}.secret`);

/**
 * DOOR-7: the per-start secret of the relay that listens on `port`, written 0600 in the runtime
 * directory; `remove()` deletes it (the relay stops) unless another start replaced it.
 */
export function writeRelaySecret(dir, port) {
  const secret = nonce(32);
  const path = secretPath(dir, port);
  writePrivate(path, `${secret}\n`);
  return {
    secret: Buffer.from(secret),
    remove() {
      if (readPrivate(path)?.trim() === secret) rmSync(path, { force: true });
    },
  };
}

/** The per-start secret of the user's relay on `port`, or null when none of the user's relays wrote one. */
export function readRelaySecret(dir, port) {
  const text = readPrivate(secretPath(dir, port))?.trim();
  return text ? Buffer.from(text) : null;
}

/** The pairings file and the pending codes file of the runtime directory. */
const pairingsPath = (dir) => join(dir, 'pairings.json');
const codesPath = (dir) => join(dir, 'codes.json');

function readJson(path, fallback) {
  try {
    const value = JSON.parse(readPrivate(path) ?? 'null');
    return value && typeof value === 'object' ? value : fallback;
  } catch {
    return fallback;
  }
}

/**
 * The pending codes and pairings of the user's relays (DOOR-6), kept in 0600 files of the runtime
 * directory so that a code asked for through a relay in client mode is taken by the relay the page
 * reaches. Codes are kept as their {@link codeKey} only, with their end and the MCP client that
 * asked; each is taken once. `now` is injectable for tests.
 */
export class PairingBook {
  #dir;
  #now;
  #wrong = 0;

  constructor(dir, { now = () => Date.now() } = {}) {
    this.#dir = dir;
    this.#now = now;
  }

  /** A new code for the MCP client `client` ({name, version} from its initialize), good for 120 s. */
  issueCode(client) {
    const code = newCode();
    const codes = this.#codes().filter((c) => c.until > this.#now());
    codes.push({ key: codeKey(code).toString('base64url'), until: this.#now() + CODE_TTL_MS, client: client ?? null });
    writePrivate(codesPath(this.#dir), JSON.stringify(codes));
    this.#wrong = 0;
    return { code, until: this.#now() + CODE_TTL_MS };
  }

  #codes() {
    const codes = readJson(codesPath(this.#dir), []);
    return Array.isArray(codes) ? codes.filter((c) => c && typeof c.key === 'string' && typeof c.until === 'number') : [];
  }

  /**
   * Takes the pending code whose key makes `expected(key)` equal `sent` (compared in constant time,
   * every pending code tried), or null. A taken code is gone; a wrong try counts, and after
   * {@link MAX_WRONG_CODES} every pending code is void.
   * @param {(key: Buffer) => string} expected the proof a page with that code would have sent
   * @param {string} sent
   */
  takeCode(expected, sent) {
    const now = this.#now();
    const codes = this.#codes();
    let found = null;
    for (const c of codes) {
      const match = sameProof(expected(Buffer.from(c.key, 'base64url')), sent);
      if (match && c.until > now && !found) found = c;
    }
    const left = codes.filter((c) => c !== found && c.until > now);
    if (!found && ++this.#wrong >= MAX_WRONG_CODES) left.length = 0;
    writePrivate(codesPath(this.#dir), JSON.stringify(left));
    return found ? { key: Buffer.from(found.key, 'base64url'), client: found.client } : null;
  }

  #pairings() {
    const list = readJson(pairingsPath(this.#dir), []);
    return Array.isArray(list) ? list.filter((p) => p && typeof p.id === 'string' && typeof p.key === 'string' && p.until > this.#now()) : [];
  }

  /** Keeps a new pairing of `origin` until `until`. */
  addPairing({ id, origin, key, until, client }) {
    const bounded = Math.min(Number.isFinite(until) ? until : Infinity, this.#now() + MAX_PAIRING_MS);
    const list = this.#pairings().filter((p) => p.id !== id);
    list.push({ id, origin, key: key.toString('base64url'), until: bounded, client: client ?? null });
    writePrivate(pairingsPath(this.#dir), JSON.stringify(list));
  }

  /** The live pairing `id` of `origin`, or null. */
  pairing(id, origin) {
    const found = this.#pairings().find((p) => p.id === id && p.origin === origin);
    return found ? { ...found, key: Buffer.from(found.key, 'base64url') } : null;
  }

  /** Ends pairing `id`. */
  removePairing(id) {
    writePrivate(pairingsPath(this.#dir), JSON.stringify(this.#pairings().filter((p) => p.id !== id)));
  }
}

/** An ephemeral P-256 key pair; `pub` is the raw uncompressed point as base64url (what WebCrypto exports as `raw`). */
export function ephemeralKey() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const raw = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]);
  return { privateKey, pub: raw.toString('base64url') };
}

/**
 * The pairing key both sides derive: HKDF-SHA-256 of the ECDH secret, salted with the code's key,
 * bound to the page's origin. Only the two ends of the exchange hold the ECDH secret.
 */
export function pairingKey(privateKey, peerPub, key, origin) {
  const raw = Buffer.from(String(peerPub), 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) throw new Error('bad public key');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const shared = diffieHellman({ privateKey, publicKey });
  return Buffer.from(hkdfSync('sha256', shared, key, `ai-ops pairing key\n${origin}`, 32));
}

/** DOOR-6: the words the agent relays to the user, with the one-time code (README, "Pairing"). */
export function pairingWords(code) {
  return [
    `Tell the user exactly this (in Japanese, as the page speaks): 「ページの ai-ops のログで「AI のエージェントのつなぎ方」を開き、`
      + `コード ${code} を入れて「つなぐ」を押してください（2 分以内に 1 回だけ使えます）。」`,
    `In English: "In the page's ai-ops log, open 'How to connect an AI agent', enter the code ${code} and press 'Connect' (it works once, within 2 minutes)."`,
    'Do not enter the code yourself or type it into the page: pairing is the user\'s step. Once the user paired, the page\'s tools appear in your tool list.',
  ].join('\n');
}
