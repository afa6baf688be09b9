// The log's 「元に戻す」 and 「記録を保存」 (UNDO-1..UNDO-4, AUDIT-1) with real input: the clicks and
// keys come from the browser (@web/test-runner-commands), a script's click() from the test.
import { expect, fixture, html } from '@open-wc/testing';
import { resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsConfirm } from '../../elements/confirm/ai-ops-confirm.js';
import type { AiOpsLog } from '../../elements/log/ai-ops-log.js';
import { auditRecord } from '../../src/audit-export.js';
import { formatTime } from '../../elements/internal/format.js';
import { aiOpsStringsEn } from '../../elements/strings-en.js';
import { defineOperation } from '../../src/definition.js';
import { succeed } from '../../src/result.js';
import { centerOf, cleanupRuntimes, createTestRuntime, textOf, turnOn, until, decide } from './helpers.js';

await loadAiOpsElements();

/** A page author's tool: notes kept by the page, `notes_write` hands back how to undo it. */
function notesTool() {
  const notes = new Map<string, string>();
  const definitions = [
    defineOperation({
      name: 'notes_read', description: 'Reads a note.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
      execute: async ({ path }) => succeed({ text: notes.get(path) ?? null }),
    }),
    defineOperation({
      name: 'notes_write', description: 'Writes a note.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } }, required: ['path', 'text'], additionalProperties: false },
      execute: async ({ path, text }) => {
        const had = notes.has(path);
        const before = notes.get(path) ?? '';
        notes.set(path, text);
        return {
          result: succeed({ path }),
          undo: {
            targets: [`notes:file:${path}`], bytes: before.length,
            undo: async () => void (had ? notes.set(path, before) : notes.delete(path)),
          },
        };
      },
    }),
  ];
  return { notes, definitions };
}

async function setup(runtimeOptions: Parameters<typeof createTestRuntime>[0] = {}) {
  const aiOps = createTestRuntime(runtimeOptions);
  const { notes, definitions } = notesTool();
  const session = aiOps.provideOperations('notes', definitions);
  await turnOn(session);
  const container = await fixture<HTMLElement>(html`<div>
    <ai-ops-log mode="tab" .aiOps=${aiOps}></ai-ops-log>
    <ai-ops-confirm .aiOps=${aiOps} pointer-guard-ms="0"></ai-ops-confirm>
  </div>`);
  const el = container.querySelector<AiOpsLog>('ai-ops-log')!;
  const dialog = container.querySelector<AiOpsConfirm>('ai-ops-confirm')!;
  return { aiOps, session, notes, el, dialog };
}

const rows = (el: AiOpsLog) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="row"]')];
const part = (root: ParentNode, name: string) => root.querySelector<HTMLElement>(`[part~="${name}"]`);
const click = (element: Element) => sendMouse({ type: 'click', position: centerOf(element) });
const rendered = async (el: AiOpsLog, count: number) => {
  await until(() => rows(el).length === count, `${count} rows`);
  await el.updateComplete;
};

describe('<ai-ops-log> undo and record', () => {
  afterEach(async () => {
    cleanupRuntimes();
    await resetMouse();
  });

  it('[UNDO-1] a changing call\'s row has 「元に戻す」 (named after it); a read\'s row has none; axe passes', async () => {
    const { session, el } = await setup();
    await session.call('notes_write', { path: 'a', text: 'one' });
    await session.call('notes_read', { path: 'a' });
    await rendered(el, 2);
    const [write, read] = rows(el);
    expect(write.dataset.undo).to.equal('available');
    expect(write.dataset.by).to.equal('agent');
    const button = part(write, 'undo-button') as HTMLButtonElement;
    expect(textOf(button)).to.equal('元に戻す');
    expect(button.getAttribute('aria-label')).to.match(/^元に戻す: notes_write \(\d\d:\d\d:\d\d\)$/);
    expect(read.hasAttribute('data-undo')).to.equal(false);
    expect(part(read, 'undo-button')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('[UNDO-3] a script\'s click() does nothing; the user\'s click undoes, and the undo is the user\'s own row', async () => {
    const { aiOps, session, el, notes } = await setup();
    notes.set('a', 'before');
    await session.call('notes_write', { path: 'a', text: 'after' });
    await rendered(el, 1);
    const button = part(rows(el)[0], 'undo-button')!;
    button.click();
    button.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
    // A sentinel through the same runtime, asked after the clicks: had one started the row's undo,
    // this would answer that another undo is running, or the row would be undone already.
    expect(await aiOps.undo(-1)).to.deep.equal({ status: 'unavailable', reason: 'row -1 has nothing to undo (not in the log)' });
    await el.updateComplete;
    expect(notes.get('a')).to.equal('after');
    expect(rows(el)[0].dataset.undo).to.equal('available');

    await click(button);
    await rendered(el, 2);
    expect(notes.get('a')).to.equal('before');
    const [write, undo] = rows(el);
    expect(write.dataset.undo).to.equal('undone');
    expect(textOf(part(write, 'undo-state'))).to.equal('元に戻しました。');
    expect(part(write, 'undo-button')).to.equal(null);
    expect(undo.dataset.by).to.equal('user');
    expect(undo.hasAttribute('data-undo')).to.equal(false);
    expect(textOf(part(undo, 'name'))).to.equal('notes_write');
    expect(textOf(part(undo, 'by'))).to.equal('あなたが元に戻した');
    expect(textOf(part(undo, 'badge'))).to.equal('成功');
    // Focus stays on the row rather than falling to the page.
    await until(() => el.shadowRoot!.activeElement === part(write, 'undo-state'), 'focus on the row\'s note');
    await expect(el).to.be.accessible();
  });

  it('[UNDO-1] the keyboard reaches 「元に戻す」 and Enter undoes', async () => {
    const { session, el, notes } = await setup();
    await session.call('notes_write', { path: 'k', text: 'typed' });
    await rendered(el, 1);
    part(rows(el)[0], 'undo-button')!.focus();
    await sendKeys({ press: 'Enter' });
    await rendered(el, 2);
    expect(notes.has('k')).to.equal(false);
    expect(rows(el)[0].dataset.undo).to.equal('undone');
  });

  it('[UNDO-2] a later change of the same target opens the dialog, the user\'s own: declining changes nothing', async () => {
    const { session, el, dialog, notes } = await setup();
    notes.set('a', 'v0');
    await session.call('notes_write', { path: 'a', text: 'v1' });
    await session.call('notes_write', { path: 'a', text: 'v2' });
    await rendered(el, 2);
    await click(part(rows(el)[0], 'undo-button')!);
    const root = dialog.shadowRoot!;
    await until(() => root.querySelector('dialog')!.open, 'the dialog');
    await dialog.updateComplete;
    expect(textOf(root.querySelector('[part~="body"]'))).to.contain('記録の「元に戻す」で、操作 notes_write による変更を元に戻します。');
    expect(textOf(root.querySelector('[part~="body"]'))).to.not.contain('AI のエージェント');
    expect(textOf(root.querySelector('[part~="body"]'))).to.contain('あとの変更も元に戻ります');
    expect(textOf(root.querySelector('[part~="action-button"]'))).to.equal('元に戻す');
    expect(root.querySelector('input[type="checkbox"]')).to.equal(null);
    expect(root.querySelector('[part~="skip-button"]'), 'no skip for the user\'s own undo (UV-18)').to.equal(null);
    expect(root.activeElement).to.equal(root.querySelector('[part~="cancel-button"]'));
    await until(() => part(rows(el)[0], 'undo-button')!.getAttribute('aria-busy') === 'true', 'the button busy while the dialog asks');
    await expect(dialog).to.be.accessible();
    await click(root.querySelector('[part~="cancel-button"]')!);
    await until(() => !root.querySelector('dialog')!.open, 'the dialog to close');
    await until(() => !part(rows(el)[0], 'undo-button')!.hasAttribute('aria-busy'), 'the button back');
    expect(notes.get('a')).to.equal('v2');
    expect(rows(el).map((r) => r.dataset.undo)).to.deep.equal(['available', 'available']);

    // Approved: newest first, both rows undone.
    await click(part(rows(el)[0], 'undo-button')!);
    await until(() => root.querySelector('dialog')!.open, 'the dialog again');
    await dialog.updateComplete;
    await click(root.querySelector('[part~="action-button"]')!);
    await rendered(el, 4);
    expect(notes.get('a')).to.equal('v0');
    expect(rows(el).map((r) => [r.dataset.undo ?? null, r.dataset.by])).to.deep.equal([
      ['undone', 'agent'], ['undone', 'agent'], [null, 'user'], [null, 'user'],
    ]);
  });

  it('[UNDO-2] the dialog words the user\'s undo in its own strings (English here), the user\'s edit included', async () => {
    const { aiOps, session, dialog } = await setup();
    dialog.strings = aiOpsStringsEn;
    await session.call('notes_write', { path: 'a', text: 'v1' });
    await session.call('notes_write', { path: 'a', text: 'v2' });
    const [first, second] = aiOps.log.getState().entries;
    const pending = aiOps.undo(first.id);
    const root = dialog.shadowRoot!;
    await until(() => root.querySelector('dialog')!.open, 'the dialog');
    await dialog.updateComplete;
    expect(textOf(root.querySelector('h2'))).to.equal('Undo notes_write');
    expect(textOf(root.querySelector('[part~="body"]'))).to.contain(`The later changes go too: notes_write (${formatTime(second.time)})`);
    expect(textOf(root.querySelector('[part~="body"]'))).to.contain('Undo from the log takes back what the operation notes_write changed.');
    expect(textOf(root.querySelector('[part~="action-button"]'))).to.equal('元に戻す');
    decide(aiOps).decline(aiOps.confirmations.getState().current!.id);
    expect((await pending).status).to.equal('declined');
  });

  it('[UNDO-4] a row whose before-state the budget dropped says it can no longer be undone', async () => {
    const { session, el, notes } = await setup({ undoBudgetBytes: 10 });
    notes.set('a', '12345678');
    notes.set('b', '12345678');
    await session.call('notes_write', { path: 'a', text: 'x' });
    await session.call('notes_write', { path: 'b', text: 'y' });
    await rendered(el, 2);
    await until(() => rows(el)[0].dataset.undo === 'dropped', 'the first row dropped');
    expect(part(rows(el)[0], 'undo-button')).to.equal(null);
    expect(textOf(part(rows(el)[0], 'undo-state'))).to.contain('もう元に戻せません');
    expect(rows(el)[1].dataset.undo).to.equal('available');
    await expect(el).to.be.accessible();
  });

  it('[UNDO-3] collapsed, the live region says the undo is the user\'s own', async () => {
    const aiOps = createTestRuntime();
    const { definitions } = notesTool();
    const session = aiOps.provideOperations('notes', definitions);
    await turnOn(session);
    const el = await fixture<AiOpsLog>(html`<ai-ops-log .aiOps=${aiOps}></ai-ops-log>`);
    await session.call('notes_write', { path: 'a', text: 'one' });
    await until(() => textOf(part(el.shadowRoot!, 'announcer')) === 'notes_write: 成功', 'the call said');
    await aiOps.undo(aiOps.log.getState().entries[0].id);
    await until(() => textOf(part(el.shadowRoot!, 'announcer')) === 'notes_write (あなたが元に戻した): 成功', 'the undo said');
  });

  it('[AUDIT-1] 「記録を保存」 downloads the rows as JSON Lines on the user\'s click only; the URL is revoked after', async () => {
    const { aiOps, session, el } = await setup();
    // A second log of the same runtime, whose download is the sentinel for the script's click below.
    const sentinel = await fixture<AiOpsLog>(html`<ai-ops-log mode="tab" .aiOps=${aiOps}></ai-ops-log>`);
    await session.call('notes_write', { path: 'a', text: 'one' });
    await session.call('notes_read', { path: 'a' });
    await rendered(el, 2);
    await rendered(sentinel, 2);
    const downloads: { href: string; name: string; text: string }[] = [];
    const revoked: string[] = [];
    const pending: Promise<void>[] = [];
    const sentinelHrefs: string[] = [];
    const { click: realClick } = HTMLAnchorElement.prototype;
    const { revokeObjectURL } = URL;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      if ((this.getRootNode() as ShadowRoot).host === sentinel) return void sentinelHrefs.push(this.href);
      // Read the file the browser would save, instead of saving it.
      pending.push(fetch(this.href).then((r) => r.text()).then((text) => void downloads.push({ href: this.href, name: this.download, text })));
    };
    URL.revokeObjectURL = (url: string) => {
      if (!sentinelHrefs.includes(url)) revoked.push(url);
      revokeObjectURL(url);
    };
    const stored = { local: localStorage.length, session: sessionStorage.length };
    try {
      const button = part(el.shadowRoot!, 'export-button')!;
      expect(textOf(button)).to.equal('記録を保存');
      button.click();
      // The user's click on the other log's button, after the script's: its download goes the same
      // way, so a download the script's click had started would have reached the link by then.
      await click(part(sentinel.shadowRoot!, 'export-button')!);
      await until(() => sentinelHrefs.length === 1, 'the sentinel\'s download');
      expect(pending).to.have.length(0);
      expect(downloads).to.have.length(0);
      await click(button);
      await until(() => pending.length === 1, 'the download');
      await Promise.all(pending);
      await until(() => revoked.length === 1, 'the object URL revoked');
    } finally {
      HTMLAnchorElement.prototype.click = realClick;
      URL.revokeObjectURL = revokeObjectURL;
    }
    const [download] = downloads;
    expect(download.name).to.match(/^ai-ops-log-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.jsonl$/);
    expect(revoked).to.deep.equal([download.href]);
    expect(download.text).to.equal(auditRecord(aiOps.log.getState().entries));
    const lines = download.text.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((l) => [l.operation, l.via, l.undone])).to.deep.equal([['notes_write', 'page', false], ['notes_read', 'page', false]]);
    expect({ local: localStorage.length, session: sessionStorage.length }).to.deep.equal(stored);
  });
});
