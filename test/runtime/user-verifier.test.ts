// The page's verifier against Chromium's real WebAuthn stack, with a CDP virtual authenticator
// (test/wtr-webauthn-plugin.mjs) playing the user's device: presence on is the user touching it,
// presence off the user absent. The test page is http://localhost:<port>, which can hold a credential.
// The enrolment lives in a consent store (UV-8): a readable memory one here, IndexedDB where a test
// says so (and that test deletes the database after itself).
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { checkReceipt, fingerprint, inputDigest, toBase64Url, type ConsentDescription, type Receipt } from '../../src/consent-proof.js';
import { CONSENT_DB, createIndexedDbConsentStore } from '../../src/consent-store.js';
import { ANCHOR_KEY, anchorConsentStore, type AnchoredRecord } from '../../src/consent-anchor.js';
import { ENROLMENT_KEY } from '../../src/consent-store.js';
import { VerificationRefused, createWebAuthnVerifier, type ConsentOption, type RefusalReason } from '../../src/user-verifier.js';
import { makeKey } from '../helpers/synthetic-assertion.mjs';
import { MemoryConsentStore, MemoryStorage, deleteConsentDatabase, readConsentDatabase } from './helpers.js';

interface Added { authenticatorId: string }
const authenticators: string[] = [];
async function addAuthenticator(options: { automaticPresenceSimulation?: boolean; isUserVerified?: boolean } = {}): Promise<string> {
  const { authenticatorId } = (await executeServerCommand('webauthn', { action: 'add', ...options })) as Added;
  authenticators.push(authenticatorId);
  return authenticatorId;
}
async function removeAuthenticator(authenticatorId: string) {
  authenticators.splice(authenticators.indexOf(authenticatorId), 1);
  await executeServerCommand('webauthn', { action: 'remove', authenticatorId });
}
async function credentialsOf(authenticatorId: string) {
  return ((await executeServerCommand('webauthn', { action: 'credentials', authenticatorId })) as { credentials: { credentialId: string; isResidentCredential: boolean; rpId: string }[] }).credentials;
}

let callId = 0;
const call = async (over: Partial<Extract<ConsentDescription, { kind: 'call' }>> = {}): Promise<ConsentDescription> => ({
  kind: 'call', origin: location.origin, tool: 'node', operation: 'node_delete_file', inputDigest: await inputDigest({ path: 'a.txt' }),
  callId: ++callId, openedAt: Date.now(), skipFuture: false, skipUntil: null, ...over,
});

/** The refusal `promise` rejects with (fails when it resolves or rejects with anything else). */
async function refusal(promise: Promise<unknown>): Promise<RefusalReason> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(VerificationRefused);
    return (error as VerificationRefused).reason;
  }
  throw new Error('the verification gave a receipt');
}

/** A window whose location, secure context and WebAuthn are given (the hostname rules of possible()). */
function fakeWindow({ href = 'http://localhost:8000/', secure = true, webauthn = true, webdriver = false } = {}): Window {
  const url = new URL(href);
  return {
    location: { origin: url.origin, hostname: url.hostname },
    isSecureContext: secure,
    PublicKeyCredential: webauthn ? window.PublicKeyCredential : undefined,
    navigator: { webdriver, credentials: webauthn ? navigator.credentials : undefined },
    localStorage: new MemoryStorage(),
    setTimeout: window.setTimeout.bind(window),
    clearTimeout: window.clearTimeout.bind(window),
  } as unknown as Window;
}

/** Presence off: the user is away, the OS prompt is up and nobody answers it. */
const absent = (authenticatorId: string) => executeServerCommand('webauthn', { action: 'presence', authenticatorId, enabled: false });

describe('user verifier (WebAuthn, virtual authenticator)', () => {
  afterEach(async () => {
    for (const id of [...authenticators]) await removeAuthenticator(id);
    localStorage.removeItem('fd-ai-operations-uv');
    await deleteConsentDatabase();
  });

  it('[UV-1] the first verification enrols a discoverable platform credential, then asserts it: a receipt checkReceipt accepts', async () => {
    const device = await addAuthenticator();
    const verifier = createWebAuthnVerifier({ store: new MemoryConsentStore() });
    expect(verifier.origin).to.equal(location.origin);
    expect(await verifier.enrolled()).to.equal(null);
    const description = await call();
    const receipt = await verifier.verify(description);
    const key = (await verifier.enrolled())!;
    expect(key.alg).to.equal(-7);
    expect(receipt.credentialId).to.equal(key.credentialId);
    expect(receipt.description).to.deep.equal(description);
    expect(await checkReceipt(receipt, key)).to.equal(null);
    const [credential, ...more] = await credentialsOf(device);
    expect(more).to.deep.equal([]);
    expect(credential).to.include({ isResidentCredential: true, rpId: location.hostname });
    expect(toBase64Url(Uint8Array.from(atob(credential.credentialId), (c) => c.charCodeAt(0)))).to.equal(key.credentialId);
  });

  it('[UV-1] the consent store holds only {v, credentialId, alg, spki} under "enrolment", and later verifications assert the same credential without a new one', async () => {
    const device = await addAuthenticator();
    const store = new MemoryConsentStore();
    const verifier = createWebAuthnVerifier({ store });
    await verifier.verify(await call());
    expect(ENROLMENT_KEY).to.equal('enrolment');
    expect([...store.values.keys()]).to.deep.equal([ENROLMENT_KEY]);
    const stored = store.values.get(ENROLMENT_KEY) as Record<string, unknown>;
    expect(Object.keys(stored).sort()).to.deep.equal(['alg', 'credentialId', 'spki', 'v']);
    expect(stored.v).to.equal(1);
    const second = await createWebAuthnVerifier({ store }).verify(await call());
    expect(second.credentialId).to.equal(stored.credentialId);
    expect(await credentialsOf(device)).to.have.length(1);
    expect(store.values.get(ENROLMENT_KEY)).to.deep.equal(stored);
  });

  it('[UV-8] by default the enrolment is kept in IndexedDB (ai-ops-consent), nothing of it in localStorage; a later page reads it back; its fingerprint is the key\'s', async () => {
    await addAuthenticator();
    const before = { ...localStorage };
    const verifier = createWebAuthnVerifier();
    expect(await verifier.fingerprint()).to.equal(null);
    await verifier.verify(await call());
    const key = (await verifier.enrolled())!;
    expect(CONSENT_DB).to.include({ name: 'ai-ops-consent', store: 'records' });
    // UV-14: kept with a tag from the page's own non-extractable key, which sits beside it.
    const records = await readConsentDatabase();
    expect(Object.keys(records).sort()).to.deep.equal([ANCHOR_KEY, ENROLMENT_KEY]);
    expect(records[ANCHOR_KEY]).to.be.instanceOf(CryptoKey);
    expect((records[ENROLMENT_KEY] as AnchoredRecord).anchored).to.deep.equal({ v: 1, ...key });
    expect({ ...localStorage }).to.deep.equal(before);
    // Another page of the origin (a new verifier, a new store over the same database).
    const later = createWebAuthnVerifier({ store: anchorConsentStore(createIndexedDbConsentStore(window)) });
    expect(await later.enrolled()).to.deep.equal(key);
    const printed = await verifier.fingerprint();
    expect(printed).to.equal(await fingerprint(key));
    expect(printed).to.match(/^([0-9a-f]{4} ){7}[0-9a-f]{4}$/);
  });

  it('[UV-8] a key planted in localStorage (a program that only writes storage) changes nothing: the page enrols its own, verified, and only its own key checks', async () => {
    const device = await addAuthenticator();
    const planted = await makeKey();
    // Where the enrolment used to live, in the form it had there; and the same under the new name.
    localStorage.setItem('fd-ai-operations-uv', JSON.stringify({ v: 1, ...planted.record }));
    localStorage.setItem(ENROLMENT_KEY, JSON.stringify({ v: 1, ...planted.record }));
    try {
      const verifier = createWebAuthnVerifier();
      expect(await verifier.enrolled()).to.equal(null);
      const receipt = await verifier.verify(await call());
      const key = (await verifier.enrolled())!;
      expect(key.spki).to.not.equal(planted.record.spki);
      expect(await credentialsOf(device)).to.have.length(1); // the device made the page's credential
      expect(await checkReceipt(receipt, key)).to.equal(null);
      expect(await checkReceipt(receipt, planted.record)).to.not.equal(null);
    } finally {
      localStorage.removeItem(ENROLMENT_KEY);
    }
  });

  it('[UV-1] [UV-8] a corrupt or foreign stored value reads as not enrolled, never throws, leaves consent verified, and the next verification enrols anew', async () => {
    await addAuthenticator();
    const store = new MemoryConsentStore();
    const { record } = await makeKey();
    const corrupt: unknown[] = ['not json', null, 0, [], {}, JSON.stringify({ v: 1, ...record }), { v: 2, ...record }, { v: 1, ...record, extra: 1 },
      { v: 1, ...record, alg: -35 }, { v: 1, ...record, spki: 'A' }, { v: 1, ...record, credentialId: 5 }, { v: 1, ...record, spki: '' }];
    for (const value of corrupt) {
      await store.set(ENROLMENT_KEY, value);
      const verifier = createWebAuthnVerifier({ store });
      expect(await verifier.enrolled(), JSON.stringify(value)).to.equal(null);
      expect(verifier.applies('node'), JSON.stringify(value)).to.equal(true);
    }
    await createWebAuthnVerifier({ store }).verify(await call());
    expect((store.values.get(ENROLMENT_KEY) as { v: number }).v).to.equal(1);
    // An IndexedDB that refuses to open (a profile that forbids it): the enrolment lasts for this page.
    const refusing = { indexedDB: { open() { throw new DOMException('denied', 'SecurityError'); } } } as unknown as Window;
    const pageOnly = createIndexedDbConsentStore(refusing);
    const verifier = createWebAuthnVerifier({ store: pageOnly });
    expect(await verifier.enrolled()).to.equal(null);
    const receipt = await verifier.verify(await call());
    expect(await checkReceipt(receipt, (await verifier.enrolled())!)).to.equal(null);
    expect(await createWebAuthnVerifier({ store: createIndexedDbConsentStore(refusing) }).enrolled()).to.equal(null);
  });

  it('[UV-3] a consent is used once on a page: the same description twice is refused, by any verifier of the page; another call\'s is not', async () => {
    await addAuthenticator();
    const verifier = createWebAuthnVerifier({ store: new MemoryConsentStore() });
    const description = await call();
    await verifier.verify(description);
    expect(await refusal(verifier.verify(description))).to.equal('invalid');
    expect(await refusal(verifier.verify({ ...description }))).to.equal('invalid');
    // Per page: another verifier on the same page refuses it too.
    expect(await refusal(createWebAuthnVerifier({ store: new MemoryConsentStore() }).verify(description))).to.equal('invalid');
    const next = await verifier.verify(await call());
    expect(next.description).not.to.deep.equal(description);
  });

  it('[UV-3] a description for another origin is refused before any prompt', async () => {
    const device = await addAuthenticator();
    const verifier = createWebAuthnVerifier({ store: new MemoryConsentStore() });
    expect(await refusal(verifier.verify(await call({ origin: 'http://localhost:1' })))).to.equal('invalid');
    expect(await credentialsOf(device)).to.deep.equal([]);
  });

  it('[UV-3] an assertion that comes back wrong (its signature or client data edited on the way) is refused invalid, and the consent stays unused', async () => {
    await addAuthenticator();
    const store = new MemoryConsentStore();
    await createWebAuthnVerifier({ store }).verify(await call());
    // The real authenticator's response, edited between the browser and the page (what a page
    // script could do): everything else about this window is the real one.
    let edit: 'signature' | 'clientDataJSON' | null = 'signature';
    const credentials = {
      create: navigator.credentials.create.bind(navigator.credentials),
      async get(options: CredentialRequestOptions) {
        const credential = (await navigator.credentials.get(options)) as PublicKeyCredential;
        const response = credential.response as AuthenticatorAssertionResponse;
        const copy = (buffer: ArrayBuffer, change: boolean) => {
          const bytes = new Uint8Array(buffer.slice(0));
          if (change) bytes[bytes.length - 1] ^= 1;
          return bytes.buffer;
        };
        return {
          type: credential.type, rawId: credential.rawId,
          response: {
            authenticatorData: response.authenticatorData, signature: copy(response.signature, edit === 'signature'),
            clientDataJSON: edit === 'clientDataJSON' ? new TextEncoder().encode(JSON.stringify({ type: 'webauthn.get', challenge: 'AAAA', origin: location.origin })).buffer : response.clientDataJSON,
          },
        };
      },
    };
    const world = {
      location, isSecureContext: true, PublicKeyCredential, navigator: { webdriver: true, credentials },
      setTimeout: window.setTimeout.bind(window), clearTimeout: window.clearTimeout.bind(window),
    } as unknown as Window;
    const verifier = createWebAuthnVerifier({ window: world, store });
    const description = await call();
    expect(await refusal(verifier.verify(description))).to.equal('invalid');
    edit = 'clientDataJSON';
    expect(await refusal(verifier.verify(description))).to.equal('invalid');
    edit = null;
    expect(await checkReceipt(await verifier.verify(description), (await verifier.enrolled())!)).to.equal(null);
  });

  it('[UV-3] check() accepts a stored switch receipt for exactly its fields and the enrolled key, nothing else', async () => {
    await addAuthenticator();
    const verifier = createWebAuthnVerifier({ store: new MemoryConsentStore() });
    const enabledUntil = Date.now() + 7 * 24 * 3600 * 1000;
    const receipt = await verifier.verify({ kind: 'switch', origin: location.origin, tool: 'node', enabledUntil });
    const stored = JSON.parse(JSON.stringify(receipt)) as Receipt;
    expect(await verifier.check(stored, { kind: 'switch', tool: 'node', enabledUntil })).to.equal(true);
    expect(await verifier.check(stored, {})).to.equal(true);
    expect(await verifier.check(stored, { kind: 'switch', tool: 'node', enabledUntil: enabledUntil + 1 })).to.equal(false);
    expect(await verifier.check(stored, { kind: 'switch', tool: 'sql', enabledUntil })).to.equal(false);
    expect(await verifier.check(stored, { kind: 'call' })).to.equal(false);
    expect(await verifier.check({ ...stored, description: { ...stored.description, enabledUntil: enabledUntil + 1 } }, { tool: 'node' })).to.equal(false);
    for (const junk of [null, 'x', {}, { description: null }]) expect(await verifier.check(junk, {})).to.equal(false);
    // A receipt made by a key the page did not enrol, or a page with nothing enrolled.
    const other = await makeKey();
    expect(await createWebAuthnVerifier({ store: new MemoryConsentStore() }).check(stored, {})).to.equal(false);
    const foreign = new MemoryConsentStore();
    await foreign.set(ENROLMENT_KEY, { v: 1, ...other.record });
    expect(await createWebAuthnVerifier({ store: foreign }).check(stored, {})).to.equal(false);
  });

  it('[UV-4] an authenticator added after enrolment cannot approve: refused, the enrolment kept', async () => {
    const device = await addAuthenticator();
    const verifier = createWebAuthnVerifier({ store: new MemoryConsentStore(), timeoutMs: 3000 });
    await verifier.verify(await call());
    await removeAuthenticator(device);
    await addAuthenticator();
    expect(await refusal(verifier.verify(await call()))).to.equal('cancelled');
    expect(await verifier.enrolled()).not.to.equal(null);
  });

  it('[UV-4] [UV-10] the user absent (presence off): aborted by the caller is refused aborted; left waiting, the verifier itself ends it at its timeoutMs: timeout', async () => {
    const device = await addAuthenticator();
    const timeoutMs = 400;
    const verifier = createWebAuthnVerifier({ store: new MemoryConsentStore(), timeoutMs });
    await verifier.verify(await call());
    await absent(device);
    const controller = new AbortController();
    const waiting = verifier.verify(await call(), controller.signal);
    controller.abort(new Error('やめる'));
    expect(await refusal(waiting)).to.equal('aborted');
    const aborted = new AbortController();
    aborted.abort();
    expect(await refusal(verifier.verify(await call(), aborted.signal))).to.equal('aborted');
    // The answer comes from the page's own timer, every time: a real Chromium rounds a timeout this
    // short up to 10 s, and with a virtual authenticator it rejects NotAllowedError (read as
    // cancelled) at the very timeout the page passed, racing the page's timer.
    const reasons: RefusalReason[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      reasons.push(await refusal(verifier.verify(await call(), new AbortController().signal)));
      expect(performance.now() - started).to.be.within(timeoutMs - 50, 5000);
    }
    expect(reasons).to.deep.equal(['timeout', 'timeout', 'timeout', 'timeout', 'timeout']);
    // A request that gave nothing used nothing: the same consent may be asked for again.
    const description = await call();
    expect(await refusal(verifier.verify(description))).to.equal('timeout');
    expect(await refusal(verifier.verify(description))).to.equal('timeout');
  });

  it('[UV-4] enrolling with the user absent, or with a device that cannot verify the user, gives nothing and enrols nothing', async () => {
    const away = await addAuthenticator({ automaticPresenceSimulation: false });
    const store = new MemoryConsentStore();
    const verifier = createWebAuthnVerifier({ store, timeoutMs: 400 });
    expect(await refusal(verifier.verify(await call()))).to.equal('timeout');
    expect(store.values.has(ENROLMENT_KEY)).to.equal(false);
    expect(await credentialsOf(away)).to.deep.equal([]);
    await removeAuthenticator(away);
    const unverified = await addAuthenticator({ isUserVerified: false });
    const slower = createWebAuthnVerifier({ store, timeoutMs: 3000 });
    expect(await refusal(slower.verify(await call()))).to.equal('cancelled');
    expect(store.values.has(ENROLMENT_KEY)).to.equal(false);
    // The same device once it verifies its user.
    await executeServerCommand('webauthn', { action: 'verified', authenticatorId: unverified, isUserVerified: true });
    await slower.verify(await call());
    expect(await slower.enrolled()).not.to.equal(null);
  });

  it('[UV-4] no platform authenticator at all: unavailable, nothing enrolled', async () => {
    const store = new MemoryConsentStore();
    expect(await refusal(createWebAuthnVerifier({ store, timeoutMs: 1000 }).verify(await call()))).to.equal('unavailable');
    expect(store.values.has(ENROLMENT_KEY)).to.equal(false);
  });

  it('[UV-4] possible() is false on an IP-literal host, outside a secure context and without WebAuthn; verify refuses origin / unavailable', async () => {
    expect(createWebAuthnVerifier({ store: new MemoryConsentStore() }).possible()).to.equal(true);
    const cases: [Parameters<typeof fakeWindow>[0], boolean, RefusalReason | null][] = [
      [{ href: 'http://localhost:8000/' }, true, null],
      [{ href: 'https://app.example.com/' }, true, null],
      [{ href: 'http://127.0.0.1:8000/' }, false, 'origin'],
      [{ href: 'http://0x7f.1/' }, false, 'origin'],
      [{ href: 'http://[::1]:8000/' }, false, 'origin'],
      [{ href: 'https://10.0.0.2/' }, false, 'origin'],
      [{ href: 'http://app.example.com/', secure: false }, false, 'origin'],
      [{ href: 'http://localhost:8000/', webauthn: false }, false, 'unavailable'],
    ];
    for (const [world, possible, reason] of cases) {
      const verifier = createWebAuthnVerifier({ window: fakeWindow(world) });
      expect(verifier.possible(), JSON.stringify(world)).to.equal(possible);
      if (reason) {
        const description = await call({ origin: verifier.origin });
        expect(await refusal(verifier.verify(description)), JSON.stringify(world)).to.equal(reason);
      }
    }
  });

  it('[UV-2] applies() everywhere but where the page author wrote click: whoever drives the browser, enrolled or not, whatever the origin; per tool', async () => {
    const { record } = await makeKey();
    const rows: [ConsentOption, boolean][] = [
      ['auto', true], ['verified', true], ['click', false],
      [{ node: 'verified' }, true], [{ node: 'click' }, false], [{ node: 'auto' }, true],
      [{ sql: 'click' }, true], [{ sql: 'verified' }, true],
      [{ constructor: 'click' } as ConsentOption, true], [{ node: 'nonsense' } as unknown as ConsentOption, true],
    ];
    for (const [consent, applies] of rows) {
      for (const webdriver of [false, true]) {
        for (const enrolled of [false, true]) {
          for (const href of ['http://localhost:8000/', 'http://127.0.0.1:8000/', 'https://app.example.com/']) {
            const store = new MemoryConsentStore();
            if (enrolled) await store.set(ENROLMENT_KEY, { v: 1, ...record });
            const verifier = createWebAuthnVerifier({ window: fakeWindow({ href, webdriver }), store, consent });
            expect(verifier.applies('node'), JSON.stringify({ consent, webdriver, enrolled, href })).to.equal(applies);
          }
        }
      }
    }
    // The default consent in this launched Chromium (navigator.webdriver true) and in a fake person's browser alike.
    expect(navigator.webdriver).to.equal(true);
    expect(createWebAuthnVerifier({ store: new MemoryConsentStore() }).applies('node')).to.equal(true);
    expect(createWebAuthnVerifier({ window: fakeWindow({ webdriver: false }) }).applies('node')).to.equal(true);
  });

  it('[UV-2] [UV-8] unenrol verifies {kind: unenrol} and then removes the record; refused, it keeps it; after it consent stays verified and the next verification enrols again', async () => {
    const device = await addAuthenticator();
    const store = new MemoryConsentStore();
    const verifier = createWebAuthnVerifier({ store, timeoutMs: 3000 });
    await verifier.verify(await call());
    const key = (await verifier.enrolled())!;
    await absent(device);
    const controller = new AbortController();
    const waiting = verifier.unenrol(controller.signal);
    controller.abort();
    expect(await refusal(waiting)).to.equal('aborted');
    expect(await verifier.enrolled()).to.deep.equal(key);
    await executeServerCommand('webauthn', { action: 'presence', authenticatorId: device, enabled: true });
    await verifier.unenrol();
    expect(store.values.has(ENROLMENT_KEY)).to.equal(false);
    expect(await verifier.enrolled()).to.equal(null);
    expect(verifier.applies('node')).to.equal(true);
    await verifier.unenrol();
    // The next verification creates a new credential (user verification required) and asserts it.
    const receipt = await verifier.verify(await call());
    const again = (await verifier.enrolled())!;
    expect(again.credentialId).to.not.equal(key.credentialId);
    expect(await credentialsOf(device)).to.have.length(2);
    expect(await checkReceipt(receipt, again)).to.equal(null);
  });
});
