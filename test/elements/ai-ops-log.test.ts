import type { PageCapabilities } from '../../src/capabilities.js';
import { aTimeout, expect, fixture, html, oneEvent } from '@open-wc/testing';
import { resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import { loadAiOpsElements } from '../../elements/define.js';
import type { AiOpsLog } from '../../elements/log/ai-ops-log.js';
import { defineOperation } from '../../src/definition.js';
import { succeed } from '../../src/result.js';
import { createStore } from '../../src/store.js';
import { aiOpsStringsEn } from '../../elements/strings-en.js';
import { pairedStore } from '../runtime/pairing-helpers.js';
import {
  centerOf, cleanupRuntimes, createFakeClock, createTestRuntime, testOperations, textOf, turnOn, until, decide } from './helpers.js';

// All three tags now, as a page that has turned a switch on has them.
await loadAiOpsElements();

const rowsOf = (el: AiOpsLog) => [...el.shadowRoot!.querySelectorAll<HTMLDetailsElement>('[role="log"] > [part~="row"] > details')];
const part = (root: ParentNode, name: string) => root.querySelector<HTMLElement>(`[part~="${name}"]`);

async function openRow(el: AiOpsLog, row: HTMLDetailsElement) {
  const toggled = oneEvent(row, 'toggle');
  row.querySelector('summary')!.click();
  await toggled;
  await el.updateComplete;
}

async function setup(mode: 'panel' | 'tab' = 'panel', runtimeOptions: Parameters<typeof createTestRuntime>[0] = {}) {
  const aiOps = createTestRuntime(runtimeOptions);
  const session = aiOps.provideOperations('sql', testOperations('sql'));
  const el = await fixture<AiOpsLog>(html`<ai-ops-log mode=${mode} .aiOps=${aiOps}></ai-ops-log>`);
  return { aiOps, session, el };
}

describe('<ai-ops-log>', () => {
  afterEach(async () => {
    cleanupRuntimes();
    await resetMouse();
  });

  it('[LOG-1] is accessible; hidden and empty while off, shown while on, hidden again when off', async () => {
    const { session, el } = await setup();
    await expect(el).to.be.accessible();
    expect(el.visible).to.equal(false);
    expect(el.hidden).to.equal(true);
    expect(el.shadowRoot!.childElementCount).to.equal(0);

    const shown = oneEvent(el, 'ai-ops-log-visibility-change');
    await turnOn(session);
    expect((await shown).detail.visible).to.equal(true);
    expect(el.visible).to.equal(true);
    expect(el.hidden).to.equal(false);
    await session.call('sql_echo', { text: 'hello' });
    await el.updateComplete;
    await expect(el).to.be.accessible();

    const hidden = oneEvent(el, 'ai-ops-log-visibility-change');
    session.turnOff();
    expect((await hidden).detail.visible).to.equal(false);
    expect(el.hidden).to.equal(true);
    expect(el.shadowRoot!.querySelector('[role="log"]')).to.equal(null);
  });

  it('[LOG-1] collapsed, the panel shows its title and the last row; expanded, every row', async () => {
    const { session, el } = await setup();
    await turnOn(session);
    await session.call('sql_echo', { text: 'first' });
    await session.call('sql_echo', { text: 'second' });
    await el.updateComplete;
    const panel = part(el.shadowRoot!, 'panel') as HTMLDetailsElement;
    expect(panel.localName).to.equal('details');
    expect(panel.open).to.equal(false);
    const summary = panel.querySelector(':scope > summary')!;
    expect(textOf(part(summary, 'title'))).to.equal('AI からの操作');
    const last = part(summary, 'last-row')!;
    expect(textOf(last)).to.contain('sql_echo');
    expect(textOf(last)).to.contain('second');
    expect(textOf(last)).to.not.contain('first');
    expect(summary.getBoundingClientRect().height).to.be.greaterThan(0);
    expect(panel.querySelector('[role="log"]')!.checkVisibility()).to.equal(false);

    await sendMouse({ type: 'click', position: centerOf(summary) });
    await until(() => el.open, 'the panel to open');
    await el.updateComplete;
    expect(panel.open).to.equal(true);
    expect(part(summary, 'last-row')).to.equal(null);
    expect(rowsOf(el).length).to.equal(2);
    expect(panel.querySelector('[role="log"]')!.checkVisibility()).to.equal(true);
    await expect(el).to.be.accessible();

    el.open = false;
    await el.updateComplete;
    expect(panel.open).to.equal(false);
  });

  it('[LOG-1] tab mode renders the content only; the host reads `visible`', async () => {
    const { session, el } = await setup('tab');
    expect(el.visible).to.equal(false);
    await turnOn(session);
    await session.call('sql_echo', { text: 'in a tab' });
    await el.updateComplete;
    expect(el.visible).to.equal(true);
    expect(part(el.shadowRoot!, 'panel')).to.equal(null);
    expect(part(el.shadowRoot!, 'connect')).to.exist;
    expect(rowsOf(el).length).to.equal(1);
    await expect(el).to.be.accessible();
  });

  it('[LOG-1] with `tool`, only that tool\'s switch shows it and only its rows appear; without, any switch', async () => {
    const aiOps = createTestRuntime();
    const sql = aiOps.provideOperations('sql', testOperations('sql'));
    const go = aiOps.provideOperations('go', testOperations('go'));
    const own = await fixture<AiOpsLog>(html`<ai-ops-log tool="go" mode="tab" .aiOps=${aiOps}></ai-ops-log>`);
    const all = await fixture<AiOpsLog>(html`<ai-ops-log mode="tab" .aiOps=${aiOps}></ai-ops-log>`);
    await turnOn(sql);
    await sql.call('sql_echo', { text: 'from sql' });
    await own.updateComplete;
    await all.updateComplete;
    expect(own.visible).to.equal(false);
    expect(all.visible).to.equal(true);
    await turnOn(go);
    await go.call('go_echo', { text: 'from go' });
    await own.updateComplete;
    await all.updateComplete;
    expect(own.visible).to.equal(true);
    expect(rowsOf(own).map((r) => textOf(part(r, 'name')))).to.deep.equal(['go_echo']);
    expect(rowsOf(all).map((r) => textOf(part(r, 'name')))).to.deep.equal(['sql_echo', 'go_echo']);
    go.turnOff();
    await own.updateComplete;
    await all.updateComplete;
    expect(own.visible).to.equal(false);
    expect(all.visible).to.equal(true);
    // Pointed at another tool, it follows that tool instead.
    own.tool = 'sql';
    await own.updateComplete;
    expect(own.visible).to.equal(true);
    expect(rowsOf(own).map((r) => textOf(part(r, 'name')))).to.deep.equal(['sql_echo']);
  });

  it('[LOG-2] [FIRST-4] the first item tells how to connect: relay command and MCP config with this origin; つなぎ直す reconnects, a failure said in the page\'s language with its reason under 詳細', async () => {
    // DOOR-6: a page paired with its relay (without a pairing, つなぎ直す has no widget to re-create).
    const { aiOps, session, el } = await setup('tab', { consentStore: pairedStore(9333) });
    await turnOn(session);
    await el.updateComplete;
    const content = part(el.shadowRoot!, 'content')!;
    const connect = content.firstElementChild as HTMLDetailsElement;
    expect(connect.localName).to.equal('details');
    expect(connect.getAttribute('part')).to.equal('connect');
    expect(connect.open).to.equal(false);
    expect(textOf(connect.querySelector('summary'))).to.equal('AI のエージェントのつなぎ方');
    const { origin } = window.location;
    expect(part(connect, 'command')!.textContent).to.equal(`npx --offline --no-install ai-ops-relay --widget-origin ${origin}`);
    expect(JSON.parse(part(connect, 'config')!.textContent!)).to.deep.equal({
      mcpServers: { 'ai-ops': { command: 'npx', args: ['--offline', '--no-install', 'ai-ops-relay', '--widget-origin', origin] } },
    });
    connect.open = true;
    await expect(el).to.be.accessible();

    const before = aiOps.loader.loads.filter((src) => src.endsWith('relay/embed.js')).length;
    // Below the pairing field now (DOOR-6): in view first, as a person scrolls to it.
    // Pressed from the keyboard, as a person tabbing to it does (below the pairing field, it may be
    // out of view; WebKitGTK's pointer then misses it).
    part(connect, 'reconnect-button')!.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => aiOps.loader.loads.filter((src) => src.endsWith('relay/embed.js')).length === before + 1, 'a new relay widget');
    await until(() => !part(connect, 'reconnect-button')!.hasAttribute('disabled'), 'the button to be enabled again');

    aiOps.loader.failOn = { pattern: /embed\.js$/, message: 'could not load relay/embed.js' };
    part(connect, 'reconnect-button')!.click();
    // FIRST-4: the sentence in the page's language; the developer's reason under 「詳細」.
    await until(() => textOf(connect).includes('つなぎ直せませんでした。'), 'the failure to show');
    const raw = connect.querySelector<HTMLDetailsElement>('.note details');
    expect(textOf(raw?.querySelector('summary'))).to.equal('詳細');
    expect(textOf(raw?.querySelector('pre'))).to.equal('could not load relay/embed.js');
    const sentence = [...connect.querySelector('.note')!.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join('').trim();
    expect(sentence).to.equal('つなぎ直せませんでした。');
  });

  it('[DOOR-5] while the relay on the port does not serve this origin, a note above the instructions says so and how to restart it', async () => {
    const aiOps = createTestRuntime({ relayPort: 9400 });
    const session = aiOps.provideOperations('sql', testOperations('sql'));
    const refused = createStore<string | null>(null);
    // The runtime as the log reads it, its relay connection's answer standing in for a real relay's.
    const capabilities = createStore<PageCapabilities | null>(null);
    aiOps.capabilities.subscribe(() => {
      const loaded = aiOps.capabilities.getState();
      capabilities.setState(loaded && { ...loaded, relay: { ...loaded.relay, refused } });
    });
    const shown = { ...aiOps, capabilities };
    const el = await fixture<AiOpsLog>(html`<ai-ops-log mode="tab" .aiOps=${shown}></ai-ops-log>`);
    await turnOn(session);
    await el.updateComplete;
    const content = part(el.shadowRoot!, 'content')!;
    expect(part(content, 'relay-refused')).to.equal(null);
    refused.setState('http://localhost:8002');
    await until(() => part(content, 'relay-refused') !== null, 'the note');
    const note = part(content, 'relay-refused')!;
    expect(note.getAttribute('role')).to.equal('alert');
    expect(textOf(note)).to.equal('ポート 9400 の relay は、このページの origin (http://localhost:8002) を受け付けていません。ほかの origin のために起動された relay です。--widget-origin http://localhost:8002 をつけて起動し直します。');
    expect(note.nextElementSibling?.getAttribute('part')).to.equal('connect');
    await expect(el).to.be.accessible();
    el.strings = aiOpsStringsEn;
    await el.updateComplete;
    expect(textOf(part(content, 'relay-refused'))).to.equal('The relay on port 9400 does not serve this page\'s origin (http://localhost:8002): it was started for another origin. Start it again with --widget-origin http://localhost:8002.');
    refused.setState(null);
    await until(() => part(content, 'relay-refused') === null, 'the note gone once the relay serves the page');
  });

  it('[LOG-2] [PKG-2] a relay port other than 9333 is spelled out; the command never installs a package', async () => {
    const { session, el } = await setup('tab', { relayPort: 9400 });
    await turnOn(session);
    await el.updateComplete;
    const connect = part(el.shadowRoot!, 'connect')!;
    const { origin } = window.location;
    expect(part(connect, 'command')!.textContent).to.equal(`npx --offline --no-install ai-ops-relay --widget-origin ${origin} --port 9400`);
    expect(JSON.parse(part(connect, 'config')!.textContent!).mcpServers['ai-ops'].args)
      .to.deep.equal(['--offline', '--no-install', 'ai-ops-relay', '--widget-origin', origin, '--port', '9400']);
  });

  it('[LOG-3] a row: HH:MM:SS, name, argument summary, a badge with text 成功/中止/失敗, result summary', async () => {
    const clock = createFakeClock(new Date(2025, 4, 6, 7, 8, 9).getTime());
    const { aiOps, session, el } = await setup('tab', { clock });
    await turnOn(session);
    const long = 'あ'.repeat(100);
    await session.call('sql_echo', { text: long });
    clock.advance(61_000);
    await session.call('sql_fail', {});
    const declined = session.call('sql_delete_file', { path: 'a.sql' });
    await until(() => aiOps.confirmations.getState().current !== null, 'the confirmation');
    decide(aiOps).decline(aiOps.confirmations.getState().current!.id);
    await declined;
    await session.call('sql_echo', { unknown: 1 });
    await el.updateComplete;

    const rows = rowsOf(el);
    expect(rows.length).to.equal(4);
    const [ok, failed, stopped, invalid] = rows;
    expect(textOf(part(ok, 'time'))).to.equal('07:08:09');
    expect(part(ok, 'time')!.getAttribute('datetime')).to.equal(new Date(2025, 4, 6, 7, 8, 9).toISOString());
    expect(textOf(part(failed, 'time'))).to.equal('07:09:10');
    expect(textOf(part(ok, 'name'))).to.equal('sql_echo');
    const argsSummary = `{"text":"${long}"}`.slice(0, 80);
    expect(part(ok, 'args-summary')!.textContent).to.equal(`${argsSummary}…`);
    expect(part(ok, 'result-summary')!.textContent).to.equal(`${`{"text":"${long}"}`.slice(0, 80)}…`);

    const badges = rows.map((r) => part(r, 'badge')!);
    expect(badges.map((b) => textOf(b))).to.deep.equal(['成功', '失敗', '中止', '失敗']);
    expect(badges.map((b) => b.getAttribute('part'))).to.deep.equal([
      'badge badge-success', 'badge badge-failure', 'badge badge-declined', 'badge badge-failure',
    ]);
    const colour = (b: Element) => getComputedStyle(b).backgroundColor;
    expect(new Set(badges.slice(0, 3).map(colour)).size).to.equal(3);
    // FIRST-4: a failure's summary is its code's sentence in the page's language (the agent's text is under 詳細).
    expect(textOf(part(failed, 'result-summary'))).to.equal('指定されたものが見つかりませんでした。');
    expect(textOf(part(stopped, 'result-summary'))).to.equal('実行しませんでした (やめたか、時間内に答えがなかったか、途中で止められました)。');
    expect(textOf(part(invalid, 'result-summary'))).to.equal('エージェントが渡した内容が、この操作の受け付ける形に合いませんでした。何も実行していません。');
    expect(textOf(part(invalid, 'args-summary'))).to.equal('{"unknown":1}');
  });

  it('[LOG-4] an expanded row shows arguments and result in full, each cut at 10,000 characters', async () => {
    const aiOps = createTestRuntime();
    const big = defineOperation({
      name: 'sql_big',
      description: '大きな結果を返す。',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false },
      execute: async (input) => succeed({ rows: [input.text ?? '', 'z'.repeat(20_000)] }),
    });
    const session = aiOps.provideOperations('sql', [...testOperations('sql'), big]);
    const el = await fixture<AiOpsLog>(html`<ai-ops-log mode="tab" .aiOps=${aiOps}></ai-ops-log>`);
    await turnOn(session);
    await session.call('sql_echo', { text: 'short' });
    await session.call('sql_big', { text: 'y'.repeat(12_000) });
    await el.updateComplete;
    const [small, large] = rowsOf(el);
    expect(part(small, 'args')).to.equal(null);
    await openRow(el, small);
    expect(part(small, 'args')!.textContent).to.equal('{\n  "text": "short"\n}');
    expect(part(small, 'result')!.textContent).to.equal('{\n  "text": "short",\n  "ok": true\n}');
    expect(small.querySelector('.note')).to.equal(null);
    await expect(el).to.be.accessible();

    await openRow(el, large);
    const args = part(large, 'args')!.textContent!;
    const result = part(large, 'result')!.textContent!;
    expect(args.length).to.equal(10_000);
    expect(args.startsWith('{\n  "text": "yyyy')).to.equal(true);
    expect(result.length).to.equal(10_000);
    expect(result.startsWith('{\n  "rows": [\n    "yyyy')).to.equal(true);
    expect([...large.querySelectorAll('.note')].map(textOf)).to.deep.equal([
      '先頭の 10,000 文字までを出しています。', '先頭の 10,000 文字までを出しています。',
    ]);

    // Closing a row drops its full text again.
    const toggled = oneEvent(large, 'toggle');
    large.open = false;
    await toggled;
    await el.updateComplete;
    expect(part(large, 'args')).to.equal(null);
  });

  it('[LOG-5] the rows are a role="log" region, new rows at the bottom, scrolled into view', async () => {
    const { session, el } = await setup('tab');
    el.style.setProperty('--ai-ops-log-height', '120px');
    el.setAttribute('mode', 'panel');
    el.open = true;
    await turnOn(session);
    await el.updateComplete;
    const log = el.shadowRoot!.querySelector<HTMLElement>('[role="log"]')!;
    expect(log.getAttribute('aria-label')).to.equal('操作の記録');
    expect(textOf(log)).to.equal('まだ記録はありません。');
    for (let i = 1; i <= 12; i += 1) await session.call('sql_echo', { text: `call ${i}` });
    await el.updateComplete;
    expect(rowsOf(el).map((r) => textOf(part(r, 'args-summary')))).to.deep.equal(
      Array.from({ length: 12 }, (_, i) => `{"text":"call ${i + 1}"}`),
    );
    expect(log.scrollHeight).to.be.greaterThan(log.clientHeight);
    expect(log.scrollHeight - log.scrollTop - log.clientHeight).to.be.lessThan(4);
    // Scrolled up to read: a new row does not pull the view down. The element learns of the
    // scroll from its `scroll` event, which the browser fires at its next rendering step (a user's
    // scroll always delivers it before a row could be rendered from it): wait for that, not a time.
    const scrolled = oneEvent(log, 'scroll');
    log.scrollTop = 0;
    await scrolled;
    await session.call('sql_echo', { text: 'call 13' });
    await el.updateComplete;
    expect(log.scrollTop).to.equal(0);
    expect(textOf(part(rowsOf(el).at(-1)!, 'args-summary'))).to.equal('{"text":"call 13"}');
  });

  it('[LOG-5] a new row renders a moment after the call, on the element\'s injected clock, not inside the call', async () => {
    const { aiOps, session, el } = await setup('tab');
    await turnOn(session);
    await el.updateComplete;
    const clock = createFakeClock();
    el.clock = clock;
    await aTimeout(0); // the update that setting the clock asked for now waits on the fake clock
    clock.advance(16);
    await el.updateComplete;
    await session.call('sql_echo', { text: 'later' });
    await aTimeout(0);
    expect(el.isUpdatePending, 'the render waits').to.equal(true);
    expect(rowsOf(el).length).to.equal(0);
    // Real time passes beyond the delay: a log of the same runtime on the real clock, made now,
    // has rendered the row after its own delay, which began after this one's. The element waits
    // for its own clock only.
    const onRealTime = await fixture<AiOpsLog>(html`<ai-ops-log mode="tab" .aiOps=${aiOps}></ai-ops-log>`);
    expect(rowsOf(onRealTime).length).to.equal(1);
    expect(rowsOf(el).length).to.equal(0);
    clock.advance(15);
    await aTimeout(0);
    expect(rowsOf(el).length).to.equal(0);
    clock.advance(1);
    await el.updateComplete;
    expect(rowsOf(el).map((r) => textOf(part(r, 'args-summary')))).to.deep.equal(['{"text":"later"}']);
  });

  it('[LOG-6] arguments and results are text: HTML creates no element; Markdown/XML shows unescaped', async () => {
    const { session, el } = await setup('tab');
    await turnOn(session);
    const markup = '<img src=x onerror="window.__aiOpsInjected=1"><script>window.__aiOpsInjected=2</script>\n# 見出し\n"quoted"';
    await session.call('sql_echo', { text: markup });
    await el.updateComplete;
    const [row] = rowsOf(el);
    expect(textOf(part(row, 'args-summary'))).to.contain('<img src=x onerror=');
    await openRow(el, row);
    const args = part(row, 'args')!;
    expect(args.textContent).to.equal(`{\n  "text": """\n${markup}\n"""\n}`);
    expect(args.textContent).to.not.contain('\\n');
    expect(args.textContent).to.not.contain('\\"');
    expect(el.shadowRoot!.querySelector('img, script:not([src])')).to.equal(null);
    // An image loaded from the same server now, after any <img src=x> the markup could have made
    // (in the page or off it): once it has failed (not an image), that one's 404, asked for
    // earlier, has come back and run its onerror.
    const probe = new Image();
    const failed = oneEvent(probe, 'error');
    probe.src = `/package.json?image-probe=${Date.now()}`;
    await failed;
    expect((window as { __aiOpsInjected?: number }).__aiOpsInjected).to.equal(undefined);
  });

  it('[LOG-7] rows stay across off → on while the page lives', async () => {
    const { session, el } = await setup('tab');
    await turnOn(session);
    await session.call('sql_echo', { text: 'kept' });
    session.turnOff();
    await el.updateComplete;
    expect(rowsOf(el).length).to.equal(0);
    await turnOn(session);
    await el.updateComplete;
    expect(rowsOf(el).map((r) => textOf(part(r, 'args-summary')))).to.deep.equal(['{"text":"kept"}']);
  });

  it('[SW-5] in an embedded page the log never shows', async () => {
    const { el } = await setup('panel', { embedded: true });
    expect(el.hidden).to.equal(true);
    expect(el.visible).to.equal(false);
  });
});

describe('<ai-ops-log> live region, in every engine', () => {
  afterEach(() => cleanupRuntimes());

  // What the accessibility tree makes of it is read in Chromium (ai-ops-log-a11y.chromium.test.ts);
  // here the markup every engine exposes: a polite status region outside the <details>.
  it('[SAFE-9] collapsed, a polite status region outside the <details> says 「<name>: 成功」 per new row; expanded, it stays quiet', async () => {
    const { session, el } = await setup('panel');
    await turnOn(session);
    await el.updateComplete;
    const region = part(el.shadowRoot!, 'announcer')!;
    expect(region.getAttribute('aria-live')).to.equal('polite');
    expect(region.getAttribute('role')).to.equal('status');
    expect(region.closest('details'), 'outside the <details>').to.equal(null);
    await session.call('sql_echo', { text: 'hello' });
    await until(() => textOf(part(el.shadowRoot!, 'announcer')) === 'sql_echo: 成功', 'the announcement');
    el.open = true;
    await el.updateComplete;
    await session.call('sql_fail', {});
    // The render that shows the row is the one that decides what the region says.
    await until(() => rowsOf(el).length === 2, 'the sql_fail row');
    await el.updateComplete;
    expect(textOf(part(el.shadowRoot!, 'announcer')), 'quiet while the rows themselves are shown').to.not.equal('sql_fail: 失敗');
    await expect(el).to.be.accessible();
  });
});
