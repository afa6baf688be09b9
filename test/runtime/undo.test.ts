// The undo keeper through the runtime (UNDO-1..UNDO-4, AUDIT-1), with a tool written the way a page
// author writes one: `notes_write` returns `{ result, undo }` from execute.
import { expect } from '@open-wc/testing';
import { createAiOps, type AiOpsOptions } from '../../src/runtime.js';
import { defineOperation } from '../../src/definition.js';
import { fail, succeed } from '../../src/result.js';
import { auditRecord } from '../../src/audit-export.js';
import { createOperationLog } from '../../src/operation-log.js';
import { createConfirmationQueue } from '../../src/confirmation-queue.js';
import { createUndoKeeper } from '../../src/undo-keeper.js';
import { describeCall } from '../../src/log-entry.js';
import type { ModelContextLike, ModelContextTool } from '../../src/model-context.js';
import { FakeClock, FakeLoader, MemoryStorage, flush, decide, startEnded as started } from './helpers.js';

/** A page's notes, and the operations a page author writes over them. */
function notesTool(clock: FakeClock) {
  const notes = new Map<string, string>();
  const versions = new Map<string, number>();
  const bump = (path: string) => versions.set(path, (versions.get(path) ?? 0) + 1);
  /** The user's own edit, which the log does not see. */
  const edit = (path: string, text: string) => {
    notes.set(path, text);
    bump(path);
  };
  let undoFails = false;
  const pathSchema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false } as const;
  const definitions = [
    defineOperation({
      name: 'notes_read', description: 'Reads a note.', inputSchema: pathSchema,
      annotations: { readOnlyHint: true },
      execute: async ({ path }) => (notes.has(path) ? succeed({ text: notes.get(path) }) : fail('not_found', `no note ${path}`)),
    }),
    defineOperation({
      name: 'notes_write', description: 'Writes a note.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' }, takesMs: { type: 'integer' } }, required: ['path', 'text'], additionalProperties: false },
      execute: async ({ path, text, takesMs = 0 }) => {
        clock.advance(takesMs);
        const had = notes.has(path);
        const before = notes.get(path);
        if (had && before === text) return succeed({ path, changed: false }); // changed nothing: no step
        notes.set(path, text);
        bump(path);
        const version = versions.get(path);
        return {
          result: succeed({ path }),
          undo: {
            targets: [`notes:file:${path}`],
            bytes: (before ?? '').length + 10,
            undo: async () => {
              if (undoFails) throw new Error('the disk is gone');
              if (had) notes.set(path, before!);
              else notes.delete(path);
              bump(path);
            },
            changedSince: () => versions.get(path) !== version,
          },
        };
      },
    }),
    defineOperation({
      name: 'notes_broken', description: 'Fails, but hands a step anyway.', inputSchema: pathSchema,
      execute: async ({ path }) => ({ result: fail('failed', 'nope'), undo: { targets: [`notes:file:${path}`], bytes: 1, undo: async () => notes.clear() } }),
    }),
  ];
  return { notes, edit, definitions, failUndo: () => (undoFails = true) };
}

/** A runtime with the notes tool switched on. */
async function setup(extra: Partial<AiOpsOptions> = {}) {
  const clock = new FakeClock();
  const storage = new MemoryStorage();
  const loader = new FakeLoader();
  const aiOps = createAiOps({ consent: 'click', clock, storage, loader, embedded: false, browserModelContext: null, autoReconnect: false, assetsBase: '/vendor/', ...extra });
  const tool = notesTool(clock);
  const session = aiOps.provideOperations('notes', tool.definitions);
  await session.turnOn();
  await started(session);
  return { clock, storage, loader, aiOps, mc: loader.modelContext, session, ...tool };
}

const entries = (aiOps: ReturnType<typeof createAiOps>) => aiOps.log.getState().entries;
const row = (aiOps: ReturnType<typeof createAiOps>, i: number) => entries(aiOps).at(i)!;

describe('undo (UNDO-1..UNDO-4)', () => {
  afterEach(() => document.querySelectorAll('[data-webmcp-relay]').forEach((e) => e.remove()));

  it('[UNDO-1] only a successful changing call keeps a step; the agent never sees it; undo puts back the before-state', async () => {
    const { aiOps, session, notes } = await setup();
    notes.set('a', 'old');
    const answer = await session.call('notes_write', { path: 'a', text: 'new' });
    expect(JSON.parse(answer)).to.deep.equal({ path: 'a', ok: true });
    await session.call('notes_read', { path: 'a' });
    await session.call('notes_read', { path: 'zzz' });
    await session.call('notes_write', { path: 'a', nope: 1 });
    await session.call('notes_write', { path: 'a', text: 'new' }); // changed nothing
    await session.call('notes_broken', { path: 'a' });
    expect(entries(aiOps).map((e) => [e.name, e.status, e.undo])).to.deep.equal([
      ['notes_write', 'success', 'available'],
      ['notes_read', 'success', null],
      ['notes_read', 'failure', null],
      ['notes_write', 'failure', null],
      ['notes_write', 'success', null],
      ['notes_broken', 'failure', null],
    ]);
    expect(await aiOps.undo(row(aiOps, 0).id)).to.deep.equal({ status: 'undone', undone: [row(aiOps, 0).id] });
    expect(notes.get('a')).to.equal('old');
    expect(row(aiOps, 0).undo).to.equal('undone');
    // A note the call created is gone again, not left empty.
    await session.call('notes_write', { path: 'b', text: 'fresh' });
    await aiOps.undo(row(aiOps, -1).id);
    expect(notes.has('b')).to.equal(false);
  });

  it('[UNDO-2] a later change of the same target asks first; declining changes nothing; approving undoes newest first', async () => {
    const { aiOps, session, notes } = await setup();
    notes.set('a', 'v0');
    await session.call('notes_write', { path: 'a', text: 'v1' });
    await session.call('notes_write', { path: 'other', text: 'x' }); // another target: not listed
    await session.call('notes_write', { path: 'a', text: 'v2' });
    const [first, other, second] = entries(aiOps);
    const declined = aiOps.undo(first.id);
    await flush();
    const request = aiOps.confirmations.getState().current!;
    expect(request.by).to.equal('user');
    expect(request.content.actionLabel).to.equal('元に戻す');
    expect(request.content.summary).to.contain('notes_write');
    expect(request.content.summary.match(/notes_write/g)).to.have.length(1);
    decide(aiOps).decline(request.id);
    expect(await declined).to.deep.equal({ status: 'declined' });
    expect(notes.get('a')).to.equal('v2');
    expect(entries(aiOps).map((e) => e.undo)).to.deep.equal(['available', 'available', 'available']);

    const approved = aiOps.undo(first.id);
    await flush();
    decide(aiOps).approve(aiOps.confirmations.getState().current!.id);
    expect(await approved).to.deep.equal({ status: 'undone', undone: [second.id, first.id] });
    expect(notes.get('a')).to.equal('v0');
    expect(notes.get('other')).to.equal('x');
    expect(entries(aiOps).slice(0, 3).map((e) => e.undo)).to.deep.equal(['undone', 'available', 'undone']);
    expect(entries(aiOps).slice(3).map((e) => JSON.parse(e.args.text))).to.deep.equal([{ undo: second.id }, { undo: first.id }]);
    expect(aiOps.confirmations.getState().current).to.equal(null);
    expect(other.undo).to.equal('available');
  });

  it('[UNDO-2] a later change whose before-state was dropped is listed too; a change logged while the dialog was up asks again', async () => {
    const { aiOps, session, notes } = await setup({ undoBudgetBytes: 100 });
    notes.set('a', 'v0');
    await session.call('notes_write', { path: 'a', text: 'x'.repeat(200) });
    await session.call('notes_write', { path: 'a', text: 'v2' }); // its before-state (200 characters) is over the budget
    const [first, second] = entries(aiOps);
    expect([first.undo, row(aiOps, 1).undo]).to.deep.equal(['available', 'dropped']);
    const pending = aiOps.undo(first.id);
    await flush();
    const asked = aiOps.confirmations.getState().current!;
    expect(asked.content.summary).to.contain('notes_write');
    // An agent's change of the same note arrives while the user reads the dialog.
    await session.call('notes_write', { path: 'a', text: 'v3' });
    decide(aiOps).approve(asked.id);
    await flush();
    const again = aiOps.confirmations.getState().current!;
    expect(again.id).to.not.equal(asked.id);
    expect(again.content.summary.match(/notes_write/g)).to.have.length(2);
    decide(aiOps).approve(again.id);
    const third = row(aiOps, 2);
    expect(await pending).to.deep.equal({ status: 'undone', undone: [third.id, first.id] });
    expect(notes.get('a')).to.equal('v0');
    expect(entries(aiOps).slice(0, 3).map((e) => e.undo)).to.deep.equal(['undone', 'dropped', 'undone']);
    expect(second.id).to.equal(row(aiOps, 1).id);
  });

  it('[UNDO-2] the user\'s own edit since the call (changedSince) asks first too', async () => {
    const { aiOps, session, notes, edit } = await setup();
    notes.set('a', 'v0');
    await session.call('notes_write', { path: 'a', text: 'v1' });
    edit('a', 'typed by the user');
    const pending = aiOps.undo(row(aiOps, 0).id);
    await flush();
    const request = aiOps.confirmations.getState().current!;
    expect(request.content.summary).to.contain('記録にない変更');
    decide(aiOps).decline(request.id);
    expect(await pending).to.deep.equal({ status: 'declined' });
    expect(notes.get('a')).to.equal('typed by the user');
  });

  it('[UNDO-2] an undone row cannot be undone twice, and a row with no step not at all', async () => {
    const { aiOps, session, notes } = await setup();
    await session.call('notes_write', { path: 'a', text: 'v1' });
    await session.call('notes_read', { path: 'a' });
    const [write, read] = entries(aiOps);
    await aiOps.undo(write.id);
    notes.set('a', 'again');
    const count = entries(aiOps).length;
    expect((await aiOps.undo(write.id)).status).to.equal('unavailable');
    expect((await aiOps.undo(read.id)).status).to.equal('unavailable');
    expect((await aiOps.undo(9999)).status).to.equal('unavailable');
    expect(notes.get('a')).to.equal('again');
    expect(entries(aiOps)).to.have.length(count);
  });

  it('[UNDO-3] the undo is the user\'s own row; no operation of the model context undoes', async () => {
    const { aiOps, session, mc } = await setup();
    expect([...mc.tools.keys()]).to.deep.equal(['notes_read', 'notes_write', 'notes_broken']);
    await mc.execute('notes_write', { path: 'a', text: 'v1' });
    const write = row(aiOps, 0);
    // What an agent could try: a name that is not an operation of the page, and the call's own name again.
    const unknown = await mc.execute('notes_undo', { id: write.id }).then(() => 'answered', (error: Error) => error.message);
    expect(unknown).to.match(/not found/);
    await mc.execute('notes_read', { path: 'a', undo: write.id });
    expect(row(aiOps, 0).undo).to.equal('available');
    await aiOps.undo(write.id);
    const undoRow = row(aiOps, -1);
    expect({ tool: undoRow.tool, name: undoRow.name, by: undoRow.by, via: undoRow.via, status: undoRow.status, undo: undoRow.undo })
      .to.deep.equal({ tool: 'notes', name: 'notes_write', by: 'user', via: 'user', status: 'success', undo: null });
    expect(write.by).to.equal('agent');
  });

  it('[UNDO-1] a step that cannot put its target back: the row stays available and a failed user row says why', async () => {
    const { aiOps, session, notes, failUndo } = await setup();
    await session.call('notes_write', { path: 'a', text: 'v1' });
    failUndo();
    const answer = await aiOps.undo(row(aiOps, 0).id);
    expect(answer.status).to.equal('failed');
    expect(notes.get('a')).to.equal('v1');
    expect(row(aiOps, 0).undo).to.equal('available');
    expect(row(aiOps, -1).status).to.equal('failure');
    expect(row(aiOps, -1).resultSummary.text).to.contain('the disk is gone');
  });

  it('[UNDO-4] over the budget the oldest before-state goes first and its row says dropped; a step over the whole budget is not kept', async () => {
    const { aiOps, session, notes } = await setup({ undoBudgetBytes: 100 });
    notes.set('a', 'x'.repeat(40)); // each write's step holds 50 bytes
    notes.set('b', 'x'.repeat(40));
    notes.set('c', 'x'.repeat(40));
    await session.call('notes_write', { path: 'a', text: 'A' });
    await session.call('notes_write', { path: 'b', text: 'B' });
    expect(entries(aiOps).map((e) => e.undo)).to.deep.equal(['available', 'available']);
    await session.call('notes_write', { path: 'c', text: 'C' });
    expect(entries(aiOps).map((e) => e.undo)).to.deep.equal(['dropped', 'available', 'available']);
    expect((await aiOps.undo(row(aiOps, 0).id)).status).to.equal('unavailable');
    expect(notes.get('a')).to.equal('A');
    notes.set('big', 'x'.repeat(200));
    await session.call('notes_write', { path: 'big', text: 'small' });
    expect(row(aiOps, -1).undo).to.equal('dropped');
    expect(entries(aiOps).map((e) => e.undo)).to.deep.equal(['dropped', 'available', 'available', 'dropped']);
  });

  it('[UNDO-4] before-states live in memory only: no storage written, nothing in IndexedDB', async () => {
    const { aiOps, session, storage } = await setup();
    const before = { local: localStorage.length, session: sessionStorage.length, stored: storage.length, dbs: (await indexedDB.databases()).length };
    await session.call('notes_write', { path: 'a', text: 'secret contents' });
    await aiOps.undo(row(aiOps, 0).id);
    await session.call('notes_write', { path: 'a', text: 'again' });
    expect({ local: localStorage.length, session: sessionStorage.length, stored: storage.length, dbs: (await indexedDB.databases()).length }).to.deep.equal(before);
  });

  it('[UNDO-4] a row that leaves the log (its 200 rows) lets its before-state go', async () => {
    const clock = new FakeClock();
    const log = createOperationLog({ limit: 2 });
    const keeper = createUndoKeeper({ log, queue: createConfirmationQueue({ clock }), clock });
    const step = (bytes: number) => ({ targets: ['t:x'], bytes, undo: async () => {} });
    const add = () => log.add(describeCall({ time: clock.now(), tool: 't', name: 't_w', args: {}, result: succeed(), undo: 'available' }));
    keeper.keep(add(), step(10));
    keeper.keep(add(), step(20));
    expect(keeper.bytes).to.equal(30);
    keeper.keep(add(), step(40)); // the first row leaves the log
    expect(keeper.bytes).to.equal(60);
    add();
    add(); // and the other two
    expect(keeper.bytes).to.equal(0);
  });
});

describe('the path a call came by, and its duration (AUDIT-1)', () => {
  afterEach(() => document.querySelectorAll('[data-webmcp-relay]').forEach((e) => e.remove()));

  it('[AUDIT-1] session.call is the page, a registry that does not say who called is polyfill (not relay); the duration runs on the injected clock', async () => {
    const { aiOps, session, mc } = await setup();
    await session.call('notes_write', { path: 'a', text: 'v1', takesMs: 120 });
    await mc.execute('notes_write', { path: 'a', text: 'v2', takesMs: 7 });
    expect(entries(aiOps).map((e) => [e.via, e.durationMs, e.by])).to.deep.equal([['page', 120, 'agent'], ['polyfill', 7, 'agent']]);
  });

  it('[AUDIT-1] over the browser\'s own API: its executeTool is webmcp, ai-ops\'s modelContextTesting (the relay\'s) is relay', async () => {
    // A stand-in shaped like the browser's API (NAT-5), so this runs in either browser mode.
    const registered = new Map<string, ModelContextTool>();
    const own: ModelContextLike & { executeTool(name: string, args: unknown): Promise<unknown> } = {
      registerTool(tool) {
        registered.set(tool.name, tool);
      },
      executeTool: (name, args) => registered.get(name)!.execute(args, { signal: new AbortController().signal }),
    };
    const { aiOps, session } = await setup({ browserModelContext: own });
    await own.executeTool('notes_write', { path: 'a', text: 'v1' });
    const testing = (navigator as Navigator & { modelContextTesting: { executeTool(n: string, j: string): Promise<string | null> } }).modelContextTesting;
    await testing.executeTool('notes_write', JSON.stringify({ path: 'a', text: 'v2' }));
    expect(entries(aiOps).map((e) => e.via)).to.deep.equal(['webmcp', 'relay']);
    session.turnOff();
  });

  it('[AUDIT-1] the record has one JSON line per row with what the row keeps', async () => {
    const { aiOps, session, clock } = await setup();
    await session.call('notes_write', { path: 'a', text: 'v1', takesMs: 5 });
    await session.call('notes_read', { path: 'nope' });
    await aiOps.undo(row(aiOps, 0).id);
    const lines = auditRecord(entries(aiOps)).split('\n');
    expect(lines.at(-1)).to.equal('');
    const parsed = lines.slice(0, -1).map((l) => JSON.parse(l));
    // AUDIT-2: each line also ends with its place in the chain (checked in audit-chain.test.mjs).
    expect(parsed.map((l) => [l.line, l.lines, l.prev === (parsed[l.line - 2]?.digest ?? '0'.repeat(64))])).to.deep.equal([[1, 3, true], [2, 3, true], [3, 3, true]]);
    expect(parsed.map(({ line: _line, lines: _lines, prev: _prev, digest: _digest, ...row }) => row))
      .to.deep.equal(entries(aiOps).map((e) => ({
        time: new Date(e.time).toISOString(), tool: e.tool, operation: e.name, via: e.via, args: e.args.text, result: e.result.text,
        code: e.code, durationMs: e.durationMs, undone: e.undo === 'undone', argsTruncated: false, receipt: null, publicKey: null,
      })));
    expect(parsed.map((l) => [l.operation, l.via, l.code, l.undone, l.durationMs])).to.deep.equal([
      ['notes_write', 'page', null, true, 5], ['notes_read', 'page', 'not_found', false, 0], ['notes_write', 'user', null, false, 0],
    ]);
    expect(parsed[0].time).to.equal(new Date(clock.now()).toISOString());
  });
});
