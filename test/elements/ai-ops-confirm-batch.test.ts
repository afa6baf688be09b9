// The dialog with many waiting calls (BATCH-1..BATCH-4), through the real WebAuthn stack: the user's
// device is a CDP virtual authenticator (test/wtr-webauthn-plugin.mjs), present, as in
// ai-ops-confirm-uv.test.ts. A program drives this browser, so every approval needs verification.
import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand, resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import { loadAiOpsElements } from '../../elements/define.js';
import { POINTER_GUARD_MS, type AiOpsConfirm } from '../../elements/confirm/ai-ops-confirm.js';
import type { AiOpsLog } from '../../elements/log/ai-ops-log.js';
import { auditRecord } from '../../src/audit-export.js';
import { verifyReceipt } from '../../src/verify.js';
import { canonicalJson, descriptionDigest } from '../../src/consent-proof.js';
import { createMemoryConsentStore } from '../../src/consent-store.js';
import { createWebAuthnVerifier } from '../../src/user-verifier.js';
import { centerOf, cleanupRuntimes, createFakeClock, createTestRuntime, MemoryStorage, testOperations, textOf, turnOn, until, decide } from './helpers.js';

await loadAiOpsElements();

const device = {
  id: '',
  async add() {
    ({ authenticatorId: this.id } = (await executeServerCommand('webauthn', { action: 'add', automaticPresenceSimulation: true })) as { authenticatorId: string });
  },
  async remove() {
    if (this.id) await executeServerCommand('webauthn', { action: 'remove', authenticatorId: this.id });
    this.id = '';
  },
};

/** Two rendered frames: IntersectionObserver has reported what is in view. */
const renderedTwice = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

const part = (el: Element, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const parts = (el: Element, name: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(`[part~="${name}"]`)];

/** A runtime under automation with verified consent, switched on by the present user, and its dialog. */
async function setup({ guard = 0, clock = undefined as ReturnType<typeof createFakeClock> | undefined } = {}) {
  // Count the verifications the page asks of the device (the real verifier, only observed).
  const consentStore = createMemoryConsentStore();
  const verifier = createWebAuthnVerifier({ window, store: consentStore, consent: 'auto' });
  const aiOps = createTestRuntime({ consent: 'auto', automated: true, storage: new MemoryStorage(), consentStore, verifier, ...(clock ? { clock } : {}) });
  const session = aiOps.provideOperations('go', testOperations('go'));
  await turnOn(session);
  const asked: string[] = [];
  const verify = verifier.verify.bind(verifier);
  (verifier as { verify: typeof verify }).verify = (description, signal) => {
    asked.push(description.kind);
    return verify(description, signal);
  };
  const el = await fixture<AiOpsConfirm>(html`<ai-ops-confirm .aiOps=${aiOps}></ai-ops-confirm>`);
  el.pointerGuardMs = guard;
  if (clock) el.clock = clock;
  el.automated = true;
  await el.updateComplete;
  return { aiOps, session, el, asked, key: (await verifier.enrolled())! };
}

/** `paths` deleted in one burst; resolves once the dialog lists them all. */
async function burst(ctx: Awaited<ReturnType<typeof setup>>, paths: string[]) {
  const answers = paths.map((path) => ctx.session.call('go_delete_file', { path }).then((json) => JSON.parse(json)));
  await until(() => parts(ctx.el, 'batch-item').length === paths.length - 1, 'the list');
  await ctx.el.updateComplete;
  return answers;
}

/** Waits until 「すべて承認」 is offered (every listed item was on screen). */
async function offered(el: AiOpsConfirm) {
  await until(() => part(el, 'approve-all-button')?.getAttribute('aria-disabled') !== 'true', 'すべて承認 offered');
}

/** Tabs from やめる to 「すべて承認」 and presses Enter, as a person at the keyboard does. */
async function approveAllByKeyboard(el: AiOpsConfirm) {
  const target = part(el, 'approve-all-button')!;
  for (let i = 0; i < 30 && el.shadowRoot!.activeElement !== target; i++) await sendKeys({ press: 'Tab' });
  expect(el.shadowRoot!.activeElement).to.equal(target);
  await sendKeys({ press: 'Enter' });
}

describe('many waiting calls in the dialog (BATCH)', () => {
  beforeEach(() => device.add());
  afterEach(async () => {
    cleanupRuntimes();
    await device.remove();
    await resetMouse();
  });

  it('[BATCH-1] the dialog says how many wait behind it and lists them: operation, summary, tool, time left, each openable to its content; axe passes', async () => {
    const clock = createFakeClock();
    const ctx = await setup({ clock });
    const answers = await burst(ctx, ['a.go', 'b.go', 'c.go', 'd.go', 'e.go']);
    const count = part(ctx.el, 'batch-count')!;
    expect(textOf(count)).to.equal('ほかに 4 件が待っています');
    expect(count.getAttribute('role')).to.equal('status');
    const list = part(ctx.el, 'batch-list')!;
    expect(list.tagName).to.equal('UL');
    expect(list.getAttribute('aria-labelledby')).to.equal(count.id);
    const items = parts(ctx.el, 'batch-item');
    expect(textOf(items[0].querySelector('summary'))).to.equal('go_delete_file b.go を削除します。 (go・残り 50 秒)');
    clock.advance(10_000);
    await ctx.el.updateComplete;
    expect(textOf(items[0].querySelector('summary'))).to.contain('残り 40 秒');
    const details = items[3].querySelector('details')!;
    details.open = true;
    await until(() => details.open);
    expect(textOf(details)).to.contain('ファイル「e.go」を削除する').and.contain('この操作は元に戻せません。');
    // The dialog's own call keeps focus and its own buttons.
    expect(ctx.el.shadowRoot!.activeElement).to.equal(part(ctx.el, 'cancel-button'));
    expect(textOf(part(ctx.el, 'title'))).to.equal('ファイル「a.go」を削除する');
    await expect(ctx.el).to.be.accessible();
    // One more arrives: the count changes in the live region.
    answers.push(ctx.session.call('go_delete_file', { path: 'f.go' }).then((json) => JSON.parse(json)));
    await until(() => textOf(count) === 'ほかに 5 件が待っています', 'the new count');
    // Leave no call in flight: on this injected clock the switch-off's withdrawal would wait for it (APP-1).
    clock.advance(50_000);
    expect((await Promise.all(answers)).every((e) => e.error.code === 'declined')).to.equal(true);
    ctx.session.turnOff();
    clock.advance(0);
  });

  it('[BATCH-2] five destructive calls in one burst: one press of すべて承認, one verification, exactly those five run; a sixth after the press is not approved', async () => {
    const ctx = await setup();
    const answers = await burst(ctx, ['a.go', 'b.go', 'c.go', 'd.go', 'e.go']);
    ctx.asked.length = 0;
    await offered(ctx.el);
    await approveAllByKeyboard(ctx.el);
    // The sixth arrives after the press, while the OS prompt is (or was) up.
    const sixth = ctx.session.call('go_delete_file', { path: 'f.go' }).then((json) => JSON.parse(json));
    const envelopes = await Promise.all(answers);
    expect(envelopes).to.deep.equal(['a.go', 'b.go', 'c.go', 'd.go', 'e.go'].map((path) => ({ ok: true, path })));
    expect(ctx.asked).to.deep.equal(['batch']);
    // The sixth is the dialog's own call now, waiting for its own decision.
    await until(() => ctx.aiOps.confirmations.getState().current?.status === 'waiting', 'the sixth shown');
    expect(textOf(part(ctx.el, 'title'))).to.equal('ファイル「f.go」を削除する');
    expect(part(ctx.el, 'batch-list')).to.equal(null);
    decide(ctx.aiOps).decline(ctx.aiOps.confirmations.getState().current!.id);
    expect((await sixth).error.code).to.equal('declined');
    expect(ctx.asked).to.deep.equal(['batch']);

    // BATCH-4: each row says it was approved together, and the audit lines check offline.
    const rows = ctx.aiOps.log.getState().entries.filter((r) => r.status === 'success');
    expect(rows.map((r) => r.batch?.size)).to.deep.equal([5, 5, 5, 5, 5]);
    const log = await fixture<AiOpsLog>(html`<ai-ops-log .aiOps=${ctx.aiOps} open></ai-ops-log>`);
    await log.updateComplete;
    await until(() => parts(log, 'batch').length === 5, 'the batch marks');
    expect(textOf(parts(log, 'batch')[0])).to.equal('まとめて承認(5 件)');
    const lines = auditRecord(rows).split('\n').filter(Boolean).map((l) => JSON.parse(l));
    for (const line of lines) expect(await verifyReceipt(line, ctx.key), line.args).to.equal(true);
  });

  it('[BATCH-2] a receipt for the five fails verifyReceipt for any other set or call', async () => {
    const ctx = await setup();
    const answers = await burst(ctx, ['a.go', 'b.go', 'c.go', 'd.go', 'e.go']);
    await offered(ctx.el);
    await approveAllByKeyboard(ctx.el);
    await Promise.all(answers);
    const lines = auditRecord(ctx.aiOps.log.getState().entries).split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const [line] = lines;
    expect(await verifyReceipt(line, ctx.key)).to.equal(true);
    // Another set: the receipt's description names four of them, or a sixth digest besides.
    const other = structuredClone(line.batch.call);
    other.callId += 100;
    const sets = [line.receipt.description.calls.slice(1), [...line.receipt.description.calls, await descriptionDigest(other)]];
    for (const calls of sets) {
      expect(await verifyReceipt({ ...line, receipt: { ...line.receipt, description: { ...line.receipt.description, calls } } }, ctx.key)).to.equal(false);
    }
    // Another call: one not in the set, another line's description, or other input under this description.
    expect(await verifyReceipt({ ...line, batch: { ...line.batch, call: other } }, ctx.key)).to.equal(false);
    expect(await verifyReceipt({ ...line, batch: lines[1].batch }, ctx.key)).to.equal(false);
    expect(await verifyReceipt({ ...line, inputJson: canonicalJson({ path: 'z.go' }) }, ctx.key)).to.equal(false);
    expect(await verifyReceipt({ ...line, batch: { ...line.batch, id: 'other' } }, ctx.key)).to.equal(false);
    expect(await verifyReceipt({ ...line, batch: null }, ctx.key)).to.equal(false);
  });

  it('[BATCH-2] [UV-11] すべて承認 is offered only once every listed item has been on screen for 750 ms', async () => {
    // A start of its own: the same moment as another test's would be the same switch-on, which a page signs once (UV-3).
    const clock = createFakeClock(Date.UTC(2025, 7, 1));
    const ctx = await setup({ clock });
    const answers = await burst(ctx, Array.from({ length: 21 }, (_, i) => `${i}.go`));
    const approveAll = part(ctx.el, 'approve-all-button')!;
    // The list scrolls: its last items have not been on screen yet.
    expect(approveAll.getAttribute('aria-disabled')).to.equal('true');
    expect(textOf(part(ctx.el, 'batch-hint'))).to.contain('すべて表示すると押せます');
    ctx.asked.length = 0;
    // Straight to the button (Tab through the list would bring each item on screen).
    approveAll.focus();
    await sendKeys({ press: 'Enter' });
    await ctx.el.updateComplete;
    expect(ctx.aiOps.confirmations.getState().current?.status).to.equal('waiting');
    expect(ctx.asked).to.deep.equal([]);
    // Items that only flash by (the whole list scrolled through at once, no time on screen) are not seen.
    const list = part(ctx.el, 'batch-list')!;
    for (let i = 0; i < 60 && list.scrollTop + list.clientHeight < list.scrollHeight; i++) {
      list.scrollTop += list.clientHeight / 2;
      await renderedTwice();
    }
    clock.advance(749);
    await ctx.el.updateComplete;
    expect(approveAll.getAttribute('aria-disabled')).to.equal('true');
    // The user reads through it, a part at a time: each part stays in view for 750 ms (IntersectionObserver reports on rendering).
    list.scrollTop = 0;
    for (let i = 0; i < 60 && approveAll.getAttribute('aria-disabled') === 'true'; i++) {
      await renderedTwice();
      clock.advance(750);
      await ctx.el.updateComplete;
      list.scrollTop += list.clientHeight / 2;
    }
    await offered(ctx.el);
    approveAll.focus();
    await sendKeys({ press: 'Enter' });
    const envelopes = await Promise.all(answers);
    expect(envelopes.every((e) => e.ok)).to.equal(true);
    expect(ctx.asked).to.deep.equal(['batch']);
    clock.advance(0); // the switch-off after the test waits a task on this clock (APP-1)
  });

  it('[BATCH-4] tab order 削除する/やめる → このページでは今後尋ねない (UV-18) → the list → すべて承認 → すべてやめる; すべてやめる declines exactly the listed calls', async () => {
    const ctx = await setup();
    const answers = await burst(ctx, ['a.go', 'b.go', 'c.go']);
    const order: string[] = [];
    const name = (node: Element | null) => (node?.getAttribute('part') ?? node?.tagName.toLowerCase() ?? 'none').replace('button ', '');
    order.push(name(ctx.el.shadowRoot!.activeElement));
    for (let i = 0; i < 6; i++) {
      await sendKeys({ press: 'Tab' });
      order.push(name(ctx.el.shadowRoot!.activeElement));
    }
    expect(order).to.deep.equal(['cancel-button', 'action-button', 'skip-button', 'summary', 'summary', 'approve-all-button', 'decline-all-button']);
    await sendKeys({ press: 'Enter' });
    expect((await Promise.all(answers)).map((e) => e.error.code)).to.deep.equal(['declined', 'declined', 'declined']);
  });

  it('[BATCH-4] SAFE-7\'s pointer guard applies to both batch buttons; the keyboard is not delayed', async () => {
    const ctx = await setup({ guard: 60_000 });
    const answers = await burst(ctx, ['a.go', 'b.go']);
    for (const name of ['approve-all-button', 'decline-all-button']) {
      const button = part(ctx.el, name)!;
      expect(button.getAttribute('aria-disabled'), name).to.equal('true');
      await sendMouse({ type: 'click', position: centerOf(button) });
      await ctx.el.updateComplete;
      expect(ctx.aiOps.confirmations.getState().queued, name).to.have.length(1);
      expect(ctx.aiOps.confirmations.getState().current?.status, name).to.equal('waiting');
    }
    part(ctx.el, 'decline-all-button')!.focus();
    await sendKeys({ press: 'Enter' });
    expect((await Promise.all(answers)).map((e) => e.error.code)).to.deep.equal(['declined', 'declined']);
  });

  it('[BATCH-3] a declined call retried within 60 s shows no second dialog and answers declined with retryAfterMs (the 60 s passing: batch.test.ts, injected clock)', async () => {
    const ctx = await setup();
    const first = ctx.session.call('go_delete_file', { path: 'a.go' });
    await until(() => ctx.el.shadowRoot!.querySelector('dialog')!.open, 'the dialog');
    await ctx.el.updateComplete;
    expect(ctx.el.shadowRoot!.activeElement, 'focus starts on やめる').to.equal(part(ctx.el, 'cancel-button'));
    await sendKeys({ press: 'Enter' });
    expect(JSON.parse(await first).error.message).to.contain('do not call it again unless the user asks');
    let opened = 0;
    ctx.el.shadowRoot!.querySelector('dialog')!.addEventListener('toggle', () => opened++);
    const again = JSON.parse(await ctx.session.call('go_delete_file', { path: 'a.go' }));
    expect(again.error.code).to.equal('declined');
    expect(again.retryAfterMs).to.be.within(1, 60_000);
    await ctx.el.updateComplete;
    expect(ctx.el.shadowRoot!.querySelector('dialog')!.open).to.equal(false);
    expect(opened).to.equal(0);
    expect(ctx.aiOps.log.getState().entries.at(-1)!.resultSummary.text).to.contain('not asked again');
  });
  it('[UV-11] [BATCH-4] a batch list that changes while the dialog waits starts SAFE-7\'s guard again: a pointer press right after approves nothing', async () => {
    // Another start than BATCH-1's clock: the same moment would be the same switch-on, which a page signs once (UV-3).
    const clock = createFakeClock(Date.UTC(2025, 5, 1));
    const ctx = await setup({ guard: POINTER_GUARD_MS, clock });
    const click = (name: string) => sendMouse({ type: 'click', position: centerOf(part(ctx.el, name)!) });
    const answers = await burst(ctx, ['a.go', 'b.go']);
    // The list's item in view for the guard's 750 ms (IntersectionObserver reports on rendering).
    await renderedTwice();
    clock.advance(POINTER_GUARD_MS);
    await offered(ctx.el);
    expect(part(ctx.el, 'action-button')!.hasAttribute('aria-disabled')).to.equal(false);
    // A third call arrives: 「すべて承認」 would now decide for three. The guard starts again.
    answers.push(ctx.session.call('go_delete_file', { path: 'c.go' }).then((json) => JSON.parse(json)));
    await until(() => parts(ctx.el, 'batch-item').length === 2, 'the longer list');
    await ctx.el.updateComplete;
    expect(part(ctx.el, 'action-button')!.getAttribute('aria-disabled')).to.equal('true');
    expect(part(ctx.el, 'approve-all-button')!.getAttribute('aria-disabled')).to.equal('true');
    ctx.asked.length = 0;
    await click('approve-all-button');
    await click('action-button');
    await ctx.el.updateComplete;
    expect(ctx.aiOps.confirmations.getState().current?.status).to.equal('waiting');
    expect(ctx.asked).to.deep.equal([]);
    // One listed call leaves the list (its caller cancelled it): a change too.
    clock.advance(POINTER_GUARD_MS);
    await ctx.el.updateComplete;
    expect(part(ctx.el, 'action-button')!.hasAttribute('aria-disabled')).to.equal(false);
    const controller = new AbortController();
    answers.push(ctx.session.call('go_delete_file', { path: 'd.go' }, { signal: controller.signal }).then((json) => JSON.parse(json)));
    await until(() => parts(ctx.el, 'batch-item').length === 3, 'd.go listed');
    clock.advance(POINTER_GUARD_MS);
    await ctx.el.updateComplete;
    controller.abort();
    await until(() => parts(ctx.el, 'batch-item').length === 2, 'd.go gone');
    await ctx.el.updateComplete;
    expect(part(ctx.el, 'action-button')!.getAttribute('aria-disabled')).to.equal('true');
    await click('action-button');
    await ctx.el.updateComplete;
    expect(ctx.aiOps.confirmations.getState().current?.status).to.equal('waiting');
    // Past the guard the same press approves the dialog's own call, with the device.
    clock.advance(POINTER_GUARD_MS);
    await ctx.el.updateComplete;
    await click('action-button');
    expect(await answers[0]).to.deep.equal({ ok: true, path: 'a.go' });
    expect(ctx.asked).to.deep.equal(['call']);
    // Leave no call in flight: on this injected clock the switch-off's withdrawal would wait for it (APP-1).
    clock.advance(50_000);
    await Promise.all(answers);
    ctx.session.turnOff();
    clock.advance(0);
  });
});
