import { expect, fixture, html } from '@open-wc/testing';
import { ContextProvider } from '@lit/context';
import { LitElement } from 'lit';
import * as elements from '../../elements/index.js';
import { aiOpsContext, AiOpsSwitch, StoreController } from '../../elements/index.js';
import { defineAiOpsElements, loadAiOpsElements } from '../../elements/define.js';
import { aiOpsStringsEn } from '../../elements/strings-en.js';
import { configureAiOps, getAiOps } from '../../src/runtime.js';
import { createStore } from '../../src/store.js';
import { cleanupRuntimes, createFakeLoader, createTestRuntime, MemoryStorage, testOperations, textOf, turnOn, until } from './helpers.js';
import { deleteConsentDatabase, readConsentDatabase } from '../runtime/helpers.js';

await loadAiOpsElements();

describe('elements: definition, runtime lookup, store controller', () => {
  afterEach(() => cleanupRuntimes());

  it('[SHAPE-2] the three tags are defined once, in one place; defining again is a no-op', () => {
    expect(customElements.get('ai-ops-switch')).to.equal(elements.AiOpsSwitch);
    expect(customElements.get('ai-ops-confirm')).to.equal(elements.AiOpsConfirm);
    expect(customElements.get('ai-ops-log')).to.equal(elements.AiOpsLog);
    expect(() => defineAiOpsElements()).to.not.throw();
    expect(document.createElement('ai-ops-switch')).to.be.instanceOf(AiOpsSwitch);
  });

  it('[SHAPE-2] every event is its own class, named ai-ops-*, heard by the page from inside a shadow root', () => {
    const host = document.createElement('div');
    document.body.append(host);
    const inside = host.attachShadow({ mode: 'open' }).appendChild(document.createElement('span'));
    const heard: Event[] = [];
    const events = [
      new elements.AiOpsSwitchChangeEvent({ tool: 'sql', on: true }),
      new elements.AiOpsConfirmApproveEvent({ id: 1, tool: 'sql', name: 'sql_drop', skipFuture: false }),
      new elements.AiOpsConfirmDeclineEvent({ id: 2, tool: 'sql', name: 'sql_drop', reason: 'escape' }),
      new elements.AiOpsLogVisibilityChangeEvent({ visible: true }),
    ];
    const names = ['ai-ops-switch-change', 'ai-ops-confirm-approve', 'ai-ops-confirm-decline', 'ai-ops-log-visibility-change'];
    for (const name of names) document.addEventListener(name, (event) => heard.push(event), { once: true });
    for (const event of events) inside.dispatchEvent(event);
    host.remove();
    expect(heard).to.deep.equal(events);
    expect(events.map((e) => e.type)).to.deep.equal(names);
    expect(events.map((e) => (e.constructor as unknown as { eventName: string }).eventName)).to.deep.equal(names);
    expect(events.every((e) => e instanceof CustomEvent && e.bubbles && e.composed)).to.equal(true);
    expect((events[2] as elements.AiOpsConfirmDeclineEvent).detail.reason).to.equal('escape');
  });

  it('[SHAPE-2] a context provider gives the runtime, ahead of the aiOps property', async () => {
    const fromContext = createTestRuntime();
    fromContext.provideOperations('sql', testOperations('sql'));
    const fromProperty = createTestRuntime();
    const host = await fixture<HTMLDivElement>(html`<div></div>`);
    const provider = new ContextProvider(host, { context: aiOpsContext, initialValue: fromContext });
    const el = document.createElement('ai-ops-switch');
    el.tool = 'sql';
    el.aiOps = fromProperty; // has no sql session: would render nothing
    host.append(el);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('input')).to.exist;
    await turnOn(fromContext.getSession('sql')!);
    await el.updateComplete;
    expect(el.on).to.equal(true);

    // A new value from the provider is followed.
    const other = createTestRuntime();
    other.provideOperations('sql', testOperations('sql'));
    provider.setValue(other);
    await el.updateComplete;
    expect(el.on).to.equal(false);
  });

  it('[SHAPE-2] StoreController subscribes while connected, renders on change, and can switch stores', async () => {
    const first = createStore({ n: 1 });
    const second = createStore({ n: 10 });
    class Probe extends LitElement {
      readonly counter = new StoreController(this, first);
      renders = 0;
      protected override render() {
        this.renders += 1;
        return String(this.counter.value?.n);
      }
    }
    customElements.define('store-controller-probe', Probe);
    const el = await fixture<Probe>(html`<store-controller-probe></store-controller-probe>`);
    expect(textOf(el.shadowRoot)).to.equal('1');
    first.setState({ n: 2 });
    await el.updateComplete;
    expect(textOf(el.shadowRoot)).to.equal('2');

    el.counter.setStore(second);
    await el.updateComplete;
    expect(textOf(el.shadowRoot)).to.equal('10');
    const renders = el.renders;
    first.setState({ n: 3 }); // the old store is no longer followed
    await el.updateComplete;
    expect(el.renders).to.equal(renders);

    el.remove();
    second.setState({ n: 11 }); // not connected: no update
    await el.updateComplete;
    expect(el.renders).to.equal(renders);
    document.body.append(el);
    await el.updateComplete;
    expect(textOf(el.shadowRoot)).to.equal('11');
    el.counter.setStore(second);
    el.counter.setStore(undefined);
    await el.updateComplete;
    expect(textOf(el.shadowRoot)).to.equal('undefined');
    el.remove();
  });

  it('[SHAPE-2] StoreController with a selector renders only when the slice changes, and follows the stores it reads through get', async () => {
    const inner = { a: createStore({ n: 1 }), b: createStore({ n: 100 }) };
    const outer = createStore<{ pick: 'a' | 'b'; other: number }>({ pick: 'a', other: 0 });
    let subscribed = 0;
    let subscriptions = 0;
    const counting = <T>(store: ReturnType<typeof createStore<T>>) => ({
      ...store,
      subscribe(listener: () => void) {
        subscribed += 1;
        subscriptions += 1;
        const stop = store.subscribe(listener);
        return () => {
          subscribed -= 1;
          stop();
        };
      },
    });
    const followed = { a: counting(inner.a), b: counting(inner.b) };
    class Picker extends LitElement {
      readonly picked = new StoreController(this, counting(outer), (state, get) => ({ n: get(followed[state.pick]).n }),
        (x, y) => x?.n === y?.n);
      renders = 0;
      protected override render() {
        this.renders += 1;
        return String(this.picked.value?.n);
      }
    }
    customElements.define('store-controller-picker', Picker);
    const el = await fixture<Picker>(html`<store-controller-picker></store-controller-picker>`);
    expect(textOf(el.shadowRoot)).to.equal('1');
    expect(subscribed, 'the store and the one store the selector read').to.equal(2);
    const before = subscriptions;
    inner.a.setState({ n: 2 });
    await el.updateComplete;
    expect(textOf(el.shadowRoot)).to.equal('2');
    expect(subscriptions, 'a store read again keeps its subscription (no unsubscribe inside its own notification)').to.equal(before);

    const renders = el.renders;
    outer.setState({ pick: 'a', other: 1 }); // a change outside the slice
    inner.b.setState({ n: 101 }); // a store the selector did not read
    await el.updateComplete;
    expect(el.renders, 'no render for changes outside the slice').to.equal(renders);

    outer.setState({ pick: 'b', other: 1 });
    await el.updateComplete;
    expect(textOf(el.shadowRoot)).to.equal('101');
    inner.a.setState({ n: 3 }); // no longer read: no longer followed
    await el.updateComplete;
    expect(el.renders).to.equal(renders + 1);
    expect(subscribed).to.equal(2);
    el.remove();
    expect(subscribed, 'nothing followed once disconnected').to.equal(0);
  });

  it('[SW-1] the default strings are the design doc\'s words; fillString keeps unknown placeholders', () => {
    const s = elements.defaultAiOpsStrings;
    expect([s.switchLabel, s.startFailedTitle, s.confirmSkipFuture, s.confirmCancel, s.logTitle, s.logConnectTitle, s.logReconnect])
      .to.deep.equal(['AI からの操作', 'AI からの操作を始められません', 'このページでは今後尋ねない', 'やめる', 'AI からの操作', 'AI のエージェントのつなぎ方', 'つなぎ直す']);
    expect([s.statusSuccess, s.statusDeclined, s.statusFailure]).to.deep.equal(['成功', '中止', '失敗']);
    expect(s.confirmIrreversible).to.equal('この操作は元に戻せません。');
    expect(s.confirmUndoable).to.contain('「元に戻す」');
    expect(elements.fillString('{a} and {b}', { a: 1 })).to.deep.equal(['', 1, ' and ', '{b}', '']);
    expect(Object.keys(aiOpsStringsEn).sort()).to.deep.equal(Object.keys(s).sort());
    // No on/off wording in the Japanese strings (SW-1).
    expect(Object.values(s).join('')).to.not.match(/オン|オフ/);
  });
});
