// UV-18: the skip is its own action, and SAFE-7's guard holds keyboard presses on it as well as
// pointer ones. Real key presses (sendKeys) on the dialog, within the guard on an injected clock.
// Consent is `click` here (no WebAuthn), so this runs in every engine; what is signed for a skip
// is tested with the real verifier in ai-ops-confirm-uv.test.ts.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import { POINTER_GUARD_MS } from '../../elements/confirm/ai-ops-confirm.js';
import { aiOpsStringsEn } from '../../elements/strings-en.js';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsConfirm } from '../../elements/confirm/ai-ops-confirm.js';
import { permissionKey } from '../../src/permission-store.js';
import { centerOf, cleanupRuntimes, createFakeClock, createTestRuntime, inputsDelivered, testOperations, textOf, turnOn, until } from './helpers.js';

await loadAiOpsElements();

async function setup() {
  const clock = createFakeClock();
  const aiOps = createTestRuntime();
  const session = aiOps.provideOperations('go', testOperations('go'));
  await turnOn(session);
  const el = await fixture<AiOpsConfirm>(html`<ai-ops-confirm .aiOps=${aiOps} .clock=${clock}></ai-ops-confirm>`);
  await el.updateComplete;
  return { aiOps, session, el, clock };
}

const active = (el: AiOpsConfirm) => el.shadowRoot!.activeElement as HTMLElement | null;
const skipOf = (aiOps: ReturnType<typeof createTestRuntime>) => JSON.parse(aiOps.storage.getItem(permissionKey('go'))!).skipConfirmUntil;

async function shown(el: AiOpsConfirm, path: string) {
  await until(() => el.shadowRoot!.querySelector('dialog')!.open && textOf(el.shadowRoot!.querySelector('h2')).includes(path), `the dialog for ${path}`);
  await el.updateComplete;
}

describe('<ai-ops-confirm> skip (UV-18)', () => {
  afterEach(async () => {
    cleanupRuntimes();
    await resetMouse();
  });

  it('[UV-18] [SAFE-7] within the guard, keys alone cannot grant the skip: Space and Enter on the skip action do nothing; Enter on the action approves the call alone, and the next call asks', async () => {
    const { aiOps, session, el } = await setup();
    let approvals = 0;
    el.addEventListener('ai-ops-confirm-approve', () => approvals++);
    const first = session.call('go_delete_file', { path: 'a.go' });
    await shown(el, 'a.go');
    // An agent's keys, all inside SAFE-7's guard (the clock never moves): Tab, Tab to the skip, Space, Enter.
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Tab' });
    expect(active(el)?.matches('[part~="skip-button"]'), 'the skip action has focus').to.equal(true);
    await sendKeys({ press: ' ' }); // Space, by its key value: puppeteer's BiDi keyboard (Firefox) has no 'Space' name
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(el.request?.status, 'nothing was approved').to.equal('waiting');
    expect(approvals).to.equal(0);
    // On the action, Enter: the call itself is approved at once (SAFE-7: the keyboard is not delayed
    // there). Focused by script: WebKit's WebDriver sends no Shift+Tab.
    el.shadowRoot!.querySelector<HTMLElement>('[part~="action-button"]')!.focus();
    await sendKeys({ press: 'Enter' });
    expect(JSON.parse(await first).ok).to.equal(true);
    expect(skipOf(aiOps), 'no skip was granted').to.equal(null);
    const second = session.call('go_delete_file', { path: 'b.go' });
    await shown(el, 'b.go');
    await sendKeys({ press: 'Enter' }); // やめる
    expect(JSON.parse(await second).error.code).to.equal('declined');
  });

  it('[UV-18] [SAFE-7] the skip is a labelled button of its own after the action, described under the buttons; a pointer press or a key inside the guard does not count; after it, Enter on it approves and skips', async () => {
    const { aiOps, session, el, clock } = await setup();
    const answer = session.call('go_delete_file', { path: 'c.go' });
    await shown(el, 'c.go');
    const root = el.shadowRoot!;
    const skip = root.querySelector<HTMLButtonElement>('[part~="skip-button"]')!;
    const action = root.querySelector<HTMLButtonElement>('[part~="action-button"]')!;
    expect(root.querySelector('input[type="checkbox"]'), 'no box changes what another button means').to.equal(null);
    expect(skip.localName).to.equal('button');
    expect(textOf(skip)).to.equal('このページでは今後尋ねない');
    expect(textOf(action)).to.equal('削除する');
    expect(action.compareDocumentPosition(skip) & Node.DOCUMENT_POSITION_FOLLOWING, 'after the action in the tab order').to.not.equal(0);
    const note = root.getElementById(skip.getAttribute('aria-describedby')!)!;
    expect(textOf(note)).to.equal('「このページでは今後尋ねない」は、この操作を実行し、スイッチを切るまで（最長 7 日）このツールの操作を確認なしで実行します。');
    expect(skip.getAttribute('aria-disabled'), 'guarded').to.equal('true');
    expect(root.activeElement, 'focus starts on やめる').to.equal(root.querySelector('[part~="cancel-button"]'));
    await expect(el).to.be.accessible();
    // A pointer inside the guard.
    await sendMouse({ type: 'click', position: centerOf(skip) });
    await inputsDelivered();
    // Enter inside the guard (a key held from inside it and released after: pointer-guard.test.ts).
    skip.focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(el.request?.status, 'nothing was approved').to.equal('waiting');
    clock.advance(POINTER_GUARD_MS);
    await el.updateComplete;
    expect(skip.hasAttribute('aria-disabled'), 'the guard is over').to.equal(false);
    const approved = oneEvent(el, 'ai-ops-confirm-approve');
    await sendKeys({ press: 'Enter' });
    expect((await approved).detail.skipFuture).to.equal(true);
    expect(JSON.parse(await answer).ok).to.equal(true);
    expect(skipOf(aiOps), 'the skip was granted').to.be.a('number');
    let opened = false;
    const stop = aiOps.confirmations.subscribe(() => (opened ||= aiOps.confirmations.getState().current !== null));
    expect(JSON.parse(await session.call('go_delete_file', { path: 'd.go' })).ok).to.equal(true);
    stop();
    expect(opened, 'the next call asks nothing').to.equal(false);
    // English strings too.
    expect(aiOpsStringsEn.confirmSkipFuture).to.equal('Do not ask again on this page');
    expect(aiOpsStringsEn.confirmSkipChosen).to.equal('“Do not ask again on this page” runs this operation, and this tool\'s operations then run without asking until the switch is turned off (7 days at most).');
  });
});
