import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/define.js';
import { createTestRuntime, testOperations } from './helpers.js';
describe('debug', () => {
  it('fails', async () => {
    const aiOps = createTestRuntime();
    aiOps.loader.failOn = { pattern: /mcp-b-global/, message: 'nope' };
    const session = aiOps.provideOperations('sql', testOperations('sql'));
    const seen: unknown[] = [];
    session.subscribe(() => seen.push(session.getState()));
    const el = await fixture(html`<ai-ops-switch tool="sql" .aiOps=${aiOps}></ai-ops-switch>`);
    session.turnOn();
    await new Promise((r) => setTimeout(r, 200));
    console.log(JSON.stringify(seen), JSON.stringify(aiOps.loader.loads), el.shadowRoot!.innerHTML);
    expect(1).to.equal(1);
  });
});
