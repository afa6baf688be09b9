import { expect } from '@open-wc/testing';
import { createConfirmationQueue, CONFIRMATION_DEADLINE_MS } from '../../src/confirmation-queue.js';
import type { ApprovalRequest, ConsentGate } from '../../src/consent-gate.js';
import { CoolingDown, unverifiedMessage } from '../../src/consent-words.js';
import { VerificationRefused } from '../../src/user-verifier.js';
import type { Receipt } from '../../src/consent-proof.js';
import { FakeClock, flush } from './helpers.js';

/**
 * The part of the consent gate the queue uses (the gate itself: verified-consent.test.ts): it
 * applies to the tools listed, records what it was asked, and answers as told.
 */
function scriptedGate(applying: string[]) {
  const asked: ApprovalRequest[][] = [];
  let refuse: unknown = null;
  const receipt = (n: number) => ({ credentialId: 'c', authenticatorData: 'a', clientDataJSON: 'd', signature: `sig-${n}` }) as unknown as Receipt;
  const gate = {
    verifier: null,
    applies: (tool: string) => applying.includes(tool),
    async approve(request: ApprovalRequest) {
      asked.push([request]);
      if (refuse) throw refuse;
      return receipt(asked.length);
    },
    async approveBatch(_batchId: string, requests: readonly ApprovalRequest[]) {
      asked.push([...requests]);
      if (refuse) throw refuse;
      return { receipt: receipt(asked.length), calls: [] };
    },
  } as unknown as ConsentGate;
  return { gate, asked, refuseWith: (error: unknown) => (refuse = error) };
}

const content = { title: 't', summary: 's', actionLabel: '削除する' };

describe('confirmation queue', () => {
  it('[CONF-7] several requests queue first in first out, one shown at a time', async () => {
    const queue = createConfirmationQueue({ clock: new FakeClock() });
    const a = queue.request({ tool: 'go', name: 'go_delete_file', content });
    const b = queue.request({ tool: 'node', name: 'node_delete_file', content });
    expect(queue.getState().current?.name).to.equal('go_delete_file');
    expect(queue.getState().queued.map((r) => r.name)).to.deep.equal(['node_delete_file']);
    queue.decline(queue.getState().current!.id);
    expect(await a).to.equal(null);
    expect(queue.getState().current?.name).to.equal('node_delete_file');
    queue.approve(queue.getState().current!.id);
    const answer = await b;
    expect(answer?.skipFuture).to.equal(false);
  });

  it('[CONF-4] after approval the request stays shown as running until execution ends, and declining no longer closes it', async () => {
    const queue = createConfirmationQueue({ clock: new FakeClock() });
    const pending = queue.request({ tool: 'go', name: 'go_delete_file', content });
    const { id } = queue.getState().current!;
    queue.approve(id, { skipFuture: true });
    const answer = await pending;
    expect(answer?.skipFuture).to.equal(true);
    expect(queue.getState().current).to.include({ id, status: 'running' });
    queue.decline(id);
    expect(queue.getState().current?.id).to.equal(id);
    answer!.done();
    expect(queue.getState().current).to.equal(null);
  });

  it('[CONF-8] a request still waiting 50 s after it arrived is declined, shown or queued; approved ones are not', async () => {
    const clock = new FakeClock();
    const queue = createConfirmationQueue({ clock });
    expect(CONFIRMATION_DEADLINE_MS).to.equal(50_000);
    const first = queue.request({ tool: 'a', name: 'a_x', content });
    clock.advance(10_000);
    const second = queue.request({ tool: 'a', name: 'a_y', content });
    clock.advance(39_999);
    expect(queue.getState().current?.name).to.equal('a_x');
    clock.advance(1);
    expect(await first).to.equal(null);
    expect(queue.getState().current?.name).to.equal('a_y');
    queue.approve(queue.getState().current!.id);
    const approved = await second;
    clock.advance(60_000);
    expect(queue.getState().current?.status).to.equal('running');
    approved!.done();
    // a queued request whose deadline passes is never shown
    const shown = queue.request({ tool: 'a', name: 'a_1', content });
    clock.advance(1000);
    const neverShown = queue.request({ tool: 'a', name: 'a_2', content });
    const seen: string[] = [];
    queue.subscribe(() => { const c = queue.getState().current; if (c) seen.push(c.name); });
    clock.advance(49_000);
    expect(await shown).to.equal(null);
    queue.approve(queue.getState().current!.id);
    (await neverShown)!.done();
    const third = queue.request({ tool: 'a', name: 'a_3', content });
    const fourth = queue.request({ tool: 'a', name: 'a_4', content });
    clock.advance(50_000);
    expect([await third, await fourth]).to.deep.equal([null, null]);
    expect(seen).not.to.include('a_4');
    await flush();
  });

  it('[SW-3] turning a tool off declines its waiting and queued requests only', async () => {
    const queue = createConfirmationQueue({ clock: new FakeClock() });
    const a = queue.request({ tool: 'go', name: 'go_delete_file', content });
    const b = queue.request({ tool: 'node', name: 'node_delete_file', content });
    const c = queue.request({ tool: 'go', name: 'go_delete_file', content });
    queue.declineTool('go');
    expect([await a, await c]).to.deep.equal([null, null]);
    expect(queue.getState().current?.tool).to.equal('node');
    expect(queue.getState().queued).to.have.length(0);
    queue.decline(queue.getState().current!.id);
    expect(await b).to.equal(null);
  });

  it('[CONF-6] approving a request that is not the shown one does nothing', async () => {
    const queue = createConfirmationQueue({ clock: new FakeClock() });
    void queue.request({ tool: 'go', name: 'first', content });
    void queue.request({ tool: 'go', name: 'second', content });
    queue.approve(queue.getState().queued[0].id);
    expect(queue.getState().current?.status).to.equal('waiting');
    expect(queue.getState().queued).to.have.length(1);
  });

  it('[SAFE-2] the deadline runs from the call\'s arrival: a request queued late keeps what is left, one past it is never shown', async () => {
    const clock = new FakeClock();
    const queue = createConfirmationQueue({ clock });
    const arrivedAt = clock.now();
    clock.advance(40_000); // validation and prepare took 40 s
    const late = queue.request({ tool: 'a', name: 'a_x', content, arrivedAt });
    expect(queue.getState().current?.arrivedAt).to.equal(arrivedAt);
    clock.advance(9_999);
    expect(queue.getState().current).to.not.equal(null);
    clock.advance(1);
    expect(await late).to.equal(null);
    expect(queue.getState().current).to.equal(null);
    let shown = 0;
    queue.subscribe(() => { if (queue.getState().current) shown++; });
    expect(await queue.request({ tool: 'a', name: 'a_x', content, arrivedAt: clock.now() - CONFIRMATION_DEADLINE_MS })).to.equal(null);
    expect(shown).to.equal(0);
  });

  it('[NAT-2] an aborted signal drops the request, shown or queued, and answers null; an approved one is not affected', async () => {
    const queue = createConfirmationQueue({ clock: new FakeClock() });
    const shownCall = new AbortController();
    const queuedCall = new AbortController();
    const shownRequest = queue.request({ tool: 'a', name: 'a_shown', content, signal: shownCall.signal });
    const queuedRequest = queue.request({ tool: 'a', name: 'a_queued', content, signal: queuedCall.signal });
    const last = queue.request({ tool: 'a', name: 'a_last', content });
    queuedCall.abort();
    expect(await queuedRequest).to.equal(null);
    expect(queue.getState().queued.map((r) => r.name)).to.deep.equal(['a_last']);
    shownCall.abort();
    expect(await shownRequest).to.equal(null);
    expect(queue.getState().current?.name).to.equal('a_last');
    const cancelled = new AbortController();
    cancelled.abort();
    expect(await queue.request({ tool: 'a', name: 'a_never', content, signal: cancelled.signal })).to.equal(null);
    expect(queue.getState().queued).to.have.length(0);
    // Approved, then aborted: the dialog stays running until done (the pipeline declines before execute).
    const approvedCall = new AbortController();
    queue.decline(queue.getState().current!.id);
    await last;
    const approved = queue.request({ tool: 'a', name: 'a_ok', content, signal: approvedCall.signal });
    queue.approve(queue.getState().current!.id);
    const answer = await approved;
    approvedCall.abort();
    expect(queue.getState().current?.status).to.equal('running');
    answer!.done();
    expect(queue.getState().current).to.equal(null);
    await flush();
  });

  it('[UV-1] [UV-2] a request needs verification wherever the gate applies; never the user\'s own undo, never a tool the page author left to clicks', async () => {
    const { gate, asked } = scriptedGate(['go']);
    const queue = createConfirmationQueue({ clock: new FakeClock(), gate });
    const call = queue.request({ tool: 'go', name: 'go_delete_file', content, input: { path: 'a.go' } });
    expect(queue.getState().current!.verification).to.equal('required');
    queue.approve(queue.getState().current!.id, { skipFuture: true });
    expect(queue.getState().current!.status).to.equal('verifying');
    const answer = await call;
    expect(answer?.receipt?.signature).to.equal('sig-1');
    expect(asked[0][0]).to.include({ tool: 'go', name: 'go_delete_file', skipFuture: true });
    expect(asked[0][0].input).to.deep.equal({ path: 'a.go' });
    answer!.done();
    const undo = queue.request({ tool: 'go', name: 'go_write_file', content, by: 'user' });
    expect(queue.getState().current!.verification).to.equal(undefined);
    queue.approve(queue.getState().current!.id);
    (await undo)!.done();
    const clicks = queue.request({ tool: 'sql', name: 'sql_execute', content });
    expect(queue.getState().current!.verification).to.equal(undefined);
    queue.approve(queue.getState().current!.id);
    expect((await clicks)?.receipt).to.equal(undefined);
    expect(asked).to.have.length(1);
  });

  it('[UV-4] [UV-10] a press the gate could not verify declines the call and tells it why; it is not the user\'s no (BATCH-3 does not remember it)', async () => {
    const { gate, refuseWith } = scriptedGate(['go']);
    const queue = createConfirmationQueue({ clock: new FakeClock(), gate });
    for (const error of [new VerificationRefused('timeout', 'x'), new VerificationRefused('cancelled', 'x'), new CoolingDown(42_000), new Error('odd')]) {
      refuseWith(error);
      const told: string[] = [];
      const call = queue.request({ tool: 'go', name: 'go_delete_file', content, input: { path: 'a.go' }, unverified: (message) => told.push(message) });
      queue.approve(queue.getState().current!.id);
      expect(await call).to.equal(null);
      expect(told).to.deep.equal([unverifiedMessage(error)]);
      expect(queue.getState().current).to.equal(null);
      expect(queue.refusal('go', 'go_delete_file', { path: 'a.go' })).to.equal(0);
    }
    expect(unverifiedMessage(new CoolingDown(42_000))).to.contain('42 s');
    // 「すべて承認」 refused: every listed call is told.
    refuseWith(new VerificationRefused('timeout', 'x'));
    const told: string[][] = [[], []];
    const calls = ['a.go', 'b.go'].map((path, i) => queue.request({ tool: 'go', name: 'go_delete_file', content, input: { path }, unverified: (m) => told[i].push(m) }));
    const { current, queued } = queue.getState();
    queue.approveAll([current!.id, ...queued.map((r) => r.id)]);
    expect(await Promise.all(calls)).to.deep.equal([null, null]);
    expect(told).to.deep.equal([[unverifiedMessage(new VerificationRefused('timeout', 'x'))], [unverifiedMessage(new VerificationRefused('timeout', 'x'))]]);
  });
});
