import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendMouse, resetMouse } from '@web/test-runner-commands';
import '../../elements/define.js';
import type { AiOpsSwitch } from '../../elements/switch/ai-ops-switch.js';
import { setAiOpsStrings } from '../../elements/internal/strings.js';
import { aiOpsStringsEn } from '../../elements/strings-en.js';
import { permissionKey } from '../../src/permission-store.js';
import {
  centerOf, cleanupRuntimes, createGate, fakeModelContext, createTestRuntime, MemoryStorage, statusReached, testOperations, textOf, turnOn, until,
} from './helpers.js';
import { pairedStore } from '../runtime/pairing-helpers.js';
import { RefusingStorage, switchParts, turnOffWhileStorageRefuses } from './switch-refused-off.js';

describe('<ai-ops-switch>', () => {
  afterEach(async () => {
    cleanupRuntimes();
    await resetMouse();
  });

  it('[SW-1] is accessible, labelled 「AI からの操作」, a role=switch checkbox, and off by default', async () => {
    const aiOps = createTestRuntime();
    aiOps.provideOperations('sql', testOperations('sql'));
    const el = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="sql" .aiOps=${aiOps}></ai-ops-switch>`);
    await expect(el).to.be.accessible();
    const { input, label } = switchParts(el);
    expect(input).to.exist;
    expect(input!.type).to.equal('checkbox');
    expect(input!.getAttribute('role')).to.equal('switch');
    expect(input!.checked).to.equal(false);
    expect(textOf(label)).to.equal('AI からの操作');
    expect(label!.htmlFor).to.equal(input!.id);
    expect(el.on).to.equal(false);
    // SW-1: no other on/off wording anywhere — the label is the only text.
    expect(textOf(el.shadowRoot)).to.equal('AI からの操作');
    expect(aiOps.loader.loads).to.deep.equal([]);
  });

  it('[SW-1][SW-2] a real click turns it on: busy while starting, checked, event, stored key; accessible on', async () => {
    const aiOps = createTestRuntime();
    const session = aiOps.provideOperations('sql', testOperations('sql'));
    const gate = createGate();
    aiOps.loader.gate = gate.promise;
    const el = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="sql" .aiOps=${aiOps}></ai-ops-switch>`);
    const { input } = switchParts(el);
    const changed = oneEvent(el, 'ai-ops-switch-change');
    await sendMouse({ type: 'click', position: centerOf(input!) });
    const event = await changed;
    expect(event.detail).to.deep.equal({ tool: 'sql', on: true });
    expect(event.bubbles && event.composed).to.equal(true);
    // The on-demand part (the consent gate, UV-1) decides first, then the scripts load.
    await statusReached(session, 'starting');
    await el.updateComplete;
    expect(input!.checked).to.equal(true);
    expect(input!.getAttribute('aria-busy')).to.equal('true');
    gate.open();
    await statusReached(session, 'on');
    await el.updateComplete;
    expect(input!.checked).to.equal(true);
    expect(input!.hasAttribute('aria-busy')).to.equal(false);
    expect(aiOps.storage.getItem(permissionKey('sql'))).to.be.a('string');
    expect([...fakeModelContext.tools.keys()]).to.include('sql_echo');
    expect(textOf(el.shadowRoot)).to.equal('AI からの操作');
    await expect(el).to.be.accessible();
  });

  it('[SW-1][SW-3] clicking the label turns it off: unchecked, unregistered, key deleted', async () => {
    const aiOps = createTestRuntime();
    const session = aiOps.provideOperations('sql', testOperations('sql'));
    await turnOn(session);
    const el = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="sql" .aiOps=${aiOps}></ai-ops-switch>`);
    const { input, label } = switchParts(el);
    expect(input!.checked).to.equal(true);
    const changed = oneEvent(el, 'ai-ops-switch-change');
    await sendMouse({ type: 'click', position: centerOf(label!) });
    expect((await changed).detail).to.deep.equal({ tool: 'sql', on: false });
    await el.updateComplete;
    expect(session.getState().status).to.equal('off');
    expect(input!.checked).to.equal(false);
    expect(aiOps.storage.getItem(permissionKey('sql'))).to.equal(null);
    expect(fakeModelContext.tools.size).to.equal(0);
  });

  it('[SW-1] follows changes made elsewhere (expiry, another tab) without firing its event', async () => {
    const aiOps = createTestRuntime();
    const session = aiOps.provideOperations('sql', testOperations('sql'));
    const el = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="sql" .aiOps=${aiOps}></ai-ops-switch>`);
    let events = 0;
    el.addEventListener('ai-ops-switch-change', () => events++);
    await turnOn(session);
    await el.updateComplete;
    expect(switchParts(el).input!.checked).to.equal(true);
    session.turnOff();
    await el.updateComplete;
    expect(switchParts(el).input!.checked).to.equal(false);
    expect(events).to.equal(0);
  });

  it('[SW-4] a script that fails to load: back off, key deleted, a role=alert notice with title and reason', async () => {
    // A page paired with its relay (DOOR-6), so the relay's embed loads with the switch-on.
    const aiOps = createTestRuntime({ consentStore: pairedStore(9333) });
    aiOps.loader.failOn = { pattern: /embed\.js$/, message: 'could not load /ai-ops/vendor/relay/embed.js' };
    const session = aiOps.provideOperations('sql', testOperations('sql'));
    const el = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="sql" .aiOps=${aiOps}></ai-ops-switch>`);
    await sendMouse({ type: 'click', position: centerOf(switchParts(el).input!) });
    await until(() => session.getState().error !== null, 'the start to fail');
    await el.updateComplete;
    const { input, alert } = switchParts(el);
    expect(input!.checked).to.equal(false);
    expect(session.getState().status).to.equal('off');
    expect(aiOps.storage.getItem(permissionKey('sql'))).to.equal(null);
    expect(alert).to.exist;
    expect(textOf(alert!.querySelector('[part="alert-title"]'))).to.equal('AI からの操作を始められません');
    expect(textOf(alert!.querySelector('[part="alert-body"]'))).to.equal('could not load /ai-ops/vendor/relay/embed.js');
    // Under the switch: after it in the shadow tree.
    expect(switchParts(el).input!.compareDocumentPosition(alert!) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);
    await expect(el).to.be.accessible();

    // Turning it on again clears the notice.
    aiOps.loader.failOn = null;
    await sendMouse({ type: 'click', position: centerOf(switchParts(el).input!) });
    await statusReached(session, 'on');
    await el.updateComplete;
    expect(switchParts(el).alert).to.equal(null);
  });

  it('[SW-4] a refused registration, and a stored "on" failing at page load, show the notice too', async () => {
    const storage = new MemoryStorage();
    storage.setItem(permissionKey('sql'), JSON.stringify({ v: 1, enabledUntil: Date.now() + 60_000, skipConfirmUntil: null }));
    fakeModelContext.refuseRegistration = 'InvalidStateError: sql_echo is registered already';
    const aiOps = createTestRuntime({ storage });
    const session = aiOps.provideOperations('sql', testOperations('sql'));
    const el = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="sql" .aiOps=${aiOps}></ai-ops-switch>`);
    await until(() => session.getState().error !== null, 'the stored start to fail');
    await el.updateComplete;
    expect(switchParts(el).input!.checked).to.equal(false);
    expect(storage.getItem(permissionKey('sql'))).to.equal(null);
    expect(textOf(switchParts(el).alert)).to.contain('AI からの操作を始められません');
    expect(textOf(switchParts(el).alert)).to.contain('InvalidStateError: sql_echo is registered already');
  });

  it('[SW-5] in an embedded page it renders nothing and loads nothing', async () => {
    const storage = new MemoryStorage();
    storage.setItem(permissionKey('sql'), JSON.stringify({ v: 1, enabledUntil: Date.now() + 60_000, skipConfirmUntil: null }));
    const aiOps = createTestRuntime({ embedded: true, storage });
    aiOps.provideOperations('sql', testOperations('sql'));
    const el = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="sql" .aiOps=${aiOps}></ai-ops-switch>`);
    expect(el.hidden).to.equal(true);
    expect(el.shadowRoot!.querySelector('input')).to.equal(null);
    expect(textOf(el.shadowRoot)).to.equal('');
    expect(el.getBoundingClientRect().width).to.equal(0);
    expect(aiOps.loader.loads).to.deep.equal([]);
  });

  it('[SW-1] renders nothing until its tool is provided, then appears', async () => {
    const aiOps = createTestRuntime();
    const el = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="go" .aiOps=${aiOps}></ai-ops-switch>`);
    expect(el.hidden).to.equal(true);
    expect(switchParts(el).input).to.equal(null);
    aiOps.provideOperations('sql', testOperations('sql'));
    await el.updateComplete;
    expect(switchParts(el).input).to.equal(null);
    aiOps.provideOperations('go', testOperations('go'));
    await el.updateComplete;
    expect(el.hidden).to.equal(false);
    expect(switchParts(el).input).to.exist;
    // Pointing it at another tool follows that tool.
    el.tool = 'sql';
    await el.updateComplete;
    await turnOn(aiOps.getSession('sql')!);
    await el.updateComplete;
    expect(switchParts(el).input!.checked).to.equal(true);
  });

  it('[SW-1] delegates focus to the switch, and Space toggles it', async () => {
    const aiOps = createTestRuntime();
    const session = aiOps.provideOperations('sql', testOperations('sql'));
    const el = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="sql" .aiOps=${aiOps}></ai-ops-switch>`);
    el.focus();
    expect(el.shadowRoot!.activeElement).to.equal(switchParts(el).input);
    const { sendKeys } = await import('@web/test-runner-commands');
    await sendKeys({ press: ' ' }); // Space, by its key value: puppeteer's BiDi keyboard (Firefox) has no 'Space' name
    await statusReached(session, 'on');
    await el.updateComplete;
    expect(switchParts(el).input!.checked).to.equal(true);
  });

  it('[SW-1] strings can be replaced per element and page-wide without forking', async () => {
    const aiOps = createTestRuntime();
    aiOps.loader.failOn = { pattern: /./, message: 'offline' };
    const session = aiOps.provideOperations('sql', testOperations('sql'));
    const el = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="sql" .aiOps=${aiOps}></ai-ops-switch>`);
    try {
      setAiOpsStrings(aiOpsStringsEn);
      await el.updateComplete;
      expect(textOf(switchParts(el).label)).to.equal('Operations from AI');
      el.strings = { switchLabel: 'KI-Operationen' };
      await el.updateComplete;
      expect(textOf(switchParts(el).label)).to.equal('KI-Operationen');
      session.turnOn();
      await until(() => session.getState().error !== null, 'the start to fail');
      await el.updateComplete;
      expect(textOf(switchParts(el).alert)).to.equal('Operations from AI could not start offline');
    } finally {
      setAiOpsStrings({});
    }
    el.strings = undefined;
    await el.updateComplete;
    expect(textOf(switchParts(el).label)).to.equal('AI からの操作');
  });

  it('[SAFE-3] turning off while storage refuses every write: the switch is off, and a role=alert notice says that a reload turns it back on (the accessibility tree: ai-ops-switch-a11y.chromium.test.ts)', () => turnOffWhileStorageRefuses(async (alert) => {
    expect(alert.getAttribute('role')).to.equal('alert');
  }));

  it('[SAFE-3] the notice follows the page-wide strings', async () => {
    const storage = new RefusingStorage();
    const aiOps = createTestRuntime({ storage });
    const session = aiOps.provideOperations('sql', testOperations('sql'));
    await turnOn(session);
    const el = await fixture<AiOpsSwitch>(html`<ai-ops-switch tool="sql" .aiOps=${aiOps}></ai-ops-switch>`);
    storage.refuse = true;
    session.turnOff();
    try {
      setAiOpsStrings(aiOpsStringsEn);
      await el.updateComplete;
      expect(textOf(switchParts(el).alert)).to.equal('The permission could not be removed Reloading this page starts operations from AI again.');
    } finally {
      setAiOpsStrings({});
    }
  });
});
