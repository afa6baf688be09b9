// An undo that reaches further than its own change is approved like a destructive call (UV-17),
// through the runtime: the undo keeper's dialog, the page's one queue, the consent gate and the
// audit export. The verifier signs for real (ES256 with WebCrypto, test/helpers/synthetic-assertion.mjs)
// and answers only when the test says the user is there; an agent's press on the dialog's
// 元に戻す is `decide(aiOps).approve`, which is what a CDP click on the button reaches (the element
// checks only `isTrusted`, which such a click has).
import { expect } from '@open-wc/testing';
import { createAiOps } from '../../src/runtime.js';
import { defineOperation, type UndoStep } from '../../src/definition.js';
import { succeed } from '../../src/result.js';
import { inputDigest, type ConsentDescription, type Receipt } from '../../src/consent-proof.js';
import { VerificationRefused, type UserVerifier } from '../../src/user-verifier.js';
import { CONFIRMATION_DEADLINE_MS } from '../../src/confirmation-queue.js';
import { auditRecord } from '../../src/audit-export.js';
import { verifyAuditRecord, verifyReceipt } from '../../src/verify.js';
import { makeKey, makeReceipt, type SyntheticKey } from '../helpers/synthetic-assertion.mjs';
import { FakeClock, FakeLoader, MemoryConsentStore, MemoryStorage, decide, flush } from './helpers.js';

/** The user's device: signs with the user's key once the user is there; until then the prompt stays up. */
class UsersDevice implements UserVerifier {
  readonly origin = 'http://localhost:8000';
  present = true;
  asked: ConsentDescription[] = [];
  constructor(readonly key: SyntheticKey) {}
  applies = () => true;
  possible = () => true;
  enrolled = async () => this.key.record;
  async verify(description: ConsentDescription, signal?: AbortSignal): Promise<Receipt> {
    this.asked.push(description);
    if (!this.present) {
      // Nobody at the device: the prompt is up until the page ends it (the call's 50 s).
      await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
      throw new VerificationRefused('aborted', 'the page ended the request');
    }
    return makeReceipt(this.key, description);
  }
  check = async () => true;
  unenrol = async () => {};
  fingerprint = async () => '3f2a';
}

const user = await makeKey();

/**
 * A page's note: the agent's `notes_format` changes it without a dialog and keeps the whole text as
 * its before-state (as `slides_set_theme` keeps the whole Markdown); the user types into it too.
 * Its undo keeps the text it takes back, so the undo can itself be undone (UV-17).
 */
function notesTool() {
  const note = { text: 'draft', revision: 0 };
  const edit = (text: string) => {
    note.text = text;
    note.revision++;
  };
  /** The step that puts `before` back, and whose own undo puts back what it took away. */
  const stepFor = (before: string): UndoStep => {
    const left = note.revision;
    return {
      targets: ['notes:note'],
      bytes: before.length * 2,
      undo: async () => {
        const taken = note.text;
        edit(before);
        return { result: succeed({ restored: true }), undo: stepFor(taken) };
      },
      changedSince: () => note.revision !== left,
    };
  };
  const definitions = [
    defineOperation({
      name: 'notes_format', description: 'Formats the note (no dialog: it can be undone).',
      inputSchema: { type: 'object', properties: { style: { type: 'string' } }, required: ['style'], additionalProperties: false },
      execute: async ({ style }) => {
        const before = note.text;
        edit(`[${style}] ${before}`);
        return { result: succeed({ style }), undo: stepFor(before) };
      },
    }),
  ];
  return { note, edit, definitions };
}

async function setup() {
  const clock = new FakeClock();
  const device = new UsersDevice(user);
  const aiOps = createAiOps({
    clock, storage: new MemoryStorage(), consentStore: new MemoryConsentStore(), loader: new FakeLoader(), embedded: false,
    browserModelContext: null, autoReconnect: false, assetsBase: '/vendor/', automated: true, verifier: device,
  });
  const tool = notesTool();
  const session = aiOps.provideOperations('notes', tool.definitions);
  await session.turnOn();
  for (let i = 0; i < 500 && session.getState().status === 'starting'; i++) await flush();
  expect(session.getState().status).to.equal('on');
  device.asked.length = 0; // the switch-on's own verification
  runtimes.push(aiOps);
  return { aiOps, clock, device, session, ...tool };
}

const runtimes: ReturnType<typeof createAiOps>[] = [];

/** Resolves once `condition` holds (pending callbacks run in between). */
async function until(condition: () => boolean, what = 'the condition') {
  for (let i = 0; i < 500 && !condition(); i++) await flush();
  expect(condition(), what).to.equal(true);
}

describe('undo that reaches further is approved (UV-17)', () => {
  afterEach(() => {
    for (const aiOps of runtimes.splice(0)) aiOps.dispose();
  });

  it('[UV-17] an agent\'s press on 元に戻す of an unconfirmed row whose before-state would take back the user\'s edit asks for verification; the user away, nothing changes', async () => {
    const ctx = await setup();
    await ctx.session.call('notes_format', { style: 'bold' });
    const row = ctx.aiOps.log.getState().entries[0];
    expect(row.undo).to.equal('available');
    // The user's own work on the note, after the agent's change: the log does not show it.
    ctx.edit('the user\'s own paragraph');
    // The agent clicks the row's 元に戻す (isTrusted holds for a CDP click), then the dialog's 元に戻す.
    const undone = ctx.aiOps.undo(row.id);
    await until(() => ctx.aiOps.confirmations.getState().current !== null, 'the undo\'s dialog');
    const request = ctx.aiOps.confirmations.getState().current!;
    expect(request.by).to.equal('user');
    expect(request.undo?.edited).to.equal(true);
    expect(request.verification, 'the undo is approved like a destructive call').to.equal('required');
    ctx.device.present = false;
    decide(ctx.aiOps).approve(request.id);
    await until(() => ctx.device.asked.length === 1, 'the OS prompt');
    expect(ctx.device.asked[0]).to.include({ kind: 'call', tool: 'notes', operation: 'notes_format', inputDigest: await inputDigest({ undo: row.id }) });
    expect(ctx.aiOps.confirmations.getState().current?.status).to.equal('verifying');
    // Nobody answers the prompt: the request's 50 s end it.
    ctx.clock.advance(CONFIRMATION_DEADLINE_MS);
    expect(await undone).to.deep.equal({ status: 'declined' });
    expect(ctx.note.text).to.equal('the user\'s own paragraph');
    expect(ctx.aiOps.log.getState().entries.map((e) => [e.name, e.by, e.undo])).to.deep.equal([['notes_format', 'agent', 'available']]);
  });

  it('[UV-17] the user present: the undo runs, its row carries the receipt, and the exported line verifies', async () => {
    const ctx = await setup();
    await ctx.session.call('notes_format', { style: 'bold' });
    const row = ctx.aiOps.log.getState().entries[0];
    ctx.edit('typed');
    const undone = ctx.aiOps.undo(row.id);
    await until(() => ctx.aiOps.confirmations.getState().current !== null, 'the undo\'s dialog');
    decide(ctx.aiOps).approve(ctx.aiOps.confirmations.getState().current!.id);
    expect(await undone).to.deep.equal({ status: 'undone', undone: [row.id] });
    expect(ctx.note.text).to.equal('draft');
    const undoRow = ctx.aiOps.log.getState().entries.at(-1)!;
    expect({ by: undoRow.by, via: undoRow.via, kind: undoRow.receipt?.description.kind }).to.deep.equal({ by: 'user', via: 'user', kind: 'call' });
    const text = auditRecord(ctx.aiOps.log.getState().entries, user.record);
    const [, line] = text.split('\n').filter(Boolean);
    expect(JSON.parse(line).inputJson).to.equal(JSON.stringify({ undo: row.id }));
    expect(await verifyReceipt(line, user.record)).to.equal(true);
    expect((await verifyAuditRecord(text, user.record)).ok).to.equal(true);
  });

  it('[UV-17] an undo that takes back only its own change asks nothing, as before', async () => {
    const ctx = await setup();
    await ctx.session.call('notes_format', { style: 'bold' });
    const row = ctx.aiOps.log.getState().entries[0];
    expect(await ctx.aiOps.undo(row.id)).to.deep.equal({ status: 'undone', undone: [row.id] });
    expect(ctx.device.asked).to.have.length(0);
    expect(ctx.note.text).to.equal('draft');
  });

  it('[UV-17] an undo keeps its own before-state: its row can be undone, putting back what it took', async () => {
    const ctx = await setup();
    await ctx.session.call('notes_format', { style: 'bold' });
    const row = ctx.aiOps.log.getState().entries[0];
    ctx.edit('the user\'s own paragraph');
    const undone = ctx.aiOps.undo(row.id);
    await until(() => ctx.aiOps.confirmations.getState().current !== null, 'the undo\'s dialog');
    decide(ctx.aiOps).approve(ctx.aiOps.confirmations.getState().current!.id);
    expect((await undone).status).to.equal('undone');
    expect(ctx.note.text).to.equal('draft');
    const undoRow = ctx.aiOps.log.getState().entries.at(-1)!;
    expect(undoRow.undo).to.equal('available');
    // Undoing the undo takes back only the undo's own change: no dialog, the user's paragraph is back.
    expect(await ctx.aiOps.undo(undoRow.id)).to.deep.equal({ status: 'undone', undone: [undoRow.id] });
    expect(ctx.note.text).to.equal('the user\'s own paragraph');
    expect(ctx.device.asked.filter((d) => d.kind === 'call')).to.have.length(1);
  });
});
