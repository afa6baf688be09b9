import { expect } from '@open-wc/testing';
import {
  SUPPORTED_ALGORITHMS, canonicalJson, challengeOf, checkReceipt, derToRaw, fingerprint, fromBase64Url, inputDigest, sha256, toBase64Url,
  type ConsentDescription, type Receipt,
} from '../../src/consent-proof.js';
import { descriptionJson, makeKey, makeReceipt, rawToDer } from '../helpers/synthetic-assertion.mjs';

const origin = 'http://localhost:8000';
const call = async (over: Partial<Extract<ConsentDescription, { kind: 'call' }>> = {}): Promise<ConsentDescription> => ({
  kind: 'call', origin, tool: 'node', operation: 'node_delete_file', inputDigest: await inputDigest({ path: 'a.txt' }),
  callId: 7, openedAt: 1_764_000_000_000, skipFuture: false, skipUntil: null, ...over,
});

/** `text` (base64url) with byte `index` (negative: from the end) XOR `mask`. */
function flipByte(text: string, index: number, mask = 0x01): string {
  const bytes = fromBase64Url(text);
  bytes[(index + bytes.length) % bytes.length] ^= mask;
  return toBase64Url(bytes);
}

describe('consent proof (pure)', () => {
  it('[UV-3] canonicalJson sorts keys at every depth, leaves out undefined members and writes the same text for the same value', () => {
    expect(canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] })).to.equal('{"a":[2,{"c":4,"d":3}],"b":1}');
    expect(canonicalJson({ z: undefined, y: null, x: [undefined, () => 1], w: 'é"\n' })).to.equal('{"w":"é\\"\\n","x":[null,null],"y":null}');
    expect(canonicalJson({ when: new Date(0), n: -0, inf: Infinity })).to.equal('{"inf":null,"n":0,"when":"1970-01-01T00:00:00.000Z"}');
    expect(canonicalJson({ a: 1, b: { c: 2, d: 3 } })).to.equal(canonicalJson({ b: { d: 3, c: 2 }, a: 1 }));
    expect(canonicalJson(undefined)).to.equal('null');
  });

  it('[UV-3] the challenge is SHA-256 of the description\'s canonical JSON, and every field of a call changes it', async () => {
    const description = await call();
    const expected = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(descriptionJson(description))));
    expect(toBase64Url(await challengeOf(description))).to.equal(toBase64Url(expected));
    expect(await inputDigest({ b: [1], a: 'x' })).to.equal(await inputDigest({ a: 'x', b: [1] }));
    expect(await inputDigest({ path: 'a.txt' })).to.match(/^[0-9a-f]{64}$/);
    const variants = [
      await call({ callId: 8 }), await call({ openedAt: description.kind === 'call' ? description.openedAt + 1 : 0 }),
      await call({ inputDigest: await inputDigest({ path: 'b.txt' }) }), await call({ tool: 'go' }), await call({ operation: 'node_write_file' }),
      await call({ origin: 'http://localhost:8001' }), await call({ skipFuture: true }),
      // UV-9: the skip a call grants is signed with it, to the millisecond of its period's end.
      await call({ skipFuture: true, skipUntil: 1_764_604_800_000 }), await call({ skipFuture: true, skipUntil: 1_764_604_800_001 }),
    ];
    const challenges = new Set([description, ...variants].map(descriptionJson));
    expect(challenges.size).to.equal(variants.length + 1);
    for (const variant of variants) expect(toBase64Url(await challengeOf(variant))).not.to.equal(toBase64Url(expected));
  });

  it('[UV-5] base64url round-trips any bytes and refuses padding, other alphabets and non-canonical text', () => {
    // Past 65,536 bytes, to cross toBase64Url's slices; getRandomValues gives at most that at once.
    const bytes = new Uint8Array(70_000);
    for (let at = 0; at < bytes.length; at += 65_536) crypto.getRandomValues(bytes.subarray(at, at + 65_536));
    for (const length of [0, 1, 2, 3, 31, 32, 33, 70_000]) {
      const text = toBase64Url(bytes.subarray(0, length));
      expect(text).to.match(/^[A-Za-z0-9_-]*$/);
      expect(Array.from(fromBase64Url(text))).to.deep.equal(Array.from(bytes.subarray(0, length)));
    }
    expect(toBase64Url(new Uint8Array([0xfb, 0xff]))).to.equal('-_8');
    for (const bad of ['AA==', 'A+8', 'A/8', 'A', 'AB', '-_9', 'a b']) expect(() => fromBase64Url(bad), bad).to.throw(TypeError);
  });

  it('[UV-3] derToRaw reads exactly one DER ECDSA signature, with and without leading zeros', () => {
    const raw = new Uint8Array(64);
    raw[0] = 0x80; raw[31] = 1; raw[33] = 0x7f; raw[63] = 2;
    const der = rawToDer(raw);
    expect(Array.from(derToRaw(der)!)).to.deep.equal(Array.from(raw));
    const short = new Uint8Array(64);
    short[31] = 5; short[63] = 6;
    expect(Array.from(derToRaw(rawToDer(short))!)).to.deep.equal(Array.from(short));
    expect(derToRaw(new Uint8Array([...der, 0]))).to.equal(null);
    expect(derToRaw(der.subarray(0, der.length - 1))).to.equal(null);
    expect(derToRaw(raw)).to.equal(null);
  });

  it('[UV-3] checkReceipt accepts a correct assertion for each supported algorithm (ES256, EdDSA, RS256 in this Chromium)', async () => {
    expect(SUPPORTED_ALGORITHMS).to.deep.equal([-7, -8, -257]);
    for (const alg of SUPPORTED_ALGORITHMS) {
      const key = await makeKey(alg);
      const receipt = await makeReceipt(key, await call());
      expect(await checkReceipt(receipt, key.record), `alg ${alg}`).to.equal(null);
    }
  });

  it('[UV-3] checkReceipt refuses a receipt with UV or UP clear, another type, origin, RP, challenge, credential or key', async () => {
    const key = await makeKey();
    const other = await makeKey();
    const description = await call();
    const cases: [string, Promise<Receipt>, RegExp][] = [
      ['UV clear', makeReceipt(key, description, { flags: 0x01 }), /UV flag/],
      ['UP clear', makeReceipt(key, description, { flags: 0x04 }), /UP flag/],
      ['a create', makeReceipt(key, description, { type: 'webauthn.create' }), /type/],
      ['another origin', makeReceipt(key, description, { origin: 'http://localhost:9000' }), /origin/],
      ['another RP', makeReceipt(key, description, { rpId: 'example.com' }), /relying party/],
      ['signed for another call', makeReceipt(key, description, { signFor: await call({ callId: 8 }) }), /challenge/],
      ['signed for other input', makeReceipt(key, description, { signFor: await call({ inputDigest: await inputDigest({ path: 'b.txt' }) }) }), /challenge/],
      ['another credential id', makeReceipt(key, description, { credentialId: other.record.credentialId }), /another credential/],
      ['another key', makeReceipt(other, description, { credentialId: key.record.credentialId }), /signature/],
    ];
    for (const [what, receipt, reason] of cases) expect(await checkReceipt(await receipt, key.record), what).to.match(reason);
  });

  it('[UV-3] [UV-5] a receipt edited by one byte in any field, or replayed for another description, fails', async () => {
    const key = await makeKey();
    const receipt = await makeReceipt(key, await call());
    for (const field of ['credentialId', 'authenticatorData', 'clientDataJSON', 'signature'] as const) {
      const length = fromBase64Url(receipt[field]).length;
      for (const index of [0, 1, Math.floor(length / 2), length - 1]) {
        const edited = { ...receipt, [field]: flipByte(receipt[field], index) };
        expect(await checkReceipt(edited, key.record), `${field}[${index}]`).to.be.a('string');
      }
    }
    const description = receipt.description as Extract<ConsentDescription, { kind: 'call' }>;
    const replays: ConsentDescription[] = [
      { ...description, callId: 8 }, { ...description, openedAt: description.openedAt + 1 }, { ...description, skipFuture: true },
      { ...description, skipFuture: true, skipUntil: description.openedAt + 604_800_000 }, { ...description, skipUntil: 0 },
      { ...description, tool: 'go' }, { ...description, operation: 'node_write_file' }, { ...description, origin: 'http://localhost:8001' },
      { ...description, inputDigest: flipByte(description.inputDigest, 0).slice(0, 64) },
      { kind: 'switch', origin, tool: 'node', enabledUntil: description.openedAt },
    ];
    for (const replay of replays) expect(await checkReceipt({ ...receipt, description: replay }, key.record), JSON.stringify(replay)).to.be.a('string');
    expect(await checkReceipt(receipt, { ...key.record, spki: flipByte(key.record.spki, -1) })).to.be.a('string');
    expect(await checkReceipt(receipt, { ...key.record, alg: -257 })).to.be.a('string');
    expect(await checkReceipt(receipt, { ...key.record, alg: -35 })).to.match(/not supported/);
    expect(await checkReceipt(receipt, key.record)).to.equal(null);
  });

  it('[UV-3] checkReceipt never rejects: garbage of any shape resolves to a reason', async () => {
    const key = await makeKey();
    const receipt = await makeReceipt(key, await call());
    const garbage: unknown[] = [null, undefined, 1, 'x', [], {}, { ...receipt, description: null }, { ...receipt, signature: '' },
      { ...receipt, clientDataJSON: toBase64Url(new TextEncoder().encode('not json')) }, { ...receipt, clientDataJSON: toBase64Url(new Uint8Array([0xff])) },
      { ...receipt, authenticatorData: toBase64Url(new Uint8Array(36)) }, { ...receipt, signature: '*' }, { ...receipt, description: { ...receipt.description, origin: 'not a url' } }];
    for (const value of garbage) expect(await checkReceipt(value as Receipt, key.record), JSON.stringify(value)).to.be.a('string');
    expect(await checkReceipt(receipt, null as never)).to.be.a('string');
  });

  it('[UV-5] fingerprint is the first 16 bytes of SHA-256(SPKI), hex in groups of 4', async () => {
    const key = await makeKey();
    const digest = await sha256(fromBase64Url(key.record.spki));
    const hex = Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
    const printed = await fingerprint(key.record);
    expect(printed).to.match(/^([0-9a-f]{4} ){7}[0-9a-f]{4}$/);
    expect(printed.replace(/ /g, '')).to.equal(hex);
  });
});
