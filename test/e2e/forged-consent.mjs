// What an agent that writes storage forges (issue 42): a P-256 key of its own, its public part in
// the shape the page keeps an enrolment in, receipts it signs for any description (UP and UV set,
// the right relying party and origin: all a page can check, but the wrong key), the same key as a
// Playwright storage-state `credentials` entry (Playwright's software passkey then signs with it),
// and the storage-state file that plants them. Node's WebCrypto; the page's own canonical form and
// challenge, as an attacker reads them in the published code.
import { webcrypto, createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { root } from './harness.mjs';

const { canonicalJson, challengeOf, toBase64Url } = await import(pathToFileURL(join(root, 'dist/lib/src/consent-proof.js')).href);

/** An ECDSA P-256 signature as WebAuthn gives it (DER), from WebCrypto's raw r‖s. */
function rawToDer(raw) {
  const integer = (bytes) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    const trimmed = bytes.subarray(i);
    const body = trimmed[0] & 0x80 ? Uint8Array.of(0, ...trimmed) : trimmed;
    return Uint8Array.of(0x02, body.length, ...body);
  };
  const r = integer(raw.subarray(0, 32));
  const s = integer(raw.subarray(32));
  return Uint8Array.of(0x30, r.length + s.length, ...r, ...s);
}

/**
 * The fingerprint the page shows for a public key (`consent-proof.ts` `fingerprint`): the first 16
 * bytes of SHA-256 of the SPKI, hex in groups of four.
 * @param {Uint8Array} spki
 */
export function fingerprintOf(spki) {
  return createHash('sha256').update(spki).digest().subarray(0, 16).toString('hex').replace(/(.{4})(?!$)/g, '$1 ');
}

/**
 * The fingerprint of a credential on a CDP virtual authenticator (`WebAuthn.getCredentials`: its
 * private key, PKCS#8 in base64), computed here from the key itself, not read from the page.
 */
export function deviceFingerprint(credential) {
  const spki = createPublicKey(createPrivateKey({ key: Buffer.from(credential.privateKey, 'base64'), format: 'der', type: 'pkcs8' })).export({ type: 'spki', format: 'der' });
  return fingerprintOf(spki);
}

/** The attacker's key: its enrolment record, its Playwright credential, its fingerprint, and `sign(description)`. */
export async function attackerKey(rpId = 'localhost') {
  const { subtle } = webcrypto;
  const pair = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const credentialId = toBase64Url(webcrypto.getRandomValues(new Uint8Array(16)));
  const spki = new Uint8Array(await subtle.exportKey('spki', pair.publicKey));
  const pkcs8 = new Uint8Array(await subtle.exportKey('pkcs8', pair.privateKey));
  const record = { v: 1, credentialId, alg: -7, spki: toBase64Url(spki) };
  const sha = async (bytes) => new Uint8Array(await subtle.digest('SHA-256', bytes));
  return {
    record,
    fingerprint: fingerprintOf(spki),
    /** Playwright's storage-state `credentials` entry for this key. */
    credential: { id: credentialId, rpId, userHandle: toBase64Url(webcrypto.getRandomValues(new Uint8Array(16))), privateKey: toBase64Url(pkcs8), publicKey: toBase64Url(spki) },
    async sign(description) {
      const { origin } = description;
      const clientData = new TextEncoder().encode(JSON.stringify({ type: 'webauthn.get', challenge: toBase64Url(await challengeOf(description)), origin, crossOrigin: false }));
      const authenticatorData = new Uint8Array([...await sha(new TextEncoder().encode(new URL(origin).hostname)), 0x05, 0, 0, 0, 1]);
      const signed = new Uint8Array([...authenticatorData, ...await sha(clientData)]);
      const raw = new Uint8Array(await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, signed));
      return {
        credentialId, authenticatorData: toBase64Url(authenticatorData), clientDataJSON: toBase64Url(clientData),
        signature: toBase64Url(rawToDer(raw)), description: JSON.parse(canonicalJson(description)),
      };
    },
  };
}

/**
 * A Playwright storage-state file for `origin` that plants, with `key`: the enrolment and a tool's
 * self-signed switch and skip receipts in the page's consent database (`ai-ops-consent`, store
 * `records`, as today's page keeps them), and the matching stored "on" in localStorage. With
 * `passkey`, the same key as a software passkey (`credentials`). `receipts: false` plants the
 * enrolment alone (no receipts, no stored "on"); `planted: false` no record at all (a wiped store).
 */
export async function plantedState({ origin, tool, key, passkey = false, planted = true, receipts = true, weekMs = 7 * 24 * 60 * 60 * 1000 }) {
  const enabledUntil = Date.now() + weekMs;
  const on = await key.sign({ kind: 'switch', origin, tool, enabledUntil });
  const skip = await key.sign({
    kind: 'call', origin, tool, operation: `${tool}_clear_note`, inputDigest: 'x', callId: 1, openedAt: Date.now(), skipFuture: true, skipUntil: enabledUntil,
  });
  const records = [{ key: 'enrolment', value: key.record }, ...(receipts ? [{ key: `receipts:${tool}`, value: { on, skip } }] : [])];
  return {
    cookies: [],
    origins: planted ? [{
      origin,
      localStorage: receipts ? [{ name: `fd-ai-operations:${tool}`, value: JSON.stringify({ v: 1, enabledUntil, skipConfirmUntil: enabledUntil }) }] : [],
      indexedDB: [{ name: 'ai-ops-consent', version: 1, stores: [{ name: 'records', autoIncrement: false, indexes: [], records }] }],
    }] : [{ origin, localStorage: [], indexedDB: [] }],
    ...(passkey ? { credentials: [key.credential] } : {}),
  };
}
