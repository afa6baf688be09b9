// Verified consent through the runtime (UV-1..UV-4, UV-7..UV-11): the switch-on, the stored "on",
// the dialog's approval and the skip, each asking the page's verifier wherever the page author did
// not write `click`. The verifier here is mostly a stand-in that records what it was asked and
// answers as told: the real one (WebAuthn with a CDP virtual authenticator) is proven in
// user-verifier.test.ts, in the tests below that name it, and end to end. The receipts live in a
// readable memory consent store, as a program that only writes storage cannot reach IndexedDB (UV-8).
import { expect } from '@open-wc/testing';
import { createAiOps, type AiOpsOptions } from '../../src/runtime.js';
import { defineOperation } from '../../src/definition.js';
import { succeed } from '../../src/result.js';
import { permissionKey, PERMISSION_TTL_MS } from '../../src/permission-store.js';
import { inputDigest, type ConsentDescription, type Receipt } from '../../src/consent-proof.js';
import { ENROLMENT_KEY } from '../../src/consent-store.js';
import { ANCHOR_KEY, type AnchoredRecord } from '../../src/consent-anchor.js';
import { VerificationRefused, createWebAuthnVerifier, type RefusalReason, type UserVerifier } from '../../src/user-verifier.js';
import { createConsentGate, COOLDOWN_MS, REFUSALS_BEFORE_COOLDOWN, receiptsKey, switchKey, SWITCH_TTL_MS, type StoredReceipts } from '../../src/consent-gate.js';
import { refusalNotice, whereToOpen, type ConsentNotice } from '../../src/consent-words.js';
import { defaultAiOpsStrings } from '../../elements/internal/strings.js';
import { failureText } from '../../elements/internal/strings.js';
import { DECLINED } from '../../src/pipeline.js';
import { auditRecord } from '../../src/audit-export.js';
import type { ToolSession } from '../../src/tool-session.js';

/** AGENT-3's first sentence of a refusal, in the default (Japanese) strings. */
const AUTOMATED_NEEDS_VERIFICATION = defaultAiOpsStrings.consentAutomated;
/** What the switch shows under it for `session`'s state, in the default strings (UV-4). */
const underSwitch = (session: ToolSession) => failureText(defaultAiOpsStrings, session.getState())!;
/** The sentence of a notice, in the default strings. */
const refusalText = (error: unknown, automated: boolean, href?: string) =>
  failureText(defaultAiOpsStrings, { error: null, reason: refusalNotice(error, automated, href) as ConsentNotice })!;
import { executeServerCommand } from '@web/test-runner-commands';
import { FakeClock, FakeLoader, MemoryConsentStore, MemoryStorage, deleteConsentDatabase, flush, readConsentDatabase, decide, startEnded } from './helpers.js';

/** A verifier that answers as told and records every request. */
class ScriptedVerifier implements UserVerifier {
  readonly origin = 'http://localhost:8000';
  applying = true;
  canVerify = true;
  /** The reason the next verify rejects with, or null to succeed. */
  refuse: RefusalReason | null = null;
  /** While set, verify waits until this resolves (the OS prompt is up). */
  hold: Promise<void> | null = null;
  asked: { description: ConsentDescription; signal?: AbortSignal }[] = [];
  made = new Set<string>();
  applies = () => this.applying;
  possible = () => this.canVerify;
  enrolled = async () => (this.made.size ? { credentialId: 'cred', alg: -7, spki: 'key' } : null);
  async verify(description: ConsentDescription, signal?: AbortSignal): Promise<Receipt> {
    this.asked.push({ description, signal });
    if (this.hold) await this.hold;
    if (signal?.aborted) throw new VerificationRefused('aborted', 'aborted');
    if (this.refuse) throw new VerificationRefused(this.refuse, this.refuse);
    const signature = `sig-${this.asked.length}`;
    this.made.add(signature);
    return { credentialId: 'cred', authenticatorData: 'ad', clientDataJSON: 'cd', signature, description };
  }
  async check(receipt: unknown, expected: Partial<ConsentDescription>): Promise<boolean> {
    const r = receipt as Receipt | undefined;
    if (!r || !this.made.has(r.signature)) return false;
    return Object.entries(expected).every(([k, v]) => (r.description as unknown as Record<string, unknown>)[k] === v);
  }
  async unenrol() {
    this.made.clear();
  }
  async fingerprint() {
    return this.made.size ? '3f2a 9c01' : null;
  }
}

/** A page of the origin: its runtime with the tool `notes`. Pass `clock`, `storage`, `consentStore` and `verifier` of an earlier page to open the next page of the same origin. */
async function setup(extra: Partial<AiOpsOptions> & { consentStore?: MemoryConsentStore; verifier?: UserVerifier | null } = {}) {
  const clock = (extra.clock as FakeClock | undefined) ?? new FakeClock();
  const storage = (extra.storage as MemoryStorage | undefined) ?? new MemoryStorage();
  const consentStore = extra.consentStore ?? new MemoryConsentStore();
  const loader = new FakeLoader();
  const verifier = (extra.verifier === undefined ? new ScriptedVerifier() : extra.verifier) as ScriptedVerifier;
  const executed: unknown[] = [];
  const aiOps = createAiOps({
    loader, embedded: false, browserModelContext: null, autoReconnect: false, assetsBase: '/vendor/', automated: true, ...extra, clock, storage, consentStore, verifier,
  });
  const definitions = [
    defineOperation({
      name: 'notes_read', description: 'Reads.', inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: { readOnlyHint: true }, execute: async () => succeed({ text: 'hi' }),
    }),
    defineOperation({
      name: 'notes_clear', description: 'Clears.',
      inputSchema: { type: 'object', properties: { why: { type: 'string' } }, additionalProperties: false },
      confirmation: () => ({ title: 'Clear?', summary: 'Clears the note.', actionLabel: '消去する' }),
      execute: async (input) => {
        executed.push(input);
        return succeed({ cleared: true });
      },
    }),
    defineOperation({
      name: 'notes_write', description: 'Writes the note.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' }, lines: { type: 'array', items: { type: 'string' } } }, required: ['text'], additionalProperties: false },
      // Async, as real ones are: the input is read after the call's first hop.
      prepare: async (input: { text: string }) => {
        await flush();
        return { length: input.text.length };
      },
      confirmation: (input: { text: string; lines?: string[] }) => ({ title: `「${input.text}」を書く`, summary: (input.lines ?? []).join('/'), actionLabel: '書く' }),
      execute: async (input: { text: string; lines?: string[] }) => {
        executed.push(structuredClone(input));
        return succeed({ written: input.text });
      },
    }),
  ];
  const session = aiOps.provideOperations('notes', definitions);
  return { aiOps, clock, storage, consentStore, loader, verifier, executed, session };
}

/** The receipts the consent store keeps for `notes`. */
const receiptsOf = async (store: MemoryConsentStore) => (await store.get(receiptsKey('notes'))) as StoredReceipts | undefined;

/** Dispatches the `storage` event another tab's write gives this page (PERM-7). */
function anotherTabWrote(storage: MemoryStorage, key: string, value: string | null) {
  if (value === null) storage.removeItem(key);
  else storage.setItem(key, value);
  window.dispatchEvent(Object.assign(new Event('storage'), { key, storageArea: storage }));
}

/** Adds a CDP virtual authenticator (the user's device, present), removed after the test. */
const devices: string[] = [];
async function addDevice(): Promise<string> {
  const { authenticatorId } = (await executeServerCommand('webauthn', { action: 'add' })) as { authenticatorId: string };
  devices.push(authenticatorId);
  return authenticatorId;
}

/** Resolves once a start under way has ended, on or off. */
const settled = startEnded;

/** A page of the origin (see setup) once it has read its stored permission and its start, if any, has settled. */
async function pageOpened(extra: Parameters<typeof setup>[0]) {
  const page = await setup(extra);
  await flush();
  await settled(page.session);
  return page;
}

/** Resolves once `condition` holds (pending callbacks run in between). */
async function until(condition: () => boolean) {
  for (let i = 0; i < 500 && !condition(); i++) await flush();
  expect(condition()).to.equal(true);
}

/** Resolves once the dialog shows a request, and returns it. */
async function dialogRequest(aiOps: ReturnType<typeof createAiOps>) {
  for (let i = 0; i < 500 && !aiOps.confirmations.getState().current; i++) await flush();
  return aiOps.confirmations.getState().current!;
}


describe('verified consent (UV)', () => {
  afterEach(async () => {
    for (const authenticatorId of devices.splice(0)) await executeServerCommand('webauthn', { action: 'remove', authenticatorId });
  });

  it('[UV-3] the gate writes the switch record under PERM-1\'s key with PERM-2\'s 7 days, as the permission store reads it', () => {
    expect(switchKey('notes')).to.equal(permissionKey('notes'));
    expect(SWITCH_TTL_MS).to.equal(PERMISSION_TTL_MS);
  });

  it('[UV-1] [UV-8] a switch-on asks once, bound to the tool and the new enabledUntil; its receipt goes to the consent store, localStorage keeps only PERM-1\'s record', async () => {
    const { session, verifier, storage, consentStore, clock } = await setup();
    await session.turnOn();
    await settled(session);
    expect(session.getState().status).to.equal('on');
    expect(verifier.asked).to.have.length(1);
    const { description } = verifier.asked[0];
    expect(description).to.deep.equal({ kind: 'switch', origin: verifier.origin, tool: 'notes', enabledUntil: clock.now() + PERMISSION_TTL_MS });
    // PERM-1's record, with the very enabledUntil the receipt binds, and nothing else in localStorage.
    expect(JSON.parse(storage.getItem(permissionKey('notes'))!)).to.deep.equal({ v: 1, enabledUntil: description.kind === 'switch' && description.enabledUntil, skipConfirmUntil: null });
    expect(storage.length).to.equal(1);
    expect(receiptsKey('notes')).to.equal('receipts:notes');
    expect([...consentStore.values.keys()]).to.deep.equal(['receipts:notes']);
    expect((await receiptsOf(consentStore))!.on!.signature).to.equal('sig-1');
  });

  it('[UV-2] where the page author wrote click, the switch turns on at once with no verification and no receipt', async () => {
    const { session, verifier, consentStore } = await setup();
    verifier.applying = false;
    await session.turnOn();
    await settled(session);
    expect(session.getState().status).to.equal('on');
    expect(verifier.asked).to.have.length(0);
    expect(consentStore.values.size).to.equal(0);
  });

  it('[UV-4] a refused verification under automation leaves the switch off, says why and what to do after AGENT-3\'s sentence, and stores nothing', async () => {
    const expected: Record<string, string> = {
      cancelled: '本人確認が取り消されたため、AI からの操作を始めませんでした。',
      timeout: '本人確認に時間内に答えがなかったため、AI からの操作を始めませんでした。',
      invalid: '本人確認の結果を確かめられなかったため、AI からの操作を始めませんでした。',
      origin: 'このアドレスでは本人確認を使えません。',
      unavailable: 'セキュリティキーをつなぐか、スマートフォンのパスキーを使ってください。',
    };
    for (const reason of ['cancelled', 'timeout', 'invalid', 'origin', 'unavailable'] as const) {
      const { session, verifier, storage, consentStore, loader } = await setup();
      verifier.refuse = reason;
      await session.turnOn();
      await settled(session);
      expect(session.getState().status, reason).to.equal('off');
      const error = underSwitch(session);
      // The developer's message is English, the person's sentence the strings' (issue 37).
      expect(session.getState().error, reason).to.match(/^ai-ops: consent refused \(consent\w+\): [ -~]+$/);
      expect(error.startsWith(`${AUTOMATED_NEEDS_VERIFICATION} `), reason).to.equal(true);
      expect(error, reason).to.contain(expected[reason]);
      // In the page's language throughout: no English tail (issue 34).
      expect(error, reason).to.not.match(/\([a-z ]+\)/);
      expect(storage.length, reason).to.equal(0);
      // No receipt; a prompt that gave none is counted towards the rest (UV-16), where one was started.
      expect([...consentStore.values.keys()], reason).to.deep.equal(reason === 'origin' || reason === 'unavailable' ? [] : ['rest:notes']);
      expect(loader.modelContext.tools.size, reason).to.equal(0);
    }
  });

  it('[UV-4] in a person\'s browser the same refusals leave the switch off with the what-to-do sentence alone, no AGENT-3 sentence', async () => {
    for (const reason of ['cancelled', 'timeout', 'origin', 'unavailable'] as const) {
      const { session, verifier, storage } = await setup({ automated: false });
      verifier.refuse = reason;
      await session.turnOn();
      await settled(session);
      expect(session.getState().status, reason).to.equal('off');
      expect(underSwitch(session), reason).to.equal(refusalText(new VerificationRefused(reason, reason), false));
      expect(underSwitch(session), reason).to.not.contain(AUTOMATED_NEEDS_VERIFICATION).and.not.contain('プログラム');
      expect(storage.length, reason).to.equal(0);
    }
  });

  it('[UV-4] where to open the page instead: a loopback address by the name localhost (port, path and query kept); a name over https; another IP address by a name', () => {
    expect(whereToOpen('http://127.0.0.1:8000/sql/?q=1#top')).to.equal('http://localhost:8000/sql/?q=1#top');
    expect(whereToOpen('http://127.0.0.2:9000/')).to.equal('http://localhost:9000/');
    expect(whereToOpen('http://[::1]:8000/go/')).to.equal('http://localhost:8000/go/');
    expect(whereToOpen('http://app.lan:8080/x')).to.equal('https://app.lan:8080/x');
    expect(whereToOpen('http://192.168.1.5:8000/')).to.equal(null);
    const origin = refusalText(new VerificationRefused('origin', 'x'), false, 'http://127.0.0.1:8000/sql/');
    expect(origin).to.equal('このアドレスでは本人確認を使えません。http://localhost:8000/sql/ で開いてください。');
    expect(refusalText(new VerificationRefused('origin', 'x'), true, 'http://127.0.0.1:8000/sql/')).to.equal(`${AUTOMATED_NEEDS_VERIFICATION} ${origin}`);
    // Another machine's address (the playground opened from the LAN): no https on the same address,
    // which cannot hold a credential either; the page knows no name for it, so it says to use one.
    for (const href of ['http://192.168.1.5:8000/sql/', 'https://10.0.0.2/', 'http://[fe80::1]:8000/']) {
      const text = refusalText(new VerificationRefused('origin', 'x'), false, href);
      expect(text, href).to.equal('このアドレスでは本人確認を使えません。IP アドレスではなく、名前のついたアドレス (https://…) で開いてください。');
    }
  });

  it('[UV-4] on an IP-literal origin, with the real verifier, nothing falls back to a click: the switch stays off saying to open http://localhost, in a person\'s browser too', async () => {
    for (const automated of [false, true]) {
      const consentStore = new MemoryConsentStore();
      // The page's own window, seen at http://127.0.0.1:<port> (the hostname is all possible() reads).
      const at = new URL(location.href);
      at.hostname = '127.0.0.1';
      const world = Object.assign(Object.create(null), {
        location: { origin: at.origin, hostname: at.hostname, href: at.href }, isSecureContext: true, PublicKeyCredential: window.PublicKeyCredential,
        navigator: { webdriver: automated, credentials: navigator.credentials }, setTimeout: window.setTimeout.bind(window), clearTimeout: window.clearTimeout.bind(window),
      }) as Window;
      const verifier = createWebAuthnVerifier({ window: world, store: consentStore });
      expect(verifier.applies('notes')).to.equal(true);
      const { session, storage, loader } = await setup({ automated, consentStore, verifier });
      await session.turnOn();
      await settled(session);
      expect(session.getState().status, String(automated)).to.equal('off');
      expect(underSwitch(session), String(automated)).to.contain('このアドレスでは本人確認を使えません。');
      expect(underSwitch(session).includes(AUTOMATED_NEEDS_VERIFICATION), String(automated)).to.equal(automated);
      expect(storage.length).to.equal(0);
      expect(consentStore.values.size).to.equal(0);
      expect(loader.modelContext.tools.size).to.equal(0);
    }
  });

  it('[UV-3] a stored "on" without a receipt (written behind the page, as CDP can) reads as off and is removed', async () => {
    const clock = new FakeClock();
    const storage = new MemoryStorage();
    storage.setItem(permissionKey('notes'), JSON.stringify({ v: 1, enabledUntil: clock.now() + 1000, skipConfirmUntil: null }));
    const { session, loader } = await pageOpened({ clock, storage });
    expect(session.getState().status).to.equal('off');
    expect(underSwitch(session)).to.contain('本人確認');
    expect(storage.getItem(permissionKey('notes'))).to.equal(null);
    expect(loader.modelContext.tools.size).to.equal(0);
  });

  it('[UV-3] [UV-8] a stored "on" with a forged receipt reads as off; a real receipt copied into localStorage counts for nothing; with the one in the consent store it registers', async () => {
    const clock = new FakeClock();
    const storage = new MemoryStorage();
    const consentStore = new MemoryConsentStore();
    const forged = { credentialId: 'cred', authenticatorData: 'ad', clientDataJSON: 'cd', signature: 'forged', description: { kind: 'switch', tool: 'notes' } };
    storage.setItem(permissionKey('notes'), JSON.stringify({ v: 1, enabledUntil: clock.now() + 1000, skipConfirmUntil: null }));
    await consentStore.set(receiptsKey('notes'), { on: forged });
    const first = await pageOpened({ clock, storage, consentStore });
    expect(first.session.getState().status).to.equal('off');
    // Now the user turns it on (verified) and the next page of the same origin reads it back.
    await first.session.turnOn();
    await settled(first.session);
    expect(first.session.getState().status).to.equal('on');
    const stored = storage.getItem(permissionKey('notes'))!;
    const { on } = (await receiptsOf(consentStore))!;
    first.aiOps.dispose();
    const second = await pageOpened({ clock, storage, consentStore, verifier: first.verifier });
    expect(second.session.getState().status).to.equal('on');
    expect(second.loader.modelContext.tools.has('notes_read')).to.equal(true);
    second.aiOps.dispose();
    // A page whose consent store lost its records, with the same receipt written into localStorage
    // (where it used to live, and under the new key's name): off.
    const elsewhere = new MemoryStorage();
    elsewhere.setItem(permissionKey('notes'), stored);
    elsewhere.setItem(`${permissionKey('notes')}:uv`, JSON.stringify({ on }));
    elsewhere.setItem(receiptsKey('notes'), JSON.stringify({ on }));
    const third = await pageOpened({ clock, storage: elsewhere, verifier: first.verifier });
    expect(third.session.getState().status).to.equal('off');
    expect(third.loader.modelContext.tools.size).to.equal(0);
  });

  it('[UV-1] approving a destructive call asks the verifier for that call: its tool, operation, input digest, call id, opening time and the skip it grants', async () => {
    const { aiOps, session, verifier, executed, clock } = await setup();
    await session.turnOn();
    await settled(session);
    const answer = session.call('notes_clear', { why: 'tidy' });
    const request = await dialogRequest(aiOps);
    const openedAt = clock.now();
    expect(request.verification).to.equal('required');
    clock.advance(1500);
    decide(aiOps).approve(request.id, {});
    expect(aiOps.confirmations.getState().current?.status).to.equal('verifying');
    const envelope = JSON.parse(await answer);
    expect(envelope.ok).to.equal(true);
    expect(executed).to.deep.equal([{ why: 'tidy' }]);
    const { description } = verifier.asked[1];
    expect(description).to.deep.equal({
      kind: 'call', origin: verifier.origin, tool: 'notes', operation: 'notes_clear', inputDigest: await inputDigest({ why: 'tidy' }),
      callId: request.id, openedAt, skipFuture: false, skipUntil: null,
    });
    // UV-5: the row keeps the receipt, and the record carries it with the key.
    const row = aiOps.log.getState().entries.at(-1)!;
    expect(row.receipt?.signature).to.equal('sig-2');
    const line = JSON.parse(auditRecord([row], await verifier.enrolled()));
    expect(line.receipt.signature).to.equal('sig-2');
    expect(line.publicKey).to.deep.equal(await verifier.enrolled());
    expect(line.argsTruncated).to.equal(false);
  });

  it('[UV-4] [UV-10] a refused verification declines the call saying why (not the user\'s plain no); nothing executes, the row keeps no receipt', async () => {
    const words: Record<string, RegExp> = {
      cancelled: /user verification was cancelled or failed/,
      timeout: /nobody answered the platform's user verification in time/,
      invalid: /the approval was not verified \(invalid\)/,
      origin: /this page cannot verify its user here \(origin\)/,
      unavailable: /this page cannot verify its user here \(unavailable\)/,
    };
    for (const reason of Object.keys(words) as RefusalReason[]) {
      const { aiOps, session, verifier, executed } = await setup();
      await session.turnOn();
      await settled(session);
      verifier.refuse = reason;
      const answer = session.call('notes_clear', {});
      const request = await dialogRequest(aiOps);
      decide(aiOps).approve(request.id, {});
      const envelope = JSON.parse(await answer);
      expect(envelope.error.code, reason).to.equal('declined');
      expect(envelope.error.message, reason).to.match(words[reason]).and.contain('do not call it again unless the user asks');
      expect(envelope.error.message, reason).to.not.equal(DECLINED);
      expect(executed, reason).to.have.length(0);
      const row = aiOps.log.getState().entries.at(-1)!;
      expect(row.status, reason).to.equal('declined');
      expect(row.receipt, reason).to.equal(null);
    }
  });

  it('[UV-7] やめる while the OS prompt is up declines and aborts the verification; the 50 s include the verification', async () => {
    const { aiOps, session, verifier, executed, clock } = await setup();
    await session.turnOn();
    await settled(session);
    let release!: () => void;
    verifier.hold = new Promise((r) => (release = r));
    const first = session.call('notes_clear', {});
    let request = await dialogRequest(aiOps);
    decide(aiOps).approve(request.id, {});
    expect(aiOps.confirmations.getState().current?.status).to.equal('verifying');
    await until(() => verifier.asked.length === 2);
    decide(aiOps).decline(request.id);
    expect(verifier.asked.at(-1)!.signal!.aborted).to.equal(true);
    expect(JSON.parse(await first).error.code).to.equal('declined');

    // Other input: the same call again would be declined at once for 60 s after the user's no (BATCH-3).
    const second = session.call('notes_clear', { why: 'again' });
    request = await dialogRequest(aiOps);
    decide(aiOps).approve(request.id, {});
    await until(() => verifier.asked.length === 3);
    clock.advance(50_000);
    expect(verifier.asked.at(-1)!.signal!.aborted).to.equal(true);
    expect(JSON.parse(await second).error.code).to.equal('declined');
    release();
    await flush();
    expect(executed).to.have.length(0);
  });

  it('[UV-9] a verified 「今後尋ねない」 signs the skip until the switch period\'s end and skips later dialogs; a skip written into localStorage behind the page skips nothing', async () => {
    const { aiOps, session, storage, consentStore, verifier, executed } = await setup();
    await session.turnOn();
    await settled(session);
    const { enabledUntil } = session.permission.getState();
    // Behind the page's back: the stored value now says "skip" (the switch's receipt stays in the consent store).
    const stored = JSON.parse(storage.getItem(permissionKey('notes'))!);
    storage.setItem(permissionKey('notes'), JSON.stringify({ ...stored, skipConfirmUntil: stored.enabledUntil }));
    const forged = session.call('notes_clear', {});
    const request = await dialogRequest(aiOps);
    expect(request.name).to.equal('notes_clear');
    decide(aiOps).approve(request.id, { skipFuture: true });
    expect(JSON.parse(await forged).ok).to.equal(true);
    expect(verifier.asked[1].description).to.include({ kind: 'call', skipFuture: true, skipUntil: enabledUntil });
    const { skip } = (await receiptsOf(consentStore))!;
    expect(skip!.signature).to.equal('sig-2');
    // Now the skip was verified: no dialog.
    expect(JSON.parse(await session.call('notes_clear', {})).ok).to.equal(true);
    expect(executed).to.have.length(2);
    expect(verifier.asked).to.have.length(2);
  });

  it('[UV-9] no other receipt stands in for a skip: the switch receipt stored as the skip, or handed to keepSkip, skips nothing; the real skip does (next page)', async () => {
    const { aiOps, session, storage, consentStore, verifier, clock } = await setup();
    await session.turnOn();
    await settled(session);
    const call = session.call('notes_clear', {});
    decide(aiOps).approve((await dialogRequest(aiOps)).id, { skipFuture: true });
    expect(JSON.parse(await call).ok).to.equal(true);
    const { on, skip } = (await receiptsOf(consentStore))!;
    // The gate as a unit over this page's store and verifier (the runtime lends its own to nobody).
    const consent = createConsentGate({ verifier, clock, store: consentStore, automated: false });
    aiOps.dispose();

    /** Opens the next page with `receipts` in the consent store; true when a notes_clear there ran with no dialog. */
    const skipsOnNextPage = async (receipts: StoredReceipts) => {
      await consentStore.set(receiptsKey('notes'), receipts);
      const page = await setup({ clock, storage, consentStore, verifier });
      await settled(page.session);
      expect(page.session.getState().status).to.equal('on');
      const answer = page.session.call('notes_clear', {});
      let shown = false;
      for (let i = 0; i < 200; i++) {
        await flush();
        if (page.aiOps.confirmations.getState().current) {
          shown = true;
          decide(page.aiOps).decline(page.aiOps.confirmations.getState().current!.id);
          break;
        }
      }
      const envelope = JSON.parse(await answer);
      page.aiOps.dispose();
      expect(envelope.ok).to.equal(!shown);
      return !shown;
    };
    expect(JSON.parse(storage.getItem(permissionKey('notes'))!).skipConfirmUntil).to.be.a('number');
    expect(await skipsOnNextPage({ on, skip: on })).to.equal(false);
    expect(await skipsOnNextPage({ on, skip: { ...on!, description: { ...on!.description, skipFuture: true } as never } })).to.equal(false);
    expect(await skipsOnNextPage({ on })).to.equal(false);
    expect(await skipsOnNextPage({ on, skip })).to.equal(true);
    // In the page itself: keepSkip refuses the switch receipt.
    await consent.forget('notes');
    expect(consent.trustsSkip('notes')).to.equal(false);
    await consent.keepSkip('notes', on!);
    expect(consent.trustsSkip('notes')).to.equal(false);
    expect(await receiptsOf(consentStore)).to.equal(undefined);
  });

  it('[UV-9] a skip from an earlier switch period skips nothing in the next, even put back beside the new period\'s receipt', async () => {
    const { aiOps, session, storage, consentStore, verifier, clock } = await setup();
    await session.turnOn();
    await settled(session);
    const call = session.call('notes_clear', {});
    decide(aiOps).approve((await dialogRequest(aiOps)).id, { skipFuture: true });
    expect(JSON.parse(await call).ok).to.equal(true);
    const earlier = (await receiptsOf(consentStore))!.skip!;
    clock.advance(1000);
    session.turnOff();
    await session.turnOn();
    await settled(session);
    const { enabledUntil } = session.permission.getState();
    expect(enabledUntil).to.not.equal((earlier.description as { skipUntil: number }).skipUntil);
    // In this page: the new period asks again.
    const next = session.call('notes_clear', { why: 'new period' });
    const request = await dialogRequest(aiOps);
    decide(aiOps).decline(request.id);
    expect(JSON.parse(await next).error.code).to.equal('declined');
    aiOps.dispose();
    // The next page, with the old skip put back and the stored value saying "skip": still a dialog.
    await consentStore.set(receiptsKey('notes'), { ...(await receiptsOf(consentStore)), skip: earlier });
    storage.setItem(permissionKey('notes'), JSON.stringify({ v: 1, enabledUntil, skipConfirmUntil: enabledUntil }));
    const page = await setup({ clock, storage, consentStore, verifier });
    await settled(page.session);
    expect(page.session.getState().status).to.equal('on');
    const asked = page.session.call('notes_clear', {});
    const shown = await dialogRequest(page.aiOps);
    expect(shown.name).to.equal('notes_clear');
    decide(page.aiOps).decline(shown.id);
    expect(JSON.parse(await asked).error.code).to.equal('declined');
  });

  it('[UV-8] turning the switch off removes its receipts: here, in another tab (storage event), and at the end of its 7 days (injected clock)', async () => {
    const { session, storage, consentStore, clock } = await setup();
    const turnedOn = async () => {
      await session.turnOn();
      await settled(session);
      expect(session.getState().status).to.equal('on');
      expect((await receiptsOf(consentStore))?.on).to.not.equal(undefined);
    };
    await turnedOn();
    session.turnOff();
    await until(() => !consentStore.values.has(receiptsKey('notes')));
    await turnedOn();
    anotherTabWrote(storage, permissionKey('notes'), null);
    await until(() => session.getState().status === 'off');
    await until(() => !consentStore.values.has(receiptsKey('notes')));
    await turnedOn();
    clock.advance(SWITCH_TTL_MS - 1);
    await flush();
    expect(consentStore.values.has(receiptsKey('notes'))).to.equal(true);
    clock.advance(1);
    await until(() => session.getState().status === 'off');
    await until(() => !consentStore.values.has(receiptsKey('notes')));
  });

  it('[UV-8] a stored "on" written back after an off (the value and its receipt, into localStorage) turns nothing on, in this page or the next', async () => {
    const { session, storage, consentStore, verifier, clock, loader } = await setup();
    await session.turnOn();
    await settled(session);
    const value = storage.getItem(permissionKey('notes'))!;
    const receipts = await receiptsOf(consentStore);
    session.turnOff();
    await until(() => !consentStore.values.has(receiptsKey('notes')));
    // A program that writes only storage puts both back where it can write: this page hears of it as another tab's write.
    storage.setItem(`${permissionKey('notes')}:uv`, JSON.stringify(receipts));
    anotherTabWrote(storage, permissionKey('notes'), value);
    await flush();
    await settled(session);
    expect(session.getState().status).to.equal('off');
    expect(underSwitch(session)).to.contain('本人確認の記録がない');
    expect(loader.modelContext.tools.size).to.equal(0);
    expect(storage.getItem(permissionKey('notes'))).to.equal(null);
    storage.setItem(permissionKey('notes'), value);
    const next = await pageOpened({ clock, storage, consentStore, verifier });
    expect(next.session.getState().status).to.equal('off');
    expect(next.loader.modelContext.tools.size).to.equal(0);
  });

  it('[UV-10] two refusals in a row for a tool: its next call is declined at once, no dialog, saying so with retryAfterMs; its switch-on is refused; after 60 s it prompts again', async () => {
    const { aiOps, session, verifier, clock, executed } = await setup();
    await session.turnOn();
    await settled(session);
    expect(REFUSALS_BEFORE_COOLDOWN).to.equal(2);
    expect(COOLDOWN_MS).to.equal(60_000);
    verifier.refuse = 'cancelled';
    for (const why of ['one', 'two']) {
      const answer = session.call('notes_clear', { why });
      decide(aiOps).approve((await dialogRequest(aiOps)).id, {});
      expect(JSON.parse(await answer).error.code).to.equal('declined');
    }
    expect(verifier.asked).to.have.length(3);
    verifier.refuse = null;
    clock.advance(10_000);
    let shown = 0;
    const unsubscribe = aiOps.confirmations.subscribe(() => { if (aiOps.confirmations.getState().current) shown++; });
    const third = JSON.parse(await session.call('notes_clear', { why: 'three' }));
    expect(third.error.code).to.equal('declined');
    expect(third.error.message).to.contain('did not complete twice in a row').and.contain('50 s').and.contain('do not call it again unless the user asks');
    expect(third.retryAfterMs).to.equal(COOLDOWN_MS - 10_000);
    expect(shown).to.equal(0);
    expect(verifier.asked).to.have.length(3);
    expect(aiOps.log.getState().entries.at(-1)!.status).to.equal('declined');
    // A read that needs no confirmation still runs.
    expect(JSON.parse(await session.call('notes_read', {})).ok).to.equal(true);
    // The switch-on rests too: refused with its own words, no prompt.
    session.turnOff();
    await session.turnOn();
    await settled(session);
    expect(session.getState().status).to.equal('off');
    expect(underSwitch(session)).to.contain('本人確認が続けて完了しなかったため、50 秒のあいだ本人確認を求めません。');
    expect(verifier.asked).to.have.length(3);
    // 60 s after the second refusal: the switch-on and the dialog ask again.
    clock.advance(COOLDOWN_MS - 10_000);
    await session.turnOn();
    await settled(session);
    expect(session.getState().status).to.equal('on');
    const fourth = session.call('notes_clear', { why: 'four' });
    decide(aiOps).approve((await dialogRequest(aiOps)).id, {});
    expect(JSON.parse(await fourth).ok).to.equal(true);
    expect(shown).to.be.greaterThan(0);
    expect(executed).to.deep.equal([{ why: 'four' }]);
    unsubscribe();
  });

  it('[UV-10] [SAFE-5] [UV-16] a verification the page ends (the switch turned off while it waits, やめる while approving) counts as a no: two in a row start the rest, for the switch-on and for the approvals', async () => {
    const { aiOps, session, verifier, clock } = await setup();
    let release = () => {};
    // Two switch-ons, each turned off while its verification waits (SAFE-5's quick on/off): off, and counted.
    for (let i = 0; i < 2; i++) {
      verifier.hold = new Promise<void>((resolve) => (release = resolve));
      const turning = session.turnOn();
      await flush();
      session.turnOff();
      release();
      await turning;
      expect(session.getState().status).to.equal('off');
    }
    verifier.hold = null;
    // The third switch-on asks nothing: the tool rests, and the switch says so.
    await session.turnOn();
    await settled(session);
    expect(session.getState().status).to.equal('off');
    expect(underSwitch(session)).to.contain('本人確認が続けて完了しなかったため、60 秒のあいだ本人確認を求めません。');
    expect(verifier.asked).to.have.length(2);
    clock.advance(COOLDOWN_MS);
    await session.turnOn();
    await settled(session);
    expect(session.getState().status, String(session.getState().error)).to.equal('on');
    // Two approvals ended by やめる while the device is asked.
    for (const why of ['a', 'b']) {
      verifier.hold = new Promise<void>((resolve) => (release = resolve));
      const answer = session.call('notes_clear', { why });
      const request = await dialogRequest(aiOps);
      decide(aiOps).approve(request.id, {});
      await flush();
      decide(aiOps).decline(request.id);
      release();
      expect(JSON.parse(await answer).error.code).to.equal('declined');
    }
    verifier.hold = null;
    // Resting again, answered at once with no dialog; 60 s, as the verified switch-on in between
    // started the series again (the longer rests: consent-rest.test.ts).
    const third = JSON.parse(await session.call('notes_clear', { why: 'c' }));
    expect(third.error.message).to.contain('twice in a row');
    expect(third.retryAfterMs).to.equal(COOLDOWN_MS);
    expect(verifier.asked).to.have.length(5);
  });

  it('[UV-10] the rest counts refusals in a row per tool: a verified one in between starts again, a user\'s plain no does not count, another tool is not resting', async () => {
    const { aiOps, session, verifier } = await setup();
    const other = aiOps.provideOperations('memo', [
      defineOperation({
        name: 'memo_clear', description: 'Clears.', inputSchema: { type: 'object', properties: {}, additionalProperties: false },
        confirmation: () => ({ title: 'Clear?', summary: 'Clears the memo.', actionLabel: '消去する' }), execute: async () => succeed({ cleared: true }),
      }),
    ]);
    for (const s of [session, other]) {
      await s.turnOn();
      await settled(s);
    }
    /** One call of `tool`'s clearing operation, approved (or declined) as told; its envelope. */
    const once = async (s: ToolSession, name: string, press: 'approve' | 'decline', why: string) => {
      const answer = s.call(name, name === 'notes_clear' ? { why } : {});
      const request = await dialogRequest(aiOps);
      if (press === 'approve') decide(aiOps).approve(request.id, {});
      else decide(aiOps).decline(request.id);
      return JSON.parse(await answer);
    };
    verifier.refuse = 'timeout';
    expect((await once(session, 'notes_clear', 'approve', 'a')).error.code).to.equal('declined');
    verifier.refuse = null;
    expect((await once(session, 'notes_clear', 'approve', 'b')).ok).to.equal(true);
    verifier.refuse = 'timeout';
    expect((await once(session, 'notes_clear', 'approve', 'c')).error.code).to.equal('declined');
    // The user's own no asks nothing and is not a refusal of the device.
    expect((await once(session, 'notes_clear', 'decline', 'd')).error.code).to.equal('declined');
    verifier.refuse = null;
    expect((await once(session, 'notes_clear', 'approve', 'e')).ok).to.equal(true);
    // Two in a row for notes: notes rests, memo does not.
    verifier.refuse = 'cancelled';
    await once(session, 'notes_clear', 'approve', 'f');
    await once(session, 'notes_clear', 'approve', 'g');
    verifier.refuse = null;
    expect(JSON.parse(await session.call('notes_clear', { why: 'h' })).error.message).to.contain('twice in a row');
    expect((await once(other, 'memo_clear', 'approve', '')).ok).to.equal(true);
  });

  it('[UV-11] what is shown, signed, prepared, executed and logged is the input as the call arrived: the caller changing its object afterwards changes none of it (page and agent paths)', async () => {
    const { aiOps, session, verifier, executed, loader } = await setup();
    await session.turnOn();
    await settled(session);
    const original = { text: 'keep me', lines: ['one', 'two'] };
    const paths = {
      page: (input: unknown) => session.call('notes_write', input),
      agent: async (input: unknown) => JSON.stringify(await loader.modelContext.execute('notes_write', input)),
    };
    for (const [path, send] of Object.entries(paths)) {
      executed.length = 0;
      const input = structuredClone(original);
      const answer = send(input);
      // At once, in the same task as the agent's call... (The page's own session.call reaches the
      // call path, where the copy is taken, after one hop: loading it. A change made in that hop
      // still counts there; closing it in tool-session.ts costs PKG-4 bytes it does not have.)
      if (path === 'agent') {
        input.text = 'changed at once';
        input.lines.push('three');
      }
      const request = await dialogRequest(aiOps);
      // ...and while the dialog waits.
      input.text = 'changed while shown';
      input.lines[0] = 'zero';
      expect(request.content.title, path).to.equal('「keep me」を書く');
      expect(request.content.summary, path).to.equal('one/two');
      decide(aiOps).approve(request.id, {});
      await answer;
      expect(verifier.asked.at(-1)!.description, path).to.include({ kind: 'call', operation: 'notes_write', inputDigest: await inputDigest(original) });
      expect(executed, path).to.deep.equal([original]);
      const row = aiOps.log.getState().entries.at(-1)!;
      expect(row.status, path).to.equal('success');
      expect(JSON.parse(row.args.text), path).to.deep.equal(original);
    }
  });

  it('[UV-11] an input that cannot be copied (a function inside) answers invalid_input and asks nothing', async () => {
    const { session, verifier, executed } = await setup();
    await session.turnOn();
    await settled(session);
    const envelope = JSON.parse(await session.call('notes_write', { text: 'x', lines: [(() => 'y') as unknown as string] }));
    expect(envelope.ok).to.equal(false);
    expect(envelope.error.code).to.equal('invalid_input');
    expect(envelope.error.message).to.contain('cannot be copied');
    expect(verifier.asked).to.have.length(1);
    expect(executed).to.have.length(0);
  });

  it('[UV-1] turning off, declining and undo never ask', async () => {
    const { aiOps, session, verifier } = await setup();
    await session.turnOn();
    await settled(session);
    const call = session.call('notes_clear', {});
    const request = await dialogRequest(aiOps);
    decide(aiOps).decline(request.id);
    await call;
    session.turnOff();
    expect(verifier.asked.map((a) => a.description.kind)).to.deep.equal(['switch']);
  });

  it('[UV-2] consent: click is the page author\'s opt-out: no verification, the request says none is required', async () => {
    const { aiOps, session, verifier } = await setup({ consent: 'click', automated: false });
    verifier.applying = false;
    await session.turnOn();
    await settled(session);
    const call = session.call('notes_clear', {});
    const request = await dialogRequest(aiOps);
    expect(request.verification).to.equal(undefined);
    decide(aiOps).approve(request.id, {});
    expect(JSON.parse(await call).ok).to.equal(true);
    expect(verifier.asked).to.have.length(0);
  });

  it('[UV-2] in a person\'s browser (automated false) with the default consent and the real verifier: the switch-on enrols and verifies, every approval is verified, no offer', async () => {
    const device = await addDevice();
    const consentStore = new MemoryConsentStore();
    const { aiOps, session, executed } = await setup({ automated: false, consentStore, verifier: createWebAuthnVerifier({ store: consentStore, timeoutMs: 5000 }) });
    await session.turnOn();
    await settled(session);
    expect(session.getState().status).to.equal('on');
    expect(consentStore.values.get(ENROLMENT_KEY)).to.have.keys(['v', 'credentialId', 'alg', 'spki']);
    expect((await receiptsOf(consentStore))!.on!.description).to.include({ kind: 'switch', tool: 'notes' });
    const signCount = async () => ((await executeServerCommand('webauthn', { action: 'credentials', authenticatorId: device })) as { credentials: { signCount: number }[] }).credentials.map((c) => c.signCount);
    const [afterSwitch, ...more] = await signCount();
    expect(more).to.deep.equal([]);
    const answer = session.call('notes_clear', { why: 'person' });
    const request = await dialogRequest(aiOps);
    expect(request.verification).to.equal('required');
    decide(aiOps).approve(request.id, {});
    expect(JSON.parse(await answer).ok).to.equal(true);
    expect(executed).to.deep.equal([{ why: 'person' }]);
    expect(aiOps.log.getState().entries.at(-1)!.receipt!.description).to.include({ kind: 'call', operation: 'notes_clear' });
    expect(await signCount()).to.deep.equal([afterSwitch + 1]); // the approval asserted the enrolled credential
  });

  it('[UV-8] deleting the enrolment (real verifier) makes a stored "on" read as off on the next page, and the next switch-on enrols again, verified', async () => {
    const device = await addDevice();
    const clock = new FakeClock(Date.now());
    const storage = new MemoryStorage();
    const consentStore = new MemoryConsentStore();
    const first = await setup({ clock, storage, consentStore, verifier: createWebAuthnVerifier({ store: consentStore, timeoutMs: 5000 }) });
    await first.session.turnOn();
    await settled(first.session);
    expect(first.session.getState().status, String(first.session.getState().error)).to.equal('on');
    const key = consentStore.values.get(ENROLMENT_KEY) as { credentialId: string };
    first.aiOps.dispose();
    // CDP's IndexedDB domain (or clearing site data) can delete; it cannot put.
    await consentStore.delete(ENROLMENT_KEY);
    // A later moment (the same one would be the same switch description, which a page signs once).
    clock.advance(1000);
    const verifier = createWebAuthnVerifier({ store: consentStore, timeoutMs: 5000 });
    const second = await pageOpened({ clock, storage, consentStore, verifier });
    expect(second.session.getState().status).to.equal('off');
    expect(second.loader.modelContext.tools.size).to.equal(0);
    await second.session.turnOn();
    await settled(second.session);
    expect(second.session.getState().status, String(second.session.getState().error)).to.equal('on');
    const again = consentStore.values.get(ENROLMENT_KEY) as { credentialId: string };
    expect(again.credentialId).to.not.equal(key.credentialId);
    const { credentials } = (await executeServerCommand('webauthn', { action: 'credentials', authenticatorId: device })) as { credentials: unknown[] };
    expect(credentials).to.have.length(2);
  });

  it('[UV-8] the runtime\'s default consent store is IndexedDB: the receipts land there, not in localStorage, and go with the switch-off', async () => {
    await addDevice();
    const storage = new MemoryStorage();
    const aiOps = createAiOps({ clock: new FakeClock(Date.now()), storage, loader: new FakeLoader(), embedded: false, browserModelContext: null, autoReconnect: false, assetsBase: '/vendor/', verificationTimeoutMs: 5000 });
    try {
      const session = aiOps.provideOperations('notes', [
        defineOperation({ name: 'notes_read', description: 'Reads.', inputSchema: { type: 'object', properties: {}, additionalProperties: false }, annotations: { readOnlyHint: true }, execute: async () => succeed({}) }),
      ]);
      await session.turnOn();
      await settled(session);
      expect(session.getState().status).to.equal('on');
      const records = await readConsentDatabase();
      // UV-14: beside the records, the page's own non-extractable key; each record kept with its tag.
      expect(Object.keys(records).sort()).to.deep.equal([ANCHOR_KEY, ENROLMENT_KEY, receiptsKey('notes')]);
      expect(records[ANCHOR_KEY]).to.be.instanceOf(CryptoKey);
      expect((records[receiptsKey('notes')] as AnchoredRecord).tag).to.be.a('string');
      expect(((records[receiptsKey('notes')] as AnchoredRecord).anchored as StoredReceipts).on!.description).to.include({ kind: 'switch', tool: 'notes' });
      expect(storage.length).to.equal(1);
      session.turnOff();
      for (let i = 0; i < 100 && receiptsKey('notes') in await readConsentDatabase(); i++) await flush();
      expect(Object.keys(await readConsentDatabase()).sort()).to.deep.equal([ANCHOR_KEY, ENROLMENT_KEY]);
    } finally {
      aiOps.dispose();
      await deleteConsentDatabase();
    }
  });
});
