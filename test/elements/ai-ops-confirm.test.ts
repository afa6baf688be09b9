import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsConfirm } from '../../elements/confirm/ai-ops-confirm.js';
import { permissionKey } from '../../src/permission-store.js';
import type { AiOps } from '../../src/runtime.js';
import {
  centerOf, cleanupRuntimes, createFakeClock, createGate, createTestRuntime, inputsDelivered, testOperations, textOf, turnOn, until,
  type FakeClock,
} from './helpers.js';
import { POINTER_GUARD_MS } from '../../elements/confirm/ai-ops-confirm.js';

// All three tags now, as a page that has turned a switch on has them.
await loadAiOpsElements();

const view = (el: AiOpsConfirm) => {
  const root = el.shadowRoot!;
  return {
    dialog: root.querySelector('dialog')!,
    title: root.querySelector('h2'),
    body: root.querySelector('[part="body"]'),
    detail: root.querySelector<HTMLDetailsElement>('details'),
    skip: root.querySelector<HTMLButtonElement>('[part~="skip-button"]'),
    cancel: root.querySelector<HTMLButtonElement>('.cancel'),
    action: root.querySelector<HTMLButtonElement>('.action'),
  };
};

/** What a test sets on the element; by default no pointer guard (SAFE-7 has its own tests below). */
interface ElementOptions {
  pointerGuardMs?: number;
  clock?: FakeClock;
  automated?: boolean;
}

async function setup(
  options: Parameters<typeof testOperations>[1] = {},
  runtimeOptions: Parameters<typeof createTestRuntime>[0] = {},
  element: ElementOptions = { pointerGuardMs: 0 },
) {
  const aiOps = createTestRuntime(runtimeOptions);
  const session = aiOps.provideOperations('go', testOperations('go', options));
  await turnOn(session);
  const el = await fixture<AiOpsConfirm>(html`<ai-ops-confirm .aiOps=${aiOps}></ai-ops-confirm>`);
  if (element.pointerGuardMs !== undefined) el.pointerGuardMs = element.pointerGuardMs;
  if (element.clock) el.clock = element.clock;
  if (element.automated !== undefined) el.automated = element.automated;
  await el.updateComplete;
  return { aiOps, session, el };
}

/** Waits until the dialog shows the request for `path` (CONF-7 needs to tell them apart). */
async function shown(el: AiOpsConfirm, path?: string) {
  await until(() => view(el).dialog.open && (!path || textOf(view(el).title).includes(path)), `the dialog for ${path ?? 'a request'}`);
  await el.updateComplete;
}

async function closed(el: AiOpsConfirm) {
  await until(() => !view(el).dialog.open, 'the dialog to close');
}

const click = (element: Element) => sendMouse({ type: 'click', position: centerOf(element) });

describe('<ai-ops-confirm>', () => {
  afterEach(async () => {
    cleanupRuntimes();
    await resetMouse();
  });

  it('[CONF-1][CONF-2][CONF-3] is accessible; shows title, action label, body, detail, the skip as its own button (UV-18); focus on やめる', async () => {
    const { session, el } = await setup({ detail: '# 見出し\n<b>本文</b> "引用"' });
    await expect(el).to.be.accessible();
    expect(view(el).dialog.open).to.equal(false);

    const answer = session.call('go_delete_file', { path: 'src/main.go' });
    await shown(el);
    const v = view(el);
    expect(v.dialog.matches(':modal')).to.equal(true);
    expect(textOf(v.title)).to.equal('ファイル「src/main.go」を削除する');
    expect(v.dialog.getAttribute('aria-labelledby')).to.equal(v.title!.id);
    expect(textOf(v.action)).to.equal('削除する');
    expect(textOf(v.cancel)).to.equal('やめる');
    // CONF-2: an AI agent called it, its name, the summary, and that it cannot be undone.
    expect(textOf(v.body)).to.contain('AI のエージェントが、操作 go_delete_file を呼び出しました。');
    expect(textOf(v.body!.querySelector('code'))).to.equal('go_delete_file');
    expect(textOf(v.body)).to.contain('src/main.go を削除します。');
    expect(textOf(v.body)).to.contain('この操作は元に戻せません。');
    expect(v.detail!.open).to.equal(false);
    expect(textOf(v.detail!.querySelector('summary'))).to.equal('渡された内容の全文');
    const pre = v.detail!.querySelector('pre')!;
    expect(pre.textContent).to.equal('# 見出し\n<b>本文</b> "引用"');
    expect(pre.querySelector('b')).to.equal(null);
    // CONF-3, UV-18: the skip, a button of its own below the body, after the action; focus starts on やめる.
    expect(el.shadowRoot!.querySelector('input[type="checkbox"]')).to.equal(null);
    expect(textOf(v.skip)).to.equal('このページでは今後尋ねない');
    expect(v.body!.compareDocumentPosition(v.skip!) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);
    expect(v.action!.compareDocumentPosition(v.skip!) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);
    expect(el.shadowRoot!.activeElement).to.equal(v.cancel);
    expect(document.activeElement).to.equal(el);
    await expect(el).to.be.accessible();
    v.detail!.open = true;
    await expect(el).to.be.accessible();

    await click(view(el).cancel!);
    expect(JSON.parse(await answer).error.code).to.equal('declined');
  });

  it('[CONF-2] says that 「元に戻す」 restores it when the tool can undo; no disclosure without detail', async () => {
    const { session, el } = await setup({ undoable: true });
    void session.call('go_delete_file', { path: 'a.go' });
    await shown(el);
    expect(textOf(view(el).body)).to.contain('この操作は「元に戻す」で戻せます。');
    expect(textOf(view(el).body)).to.not.contain('元に戻せません');
    expect(view(el).detail).to.equal(null);
  });

  it('[CONF-4] after the action: loading; やめる, Esc and the backdrop do not close; closes when execution ends', async () => {
    const gate = createGate();
    const { session, el } = await setup({ gate: gate.promise });
    const answer = session.call('go_delete_file', { path: 'a.go' });
    await shown(el);
    const approved = oneEvent(el, 'ai-ops-confirm-approve');
    await click(view(el).action!);
    expect((await approved).detail).to.deep.equal({ id: 1, tool: 'go', name: 'go_delete_file', skipFuture: false });
    await el.updateComplete;
    let v = view(el);
    expect(v.action!.getAttribute('aria-busy')).to.equal('true');
    expect(v.action!.disabled).to.equal(true);
    expect(textOf(v.action)).to.equal('実行中…');
    expect(v.action!.querySelector('[part="spinner"]')).to.exist;
    expect(v.cancel!.disabled).to.equal(true);
    await expect(el).to.be.accessible();

    await click(v.cancel!);
    await sendKeys({ press: 'Escape' });
    await sendKeys({ press: 'Escape' });
    await sendMouse({ type: 'click', position: [3, 3] });
    // Each of those was delivered (and anything it would have started rendered) before this checks.
    await inputsDelivered();
    await el.updateComplete;
    v = view(el);
    expect(v.dialog.open).to.equal(true);
    expect(textOf(v.action)).to.equal('実行中…');
    expect(el.request?.status).to.equal('running');

    gate.open();
    expect(JSON.parse(await answer)).to.deep.equal({ path: 'a.go', ok: true });
    await closed(el);
  });

  it('[CONF-5] the skip action (UV-18: its own button): later calls of that tool skip the dialog; the plain action and やめる never save the choice', async () => {
    const { aiOps, session, el } = await setup();
    // やめる saves nothing; nor does the plain action.
    const first = session.call('go_delete_file', { path: 'a.go' });
    await shown(el);
    await click(view(el).cancel!);
    expect(JSON.parse(await first).error.code).to.equal('declined');
    expect(JSON.parse(aiOps.storage.getItem(permissionKey('go'))!).skipConfirmUntil).to.equal(null);
    const plain = session.call('go_delete_file', { path: 'p.go' });
    await shown(el, 'p.go');
    await click(view(el).action!);
    expect(JSON.parse(await plain).ok).to.equal(true);
    expect(JSON.parse(aiOps.storage.getItem(permissionKey('go'))!).skipConfirmUntil).to.equal(null);

    const second = session.call('go_delete_file', { path: 'b.go' });
    await shown(el, 'b.go');
    const approved = oneEvent(el, 'ai-ops-confirm-approve');
    await click(view(el).skip!);
    expect((await approved).detail.skipFuture).to.equal(true);
    expect(JSON.parse(await second).ok).to.equal(true);
    await closed(el);
    expect(JSON.parse(aiOps.storage.getItem(permissionKey('go'))!).skipConfirmUntil).to.be.a('number');

    let opened = false;
    const stop = aiOps.confirmations.subscribe(() => (opened ||= aiOps.confirmations.getState().current !== null));
    expect(JSON.parse(await session.call('go_delete_file', { path: 'c.go' }))).to.deep.equal({ path: 'c.go', ok: true });
    stop();
    expect(opened).to.equal(false);
    expect(view(el).dialog.open).to.equal(false);
  });

  it('[CONF-6] やめる, Esc and a click on the backdrop each answer declined and close the dialog', async () => {
    const { session, el } = await setup();
    const reasons: string[] = [];
    el.addEventListener('ai-ops-confirm-decline', (event) => reasons.push(event.detail.reason));

    const byCancel = session.call('go_delete_file', { path: 'a.go' });
    await shown(el, 'a.go');
    await click(view(el).cancel!);
    expect(JSON.parse(await byCancel).error.code).to.equal('declined');
    await closed(el);

    const byEscape = session.call('go_delete_file', { path: 'b.go' });
    await shown(el, 'b.go');
    await sendKeys({ press: 'Escape' });
    expect(JSON.parse(await byEscape).error.code).to.equal('declined');
    await closed(el);

    const byBackdrop = session.call('go_delete_file', { path: 'c.go' });
    await shown(el, 'c.go');
    // A press inside the dialog that ends on the backdrop (selecting text) is not a backdrop click.
    const box = view(el).body!.getBoundingClientRect();
    await sendMouse({ type: 'move', position: [Math.round(box.left + 5), Math.round(box.top + 5)] });
    await sendMouse({ type: 'down' });
    await sendMouse({ type: 'move', position: [3, 3] });
    await sendMouse({ type: 'up' });
    await inputsDelivered();
    await el.updateComplete;
    expect(view(el).dialog.open).to.equal(true);
    await sendMouse({ type: 'click', position: [3, 3] });
    expect(JSON.parse(await byBackdrop).error.code).to.equal('declined');
    await closed(el);

    expect(reasons).to.deep.equal(['cancel', 'escape', 'backdrop']);
  });

  it('[CONF-6] a dialog the browser closes by itself (not the queue) answers declined', async () => {
    const { session, el } = await setup();
    const answer = session.call('go_delete_file', { path: 'a.go' });
    await shown(el);
    view(el).dialog.close();
    expect(JSON.parse(await answer).error.code).to.equal('declined');
    await closed(el);
  });

  it('[CONF-7] the element moved in the page while a request shows keeps a modal dialog', async () => {
    const { session, el } = await setup();
    const answer = session.call('go_delete_file', { path: 'a.go' });
    await shown(el);
    const parent = el.parentElement!;
    el.remove();
    parent.append(el);
    await until(() => view(el).dialog.matches(':modal'), 'a modal dialog again');
    expect(el.request?.status).to.equal('waiting');
    await click(view(el).cancel!);
    expect(JSON.parse(await answer).error.code).to.equal('declined');
  });

  it('[CONF-3] a scripted click on the action does not approve (isTrusted); a real click does', async () => {
    const { session, el } = await setup();
    const answer = session.call('go_delete_file', { path: 'a.go' });
    await shown(el);
    let delivered = 0;
    view(el).action!.addEventListener('click', () => delivered++);
    view(el).action!.click();
    view(el).action!.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
    // Both reached the button (its handler runs before this listener), and a round trip later the
    // tasks they could have queued have run and any change rendered.
    expect(delivered).to.equal(2);
    await inputsDelivered();
    await el.updateComplete;
    expect(el.request?.status).to.equal('waiting');
    expect(view(el).dialog.open).to.equal(true);
    await click(view(el).action!);
    expect(JSON.parse(await answer)).to.deep.equal({ path: 'a.go', ok: true });
    await closed(el);
  });

  it('[CONF-3] Enter on the focused button activates it: the keyboard path starts on やめる', async () => {
    const { session, el } = await setup();
    const answer = session.call('go_delete_file', { path: 'a.go' });
    await shown(el);
    await sendKeys({ press: 'Enter' });
    expect(JSON.parse(await answer).error.code).to.equal('declined');
    const second = session.call('go_delete_file', { path: 'b.go' });
    await shown(el, 'b.go');
    await sendKeys({ press: 'Tab' });
    expect(el.shadowRoot!.activeElement).to.equal(view(el).action);
    await sendKeys({ press: 'Enter' });
    expect(JSON.parse(await second).ok).to.equal(true);
  });

  it('[CONF-7] two at once are shown in turn, focus on やめる each time; calls without confirmation never wait', async () => {
    const { session, el } = await setup();
    const first = session.call('go_delete_file', { path: 'one.go' });
    const second = session.call('go_delete_file', { path: 'two.go' });
    await shown(el, 'one.go');
    expect(el.shadowRoot!.querySelectorAll('h2').length).to.equal(1);
    expect(JSON.parse(await session.call('go_echo', { text: 'not waiting' }))).to.deep.equal({ text: 'not waiting', ok: true });
    await click(view(el).cancel!);
    expect(JSON.parse(await first).error.code).to.equal('declined');
    await shown(el, 'two.go');
    expect(view(el).dialog.open).to.equal(true);
    expect(el.shadowRoot!.activeElement).to.equal(view(el).cancel);
    await click(view(el).action!);
    expect(JSON.parse(await second).ok).to.equal(true);
    await closed(el);
  });

  it('[CONF-8] 50 s after arrival: declined and the dialog closes; a queued one is never shown', async () => {
    const clock = createFakeClock();
    const { aiOps, session, el } = await setup({}, { clock });
    const titles: string[] = [];
    const stop = aiOps.confirmations.subscribe(() => {
      const current = aiOps.confirmations.getState().current;
      if (current) titles.push(current.content.title);
    });
    const first = session.call('go_delete_file', { path: 'one.go' });
    await shown(el, 'one.go');
    clock.advance(20_000);
    const second = session.call('go_delete_file', { path: 'two.go' });
    await until(() => aiOps.confirmations.getState().queued.length === 1, 'two.go queued');
    clock.advance(29_999);
    // The deadline's timer would have fired inside advance(); what it changed is rendered now.
    await el.updateComplete;
    expect(aiOps.confirmations.getState().current?.content.title).to.contain('one.go');
    expect(view(el).dialog.open).to.equal(true);
    clock.advance(1);
    expect(JSON.parse(await first).error.code).to.equal('declined');
    await shown(el, 'two.go');
    clock.advance(20_000);
    expect(JSON.parse(await second).error.code).to.equal('declined');
    await closed(el);

    // Queued and timed out before it could show: never shown.
    const third = session.call('go_delete_file', { path: 'three.go' });
    await shown(el, 'three.go');
    const fourth = session.call('go_delete_file', { path: 'four.go' });
    await until(() => aiOps.confirmations.getState().queued.length === 1, 'four.go queued');
    clock.advance(50_000);
    expect(JSON.parse(await third).error.code).to.equal('declined');
    expect(JSON.parse(await fourth).error.code).to.equal('declined');
    await closed(el);
    stop();
    expect(titles.some((t) => t.includes('four.go'))).to.equal(false);
  });

  it('[CONF-8] a confirmed call is not cut by the deadline', async () => {
    const clock = createFakeClock();
    const gate = createGate();
    const { session, el } = await setup({ gate: gate.promise }, { clock });
    const answer = session.call('go_delete_file', { path: 'a.go' });
    await shown(el);
    await click(view(el).action!);
    await until(() => el.request?.status === 'running', 'the call approved');
    clock.advance(120_000);
    // A deadline still running would have fired inside advance(); what it changed is rendered now.
    await el.updateComplete;
    expect(el.request?.status).to.equal('running');
    expect(view(el).dialog.open).to.equal(true);
    gate.open();
    expect(JSON.parse(await answer).ok).to.equal(true);
    await closed(el);
  });

  it('[CONF-9] opens without animation frames, as in a background tab', async () => {
    const { session, el } = await setup();
    const raf = window.requestAnimationFrame;
    window.requestAnimationFrame = () => 0;
    try {
      const answer = session.call('go_delete_file', { path: 'a.go' });
      await until(() => view(el).dialog.open, 'the dialog to open without frames');
      expect(textOf(view(el).title)).to.contain('a.go');
      await click(view(el).cancel!);
      expect(JSON.parse(await answer).error.code).to.equal('declined');
    } finally {
      window.requestAnimationFrame = raf;
    }
  });

  it('[SW-3] turning the switch off closes the dialog; the waiting and queued calls answer declined', async () => {
    const { session, el } = await setup();
    const first = session.call('go_delete_file', { path: 'one.go' });
    const second = session.call('go_delete_file', { path: 'two.go' });
    await shown(el, 'one.go');
    session.turnOff();
    expect(JSON.parse(await first).error.code).to.equal('declined');
    expect(JSON.parse(await second).error.code).to.equal('declined');
    await closed(el);
  });

  it('[CONF-7] one dialog for the page: requests of two tools share it', async () => {
    const aiOps: AiOps = createTestRuntime();
    const go = aiOps.provideOperations('go', testOperations('go'));
    const node = aiOps.provideOperations('node', testOperations('node'));
    await turnOn(go);
    await turnOn(node);
    const el = await fixture<AiOpsConfirm>(html`<ai-ops-confirm .aiOps=${aiOps} .pointerGuardMs=${0}></ai-ops-confirm>`);
    const a = go.call('go_delete_file', { path: 'a.go' });
    const b = node.call('node_delete_file', { path: 'b.js' });
    await shown(el, 'a.go');
    expect(textOf(view(el).body)).to.contain('go_delete_file');
    await click(view(el).cancel!);
    await shown(el, 'b.js');
    expect(textOf(view(el).body)).to.contain('node_delete_file');
    await click(view(el).cancel!);
    expect(JSON.parse(await a).error.code).to.equal('declined');
    expect(JSON.parse(await b).error.code).to.equal('declined');
  });
});

describe('<ai-ops-confirm> against clicks it should not take', () => {
  afterEach(async () => {
    cleanupRuntimes();
    await resetMouse();
  });

  const notice = (el: AiOpsConfirm) => el.shadowRoot!.querySelector('[part="automation-notice"]');

  it('[SAFE-7] a click on the action within the guard time after the dialog appears does nothing; a click after it approves', async () => {
    const clock = createFakeClock();
    const { session, el } = await setup({}, {}, { clock });
    expect(POINTER_GUARD_MS).to.be.within(500, 1000);
    expect(el.pointerGuardMs).to.equal(POINTER_GUARD_MS);
    const answer = session.call('go_delete_file', { path: 'a.go' });
    await shown(el);
    await click(view(el).action!); // the user was clicking where the dialog opened
    clock.advance(POINTER_GUARD_MS - 1);
    await click(view(el).action!);
    await inputsDelivered();
    await el.updateComplete;
    expect(el.request?.status).to.equal('waiting');
    expect(view(el).dialog.open).to.equal(true);
    clock.advance(1);
    await el.updateComplete;
    await click(view(el).action!);
    expect(JSON.parse(await answer)).to.deep.equal({ path: 'a.go', ok: true });
    await closed(el);
  });

  it('[SAFE-7] during the guard the action is marked aria-disabled (automation waits for it); after, it is not', async () => {
    const clock = createFakeClock();
    const { session, el } = await setup({}, {}, { clock });
    void session.call('go_delete_file', { path: 'a.go' });
    await shown(el);
    expect(view(el).action!.getAttribute('aria-disabled')).to.equal('true');
    expect(view(el).action!.disabled, 'the keyboard can still reach and press it').to.equal(false);
    await expect(el).to.be.accessible();
    clock.advance(POINTER_GUARD_MS);
    await el.updateComplete;
    expect(view(el).action!.hasAttribute('aria-disabled')).to.equal(false);
    await click(view(el).cancel!);
  });

  it('[SAFE-7] a press that began within the guard and is released after it does not approve', async () => {
    const clock = createFakeClock();
    const { session, el } = await setup({}, {}, { clock });
    const answer = session.call('go_delete_file', { path: 'a.go' });
    await shown(el);
    await sendMouse({ type: 'move', position: centerOf(view(el).action!) });
    await sendMouse({ type: 'down' });
    clock.advance(POINTER_GUARD_MS + 100);
    await sendMouse({ type: 'up' });
    await inputsDelivered();
    await el.updateComplete;
    expect(el.request?.status).to.equal('waiting');
    await click(view(el).action!);
    expect(JSON.parse(await answer).ok).to.equal(true);
  });

  it('[SAFE-7] the guard does not delay focus on やめる nor the keyboard: Tab then Enter, or Space, approves at once', async () => {
    const clock = createFakeClock();
    const { session, el } = await setup({}, {}, { clock });
    const first = session.call('go_delete_file', { path: 'a.go' });
    await shown(el);
    expect(el.shadowRoot!.activeElement).to.equal(view(el).cancel);
    await sendKeys({ press: 'Tab' });
    expect(el.shadowRoot!.activeElement).to.equal(view(el).action);
    await sendKeys({ press: 'Enter' });
    expect(JSON.parse(await first).ok).to.equal(true);
    await closed(el);
    const second = session.call('go_delete_file', { path: 'b.go' });
    await shown(el, 'b.go');
    expect(el.shadowRoot!.activeElement).to.equal(view(el).cancel);
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: ' ' }); // Space, by its key value: puppeteer's BiDi keyboard (Firefox) has no 'Space' name
    expect(JSON.parse(await second).ok).to.equal(true);
  });

  it('[SAFE-7] each new dialog, and the page becoming visible again, starts the guard anew', async () => {
    const clock = createFakeClock();
    const { session, el } = await setup({}, {}, { clock });
    const first = session.call('go_delete_file', { path: 'a.go' });
    const second = session.call('go_delete_file', { path: 'b.go' });
    await shown(el, 'a.go');
    clock.advance(POINTER_GUARD_MS);
    await click(view(el).action!);
    expect(JSON.parse(await first).ok).to.equal(true);
    await shown(el, 'b.go');
    await click(view(el).action!); // the next dialog appeared under the pointer
    await inputsDelivered();
    await el.updateComplete;
    expect(el.request?.status).to.equal('waiting');
    clock.advance(POINTER_GUARD_MS);
    // The user comes back to the tab (a dialog may have opened in the background, CONF-9).
    document.dispatchEvent(new Event('visibilitychange'));
    await el.updateComplete;
    await click(view(el).action!);
    await inputsDelivered();
    await el.updateComplete;
    expect(el.request?.status).to.equal('waiting');
    clock.advance(POINTER_GUARD_MS);
    await el.updateComplete;
    await click(view(el).action!);
    expect(JSON.parse(await second).ok).to.equal(true);
  });

  it('[AGENT-3] in a browser driven by a program (navigator.webdriver is true here) the dialog says the program could press the button itself', async () => {
    expect(navigator.webdriver, 'web-test-runner drives this Chromium').to.equal(true);
    const { session, el } = await setup({}, {}, { pointerGuardMs: 0 });
    void session.call('go_delete_file', { path: 'a.go' });
    await shown(el);
    expect(textOf(notice(el))).to.equal(
      'このブラウザーは、プログラムから操作されています。そのプログラムは、このダイアログのボタンを自分で押すこともできます。',
    );
    expect(view(el).body!.contains(notice(el))).to.equal(true);
    await expect(el).to.be.accessible();
    await click(view(el).cancel!);
  });

  it('[AGENT-3] the detection can be set: automated=false shows no notice, true shows it; English strings too', async () => {
    const { session, el } = await setup({}, {}, { pointerGuardMs: 0, automated: false });
    void session.call('go_delete_file', { path: 'a.go' });
    await shown(el);
    expect(notice(el)?.outerHTML ?? null).to.equal(null);
    el.automated = true;
    el.strings = { confirmAutomated: 'A program is driving this browser; it could press these buttons itself.' };
    await el.updateComplete;
    expect(textOf(notice(el))).to.equal('A program is driving this browser; it could press these buttons itself.');
    await click(view(el).cancel!);
  });
});
