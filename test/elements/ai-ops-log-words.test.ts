// FIRST-4: a person reads the log in the page's language. A failed row says what happened in a
// sentence of the page's strings; the envelope's own text (written for the agent, in English) is
// under a native 「詳細」 disclosure, and the agent still gets exactly that envelope.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsLog } from '../../elements/log/ai-ops-log.js';
import { aiOpsStringsEn } from '../../elements/strings-en.js';
import { defaultAiOpsStrings } from '../../elements/internal/strings.js';
import { defineOperation } from '../../src/definition.js';
import { ErrorCode, fail, succeed } from '../../src/result.js';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import { centerOf, cleanupRuntimes, createTestRuntime, testOperations, textOf, turnOn, until } from './helpers.js';

await loadAiOpsElements();

const part = (root: ParentNode, name: string) => root.querySelector<HTMLElement>(`[part~="${name}"]`);
const rowsOf = (el: AiOpsLog) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[role="log"] > [part~="row"]')];

/** An operation that fails with `code` and an English message written for the agent (its name does not say the code). */
const failing = (code: ErrorCode, index: number) => defineOperation({
  name: `sql_case${index}`,
  description: '必ず失敗する。',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  execute: async () => fail(code, `raw ${code} message for the agent`),
});

const codes = Object.values(ErrorCode);

/** The strings' key of a code's sentence: `not_found` → `logCodeNotFound`. */
const keyOf = (code: string) => `logCode${code.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase())}` as keyof typeof defaultAiOpsStrings;

async function setup() {
  const aiOps = createTestRuntime();
  const session = aiOps.provideOperations('sql', [...testOperations('sql'), ...codes.map(failing)]);
  const el = await fixture<AiOpsLog>(html`<ai-ops-log mode="tab" .aiOps=${aiOps}></ai-ops-log>`);
  await turnOn(session);
  return { aiOps, session, el };
}

/** Opens a row's 「詳細」 as a click on its summary does. */
async function openDetails(el: AiOpsLog, row: HTMLElement) {
  const details = part(row, 'result-details') as HTMLDetailsElement;
  const toggled = oneEvent(details, 'toggle');
  details.querySelector('summary')!.click();
  await toggled;
  await el.updateComplete;
  return details;
}

describe('<ai-ops-log> words (FIRST-4)', () => {
  afterEach(() => cleanupRuntimes());

  it('[FIRST-4] a failed row says its code in a Japanese sentence; the raw envelope text is under a native 「詳細」; the agent gets the same envelope', async () => {
    const { session, el } = await setup();
    const answers: string[] = [];
    for (const index of codes.keys()) answers.push(await session.call(`sql_case${index}`, {}));
    // The validator's own text, as the issue saw it in the log.
    answers.push(await session.call('sql_echo', { x: 1 }));
    await el.updateComplete;

    // What the agent got is the envelope, untouched.
    expect(answers.slice(0, codes.length).map((a) => JSON.parse(a))).to.deep.equal(
      codes.map((code) => ({ ok: false, error: { code, message: `raw ${code} message for the agent` } })));
    const invalid = JSON.parse(answers.at(-1)!) as { error: { code: string; message: string } };
    expect(invalid.error.code).to.equal('invalid_input');
    expect(invalid.error.message).to.contain('additional properties');

    const rows = rowsOf(el);
    expect(rows.length).to.equal(codes.length + 1);
    const sentences = new Set<string>();
    for (const [index, row] of rows.entries()) {
      const code = index < codes.length ? codes[index] : 'invalid_input';
      const line = part(row, 'row-summary')!;
      const summary = textOf(part(line, 'result-summary'));
      // The line reads the page's sentence, no code and no English of the agent's.
      expect(summary, code).to.equal(defaultAiOpsStrings[keyOf(code)]);
      expect(summary).to.match(/[\u3040-\u30ff]/);
      expect(textOf(line)).to.not.contain(code);
      expect(textOf(line)).to.not.contain('message for the agent');
      sentences.add(summary);
      // The raw text: a native <details> named 詳細, outside the row's own summary.
      const details = part(row, 'result-details') as HTMLDetailsElement;
      expect(details.localName).to.equal('details');
      expect(line.contains(details)).to.equal(false);
      expect(textOf(details.querySelector(':scope > summary'))).to.equal('詳細');
      expect(details.open).to.equal(false);
      await openDetails(el, row);
      const raw = textOf(part(details, 'result-raw'));
      expect(raw).to.contain(`"code": "${code}"`);
      expect(raw).to.contain(index < codes.length ? `raw ${code} message for the agent` : invalid.error.message);
    }
    // Each code has its own sentence.
    expect(sentences.size).to.equal(codes.length);
    await expect(el).to.be.accessible();
  });

  it('[FIRST-4] a successful row has no 「詳細」; with English strings the sentence and the disclosure are English', async () => {
    const { session, el } = await setup();
    await session.call('sql_echo', { text: 'hi' });
    await session.call('sql_fail', {});
    el.strings = aiOpsStringsEn;
    await el.updateComplete;
    const [ok, failed] = rowsOf(el);
    expect(part(ok, 'result-details')).to.equal(null);
    expect(textOf(part(ok, 'result-summary'))).to.equal('{"text":"hi"}');
    expect(textOf(part(failed, 'result-summary'))).to.equal(aiOpsStringsEn.logCodeNotFound);
    const details = await openDetails(el, failed);
    expect(textOf(details.querySelector(':scope > summary'))).to.equal('Details');
    expect(textOf(part(details, 'result-raw'))).to.contain('no such file: a.txt');
    await expect(el).to.be.accessible();
  });

  it('[FIRST-4] collapsed, the panel\'s last row reads the sentence too', async () => {
    const aiOps = createTestRuntime();
    const session = aiOps.provideOperations('sql', testOperations('sql'));
    const el = await fixture<AiOpsLog>(html`<ai-ops-log .aiOps=${aiOps}></ai-ops-log>`);
    await turnOn(session);
    await session.call('sql_fail', {});
    await el.updateComplete;
    const last = part(el.shadowRoot!, 'last-row')!;
    expect(textOf(part(last, 'result-summary'))).to.equal(defaultAiOpsStrings.logCodeNotFound);
    expect(textOf(last)).to.not.contain('not_found');
  });
});

describe('<ai-ops-log> undo failure words (FIRST-4)', () => {
  afterEach(async () => {
    cleanupRuntimes();
    await resetMouse();
  });

  it('[FIRST-4] an undo that fails says so in the page\'s language; the tool\'s own message is under 「詳細」', async () => {
    const aiOps = createTestRuntime();
    const session = aiOps.provideOperations('notes', [defineOperation({
      name: 'notes_write', description: 'Writes a note.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      execute: async () => ({
        result: succeed({}),
        undo: { targets: ['notes:file:a'], bytes: 0, undo: async () => { throw new Error('the note store is read-only now'); } },
      }),
    })]);
    await turnOn(session);
    const el = await fixture<AiOpsLog>(html`<ai-ops-log mode="tab" .aiOps=${aiOps}></ai-ops-log>`);
    await session.call('notes_write', {});
    await el.updateComplete;
    const button = part(rowsOf(el)[0], 'undo-button')!;
    await sendMouse({ type: 'click', position: centerOf(button) });
    await until(() => !!el.shadowRoot!.querySelector('.undo [role="status"]'), 'the undo failure note');
    const note = el.shadowRoot!.querySelector<HTMLElement>('.undo [role="status"]')!;
    const details = note.querySelector('details')!;
    expect(details, 'a 詳細 disclosure').to.not.equal(null);
    expect(textOf(details.querySelector('summary'))).to.equal('詳細');
    expect(textOf(note).replace(textOf(details), '').trim()).to.equal('元に戻せませんでした。');
    expect(details.textContent).to.contain('the note store is read-only now');
    await expect(el).to.be.accessible();
  });
});
