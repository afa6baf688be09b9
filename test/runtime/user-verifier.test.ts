// The page's verifier against Chromium's real WebAuthn stack, with a CDP virtual authenticator
// (test/wtr-webauthn-plugin.mjs) playing the user's device: presence on is the user touching it,
// presence off the user absent. The test page is http://localhost:<port>, which can hold a credential.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { checkReceipt, fingerprint, inputDigest, toBase64Url, type ConsentDescription, type Receipt } from '../../src/consent-proof.js';
import { ENROLMENT_KEY, VerificationRefused, createWebAuthnVerifier, type ConsentOption, type RefusalReason } from '../../src/user-verifier.js';
import { makeKey } from '../helpers/synthetic-assertion.mjs';
import { MemoryStorage } from './helpers.js';

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
  callId: ++callId, openedAt: Date.now(), skipFuture: false, ...over,
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
  } as unknown as Window;
}

describe('user verifier (WebAuthn, virtual authenticator)', () => {
  afterEach(async () => {
    for (const id of [...authenticators]) await removeAuthenticator(id);
    localStorage.removeItem(ENROLMENT_KEY);
  });

  it('[UV-1] the first verification enrols a discoverable platform credential, then asserts it: a receipt checkReceipt accepts', async () => {
    const device = await addAuthenticator();
    const storage = new MemoryStorage();
    const verifier = createWebAuthnVerifier({ storage });
    expect(verifier.origin).to.equal(location.origin);
    expect(verifier.enrolled()).to.equal(null);
    const description = await call();
    const receipt = await verifier.verify(description);
    const key = verifier.enrolled()!;
    expect(key.alg).to.equal(-7);
    expect(receipt.credentialId).to.equal(key.credentialId);
    expect(receipt.description).to.deep.equal(description);
    expect(await checkReceipt(receipt, key)).to.equal(null);
    const [credential, ...more] = await credentialsOf(device);
    expect(more).to.deep.equal([]);
    expect(credential).to.include({ isResidentCredential: true, rpId: location.hostname });
    expect(toBase64Url(Uint8Array.from(atob(credential.credentialId), (c) => c.charCodeAt(0)))).to.equal(key.credentialId);
  });

  it('[UV-1] storage holds only {v, credentialId, alg, spki}, and later verifications assert the same credential without a new one', async () => {
    const device = await addAuthenticator();
    const storage = new MemoryStorage();
    const verifier = createWebAuthnVerifier({ storage });
    await verifier.verify(await call());
    expect(storage.length).to.equal(1);
    const stored = JSON.parse(storage.getItem(ENROLMENT_KEY)!);
    expect(Object.keys(stored).sort()).to.deep.equal(['alg', 'credentialId', 'spki', 'v']);
    expect(stored.v).to.equal(1);
    const second = await createWebAuthnVerifier({ storage }).verify(await call());
    expect(second.credentialId).to.equal(stored.credentialId);
    expect(await credentialsOf(device)).to.have.length(1);
    expect(JSON.parse(storage.getItem(ENROLMENT_KEY)!)).to.deep.equal(stored);
  });

  it('[UV-1] by default the enrolment is kept in the page\'s localStorage, and its fingerprint is the key\'s', async () => {
    await addAuthenticator();
    const verifier = createWebAuthnVerifier();
    expect(await verifier.fingerprint()).to.equal(null);
    await verifier.verify(await call());
    expect(JSON.parse(localStorage.getItem(ENROLMENT_KEY)!)).to.deep.equal({ v: 1, ...verifier.enrolled() });
    const printed = await verifier.fingerprint();
    expect(printed).to.equal(await fingerprint(verifier.enrolled()!));
    expect(printed).to.match(/^([0-9a-f]{4} ){7}[0-9a-f]{4}$/);
  });

  it('[UV-1] a corrupt or foreign stored value reads as not enrolled, never throws, and the next verification enrols anew', async () => {
    await addAuthenticator();
    const storage = new MemoryStorage();
    const { record } = await makeKey();
    const corrupt = ['not json', 'null', '[]', '{}', JSON.stringify({ v: 2, ...record }), JSON.stringify({ v: 1, ...record, extra: 1 }),
      JSON.stringify({ v: 1, ...record, alg: -35 }), JSON.stringify({ v: 1, ...record, spki: 'A' }), JSON.stringify({ v: 1, ...record, credentialId: 5 })];
    for (const raw of corrupt) {
      storage.setItem(ENROLMENT_KEY, raw);
      const verifier = createWebAuthnVerifier({ storage, automated: false });
      expect(verifier.enrolled(), raw).to.equal(null);
      expect(verifier.applies('node'), raw).to.equal(false);
    }
    const throwing = { getItem() { throw new Error('denied'); }, setItem() { throw new Error('denied'); } } as unknown as Storage;
    const verifier = createWebAuthnVerifier({ storage: throwing });
    expect(verifier.enrolled()).to.equal(null);
    // Storage that refuses: the enrolment lasts for this page.
    const receipt = await verifier.verify(await call());
    expect(await checkReceipt(receipt, verifier.enrolled()!)).to.equal(null);
    storage.setItem(ENROLMENT_KEY, 'not json');
    await createWebAuthnVerifier({ storage }).verify(await call());
    expect(JSON.parse(storage.getItem(ENROLMENT_KEY)!).v).to.equal(1);
  });

  it('[UV-3] a consent is used once on a page: the same description twice is refused, by any verifier of the page; another call\'s is not', async () => {
    await addAuthenticator();
    const verifier = createWebAuthnVerifier({ storage: new MemoryStorage() });
    const description = await call();
    await verifier.verify(description);
    expect(await refusal(verifier.verify(description))).to.equal('invalid');
    expect(await refusal(verifier.verify({ ...description }))).to.equal('invalid');
    // Per page: another verifier on the same page refuses it too.
    expect(await refusal(createWebAuthnVerifier({ storage: new MemoryStorage() }).verify(description))).to.equal('invalid');
    const next = await verifier.verify(await call());
    expect(next.description).not.to.deep.equal(description);
  });

  it('[UV-3] a description for another origin is refused before any prompt', async () => {
    const device = await addAuthenticator();
    const verifier = createWebAuthnVerifier({ storage: new MemoryStorage() });
    expect(await refusal(verifier.verify(await call({ origin: 'http://localhost:1' })))).to.equal('invalid');
    expect(await credentialsOf(device)).to.deep.equal([]);
  });

  it('[UV-3] an assertion that comes back wrong (its signature or client data edited on the way) is refused invalid, and the consent stays unused', async () => {
    await addAuthenticator();
    const storage = new MemoryStorage();
    await createWebAuthnVerifier({ storage }).verify(await call());
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
    const world = { location, isSecureContext: true, PublicKeyCredential, navigator: { webdriver: true, credentials } } as unknown as Window;
    const verifier = createWebAuthnVerifier({ window: world, storage });
    const description = await call();
    expect(await refusal(verifier.verify(description))).to.equal('invalid');
    edit = 'clientDataJSON';
    expect(await refusal(verifier.verify(description))).to.equal('invalid');
    edit = null;
    expect(await checkReceipt(await verifier.verify(description), verifier.enrolled()!)).to.equal(null);
  });

  it('[UV-3] check() accepts a stored switch receipt for exactly its fields and the enrolled key, nothing else', async () => {
    await addAuthenticator();
    const storage = new MemoryStorage();
    const verifier = createWebAuthnVerifier({ storage });
    const enabledUntil = Date.now() + 7 * 24 * 3600 * 1000;
    const receipt = await verifier.verify({ kind: 'switch', origin: location.origin, tool: 'node', enabledUntil });
    const stored = JSON.parse(JSON.stringify(receipt)) as Receipt;
    expect(await verifier.check(stored, { kind: 'switch', tool: 'node', enabledUntil })).to.equal(true);
    expect(await verifier.check(stored, {})).to.equal(true);
    expect(await verifier.check(stored, { kind: 'switch', tool: 'node', enabledUntil: enabledUntil + 1 })).to.equal(false);
    expect(await verifier.check(stored, { kind: 'switch', tool: 'sql', enabledUntil })).to.equal(false);
    expect(await verifier.check({ ...stored, description: { ...stored.description, enabledUntil: enabledUntil + 1 } }, { tool: 'node' })).to.equal(false);
    for (const junk of [null, 'x', {}, { description: null }]) expect(await verifier.check(junk, {})).to.equal(false);
    // A receipt made by a key the page did not enrol (a value written straight into storage).
    const other = await makeKey();
    expect(await createWebAuthnVerifier({ storage: new MemoryStorage() }).check(stored, {})).to.equal(false);
    const foreign = new MemoryStorage();
    foreign.setItem(ENROLMENT_KEY, JSON.stringify({ v: 1, ...other.record }));
    expect(await createWebAuthnVerifier({ storage: foreign }).check(stored, {})).to.equal(false);
  });

  it('[UV-4] an authenticator added after enrolment cannot approve: cancelled', async () => {
    const device = await addAuthenticator();
    const storage = new MemoryStorage();
    const verifier = createWebAuthnVerifier({ storage });
    await verifier.verify(await call());
    await removeAuthenticator(device);
    await addAuthenticator();
    expect(await refusal(verifier.verify(await call(), undefined, 3000))).to.equal('cancelled');
    expect(verifier.enrolled()).not.to.equal(null);
  });

  it('[UV-4] the user absent (presence off): the request aborted by the caller is refused aborted, one left waiting times out cancelled', async () => {
    const device = await addAuthenticator();
    const verifier = createWebAuthnVerifier({ storage: new MemoryStorage() });
    await verifier.verify(await call());
    await executeServerCommand('webauthn', { action: 'presence', authenticatorId: device, enabled: false });
    const controller = new AbortController();
    const waiting = verifier.verify(await call(), controller.signal);
    controller.abort(new Error('やめる'));
    expect(await refusal(waiting)).to.equal('aborted');
    const aborted = new AbortController();
    aborted.abort();
    expect(await refusal(verifier.verify(await call(), aborted.signal))).to.equal('aborted');
    expect(await refusal(verifier.verify(await call(), undefined, 1000))).to.equal('cancelled');
  });

  it('[UV-4] enrolling with the user absent, or with a device that cannot verify the user, gives nothing and enrols nothing', async () => {
    const absent = await addAuthenticator({ automaticPresenceSimulation: false });
    const storage = new MemoryStorage();
    const verifier = createWebAuthnVerifier({ storage });
    expect(await refusal(verifier.verify(await call(), undefined, 1000))).to.equal('cancelled');
    expect(storage.getItem(ENROLMENT_KEY)).to.equal(null);
    // No time left (the caller's deadline has passed): refused before any prompt.
    expect(await refusal(verifier.verify(await call(), undefined, 0))).to.equal('aborted');
    expect(await credentialsOf(absent)).to.deep.equal([]);
    await removeAuthenticator(absent);
    const unverified = await addAuthenticator({ isUserVerified: false });
    expect(await refusal(verifier.verify(await call(), undefined, 3000))).to.equal('cancelled');
    expect(storage.getItem(ENROLMENT_KEY)).to.equal(null);
    // The same device once it verifies its user.
    await executeServerCommand('webauthn', { action: 'verified', authenticatorId: unverified, isUserVerified: true });
    await verifier.verify(await call());
    expect(verifier.enrolled()).not.to.equal(null);
  });

  it('[UV-4] no platform authenticator at all: unavailable, nothing enrolled', async () => {
    const storage = new MemoryStorage();
    expect(await refusal(createWebAuthnVerifier({ storage }).verify(await call(), undefined, 1000))).to.equal('unavailable');
    expect(storage.getItem(ENROLMENT_KEY)).to.equal(null);
  });

  it('[UV-4] possible() is false on an IP-literal host, outside a secure context and without WebAuthn; verify refuses origin / unavailable', async () => {
    expect(createWebAuthnVerifier({ storage: new MemoryStorage() }).possible()).to.equal(true);
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

  it('[UV-2] applies(): verified always, click never, auto when automated on an origin that can hold a credential or once enrolled; per tool', async () => {
    const { record } = await makeKey();
    const rows: [ConsentOption, boolean, boolean, boolean, boolean][] = [
      // consent, automated, enrolled, possible → applies('node')
      ['auto', false, false, true, false],
      ['auto', true, false, true, true],
      ['auto', false, true, true, true],
      ['auto', true, true, true, true],
      ['auto', true, false, false, false],
      ['auto', false, true, false, true],
      ['verified', false, false, true, true],
      ['verified', true, false, false, true],
      ['click', true, true, true, false],
      ['click', true, false, true, false],
      [{ node: 'verified' }, false, false, true, true],
      [{ node: 'click' }, true, true, true, false],
      [{ sql: 'click' }, true, false, true, true],
      [{ sql: 'verified' }, false, false, true, false],
      [{ constructor: 'verified' } as ConsentOption, false, false, true, false],
    ];
    for (const [consent, automated, enrolled, possible, applies] of rows) {
      const world = fakeWindow({ href: possible ? 'http://localhost:8000/' : 'http://127.0.0.1:8000/' });
      if (enrolled) world.localStorage.setItem(ENROLMENT_KEY, JSON.stringify({ v: 1, ...record }));
      const verifier = createWebAuthnVerifier({ window: world, consent, automated });
      expect(verifier.applies('node'), JSON.stringify({ consent, automated, enrolled, possible })).to.equal(applies);
    }
    // Without an override, navigator.webdriver decides: true in this launched Chromium.
    expect(navigator.webdriver).to.equal(true);
    expect(createWebAuthnVerifier({ storage: new MemoryStorage() }).applies('node')).to.equal(true);
    expect(createWebAuthnVerifier({ window: fakeWindow({ webdriver: false }) }).applies('node')).to.equal(false);
    expect(createWebAuthnVerifier({ window: fakeWindow({ webdriver: true }) }).applies('node')).to.equal(true);
  });

  it('[UV-2] unenrol verifies {kind: unenrol} and then removes the record; refused, it keeps it', async () => {
    const device = await addAuthenticator();
    const storage = new MemoryStorage();
    const verifier = createWebAuthnVerifier({ storage, automated: false });
    await verifier.verify(await call());
    const key = verifier.enrolled()!;
    expect(verifier.applies('node')).to.equal(true);
    await executeServerCommand('webauthn', { action: 'presence', authenticatorId: device, enabled: false });
    const controller = new AbortController();
    const waiting = verifier.unenrol(controller.signal);
    controller.abort();
    expect(await refusal(waiting)).to.equal('aborted');
    expect(verifier.enrolled()).to.deep.equal(key);
    await executeServerCommand('webauthn', { action: 'presence', authenticatorId: device, enabled: true });
    await verifier.unenrol();
    expect(storage.getItem(ENROLMENT_KEY)).to.equal(null);
    expect(verifier.enrolled()).to.equal(null);
    expect(verifier.applies('node')).to.equal(false);
    await verifier.unenrol();
  });
});
