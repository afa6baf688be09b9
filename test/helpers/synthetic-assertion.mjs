// WebAuthn assertions made with WebCrypto alone, no authenticator and no DOM (Node ≥ 20 or a page):
// the bytes a platform authenticator returns (authenticatorData, clientDataJSON, a signature over
// authenticatorData ‖ SHA-256(clientDataJSON), ES256 in DER), built by hand so a test can set
// every field, flag and byte. The browser tests (test/runtime/user-verifier.test.ts) cover a real
// authenticator's output; this covers the pure checks and lets the Node test run offline.
//
// Built independently of src/consent-proof.ts (its own hashing, encoding and key order), so a
// mistake there cannot make its own fixtures agree with it.

const sha256 = async (data) => new Uint8Array(await subtle().digest('SHA-256', typeof data === 'string' ? new TextEncoder().encode(data) : data));
const toBase64Url = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
/** A description's canonical JSON: its members (flat, or arrays of strings) in key order. */
export const descriptionJson = (description) => JSON.stringify(description, Object.keys(description).sort());

const subtle = () => globalThis.crypto.subtle;

const PARAMS = {
  [-7]: { generate: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
  [-8]: { generate: { name: 'Ed25519' }, sign: { name: 'Ed25519' } },
  [-257]: { generate: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, sign: { name: 'RSASSA-PKCS1-v1_5' } },
};

/** A key pair for COSE `alg` and its public record as the page stores it. */
export async function makeKey(alg = -7) {
  const pair = await subtle().generateKey(PARAMS[alg].generate, true, ['sign', 'verify']);
  const spki = new Uint8Array(await subtle().exportKey('spki', pair.publicKey));
  const credentialId = toBase64Url(globalThis.crypto.getRandomValues(new Uint8Array(16)));
  return { alg, privateKey: pair.privateKey, record: { credentialId, alg, spki: toBase64Url(spki) } };
}

/** ECDSA raw r‖s (WebCrypto's) as DER, as authenticators send it. */
export function rawToDer(raw) {
  const half = raw.length / 2;
  const integer = (bytes) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0 && !(bytes[start + 1] & 0x80)) start++;
    const body = bytes.subarray(start);
    return body[0] & 0x80 ? [0x02, body.length + 1, 0, ...body] : [0x02, body.length, ...body];
  };
  const content = [...integer(raw.subarray(0, half)), ...integer(raw.subarray(half))];
  return new Uint8Array([0x30, content.length, ...content]);
}

/**
 * A receipt for `description`, signed by `key` (from makeKey). Every part can be overridden to
 * make a wrong one: `flags` (default UP|UV), `type`, `origin`, `challenge` (base64url), `rpId`,
 * `signFor` (sign a different description's challenge), `credentialId`.
 */
export async function makeReceipt(key, description, overrides = {}) {
  const host = overrides.rpId ?? new URL(description.origin).hostname;
  const flags = overrides.flags ?? 0x05;
  const authenticatorData = new Uint8Array(37);
  authenticatorData.set(await sha256(host));
  authenticatorData[32] = flags;
  authenticatorData.set([0, 0, 0, 1], 33);
  const challenge = overrides.challenge ?? toBase64Url(await sha256(descriptionJson(overrides.signFor ?? description)));
  const clientDataJSON = new TextEncoder().encode(JSON.stringify({
    type: overrides.type ?? 'webauthn.get', challenge, origin: overrides.origin ?? description.origin, crossOrigin: false,
  }));
  const signed = new Uint8Array([...authenticatorData, ...(await sha256(clientDataJSON))]);
  let signature = new Uint8Array(await subtle().sign(PARAMS[key.alg].sign, key.privateKey, signed));
  if (key.alg === -7) signature = rawToDer(signature);
  return {
    credentialId: overrides.credentialId ?? key.record.credentialId,
    authenticatorData: toBase64Url(authenticatorData),
    clientDataJSON: toBase64Url(clientDataJSON),
    signature: toBase64Url(signature),
    description,
  };
}
