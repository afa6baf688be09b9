// Verified consent through the runtime (UV-1..UV-4, UV-7): the switch-on, the stored "on", the
// dialog's approval and the skip choice, each asking the page's verifier where it applies. The
// verifier here is a stand-in that records what it was asked and answers as told: the real one
// (WebAuthn with a CDP virtual authenticator) is proven in user-verifier.test.ts and end to end.
import { expect } from '@open-wc/testing';
import { createAiOps, type AiOpsOptions } from '../../src/runtime.js';
import { defineOperation } from '../../src/definition.js';
import { succeed } from '../../src/result.js';
import { permissionKey, PERMISSION_TTL_MS } from '../../src/permission-store.js';
import { inputDigest, type ConsentDescription, type Receipt } from '../../src/consent-proof.js';
import { VerificationRefused, type RefusalReason, type UserVerifier } from '../../src/user-verifier.js';
import { AUTOMATED_NEEDS_VERIFICATION, receiptsKey, switchKey, SWITCH_TTL_MS } from '../../src/consent-gate.js';
import { auditRecord } from '../../src/audit-export.js';
import type { ToolSession } from '../../src/tool-session.js';
import { FakeClock, FakeLoader, MemoryStorage, flush } from './helpers.js';

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
  enrolled = () => (this.made.size ? { credentialId: 'cred', alg: -7, spki: 'key' } : null);
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

async function setup(extra: Partial<AiOpsOptions> = {}) {
  const clock = new FakeClock();
  const storage = new MemoryStorage();
  const loader = new FakeLoader();
  const verifier = new ScriptedVerifier();
  const executed: unknown[] = [];
  const aiOps = createAiOps({
    clock, storage, loader, embedded: false, browserModelContext: null, autoReconnect: false, assetsBase: '/vendor/', verifier, automated: true, ...extra,
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
  ];
  const session = aiOps.provideOperations('notes', definitions);
  return { aiOps, clock, storage, loader, verifier, executed, session };
}

const settled = async (session: ToolSession) => {
  for (let i = 0; i < 500 && session.getState().status === 'starting'; i++) await new Promise((r) => setTimeout(r, 10));
};

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
  it('[UV-3] the gate writes the switch record under PERM-1\'s key with PERM-2\'s 7 days, as the permission store reads it', () => {
    expect(switchKey('notes')).to.equal(permissionKey('notes'));
    expect(SWITCH_TTL_MS).to.equal(PERMISSION_TTL_MS);
  });

  it('[UV-1] a switch-on where verification applies asks once, bound to the tool and the new enabledUntil, and stores the receipt with the on', async () => {
    const { session, verifier, storage, clock } = await setup();
    await session.turnOn();
    await settled(session);
    expect(session.getState().status).to.equal('on');
    expect(verifier.asked).to.have.length(1);
    const { description } = verifier.asked[0];
    expect(description).to.deep.equal({ kind: 'switch', origin: verifier.origin, tool: 'notes', enabledUntil: clock.now() + PERMISSION_TTL_MS });
    const stored = JSON.parse(storage.getItem(permissionKey('notes'))!);
    // PERM-1's record, with the very enabledUntil the receipt binds; the receipt beside it.
    expect(stored).to.deep.equal({ v: 1, enabledUntil: description.kind === 'switch' && description.enabledUntil, skipConfirmUntil: null });
    expect(JSON.parse(storage.getItem(receiptsKey('notes'))!).on.signature).to.equal('sig-1');
  });

  it('[UV-1] where it does not apply, the switch turns on at once with no verification', async () => {
    const { session, verifier, storage } = await setup();
    verifier.applying = false;
    await session.turnOn();
    await settled(session);
    expect(session.getState().status).to.equal('on');
    expect(verifier.asked).to.have.length(0);
    expect(storage.getItem(receiptsKey('notes'))).to.equal(null);
  });

  it('[UV-4] a refused verification under automation leaves the switch off, says why in plain words, and stores nothing', async () => {
    for (const reason of ['cancelled', 'origin', 'unavailable'] as const) {
      const { session, verifier, storage, loader } = await setup();
      verifier.refuse = reason;
      await session.turnOn();
      await settled(session);
      expect(session.getState().status, reason).to.equal('off');
      expect(session.getState().error, reason).to.contain(AUTOMATED_NEEDS_VERIFICATION);
      expect(storage.getItem(permissionKey('notes')), reason).to.equal(null);
      expect(loader.modelContext.tools.size, reason).to.equal(0);
    }
  });

  it('[UV-4] the origin reason tells the user to open the page by name, not by IP address', async () => {
    const { session, verifier } = await setup({ automated: false });
    verifier.refuse = 'origin';
    await session.turnOn();
    expect(session.getState().error).to.contain('localhost').and.not.contain(AUTOMATED_NEEDS_VERIFICATION);
  });

  it('[UV-3] a stored "on" without a receipt (written behind the page, as CDP can) reads as off and is removed', async () => {
    const clock = new FakeClock();
    const storage = new MemoryStorage();
    storage.setItem(permissionKey('notes'), JSON.stringify({ v: 1, enabledUntil: clock.now() + 1000, skipConfirmUntil: null }));
    const { session, loader } = await setup({ clock, storage });
    await flush();
    await settled(session);
    expect(session.getState().status).to.equal('off');
    expect(session.getState().error).to.contain('本人確認');
    expect(storage.getItem(permissionKey('notes'))).to.equal(null);
    expect(loader.modelContext.tools.size).to.equal(0);
  });

  it('[UV-3] a stored "on" with a forged receipt reads as off; with the one this origin signed it registers', async () => {
    const clock = new FakeClock();
    const storage = new MemoryStorage();
    const forged = { credentialId: 'cred', authenticatorData: 'ad', clientDataJSON: 'cd', signature: 'forged', description: { kind: 'switch', tool: 'notes' } };
    storage.setItem(permissionKey('notes'), JSON.stringify({ v: 1, enabledUntil: clock.now() + 1000, skipConfirmUntil: null }));
    storage.setItem(receiptsKey('notes'), JSON.stringify({ on: forged }));
    const first = await setup({ clock, storage });
    await flush();
    await settled(first.session);
    expect(first.session.getState().status).to.equal('off');
    // Now the user turns it on (verified) and the next page of the same origin reads it back.
    await first.session.turnOn();
    await settled(first.session);
    expect(first.session.getState().status).to.equal('on');
    first.aiOps.dispose();
    const second = await setup({ clock, storage, verifier: first.verifier });
    await flush();
    await settled(second.session);
    expect(second.session.getState().status).to.equal('on');
    expect(second.loader.modelContext.tools.has('notes_read')).to.equal(true);
  });

  it('[UV-1] approving a destructive call asks the verifier for that call: its tool, operation, input digest, call id and opening time', async () => {
    const { aiOps, session, verifier, executed, clock } = await setup();
    await session.turnOn();
    await settled(session);
    const answer = session.call('notes_clear', { why: 'tidy' });
    const request = await dialogRequest(aiOps);
    const openedAt = clock.now();
    expect(request.verification).to.equal('required');
    clock.advance(1500);
    aiOps.confirmations.approve(request.id, {});
    expect(aiOps.confirmations.getState().current?.status).to.equal('verifying');
    const envelope = JSON.parse(await answer);
    expect(envelope.ok).to.equal(true);
    expect(executed).to.deep.equal([{ why: 'tidy' }]);
    const { description } = verifier.asked[1];
    expect(description).to.deep.equal({
      kind: 'call', origin: verifier.origin, tool: 'notes', operation: 'notes_clear', inputDigest: await inputDigest({ why: 'tidy' }),
      callId: request.id, openedAt, skipFuture: false,
    });
    // UV-5: the row keeps the receipt, and the record carries it with the key.
    const row = aiOps.log.getState().entries.at(-1)!;
    expect(row.receipt?.signature).to.equal('sig-2');
    const line = JSON.parse(auditRecord([row], verifier.enrolled()));
    expect(line.receipt.signature).to.equal('sig-2');
    expect(line.publicKey).to.deep.equal(verifier.enrolled());
    expect(line.argsTruncated).to.equal(false);
  });

  it('[UV-4] a refused verification declines the call: nothing executes', async () => {
    const { aiOps, session, verifier, executed } = await setup();
    await session.turnOn();
    await settled(session);
    verifier.refuse = 'cancelled';
    const answer = session.call('notes_clear', {});
    const request = await dialogRequest(aiOps);
    aiOps.confirmations.approve(request.id, {});
    const envelope = JSON.parse(await answer);
    expect(envelope.error.code).to.equal('declined');
    expect(executed).to.have.length(0);
    expect(aiOps.log.getState().entries.at(-1)!.receipt).to.equal(null);
  });

  it('[UV-7] やめる while the OS prompt is up declines and aborts the verification; the 50 s include the verification', async () => {
    const { aiOps, session, verifier, executed, clock } = await setup();
    await session.turnOn();
    await settled(session);
    let release!: () => void;
    verifier.hold = new Promise((r) => (release = r));
    const first = session.call('notes_clear', {});
    let request = await dialogRequest(aiOps);
    aiOps.confirmations.approve(request.id, {});
    expect(aiOps.confirmations.getState().current?.status).to.equal('verifying');
    await until(() => verifier.asked.length === 2);
    aiOps.confirmations.decline(request.id);
    expect(verifier.asked.at(-1)!.signal!.aborted).to.equal(true);
    expect(JSON.parse(await first).error.code).to.equal('declined');

    // Other input: the same call again would be declined at once for 60 s after the user's no (BATCH-3).
    const second = session.call('notes_clear', { why: 'again' });
    request = await dialogRequest(aiOps);
    aiOps.confirmations.approve(request.id, {});
    await until(() => verifier.asked.length === 3);
    clock.advance(50_000);
    expect(verifier.asked.at(-1)!.signal!.aborted).to.equal(true);
    expect(JSON.parse(await second).error.code).to.equal('declined');
    release();
    await flush();
    expect(executed).to.have.length(0);
  });

  it('[UV-3] a verified 「今後尋ねない」 skips later dialogs; a skip written into storage behind the page skips nothing', async () => {
    const { aiOps, session, storage, executed } = await setup();
    await session.turnOn();
    await settled(session);
    // Behind the page's back: the stored value now says "skip" (the switch's receipt still beside it).
    const stored = JSON.parse(storage.getItem(permissionKey('notes'))!);
    storage.setItem(permissionKey('notes'), JSON.stringify({ ...stored, skipConfirmUntil: stored.enabledUntil }));
    const forged = session.call('notes_clear', {});
    const request = await dialogRequest(aiOps);
    expect(request.name).to.equal('notes_clear');
    aiOps.confirmations.approve(request.id, { skipFuture: true });
    expect(JSON.parse(await forged).ok).to.equal(true);
    expect(JSON.parse(storage.getItem(receiptsKey('notes'))!).skip.description.skipFuture).to.equal(true);
    // Now the skip was verified: no dialog.
    expect(JSON.parse(await session.call('notes_clear', {})).ok).to.equal(true);
    expect(executed).to.have.length(2);
  });

  it('[UV-1] turning off, declining and undo never ask', async () => {
    const { aiOps, session, verifier } = await setup();
    await session.turnOn();
    await settled(session);
    const call = session.call('notes_clear', {});
    const request = await dialogRequest(aiOps);
    aiOps.confirmations.decline(request.id);
    await call;
    session.turnOff();
    expect(verifier.asked.map((a) => a.description.kind)).to.deep.equal(['switch']);
  });

  it('[UV-2] in a person\'s browser without enrolment the dialog offers protection; taking it verifies that approval', async () => {
    const { aiOps, session, verifier, executed } = await setup({ automated: false });
    verifier.applying = false;
    await session.turnOn();
    await settled(session);
    const plain = session.call('notes_clear', {});
    let request = await dialogRequest(aiOps);
    expect(request.verification).to.equal('offered');
    aiOps.confirmations.approve(request.id, {});
    expect(JSON.parse(await plain).ok).to.equal(true);
    expect(verifier.asked).to.have.length(0);
    const protectedCall = session.call('notes_clear', {});
    request = await dialogRequest(aiOps);
    aiOps.confirmations.approve(request.id, { protect: true });
    expect(JSON.parse(await protectedCall).ok).to.equal(true);
    expect(verifier.asked.map((a) => a.description.kind)).to.deep.equal(['call']);
    expect(executed).to.have.length(2);
  });

  it('[UV-2] consent: click is the page author\'s opt-out: no offer and no verification', async () => {
    const { aiOps, session, verifier } = await setup({ consent: 'click', automated: false });
    verifier.applying = false;
    await session.turnOn();
    await settled(session);
    const call = session.call('notes_clear', {});
    const request = await dialogRequest(aiOps);
    expect(request.verification).to.equal(undefined);
    aiOps.confirmations.approve(request.id, {});
    expect(JSON.parse(await call).ok).to.equal(true);
  });
});
