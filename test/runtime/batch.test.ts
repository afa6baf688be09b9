// Many waiting calls, one decision (BATCH-2..BATCH-4) through the runtime: 「すべて承認」 and
// 「すべてやめる」 on the queue, one verification binding the set, the 60 s memory of the user's no.
// The verifier records what it was asked and answers as told: the real one (WebAuthn with a CDP
// virtual authenticator) is proven with the dialog in test/elements/ai-ops-confirm-batch.test.ts.
import { expect } from '@open-wc/testing';
import { createAiOps } from '../../src/runtime.js';
import { defineOperation } from '../../src/definition.js';
import { fail, succeed } from '../../src/result.js';
import { canonicalJson, descriptionDigest, inputDigest, type ConsentDescription, type Receipt } from '../../src/consent-proof.js';
import { VerificationRefused, type UserVerifier } from '../../src/user-verifier.js';
import { CONFIRMATION_DEADLINE_MS, REFUSAL_MEMORY_MS } from '../../src/confirmation-queue.js';
import { auditRecord } from '../../src/audit-export.js';
import { FakeClock, FakeLoader, MemoryConsentStore, MemoryStorage, decide, flush } from './helpers.js';

/** A verifier that applies (a program drives the browser), signs anything, and records each request. */
class RecordingVerifier implements UserVerifier {
  readonly origin = 'http://localhost:8000';
  refuse = false;
  hold: Promise<void> | null = null;
  asked: ConsentDescription[] = [];
  applies = () => true;
  possible = () => true;
  enrolled = async () => ({ credentialId: 'cred', alg: -7, spki: 'key' });
  async verify(description: ConsentDescription, signal?: AbortSignal): Promise<Receipt> {
    this.asked.push(description);
    if (this.hold) await this.hold;
    if (signal?.aborted) throw new VerificationRefused('aborted', 'aborted');
    if (this.refuse) throw new VerificationRefused('cancelled', 'cancelled');
    return { credentialId: 'cred', authenticatorData: 'ad', clientDataJSON: 'cd', signature: `sig-${this.asked.length}`, description };
  }
  check = async () => true;
  unenrol = async () => {};
  fingerprint = async () => '3f2a';
}

async function setup({ verified = true } = {}) {
  const clock = new FakeClock();
  const verifier = new RecordingVerifier();
  const aiOps = createAiOps({
    clock, storage: new MemoryStorage(), consentStore: new MemoryConsentStore(), loader: new FakeLoader(), embedded: false, browserModelContext: null, autoReconnect: false,
    assetsBase: '/vendor/', automated: true, ...(verified ? { verifier } : { verifier: null, consent: 'click' as const }),
  });
  /** What ran, in order: `start <path>` / `end <path>` (execute), `prepare <path>`. */
  const events: string[] = [];
  /** Paths whose second prepare (after approval) fails: the file changed while the dialog was up. */
  const changed = new Set<string>();
  const session = aiOps.provideOperations('files', [
    defineOperation({
      name: 'files_delete', description: 'Deletes a file.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
      prepare: async (input: { path: string }, call) => {
        events.push(`prepare ${input.path}`);
        if ('confirmed' in call && changed.has(input.path)) return fail('failed', `${input.path} changed since the dialog showed it`);
        return { path: input.path };
      },
      confirmation: (input: { path: string }) => ({ title: `ファイル「${input.path}」を削除する`, summary: input.path, actionLabel: '削除する' }),
      execute: async (input: { path: string }) => {
        events.push(`start ${input.path}`);
        await flush();
        events.push(`end ${input.path}`);
        return succeed({ path: input.path });
      },
    }),
  ]);
  await session.turnOn();
  for (let i = 0; i < 500 && session.getState().status === 'starting'; i++) await flush();
  expect(session.getState().status).to.equal('on');
  verifier.asked.length = 0; // the switch-on's own verification
  // The dialog's view of the queue and the user's decisions, as the page's elements have them.
  const queue = { ...aiOps.confirmations, ...decide(aiOps) };
  return { aiOps, clock, verifier, events, changed, session, queue };
}

/** Resolves once `condition` holds (pending callbacks run in between). */
async function until(condition: () => boolean, what = 'the condition') {
  for (let i = 0; i < 500 && !condition(); i++) await flush();
  expect(condition(), what).to.equal(true);
}

/** `count` calls of files_delete in one burst, waiting until all are in the queue. */
async function burst(ctx: Awaited<ReturnType<typeof setup>>, paths: string[]) {
  const answers = paths.map((path) => ctx.session.call('files_delete', { path }).then((json) => JSON.parse(json)));
  const waiting = () => { const { current, queued } = ctx.queue.getState(); return (current ? 1 : 0) + queued.length; };
  await until(() => waiting() >= paths.length, 'the burst queued');
  const { current, queued } = ctx.queue.getState();
  return { answers, listed: [current!, ...queued].map((r) => r.id) };
}

describe('many waiting calls, one decision (BATCH)', () => {
  it('[BATCH-2] 「すべて承認」 over five calls is one verification bound to the set: each call\'s own description digest, in order', async () => {
    const ctx = await setup();
    const paths = ['a', 'b', 'c', 'd', 'e'];
    const { answers, listed } = await burst(ctx, paths);
    ctx.clock.advance(2000);
    ctx.queue.approveAll(listed);
    const envelopes = await Promise.all(answers);
    expect(envelopes.map((e) => e.ok)).to.deep.equal([true, true, true, true, true]);
    expect(ctx.verifier.asked).to.have.length(1);
    const batch = ctx.verifier.asked[0];
    expect(batch.kind).to.equal('batch');
    const rows = ctx.aiOps.log.getState().entries;
    expect(rows.map((r) => JSON.parse(r.args.text).path)).to.deep.equal(paths);
    // Each row keeps the batch receipt and its own call description; its digest is the set's, in order.
    const calls = rows.map((r) => r.batch!.call!);
    for (const [i, call] of calls.entries()) {
      expect(call).to.include({ kind: 'call', origin: ctx.verifier.origin, tool: 'files', operation: 'files_delete', callId: listed[i], skipFuture: false, skipUntil: null });
      expect(call.kind === 'call' && call.inputDigest).to.equal(await inputDigest({ path: paths[i] }));
    }
    expect(batch).to.deep.equal({ kind: 'batch', origin: ctx.verifier.origin, batchId: rows[0].batch!.id, calls: await Promise.all(calls.map(descriptionDigest)) });
    expect(rows.every((r) => r.receipt?.signature === 'sig-1' && r.batch?.size === 5 && r.batch.id === rows[0].batch!.id)).to.equal(true);
  });

  it('[BATCH-2] the approved calls run prepare again and execute one after another in arrival order', async () => {
    const ctx = await setup();
    const { answers, listed } = await burst(ctx, ['a', 'b', 'c']);
    ctx.events.length = 0;
    ctx.queue.approveAll(listed);
    await Promise.all(answers);
    expect(ctx.events).to.deep.equal(['prepare a', 'start a', 'end a', 'prepare b', 'start b', 'end b', 'prepare c', 'start c', 'end c']);
  });

  it('[BATCH-2] a call that arrives after the press is not in the set: it keeps waiting for its own decision', async () => {
    const ctx = await setup();
    let release!: () => void;
    ctx.verifier.hold = new Promise((resolve) => (release = resolve));
    const { answers, listed } = await burst(ctx, ['a', 'b', 'c', 'd', 'e']);
    ctx.queue.approveAll(listed);
    await until(() => ctx.verifier.asked.length === 1, 'the verification asked');
    const sixth = ctx.session.call('files_delete', { path: 'f' }).then((json) => JSON.parse(json));
    await until(() => ctx.queue.getState().queued.some((r) => r.status === 'waiting'), 'the sixth queued');
    release();
    await Promise.all(answers);
    expect(ctx.events.filter((e) => e.startsWith('start'))).to.deep.equal(['start a', 'start b', 'start c', 'start d', 'start e']);
    expect(ctx.verifier.asked[0].kind === 'batch' && ctx.verifier.asked[0].calls).to.have.length(5);
    // The sixth is now the dialog's own call, waiting; nothing approved it.
    await until(() => ctx.queue.getState().current?.status === 'waiting', 'the sixth shown');
    const current = ctx.queue.getState().current!;
    expect(ctx.queue.getState().queued).to.have.length(0);
    ctx.queue.decline(current.id);
    expect((await sixth).error.code).to.equal('declined');
    expect(ctx.events).to.not.include('start f');
  });

  it('[BATCH-2] a listed call past its 50 s before the press is not in the set; the others run', async () => {
    const ctx = await setup({ verified: false });
    const first = await burst(ctx, ['old']);
    ctx.clock.advance(30_000);
    const later = ['new1', 'new2'].map((path) => ctx.session.call('files_delete', { path }).then((json) => JSON.parse(json)));
    await until(() => ctx.queue.getState().queued.length === 2, 'the later two queued');
    const listed = [first.listed[0], ...ctx.queue.getState().queued.map((r) => r.id)];
    ctx.clock.advance(CONFIRMATION_DEADLINE_MS - 30_000); // the first one's 50 s end
    expect((await first.answers[0]).error.code).to.equal('declined');
    ctx.queue.approveAll(listed);
    const envelopes = await Promise.all(later);
    expect(envelopes.map((e) => e.ok)).to.deep.equal([true, true]);
    const rows = ctx.aiOps.log.getState().entries.filter((r) => r.status === 'success');
    expect(rows.map((r) => r.batch?.size)).to.deep.equal([2, 2]);
    expect(ctx.events).to.not.include('start old');
  });

  it('[BATCH-2] one whose prepare now fails answers its own failure; the others go on', async () => {
    const ctx = await setup();
    const { answers, listed } = await burst(ctx, ['a', 'b', 'c']);
    ctx.changed.add('b');
    ctx.queue.approveAll(listed);
    const [a, b, c] = await Promise.all(answers);
    expect([a.ok, c.ok]).to.deep.equal([true, true]);
    expect(b.error.code).to.equal('failed');
    expect(b.error.message).to.contain('b changed');
    expect(ctx.events.filter((e) => e.startsWith('start'))).to.deep.equal(['start a', 'start c']);
  });

  it('[BATCH-2] [UV-10] a refused verification approves none of the set, each answered with the reason', async () => {
    const ctx = await setup();
    ctx.verifier.refuse = true;
    const { answers, listed } = await burst(ctx, ['a', 'b']);
    ctx.queue.approveAll(listed);
    const envelopes = await Promise.all(answers);
    expect(envelopes.map((e) => e.error?.code)).to.deep.equal(['declined', 'declined']);
    // UV-10: each says the verification did not happen, not that the user said no.
    for (const e of envelopes) expect(e.error.message).to.contain('user verification was cancelled or failed').and.not.contain('the user declined');
    expect(ctx.events.filter((e) => e.startsWith('start'))).to.deep.equal([]);
  });

  it('[BATCH-2] 「すべてやめる」 declines exactly the listed calls; one arriving after waits for its own decision', async () => {
    const ctx = await setup();
    const { answers, listed } = await burst(ctx, ['a', 'b', 'c']);
    const fourth = ctx.session.call('files_delete', { path: 'd' }).then((json) => JSON.parse(json));
    await until(() => ctx.queue.getState().queued.length === 3, 'the fourth queued');
    ctx.queue.declineAll(listed);
    expect((await Promise.all(answers)).map((e) => e.error.code)).to.deep.equal(['declined', 'declined', 'declined']);
    const { current } = ctx.queue.getState();
    expect(current?.status).to.equal('waiting');
    expect(ctx.verifier.asked).to.have.length(0); // declining never asks (UV-1)
    ctx.queue.approve(current!.id);
    expect((await fourth).ok).to.equal(true);
  });

  it('[BATCH-3] a declined call says the user declined (or did not answer in 50 s) and not to call it again unless the user asks', async () => {
    const ctx = await setup();
    const { answers, listed } = await burst(ctx, ['a']);
    ctx.queue.decline(listed[0]);
    const { error } = await answers[0];
    expect(error.code).to.equal('declined');
    expect(error.message).to.contain('the user declined this call').and.contain('50 s').and.contain('do not call it again unless the user asks');
  });

  it('[BATCH-3] the same call within 60 s of the user\'s no is declined at once, no dialog, logged, with retryAfterMs; after 60 s it asks again', async () => {
    const ctx = await setup();
    const first = await burst(ctx, ['a']);
    ctx.queue.decline(first.listed[0]);
    await first.answers[0];
    ctx.clock.advance(20_000);
    let shown = 0;
    const unsubscribe = ctx.queue.subscribe(() => { if (ctx.queue.getState().current) shown++; });
    // The same input, written with its keys in another order: the same canonical JSON.
    const again = JSON.parse(await ctx.session.call('files_delete', JSON.parse('{"path":"a"}')));
    expect(again.error.code).to.equal('declined');
    expect(again.retryAfterMs).to.equal(REFUSAL_MEMORY_MS - 20_000);
    expect(again.error.message).to.contain('60 s').and.contain('do not call it again unless the user asks');
    expect(shown).to.equal(0);
    const row = ctx.aiOps.log.getState().entries.at(-1)!;
    expect(row.status).to.equal('declined');
    expect(row.resultSummary.text).to.contain('not asked again');
    // Another input is asked as usual.
    const other = await burst(ctx, ['b']);
    expect(shown).to.be.greaterThan(0);
    ctx.queue.approve(other.listed[0]);
    expect((await other.answers[0]).ok).to.equal(true);
    // Past the 60 s the same call asks again.
    ctx.clock.advance(REFUSAL_MEMORY_MS - 20_000);
    const later = await burst(ctx, ['a']);
    ctx.queue.approve(later.listed[0]);
    expect((await later.answers[0]).ok).to.equal(true);
    unsubscribe();
    expect(canonicalJson({ path: 'a' })).to.equal('{"path":"a"}');
  });

  it('[BATCH-3] the 50 s passing is not remembered as a no: the same call asked again shows its dialog', async () => {
    const ctx = await setup({ verified: false });
    const first = await burst(ctx, ['a']);
    ctx.clock.advance(CONFIRMATION_DEADLINE_MS);
    expect((await first.answers[0]).error.code).to.equal('declined');
    const again = await burst(ctx, ['a']);
    ctx.queue.approve(again.listed[0]);
    expect((await again.answers[0]).ok).to.equal(true);
  });

  it('[BATCH-4] the audit export carries the batch id, its size, this line\'s call description and the receipt', async () => {
    const ctx = await setup();
    const { answers, listed } = await burst(ctx, ['a', 'b']);
    ctx.queue.approveAll(listed);
    await Promise.all(answers);
    const lines = auditRecord(ctx.aiOps.log.getState().entries).split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(lines).to.have.length(2);
    for (const line of lines) {
      expect(line.batch.id).to.equal(lines[0].batch.id);
      expect(line.batch.size).to.equal(2);
      expect(line.batch.call.kind).to.equal('call');
      expect(line.receipt.description.kind).to.equal('batch');
      expect(line.receipt.description.batchId).to.equal(line.batch.id);
    }
  });
});
