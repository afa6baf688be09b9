// FIRST-7: the log's footer — 「記録を保存」, the enrolled key's fingerprint, 「本人確認の登録を解除」 — is a
// labelled toolbar, the same in panel mode (most pages) and in tab mode (the node page's tab), and
// wraps cleanly at a narrow width. The key exists only after a verified switch-on, so the user's
// device is the virtual authenticator (test/wtr-webauthn-plugin.mjs).
import { expect, fixture, html } from '@open-wc/testing';
import { resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsLog } from '../../elements/log/ai-ops-log.js';
import { centerOf, cleanupRuntimes, textOf, until, userDevice as device } from './helpers.js';
import { part, setup } from './confirm-uv-setup.js';

await loadAiOpsElements();

/** The parts inside the toolbar, in order. */
const toolbarParts = (log: AiOpsLog) =>
  [...log.shadowRoot!.querySelectorAll('[role="toolbar"] [part]')].map((e) => e.getAttribute('part'));

describe('<ai-ops-log> footer (FIRST-7)', () => {
  afterEach(async () => {
    cleanupRuntimes();
    await device.remove();
    await resetMouse();
  });

  it('[FIRST-7] the footer is a toolbar named 記録の操作, and the tab shows the key\'s fingerprint and 本人確認の登録を解除 as the panel does', async () => {
    await device.add(true);
    const { aiOps } = await setup();
    const fingerprint = await aiOps.capabilities.getState()!.verification!.fingerprint();
    const panel = await fixture<AiOpsLog>(html`<ai-ops-log .aiOps=${aiOps}></ai-ops-log>`);
    await sendMouse({ type: 'click', position: centerOf(part(panel, 'panel-summary')!) });
    await until(() => !!part(panel, 'verification-key'), 'the panel\'s key line');
    // The node page's tab: content only, shown while its switch is on; no opening of its own.
    const tab = await fixture<AiOpsLog>(html`<ai-ops-log mode="tab" .aiOps=${aiOps}></ai-ops-log>`);
    await until(() => !!part(tab, 'verification-key'), 'the tab\'s key line');
    await tab.updateComplete;
    for (const log of [panel, tab]) {
      const toolbar = log.shadowRoot!.querySelector<HTMLElement>('[role="toolbar"]')!;
      expect(toolbar.getAttribute('part')).to.equal('actions');
      expect(toolbar.getAttribute('aria-label')).to.equal('記録の操作');
      expect(textOf(part(log, 'verification-key'))).to.equal(`本人確認の鍵: ${fingerprint}`);
      expect(textOf(part(log, 'unenrol-button'))).to.equal('本人確認の登録を解除');
      await expect(log).to.be.accessible();
    }
    expect(toolbarParts(tab)).to.deep.equal(toolbarParts(panel));
    expect(toolbarParts(tab)).to.deep.equal(['export-button', 'verification-key', 'unenrol-button']);
  });

  it('[FIRST-7] at 240 px the toolbar wraps inside its box, its items on shared baselines; arrow keys move between its buttons', async () => {
    await device.add(true);
    const { aiOps } = await setup();
    const wrapper = await fixture<HTMLDivElement>(html`<div style="width: 240px"><ai-ops-log mode="tab" .aiOps=${aiOps}></ai-ops-log></div>`);
    const log = wrapper.querySelector<AiOpsLog>('ai-ops-log')!;
    await until(() => !!part(log, 'verification-key'), 'the key line');
    await log.updateComplete;
    const toolbar = log.shadowRoot!.querySelector<HTMLElement>('[role="toolbar"]')!;
    const style = getComputedStyle(toolbar);
    expect(style.flexWrap).to.equal('wrap');
    expect(style.alignItems).to.equal('baseline');
    // Nothing runs out of the toolbar: it does not scroll sideways and each item is inside its box.
    expect(toolbar.scrollWidth).to.be.at.most(toolbar.clientWidth);
    const box = toolbar.getBoundingClientRect();
    const items = [...toolbar.children] as HTMLElement[];
    expect(items.length).to.equal(3);
    for (const item of items) {
      const r = item.getBoundingClientRect();
      expect(r.left, item.getAttribute('part')!).to.be.at.least(box.left - 0.5);
      expect(r.right, item.getAttribute('part')!).to.be.at.most(box.right + 0.5);
    }
    // It did wrap (three items do not fit in 240 px), and items never overlap.
    const tops = new Set(items.map((i) => Math.round(i.getBoundingClientRect().top)));
    expect(tops.size).to.be.greaterThan(1);
    for (const [a, b] of [[0, 1], [1, 2], [0, 2]]) {
      const [ra, rb] = [items[a].getBoundingClientRect(), items[b].getBoundingClientRect()];
      const apart = ra.right <= rb.left + 0.5 || rb.right <= ra.left + 0.5 || ra.bottom <= rb.top + 0.5 || rb.bottom <= ra.top + 0.5;
      expect(apart, `${a} and ${b} overlap`).to.equal(true);
    }

    // The toolbar pattern: → and ← move between the buttons, wrapping.
    const save = part(log, 'export-button')!;
    const unenrol = part(log, 'unenrol-button')!;
    save.focus();
    await sendKeys({ press: 'ArrowRight' });
    expect(log.shadowRoot!.activeElement).to.equal(unenrol);
    await sendKeys({ press: 'ArrowRight' });
    expect(log.shadowRoot!.activeElement).to.equal(save);
    await sendKeys({ press: 'End' });
    expect(log.shadowRoot!.activeElement).to.equal(unenrol);
  });
});
