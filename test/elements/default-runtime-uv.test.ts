// The page's default runtime verifies its switch-on (SHAPE-2, UV-1): it needs the user's device, a
// virtual authenticator (test/wtr-webauthn-plugin.mjs), so it runs in Chromium and Firefox, not in
// WebKitGTK (no WebAuthn: what the switch says there is in no-webauthn.webkit.test.ts). Its own
// file: getAiOps() is one runtime per page.
import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import * as elements from '../../elements/index.js';
import { loadAiOpsElements } from '../../elements/define.js';
import { configureAiOps, getAiOps } from '../../src/runtime.js';
import { deleteConsentDatabase, readConsentDatabase } from '../runtime/helpers.js';
import { cleanupRuntimes, createFakeLoader, MemoryStorage, testOperations, textOf, turnOn, until } from './helpers.js';

await loadAiOpsElements();

describe('elements: the default runtime with the user\'s device', () => {
  afterEach(() => cleanupRuntimes());

  it('[SHAPE-2] [UV-1] [UV-8] without provider or property, the page\'s default runtime (getAiOps) is used, verifying its switch-on as the default consent does, its receipts in IndexedDB', async () => {
    // The default runtime's consent is `auto`: the user's device is a virtual authenticator (CDP in
    // Chromium, Marionette in Firefox), and the switch-on goes through the real WebAuthn
    // verification, kept in the default consent store.
    const { authenticatorId } = (await executeServerCommand('webauthn', { action: 'add' })) as { authenticatorId: string };
    const storage = new MemoryStorage();
    configureAiOps({ storage, loader: createFakeLoader(), autoReconnect: false, embedded: false });
    const aiOps = getAiOps();
    const session = aiOps.provideOperations('drawio', testOperations('drawio'));
    const el = await fixture<elements.AiOpsSwitch>(html`<ai-ops-switch tool="drawio"></ai-ops-switch>`);
    expect(textOf(el.shadowRoot!.querySelector('label'))).to.equal('AI からの操作');
    await turnOn(session);
    await el.updateComplete;
    expect(el.on).to.equal(true);
    try {
      const records = await readConsentDatabase();
      // UV-14: beside the records, the page's own non-extractable key; each record kept with its tag.
      expect(Object.keys(records).sort()).to.deep.equal(['anchor', 'enrolment', 'receipts:drawio']);
      expect(records.anchor).to.be.instanceOf(CryptoKey);
      expect((records['receipts:drawio'] as { anchored: { on: { description: unknown } } }).anchored.on.description).to.include({ kind: 'switch', tool: 'drawio' });
      // localStorage: PERM-1's switch value only.
      expect([...Array(storage.length).keys()].map((i) => storage.key(i))).to.deep.equal(['fd-ai-operations:drawio']);
      session.turnOff();
      let left: string[] = [];
      await until(() => (void readConsentDatabase().then((r) => (left = Object.keys(r))), !left.includes('receipts:drawio') && left.length > 0), 'the receipts removed');
      expect(left.sort()).to.deep.equal(['anchor', 'enrolment']);
    } finally {
      session.turnOff();
      await executeServerCommand('webauthn', { action: 'remove', authenticatorId });
      await deleteConsentDatabase();
    }
  });
});
