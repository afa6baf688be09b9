import { expect } from '@open-wc/testing';
import { createConfirmationQueue, CONFIRMATION_DEADLINE_MS } from '../../src/confirmation-queue.js';
import { FakeClock, flush } from './helpers.js';

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
});
