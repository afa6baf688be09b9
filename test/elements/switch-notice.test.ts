// FIRST-2 in every engine (Chromium, Firefox ESR, WebKitGTK): the switch's notice is drawn above
// whatever the page puts over it (a full-window layer at the highest z-index, the switch inside a
// stacking context of its own, as a canvas app's header is), inside the viewport with the switch at
// the left, the centre or the right, announced as an alert, and closable with the keyboard. The
// playground's pages and widths are test/e2e/switch-notice.test.mjs.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../elements/define.js';
import '../../elements/internal/strings.js';
import type { AiOpsSwitch } from '../../elements/switch/ai-ops-switch.js';
import { cleanupRuntimes, createTestRuntime, testOperations, textOf, until } from './helpers.js';
import { pairedStore } from '../runtime/pairing-helpers.js';

/** Where the switch sits in its row. */
const POSITIONS = { left: 'flex-start', centre: 'center', right: 'flex-end' } as const;

describe('<ai-ops-switch> notice (FIRST-2)', () => {
  afterEach(() => cleanupRuntimes());

  for (const [position, justify] of Object.entries(POSITIONS)) {
    it(`[FIRST-2] a switch at the ${position}, under a full-window layer: its notice is what is drawn at its centre and corners, inside the viewport, and Escape closes it`, async () => {
      // Paired with its relay (DOOR-6), so the relay's embed loads (and fails) with the switch-on.
      const aiOps = createTestRuntime({ consentStore: pairedStore(9333) });
      aiOps.loader.failOn = { pattern: /embed\.js$/, message: 'could not load /ai-ops/vendor/relay/embed.js' };
      const session = aiOps.provideOperations('sql', testOperations('sql'));
      const page = await fixture<HTMLElement>(html`<div>
        <header style="position: relative; z-index: 0; display: flex; justify-content: ${justify}; width: 100vw; margin: 0">
          <ai-ops-switch tool="sql" .aiOps=${aiOps}></ai-ops-switch>
        </header>
        <canvas style="position: fixed; inset: 0; width: 100vw; height: 100vh; z-index: 2147483647"></canvas>
      </div>`);
      const el = page.querySelector<AiOpsSwitch>('ai-ops-switch')!;
      session.turnOn();
      await until(() => session.getState().error !== null, 'the start to fail', 20_000);
      await el.updateComplete;
      const alert = el.shadowRoot!.querySelector<HTMLElement>('[role="alert"]')!;
      expect(alert, 'the notice, an alert').to.exist;
      expect(textOf(alert.querySelector('[part="alert-title"]'))).to.equal('AI からの操作を始められません');

      const box = alert.getBoundingClientRect();
      const { clientWidth, clientHeight } = document.documentElement;
      expect(box.left, 'left edge inside the viewport').to.be.at.least(0);
      expect(box.right, 'right edge inside the viewport').to.be.at.most(clientWidth);
      expect(box.top).to.be.at.least(0);
      expect(box.bottom, JSON.stringify({ box, host: el.getBoundingClientRect(), clientHeight, popover: 'showPopover' in alert, open: alert.matches(':popover-open') })).to.be.at.most(clientHeight);
      for (const [x, y] of [[box.left + box.width / 2, box.top + box.height / 2], [box.left + 6, box.top + 6], [box.right - 6, box.bottom - 6]]) {
        // The document sees the switch (its shadow tree is retargeted to the host); inside it, the notice.
        expect(document.elementFromPoint(x, y), `drawn at (${x}, ${y})`).to.equal(el);
        expect(alert.contains(el.shadowRoot!.elementFromPoint(x, y)), `the notice at (${x}, ${y})`).to.equal(true);
      }

      const close = alert.querySelector('button')!;
      expect(close.getAttribute('aria-label')).to.equal('閉じる');
      close.focus();
      await sendKeys({ press: 'Escape' });
      await until(() => !el.shadowRoot!.querySelector('[role="alert"]'), 'Escape to close the notice');
      expect(el.shadowRoot!.activeElement?.getAttribute('role'), 'the focus is back on the switch').to.equal('switch');
    });
  }

  it('[FIRST-2] Tab reaches the notice\'s ×, Enter closes it; it stays closed until the next failure, whose notice shows again', async () => {
    // Paired with its relay (DOOR-6), so the relay's embed loads (and fails) with the switch-on.
    const aiOps = createTestRuntime({ consentStore: pairedStore(9333) });
    aiOps.loader.failOn = { pattern: /embed\.js$/, message: 'could not load /ai-ops/vendor/relay/embed.js' };
    const session = aiOps.provideOperations('sql', testOperations('sql'));
    const el = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="sql" .aiOps=${aiOps}></ai-ops-switch>`);
    session.turnOn();
    await until(() => session.getState().error !== null, 'the start to fail', 20_000);
    await el.updateComplete;
    el.shadowRoot!.querySelector('input')!.focus();
    await sendKeys({ press: 'Tab' });
    expect(el.shadowRoot!.activeElement?.getAttribute('aria-label')).to.equal('閉じる');
    await sendKeys({ press: 'Enter' });
    await until(() => !el.shadowRoot!.querySelector('[role="alert"]'), 'Enter to close the notice');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[role="alert"]'), 'closed until the state changes').to.equal(null);

    session.turnOn();
    await until(() => session.getState().status === 'off' && session.getState().error !== null && !!el.shadowRoot!.querySelector('[role="alert"]'), 'the next failure\'s notice');
    await expect(el).to.be.accessible();
  });
});
