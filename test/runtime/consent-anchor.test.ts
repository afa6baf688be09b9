import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { createConsentGate } from '../../src/consent-gate.js';
import { ConsentRefused } from '../../src/consent-words.js';
import { createPermissionStore } from '../../src/permission-store.js';
import { VerificationRefused, createWebAuthnVerifier } from '../../src/user-verifier.js';
import { ANCHOR_KEY, anchorConsentStore, type AnchoredRecord } from '../../src/consent-anchor.js';
import { ENROLMENT_KEY } from '../../src/consent-store.js';
import { fingerprint, toBase64Url } from '../../src/consent-proof.js';
import { isNativeWebAuthn } from '../../src/native-webauthn-check.js';
import { inputDigest } from '../../src/consent-proof.js';
import { nativeWebAuthn } from '../../src/native-webauthn.js';
import { FakeClock, MemoryConsentStore, MemoryStorage } from './helpers.js';

/** An enrolment record as the verifier keeps it. */
const enrolment = (spkiByte = 1) => ({ v: 1, credentialId: 'AAAA', alg: -7, spki: toBase64Url(new Uint8Array(32).fill(spkiByte)) });

/** What a JSON file can carry: the inner store's values after a JSON round trip (a storage-state restore). */
function restoredFromJson(from: MemoryConsentStore): MemoryConsentStore {
  const to = new MemoryConsentStore();
  for (const [key, value] of from.values) to.values.set(key, JSON.parse(JSON.stringify(value)));
  return to;
}

describe('the consent store\'s trust anchor (UV-14)', () => {
  it('[UV-14] keeps a non-extractable HMAC CryptoKey of its own beside the records, and reads back what it wrote', async () => {
    const inner = new MemoryConsentStore();
    const store = anchorConsentStore(inner);
    await store.set(ENROLMENT_KEY, enrolment());
    await store.set('receipts:notes', { on: { signature: 's' } });
    const key = inner.values.get(ANCHOR_KEY) as CryptoKey;
    expect(key).to.be.instanceOf(CryptoKey);
    expect(key.extractable).to.equal(false);
    expect(key.algorithm.name).to.equal('HMAC');
    const kept = inner.values.get(ENROLMENT_KEY) as AnchoredRecord;
    expect(kept.anchored).to.deep.equal(enrolment());
    expect(kept.tag).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(await store.get(ENROLMENT_KEY)).to.deep.equal(enrolment());
    expect(await store.get('receipts:notes')).to.deep.equal({ on: { signature: 's' } });
    expect(await store.get('nothing')).to.equal(undefined);
    expect(await store.reset()).to.equal(null);
    // A second page of the origin (a new wrapper over the same store) trusts them too.
    expect(await anchorConsentStore(inner).get(ENROLMENT_KEY)).to.deep.equal(enrolment());
  });

  it('[UV-14] a record planted without a tag, with a tag made by another key, edited, or moved under another name reads as absent', async () => {
    const inner = new MemoryConsentStore();
    const store = anchorConsentStore(inner);
    await store.set('receipts:notes', { on: 1 });
    await inner.set(ENROLMENT_KEY, enrolment(9));
    expect(await store.get(ENROLMENT_KEY), 'a bare record').to.equal(undefined);
    const other = new MemoryConsentStore();
    await anchorConsentStore(other).set(ENROLMENT_KEY, enrolment(9));
    await inner.set(ENROLMENT_KEY, other.values.get(ENROLMENT_KEY));
    expect(await store.get(ENROLMENT_KEY), 'tagged by another page\'s key').to.equal(undefined);
    const kept = inner.values.get('receipts:notes') as AnchoredRecord;
    await inner.set('receipts:notes', { ...kept, anchored: { on: 2 } });
    expect(await store.get('receipts:notes'), 'edited').to.equal(undefined);
    await inner.set('receipts:sql', kept);
    expect(await store.get('receipts:sql'), 'moved').to.equal(undefined);
    for (const junk of [null, 'x', 1, [], { anchored: 1 }, { anchored: 1, tag: 'not base64!' }, { anchored: 1, tag: 7 }]) {
      await inner.set('receipts:notes', junk);
      expect(await store.get('receipts:notes'), JSON.stringify(junk)).to.equal(undefined);
    }
  });

  it('[UV-14] what a JSON restore can write is not the anchor: the page\'s own records, round-tripped through JSON, count for nothing, and the next write makes a new key', async () => {
    const inner = new MemoryConsentStore();
    await anchorConsentStore(inner).set(ENROLMENT_KEY, enrolment());
    const restored = restoredFromJson(inner);
    expect(restored.values.get(ANCHOR_KEY)).to.deep.equal({}); // a CryptoKey has no JSON
    const store = anchorConsentStore(restored);
    expect(await store.get(ENROLMENT_KEY)).to.equal(undefined);
    await store.set('receipts:notes', { on: 1 });
    expect(restored.values.get(ANCHOR_KEY)).to.be.instanceOf(CryptoKey);
    expect(await store.get('receipts:notes')).to.deep.equal({ on: 1 });
    expect(await store.get(ENROLMENT_KEY), 'still not the page\'s').to.equal(undefined);
  });

  it('[UV-14] a reset is reported once, with the fingerprint the page knew; after a new enrolment none is reported', async () => {
    const inner = new MemoryConsentStore();
    const store = anchorConsentStore(inner);
    await store.set(ENROLMENT_KEY, enrolment(1));
    expect(await store.get(ENROLMENT_KEY)).to.deep.equal(enrolment(1));
    // A wipe and a planted enrolment while the page is open.
    inner.values.clear();
    await inner.set(ENROLMENT_KEY, enrolment(9));
    const known = await fingerprint(enrolment(1));
    expect(await store.reset()).to.deep.equal({ fingerprint: known });
    expect(await store.reset(), 'told once').to.equal(null);
    expect(await store.get(ENROLMENT_KEY)).to.equal(undefined);
    await store.set(ENROLMENT_KEY, enrolment(2));
    expect(await store.reset()).to.equal(null);
    expect(await store.get(ENROLMENT_KEY)).to.deep.equal(enrolment(2));
  });

  it('[UV-14] a page that finds an untagged enrolment reports a reset without a fingerprint; an empty store (first use) reports none', async () => {
    const planted = new MemoryConsentStore();
    await planted.set(ENROLMENT_KEY, enrolment(9));
    expect(await anchorConsentStore(planted).reset()).to.deep.equal({ fingerprint: null });
    expect(await anchorConsentStore(new MemoryConsentStore()).reset()).to.equal(null);
    // The trusted enrolment this page read, then deleted behind its back: a reset too.
    const inner = new MemoryConsentStore();
    const store = anchorConsentStore(inner);
    await store.set(ENROLMENT_KEY, enrolment(3));
    await inner.delete(ENROLMENT_KEY);
    expect(await store.reset()).to.deep.equal({ fingerprint: await fingerprint(enrolment(3)) });
    // The page's own removal (unenrol) is not.
    const own = anchorConsentStore(new MemoryConsentStore());
    await own.set(ENROLMENT_KEY, enrolment(4));
    await own.delete(ENROLMENT_KEY);
    expect(await own.reset()).to.equal(null);
  });

  it('[UV-14] without WebCrypto nothing is ever trusted, and nothing throws', async () => {
    const inner = new MemoryConsentStore();
    const store = anchorConsentStore(inner, { subtle: null });
    await store.set(ENROLMENT_KEY, enrolment());
    expect(await store.get(ENROLMENT_KEY)).to.equal(undefined);
  });
});

describe('the browser\'s own WebAuthn (UV-15)', () => {
  it('[UV-15] the runtime captured the platform\'s functions; a replacement on the page\'s navigator.credentials, or one that reads as native but is another, is not them', () => {
    expect(nativeWebAuthn.get).to.equal(CredentialsContainer.prototype.get);
    expect(isNativeWebAuthn(navigator.credentials, nativeWebAuthn)).to.equal(true);
    const replaced = Object.create(CredentialsContainer.prototype) as CredentialsContainer;
    Object.assign(replaced, { get: async () => null });
    expect(isNativeWebAuthn(replaced, nativeWebAuthn)).to.equal(false);
    // Another native function (bound: still "[native code]") is not the captured one.
    const bound = Object.create(CredentialsContainer.prototype) as CredentialsContainer;
    Object.assign(bound, { get: CredentialsContainer.prototype.get.bind(navigator.credentials) });
    expect(isNativeWebAuthn(bound, nativeWebAuthn)).to.equal(false);
    // Captured functions that do not read as native (a script that ran before the runtime) fail too.
    const fake = { get: async () => null, create: async () => null, toString: Function.prototype.toString };
    expect(isNativeWebAuthn({ get: fake.get, create: fake.create } as unknown as CredentialsContainer, fake)).to.equal(false);
  });
});

/** The user's device: a virtual authenticator that answers every request (test/wtr-webauthn-plugin.mjs). */
async function withDevice(work: (authenticatorId: string) => Promise<void>) {
  const { authenticatorId } = (await executeServerCommand('webauthn', { action: 'add' })) as { authenticatorId: string };
  try {
    await work(authenticatorId);
  } finally {
    await executeServerCommand('webauthn', { action: 'remove', authenticatorId });
  }
}
const credentialsOn = async (authenticatorId: string) =>
  ((await executeServerCommand('webauthn', { action: 'credentials', authenticatorId })) as { credentials: unknown[] }).credentials.length;

/** What `promise` rejects with (fails when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('it resolved');
}

describe('the gate and the verifier over the anchor (UV-14, UV-15), with the user\'s device', () => {
  it('[UV-14] a planted enrolment: the switch-on says the records were reset and asks nothing; the next enrols the device, verified; a later planting names the key the page knew', async () => {
    await withDevice(async (device) => {
      const inner = new MemoryConsentStore();
      await inner.set(ENROLMENT_KEY, enrolment(9));
      const store = anchorConsentStore(inner);
      const clock = new FakeClock(Date.now());
      const verifier = createWebAuthnVerifier({ store, timeoutMs: 5000 });
      const gate = createConsentGate({ verifier, clock, store, automated: false });
      const permission = createPermissionStore({ tool: 'notes', storage: new MemoryStorage(), clock, events: null });
      const first = await rejection(gate.permit('notes', permission));
      expect(first).to.be.instanceOf(ConsentRefused);
      expect((first as ConsentRefused).notice).to.deep.equal({ code: 'consentReset', values: { fingerprint: '' }, automated: false });
      expect(permission.getState().enabled).to.equal(false);
      expect(await credentialsOn(device), 'nothing was asked of the device').to.equal(0);
      await gate.permit('notes', permission);
      expect(permission.getState().enabled).to.equal(true);
      expect(await credentialsOn(device)).to.equal(1);
      const enrolled = (await verifier.enrolled())!;
      expect(enrolled.spki).to.not.equal(enrolment(9).spki);
      const known = await verifier.fingerprint();
      // Planted again behind the page's back, while it is open: it names the key it knew.
      permission.disable();
      await inner.set(ENROLMENT_KEY, enrolment(9));
      const again = await rejection(gate.permit('notes', permission));
      expect((again as ConsentRefused).notice).to.deep.equal({ code: 'consentResetKey', values: { fingerprint: known }, automated: false });
      expect(await verifier.enrolled()).to.equal(null);
    });
  });

  it('[UV-15] a navigator.credentials.get or create replaced on the page (an own property, as Playwright installs its passkey) is refused as "replaced" and never called; put back, the device answers', async () => {
    await withDevice(async () => {
      const verifier = createWebAuthnVerifier({ store: anchorConsentStore(new MemoryConsentStore()), timeoutMs: 5000 });
      const description = async () => ({
        kind: 'call' as const, origin: location.origin, tool: 'node', operation: 'node_delete_file', inputDigest: await inputDigest({ path: 'a.txt' }),
        callId: Math.random(), openedAt: Date.now(), skipFuture: false, skipUntil: null,
      });
      for (const name of ['get', 'create'] as const) {
        let called = 0;
        Object.defineProperty(navigator.credentials, name, { value: async () => void called++, configurable: true, writable: true });
        try {
          const error = await rejection(verifier.verify(await description()));
          expect(error).to.be.instanceOf(VerificationRefused);
          expect((error as VerificationRefused).reason).to.equal('replaced');
          expect(called, `the replaced ${name} was not called`).to.equal(0);
        } finally {
          delete (navigator.credentials as unknown as Record<string, unknown>)[name];
        }
      }
      const receipt = await verifier.verify(await description());
      expect(receipt.signature).to.be.a('string');
    });
  });
});
