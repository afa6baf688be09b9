// UV-16 (extends UV-10): every prompt that ends without the user's approval counts towards the
// rest — the call's own 50 s, やめる pressed while the prompt is up, the caller's cancel, the OS
// timeout, the user's cancel — and the rest holds across reloads and tabs of the origin, growing
// for repeated rests. Run with the real queue, gate and WebAuthn verifier (a CDP virtual
// authenticator is the user's device; presence off is the user away, so the OS prompt stays up)
// under a manual clock: the call's 50 s is the queue's, on that clock, and ends the prompt long
// before the verifier's own (real-time) 50 s.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { createAiOps, type AiOpsOptions } from '../../src/runtime.js';
import { defineOperation } from '../../src/definition.js';
import { succeed } from '../../src/result.js';
import { createWebAuthnVerifier } from '../../src/user-verifier.js';
import { createIndexedDbConsentStore, type ConsentStore } from '../../src/consent-store.js';
import { ConsentRest, REST_CAP_MS, REST_SERIES_MS, REST_STEPS_MS, parseRest, restKey } from '../../src/consent-rest.js';
import { FakeClock, FakeLoader, MemoryConsentStore, MemoryStorage, decide, deleteConsentDatabase, flush, readConsentDatabase, startEnded, storeReaches } from './helpers.js';
import { defaultAiOpsStrings, failureText } from '../../elements/internal/strings.js';

/** The call's deadline (CONF-8). */
const DEADLINE_MS = 50_000;

/** CDP virtual authenticators added by a test, removed after it. */
const devices: string[] = [];
async function addDevice(): Promise<string> {
  const { authenticatorId } = (await executeServerCommand('webauthn', { action: 'add' })) as { authenticatorId: string };
  devices.push(authenticatorId);
  return authenticatorId;
}
/** The user steps away from (or comes back to) the device. */
const presence = (authenticatorId: string, enabled: boolean) => executeServerCommand('webauthn', { action: 'presence', authenticatorId, enabled });

/**
 * A page (tab) of the origin: its runtime with the tool `notes`, the real WebAuthn verifier and the
 * consent store given. Pass the clock, storage and consent store of another page to open a second
 * tab or the next page after a reload.
 */
function openPage(extra: Partial<AiOpsOptions> & { consentStore: ConsentStore; clock: FakeClock; storage: MemoryStorage }) {
  const loader = new FakeLoader();
  const verifier = createWebAuthnVerifier({ store: extra.consentStore });
  const aiOps = createAiOps({
    loader, embedded: false, browserModelContext: null, autoReconnect: false, assetsBase: '/vendor/', automated: true, ...extra, verifier,
  });
  const session = aiOps.provideOperations('notes', [
    defineOperation({
      name: 'notes_clear', description: 'Clears.',
      inputSchema: { type: 'object', properties: { why: { type: 'string' } }, additionalProperties: false },
      confirmation: () => ({ title: 'Clear?', summary: 'Clears the note.', actionLabel: '消去する' }),
      execute: async () => succeed({ cleared: true }),
    }),
  ]);
  return { aiOps, session, loader };
}
type Page = ReturnType<typeof openPage>;

/** Resolves once `page` shows a request with the given status; returns it. */
async function shown(page: Page, status: 'waiting' | 'verifying') {
  await storeReaches(page.aiOps.confirmations, (s) => s.current?.status === status);
  return page.aiOps.confirmations.getState().current!;
}

/**
 * The agent calls notes_clear and presses the action: the OS prompt comes up and nobody answers.
 * `end` ends it without the user's approval; answers the call's envelope, and how many dialogs it showed.
 */
async function refusedCall(page: Page, clock: FakeClock, end: 'deadline' | 'cancel-button' | 'caller', why: string) {
  const caller = new AbortController();
  const answer = page.session.call('notes_clear', { why }, { signal: caller.signal });
  const request = await shown(page, 'waiting');
  decide(page.aiOps).approve(request.id, {});
  await shown(page, 'verifying');
  if (end === 'deadline') clock.advance(DEADLINE_MS);
  else if (end === 'cancel-button') decide(page.aiOps).decline(request.id);
  else caller.abort();
  return JSON.parse(await answer) as { ok: boolean; error?: { code: string; message: string }; retryAfterMs?: number };
}

/**
 * A call of notes_clear that must be answered at once, with no dialog: its envelope, and how many
 * dialogs it showed. A dialog that shows instead (the rest did not hold) is declined, as the user
 * would, so that the call answers and the test fails on what it saw.
 */
async function restingCall(page: Page, why: string) {
  let dialogs = 0;
  const unsubscribe = page.aiOps.confirmations.subscribe(() => {
    const current = page.aiOps.confirmations.getState().current;
    if (current?.status !== 'waiting') return;
    dialogs++;
    decide(page.aiOps).decline(current.id);
  });
  const env = JSON.parse(await page.session.call('notes_clear', { why })) as { ok: boolean; error?: { code: string; message: string }; retryAfterMs?: number };
  unsubscribe();
  return { env, dialogs };
}

/** Opens the first page, the user present for the switch-on, then away. */
async function firstPage(consentStore: ConsentStore, clock = new FakeClock(Date.now()), storage = new MemoryStorage()) {
  const device = await addDevice();
  const page = openPage({ consentStore, clock, storage });
  await page.session.turnOn();
  await startEnded(page.session);
  expect(page.session.getState().status, String(page.session.getState().error)).to.equal('on');
  await presence(device, false);
  return { page, clock, storage, device };
}

/** Resolves once `read()` gives a rest that lasts past now: another page's write has landed in the store it shares. */
async function restStored(read: () => Promise<unknown>, clock: FakeClock) {
  for (let i = 0; i < 500; i++) {
    const record = await read() as { until?: number } | undefined;
    if ((record?.until ?? 0) > clock.now()) return;
    await flush();
  }
  expect.fail('the rest never reached the shared store');
}

describe('every "no" counts (UV-16)', () => {
  const opened: Page[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const page of opened.splice(0)) page.aiOps.dispose();
    for (const cleanup of cleanups.splice(0)) await cleanup();
    for (const authenticatorId of devices.splice(0)) await executeServerCommand('webauthn', { action: 'remove', authenticatorId });
  });

  for (const end of ['deadline', 'cancel-button', 'caller'] as const) {
    const how = { deadline: 'an ignored prompt ended by the call\'s own 50 s', 'cancel-button': 'やめる pressed while the prompt is up', caller: 'the caller\'s cancel while the prompt is up' }[end];
    it(`[UV-16] [UV-10] ${how}, twice in a row: the third call is declined at once, with no dialog and no prompt, saying so with retryAfterMs`, async () => {
      const { page, clock } = await firstPage(new MemoryConsentStore());
      opened.push(page);
      for (const why of ['one', 'two']) {
        const env = await refusedCall(page, clock, end, why);
        expect(env.ok, why).to.equal(false);
        expect(env.error!.code, why).to.equal('declined');
      }
      clock.advance(1000);
      const { env, dialogs } = await restingCall(page, 'three');
      expect(dialogs, 'no dialog while resting').to.equal(0);
      expect(env.error!.code).to.equal('declined');
      expect(env.error!.message).to.contain('did not complete twice in a row');
      expect(env.retryAfterMs).to.equal(60_000 - 1000);
    });
  }

  it('[UV-16] a reload (a new page on the same consent store) and a second tab of the origin still rest; the switch-on rests too', async () => {
    const consentStore = new MemoryConsentStore();
    const { page, clock, storage } = await firstPage(consentStore);
    opened.push(page);
    // A second tab, open before the refusals.
    const tab = openPage({ consentStore, clock, storage });
    opened.push(tab);
    await flush();
    await startEnded(tab.session);
    await refusedCall(page, clock, 'deadline', 'one');
    await refusedCall(page, clock, 'cancel-button', 'two');
    await restStored(() => consentStore.get('rest:notes'), clock);
    const second = await restingCall(tab, 'in the second tab');
    expect(second.dialogs, 'the second tab shows no dialog').to.equal(0);
    expect(second.env.retryAfterMs, 'the second tab rests').to.be.within(1, 60_000);
    page.aiOps.dispose();
    // The reload: nothing of the first page's memory is left.
    const reloaded = openPage({ consentStore, clock, storage });
    opened.push(reloaded);
    await flush();
    await startEnded(reloaded.session);
    const after = await restingCall(reloaded, 'after the reload');
    expect(after.dialogs, 'the reloaded page shows no dialog').to.equal(0);
    expect(after.env.retryAfterMs, 'the reloaded page rests').to.be.within(1, 60_000);
    // Its switch-on rests too: turned off and on again, it stays off and says why, with no prompt.
    reloaded.session.turnOff();
    await reloaded.session.turnOn();
    await startEnded(reloaded.session);
    expect(reloaded.session.getState().status).to.equal('off');
    expect(failureText(defaultAiOpsStrings, reloaded.session.getState())).to.contain('本人確認が続けて完了しなかったため');
  });

  it('[UV-16] the rest lives in the IndexedDB consent store: a page on a new connection to it (a reload, another tab) rests', async () => {
    await deleteConsentDatabase();
    // The origin's database is every test file's (one browser profile): the rest must not outlive this test.
    cleanups.push(deleteConsentDatabase);
    const { page, clock, storage } = await firstPage(createIndexedDbConsentStore(window));
    opened.push(page);
    await refusedCall(page, clock, 'caller', 'one');
    await refusedCall(page, clock, 'deadline', 'two');
    await restStored(async () => (await readConsentDatabase())['rest:notes'], clock);
    page.aiOps.dispose();
    const reloaded = openPage({ consentStore: createIndexedDbConsentStore(window), clock, storage });
    opened.push(reloaded);
    await flush();
    await startEnded(reloaded.session);
    const { env, dialogs } = await restingCall(reloaded, 'after the reload');
    expect(dialogs).to.equal(0);
    expect(env.retryAfterMs).to.be.within(1, 60_000);
    expect(localStorage.length, 'nothing of the rest in localStorage').to.equal(0);
  });

  it('[UV-16] the rest grows for repeated rests (60 s, 5 min, 15 min, then capped at 15 min); a verified approval starts again from 60 s', async () => {
    const { page, clock, device } = await firstPage(new MemoryConsentStore());
    opened.push(page);
    const rests: number[] = [];
    for (let round = 0; round < 4; round++) {
      await refusedCall(page, clock, 'deadline', `${round}a`);
      await refusedCall(page, clock, 'cancel-button', `${round}b`);
      const { env, dialogs } = await restingCall(page, `${round}c`);
      expect(dialogs).to.equal(0);
      rests.push(env.retryAfterMs!);
      clock.advance(env.retryAfterMs!);
    }
    expect(rests).to.deep.equal([60_000, 300_000, 900_000, 900_000]);
    // The user comes back and approves: the next rest is 60 s again.
    await presence(device, true);
    const answer = page.session.call('notes_clear', { why: 'approved' });
    decide(page.aiOps).approve((await shown(page, 'waiting')).id, {});
    expect(JSON.parse(await answer).ok).to.equal(true);
    await presence(device, false);
    await refusedCall(page, clock, 'caller', 'x');
    await refusedCall(page, clock, 'caller', 'y');
    expect((await restingCall(page, 'z')).env.retryAfterMs).to.equal(60_000);
  });

  it('[UV-16] the sequence is 60 s, 5 min, 15 min (the cap); a stored value that is not a rest record is read as none, and none lasts past the cap; a day without a refusal starts the series again', async () => {
    expect(REST_STEPS_MS).to.deep.equal([60_000, 300_000, 900_000]);
    expect(REST_CAP_MS).to.equal(900_000);
    const clock = new FakeClock();
    const store = new MemoryConsentStore();
    const rest = new ConsentRest({ clock, store });
    for (const planted of [null, 'x', 7, [], { v: 2, refusals: 0, rests: 0, until: 0, at: 0 }, { v: 1, refusals: -1, rests: 0, until: 0, at: 0 }, { v: 1, refusals: 0, rests: 0, until: 1.5, at: 0 }, { v: 1, refusals: 0, rests: 0, until: 0, at: 0, extra: 1 }]) {
      expect(parseRest(planted), JSON.stringify(planted)).to.equal(null);
      store.values.set(restKey('notes'), planted);
      expect(await rest.left(['notes']), JSON.stringify(planted)).to.equal(0);
    }
    // A planted rest of a year rests no longer than the cap.
    store.values.set(restKey('notes'), { v: 1, refusals: 0, rests: 9, until: clock.now() + 365 * 86_400_000, at: clock.now() });
    expect(await rest.left(['notes', 'other'])).to.equal(REST_CAP_MS);
    store.values.delete(restKey('notes'));
    // The store losing the record (cleared site data) does not end this page's own rest.
    await rest.refused(['notes']);
    await rest.refused(['notes']);
    store.values.clear();
    expect(await rest.left(['notes'])).to.equal(60_000);
    clock.advance(60_000);
    await rest.refused(['notes']);
    await rest.refused(['notes']);
    expect(await rest.left(['notes'])).to.equal(300_000);
    clock.advance(REST_SERIES_MS + 300_000);
    await rest.refused(['notes']);
    await rest.refused(['notes']);
    expect(await rest.left(['notes']), 'a new series after a quiet day').to.equal(60_000);
  });
});
