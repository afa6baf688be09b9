// The page's default runtime verifies its switch-on (SHAPE-2, UV-1): it needs the user's device, a
// virtual authenticator (test/wtr-webauthn-plugin.mjs), so it runs in Chromium and Firefox, not in
// WebKitGTK (no WebAuthn: what the switch says there is in no-webauthn.webkit.test.ts). Its own
// file: getAiOps() is one runtime per page.
import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import * as elements from '../../elements/index.js';
import { loadAiOpsElements } from '../../elements/define.js';
import { configureAiOps, getAiOps } from '../../src/runtime.js';
import { cleanupRuntimes, createFakeLoader, MemoryStorage, testOperations, textOf, turnOn } from './helpers.js';

await loadAiOpsElements();

describe('elements: the default runtime with the user\'s device', () => {
  afterEach(() => cleanupRuntimes());

  it('[SHAPE-2] [UV-1] without provider or property, the page\'s default runtime (getAiOps) is used, verifying its switch-on as the default consent does', async () => {
    // The default runtime's consent is `auto`, and this browser is automated: the user's device is a
    // virtual authenticator (CDP in Chromium, Marionette in Firefox), and the switch-on goes through
    // the real WebAuthn verification.
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
    expect(JSON.parse(storage.getItem('fd-ai-operations:drawio:uv')!).on.description).to.include({ kind: 'switch', tool: 'drawio' });
    session.turnOff();
    await executeServerCommand('webauthn', { action: 'remove', authenticatorId });
  });
});
