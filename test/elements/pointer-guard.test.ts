// SAFE-7's guard on its own: a reactive controller timed by the clock its host injects. The
// dialog's use of it (real clicks, focus, aria-disabled) is tested in ai-ops-confirm.test.ts.
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { PointerGuardController } from '../../elements/confirm/pointer-guard.js';
import { createFakeClock } from './helpers.js';

const clock = createFakeClock();

class GuardedProbe extends LitElement {
  waiting = true;
  ms = 750;
  renders = 0;
  readonly guard = new PointerGuardController(this, { clock: () => clock, ms: () => this.ms, waiting: () => this.waiting });
  protected override render() {
    this.renders += 1;
    return this.guard.active ? 'guarded' : 'open';
  }
}
customElements.define('pointer-guard-probe', GuardedProbe);

const pointerClick = () => new PointerEvent('click', { pointerType: 'mouse', detail: 1 });
const keyboardClick = () => new MouseEvent('click', { detail: 0 });

describe('PointerGuardController', () => {
  it('[SAFE-7] guards for its time on the injected clock, then renders its host open; a press inside the guard never counts', async () => {
    const el = await fixture<GuardedProbe>(html`<pointer-guard-probe></pointer-guard-probe>`);
    el.guard.start();
    await el.updateComplete;
    expect(el.shadowRoot!.textContent).to.equal('guarded');
    el.guard.pressed(true);
    clock.advance(749);
    expect(el.guard.allows(pointerClick()), 'pressed and released inside the guard').to.equal(false);
    el.guard.pressed(true);
    clock.advance(1);
    await el.updateComplete;
    expect(el.shadowRoot!.textContent).to.equal('open');
    expect(el.guard.allows(pointerClick()), 'pressed inside, released after').to.equal(false);
    el.guard.pressed(true);
    expect(el.guard.allows(pointerClick()), 'pressed and released after').to.equal(true);
    expect(el.guard.allows(pointerClick()), 'a click without a press on the button').to.equal(false);
    el.guard.pressed(false);
    expect(el.guard.allows(pointerClick()), 'a press that began elsewhere').to.equal(false);
  });

  it('[SAFE-7] the keyboard is never delayed; 0 ms turns the guard off', async () => {
    const el = await fixture<GuardedProbe>(html`<pointer-guard-probe></pointer-guard-probe>`);
    el.guard.start();
    expect(el.guard.active).to.equal(true);
    expect(el.guard.allows(keyboardClick())).to.equal(true);
    el.ms = 0;
    el.guard.start();
    expect(el.guard.active).to.equal(false);
    el.guard.pressed(true);
    expect(el.guard.allows(pointerClick())).to.equal(true);
  });

  it('[SAFE-7] the page becoming visible re-guards while a request waits, not otherwise, and not once disconnected', async () => {
    const el = await fixture<GuardedProbe>(html`<pointer-guard-probe></pointer-guard-probe>`);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(el.guard.active, 'visible again with a request waiting').to.equal(true);
    el.guard.stop();
    expect(el.guard.active).to.equal(false);
    el.waiting = false;
    document.dispatchEvent(new Event('visibilitychange'));
    expect(el.guard.active, 'nothing waits').to.equal(false);
    el.waiting = true;
    el.remove();
    document.dispatchEvent(new Event('visibilitychange'));
    expect(el.guard.active, 'disconnected: no listener').to.equal(false);
  });

  it('[UV-18] [SAFE-7] for a key-guarded button (keys: true) a key press counts only when it went down on the button after the guard, and the click too', async () => {
    const el = await fixture<GuardedProbe>(html`<pointer-guard-probe></pointer-guard-probe>`);
    el.ms = 750;
    el.guard.start();
    el.guard.keyPressed(true);
    expect(el.guard.allows(keyboardClick(), { keys: true }), 'pressed inside the guard').to.equal(false);
    el.guard.keyPressed(true);
    clock.advance(750);
    expect(el.guard.allows(keyboardClick(), { keys: true }), 'pressed inside, the click after').to.equal(false);
    expect(el.guard.allows(keyboardClick(), { keys: true }), 'a click with no key on the button').to.equal(false);
    el.guard.keyPressed(false);
    expect(el.guard.allows(keyboardClick(), { keys: true }), 'a key that went down elsewhere').to.equal(false);
    el.guard.keyPressed(true);
    expect(el.guard.allows(keyboardClick(), { keys: true }), 'pressed and clicked after').to.equal(true);
    el.guard.start();
    expect(el.guard.allows(keyboardClick()), 'without keys: the keyboard is never delayed').to.equal(true);
  });
});
