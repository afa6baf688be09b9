/**
 * Consent as a proof (UV-3, UV-5): the one pure description of what the user consented to, the
 * challenge derived from it, and the checks of a WebAuthn assertion against a public key. The page
 * (`user-verifier.ts`, on demand) and an auditor (`verifyReceipt`, the `ai-ops/verify` entry, in a
 * browser or in Node ≥ 20 with no DOM) run this same code, so both compute the same bytes.
 *
 * Nothing here touches the DOM or storage: WebCrypto (`globalThis.crypto.subtle`) only.
 * @module
 */

/** What one consent was given for. Its canonical JSON's SHA-256 is the WebAuthn challenge. */
export type ConsentDescription =
  | {
    /** Approving one call's dialog (UV-1). */
    readonly kind: 'call';
    /** The page's origin, e.g. `http://localhost:8000`. */
    readonly origin: string;
    readonly tool: string;
    /** The operation name, e.g. `node_delete_file`. */
    readonly operation: string;
    /** Hex SHA-256 of the canonical JSON of the call's input ({@link inputDigest}). */
    readonly inputDigest: string;
    /** The confirmation request's id (the call's id on this page). */
    readonly callId: number;
    /** Epoch ms when the dialog opened for this call. */
    readonly openedAt: number;
    /** The user also chose 「このページでは今後尋ねない」. */
    readonly skipFuture: boolean;
    /**
     * The skip it grants (UV-9): this tool's confirmations are not asked until this epoch ms, the
     * end of the switch period it was given in; null when it grants none.
     */
    readonly skipUntil: number | null;
  }
  | {
    /** Turning a switch on until `enabledUntil` (UV-1). */
    readonly kind: 'switch';
    readonly origin: string;
    readonly tool: string;
    readonly enabledUntil: number;
  }
  | {
    /** Approving several waiting calls at once (BATCH-2): the digests of their call descriptions, in order. */
    readonly kind: 'batch';
    readonly origin: string;
    readonly batchId: string;
    readonly calls: readonly string[];
  }
  | {
    /** Removing the enrolled credential (UV-2: itself a verified action). */
    readonly kind: 'unenrol';
    readonly origin: string;
    readonly credentialId: string;
  };

/**
 * What a verified consent leaves behind: the assertion, as base64url strings, and what it was for.
 * A row keeps it (UV-5); the stored switch value carries the switch's (UV-3).
 */
export interface Receipt {
  /** base64url of the credential id. */
  readonly credentialId: string;
  /** base64url of the authenticator data. */
  readonly authenticatorData: string;
  /** base64url of the client data JSON (its `challenge` is the description's). */
  readonly clientDataJSON: string;
  /** base64url of the signature as the authenticator made it (ES256: DER). */
  readonly signature: string;
  readonly description: ConsentDescription;
}

/** An enrolled credential's public part: all the page ever stores of it (UV-1). */
export interface PublicKeyRecord {
  /** base64url of the credential id. */
  readonly credentialId: string;
  /** The COSE algorithm: -7 ES256, -257 RS256, -8 EdDSA. */
  readonly alg: number;
  /** base64url of the SubjectPublicKeyInfo (`AuthenticatorAttestationResponse.getPublicKey()`). */
  readonly spki: string;
}

/** The COSE algorithms the page asks for and can verify, most preferred first. */
export const SUPPORTED_ALGORITHMS: readonly number[] = [-7, -8, -257];

/**
 * JSON with object keys sorted at every depth, no whitespace; `undefined` members left out as
 * JSON.stringify does. The same value always gives the same text.
 * @example canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }) // '{"a":[2,{"c":4,"d":3}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return encode(value, '') ?? 'null';
}

/** One value as JSON.stringify would write it (toJSON, dropped members) with sorted keys; undefined when it is left out. */
function encode(value: unknown, key: string): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item, i) => encode(item, String(i)) ?? 'null').join(',')}]`;
  const members: string[] = [];
  for (const name of Object.keys(value).sort()) {
    const text = encode((value as Record<string, unknown>)[name], name);
    if (text !== undefined) members.push(`${JSON.stringify(name)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

const subtle = (): SubtleCrypto => globalThis.crypto.subtle;

/**
 * SHA-256 of a string's UTF-8 bytes, or of bytes.
 * @example const rpIdHash = await sha256('localhost');
 */
export async function sha256(data: string | Uint8Array): Promise<Uint8Array> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return new Uint8Array(await subtle().digest('SHA-256', bytes as BufferSource));
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * Hex SHA-256 of the canonical JSON of a call's input.
 * @example await inputDigest({ path: 'a.txt' }) === await inputDigest(JSON.parse('{"path":"a.txt"}')) // true
 */
export async function inputDigest(input: unknown): Promise<string> {
  return hex(await sha256(canonicalJson(input)));
}

/**
 * Hex SHA-256 of the canonical JSON of a description: what a batch's challenge binds of each call
 * (BATCH-2, `{kind: 'batch', calls}`), and what an auditor recomputes from a row's own call description.
 * @example description.calls.includes(await descriptionDigest(line.batch.call)) // the row's call is in the set
 */
export async function descriptionDigest(description: ConsentDescription): Promise<string> {
  return hex(await sha256(canonicalJson(description)));
}

/**
 * The WebAuthn challenge of a description: SHA-256 of its canonical JSON.
 * @example navigator.credentials.get({ publicKey: { challenge: await challengeOf(description), … } })
 */
export function challengeOf(description: ConsentDescription): Promise<Uint8Array> {
  return sha256(canonicalJson(description));
}

/**
 * base64url without padding, both ways.
 * @example toBase64Url(new Uint8Array([0xfb, 0xff])) // '-_8'
 */
export function toBase64Url(bytes: Uint8Array | ArrayBuffer): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = '';
  // In slices: String.fromCharCode takes its bytes as arguments, and a large key would overflow the stack.
  for (let i = 0; i < view.length; i += 0x8000) binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The bytes of a base64url text. Strict: only the base64url alphabet, no padding, and only the one
 * text {@link toBase64Url} gives for those bytes (so that a receipt edited in its last character
 * cannot decode to the same bytes). Throws a TypeError otherwise.
 * @example fromBase64Url('-_8') // Uint8Array [0xfb, 0xff]
 */
export function fromBase64Url(text: string): Uint8Array {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new TypeError('not base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  if (toBase64Url(bytes) !== text) throw new TypeError('not canonical base64url');
  return bytes;
}

/** authenticatorData's flags (WebAuthn §6.1): user present, user verified. */
const USER_PRESENT = 0x01;
const USER_VERIFIED = 0x04;

/** WebCrypto's import and verify parameters for each COSE algorithm. */
const ALGORITHMS: Record<number, { key: RsaHashedImportParams | EcKeyImportParams | Algorithm; verify: EcdsaParams | Algorithm }> = {
  [-7]: { key: { name: 'ECDSA', namedCurve: 'P-256' }, verify: { name: 'ECDSA', hash: 'SHA-256' } },
  [-8]: { key: { name: 'Ed25519' }, verify: { name: 'Ed25519' } },
  [-257]: { key: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, verify: { name: 'RSASSA-PKCS1-v1_5' } },
};

/**
 * An ECDSA signature in DER (`SEQUENCE { INTEGER r, INTEGER s }`, as authenticators give it) as the
 * raw 64-byte r‖s WebCrypto verifies. Null for anything that is not exactly that.
 * @example crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, derToRaw(signature)!, data)
 */
export function derToRaw(der: Uint8Array, size = 32): Uint8Array | null {
  // Both integers are ≤ 33 bytes, so every length here fits in one byte (short form).
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2) return null;
  const raw = new Uint8Array(size * 2);
  let at = 2;
  for (const offset of [0, size]) {
    if (der[at] !== 0x02) return null;
    const length = der[at + 1];
    let value = der.subarray(at + 2, at + 2 + length);
    if (length === 0 || value.length !== length || value[0] & 0x80) return null;
    // DER's leading zero keeps a high bit from reading as negative; anything more is not DER.
    if (value[0] === 0 && value.length > 1) {
      if (!(value[1] & 0x80)) return null;
      value = value.subarray(1);
    }
    if (value.length > size) return null;
    raw.set(value, offset + size - value.length);
    at += 2 + length;
  }
  return at === der.length ? raw : null;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * Checks an assertion receipt against a public key: the signature over authenticatorData ‖
 * SHA-256(clientDataJSON) (ES256 DER → raw r‖s for WebCrypto; RS256; EdDSA), clientData `type`
 * `webauthn.get`, its `challenge` equal to {@link challengeOf} the receipt's description, its
 * `origin` the description's, the rpIdHash the SHA-256 of the origin's host, the UP and UV flags set,
 * and the receipt's credential id the key's. Resolves to null when all hold, else to the reason
 * (plain English, for a developer). Never rejects.
 * @example
 * const reason = await checkReceipt(row.receipt, enrolledKey);
 * if (reason) console.warn(`not approved by the user: ${reason}`);
 */
export async function checkReceipt(receipt: Receipt, key: PublicKeyRecord): Promise<string | null> {
  try {
    if (!receipt || typeof receipt !== 'object') return 'no receipt';
    if (!key || typeof key !== 'object' || !isText(key.spki) || !isText(key.credentialId)) return 'no public key';
    const { description } = receipt;
    if (!description || typeof description !== 'object' || !isText(description.origin)) return 'the receipt has no description';
    if (![receipt.credentialId, receipt.authenticatorData, receipt.clientDataJSON, receipt.signature].every(isText)) return 'the receipt lacks a field';
    const algorithm = ALGORITHMS[key.alg];
    if (!SUPPORTED_ALGORITHMS.includes(key.alg) || !algorithm) return `the key's algorithm ${key.alg} is not supported`;
    // Strict base64url has one text per byte string, so the texts compare as the ids do.
    fromBase64Url(receipt.credentialId);
    if (receipt.credentialId !== key.credentialId) return 'the receipt is from another credential';

    const clientDataBytes = fromBase64Url(receipt.clientDataJSON);
    const clientData: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(clientDataBytes));
    if (!clientData || typeof clientData !== 'object') return 'the client data is not an object';
    const { type, challenge, origin } = clientData as Record<string, unknown>;
    if (type !== 'webauthn.get') return `the client data is of type ${String(type)}, not webauthn.get`;
    if (challenge !== toBase64Url(await challengeOf(description))) return 'the challenge is not the description\'s';
    if (origin !== description.origin) return `the client data's origin ${String(origin)} is not the description's`;

    const authenticatorData = fromBase64Url(receipt.authenticatorData);
    // rpIdHash (32) ‖ flags (1) ‖ signCount (4) at least.
    if (authenticatorData.length < 37) return 'the authenticator data is too short';
    const rpIdHash = await sha256(new URL(description.origin).hostname);
    if (hex(authenticatorData.subarray(0, 32)) !== hex(rpIdHash)) return 'the authenticator data is for another relying party';
    const flags = authenticatorData[32];
    if (!(flags & USER_PRESENT)) return 'the user was not present (UP flag clear)';
    if (!(flags & USER_VERIFIED)) return 'the user was not verified (UV flag clear)';

    let signature = fromBase64Url(receipt.signature);
    if (key.alg === -7) {
      const raw = derToRaw(signature);
      if (!raw) return 'the signature is not a DER ECDSA signature';
      signature = raw;
    }
    const signed = new Uint8Array(authenticatorData.length + 32);
    signed.set(authenticatorData);
    signed.set(await sha256(clientDataBytes), authenticatorData.length);
    const publicKey = await subtle().importKey('spki', fromBase64Url(key.spki) as BufferSource, algorithm.key, false, ['verify']);
    const valid = await subtle().verify(algorithm.verify, publicKey, signature as BufferSource, signed as BufferSource);
    return valid ? null : 'the signature does not verify';
  } catch (error) {
    return `the receipt cannot be read: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * A short, readable fingerprint of a key: the first 16 bytes of SHA-256(SPKI), hex in groups of 4,
 * e.g. `3f2a 9c01 …`. The page shows it so that a user can compare it with the key they hold.
 * @example await fingerprint(key) // '3f2a 9c01 77e4 0b5d 1a2c 88f0 4e19 c3d7'
 */
export async function fingerprint(key: PublicKeyRecord): Promise<string> {
  return hex((await sha256(fromBase64Url(key.spki))).subarray(0, 16)).replace(/(.{4})(?!$)/g, '$1 ');
}
