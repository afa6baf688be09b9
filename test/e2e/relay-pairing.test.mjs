// Issue 43, the relay pairs with its page and its client (DOOR-6..DOOR-9): each attack of the issue
// as a real local process (test/e2e/fixtures/relay-attacker.mjs, a plain Node program with `ws`)
// against the real relay command (bin/ai-ops-relay.mjs with a real MCP SDK client on its stdio) and
// a real Chromium page (/sample/, its switch turned on by the user with their device, the virtual
// authenticator). Build first: `node esbuild.config.mjs`. Run in a network namespace of its own
// (fixed ports 9333-9348).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import {
  root, startDemo, startRelay, launchBrowser, waitFor, clickSwitch, listedNames, envelope, recordTraffic, settlePage, switchIsOn,
  pairPage, askPairingCode, showLog,
} from './harness.mjs';

const ATTACKER = join(root, 'test/e2e/fixtures/relay-attacker.mjs');
/** Where the page looks for its relay: the default port (DEFAULT_RELAY_PORT). */
const PAGE_PORT = 9333;
/** Where the impostor holds a port before the user's relay starts. */
const IMPOSTOR_PORT = 9340;

/**
 * Starts one attack as its own process; `events` is what it reported so far, `next(pred)` waits for
 * a report matching `pred`, `exited` resolves with its exit code.
 */
function attacker(mode, ...args) {
  const child = spawn(process.execPath, [ATTACKER, mode, ...args.map(String)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const events = [];
  let buffered = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let end;
    while ((end = buffered.indexOf('\n')) >= 0) {
      events.push(JSON.parse(buffered.slice(0, end)));
      buffered = buffered.slice(end + 1);
    }
  });
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = once(child, 'exit').then(([code]) => code);
  return {
    events,
    exited,
    stderr: () => stderr,
    next: (pred, ms = 10_000, what = 'the attacker\'s report') => waitFor(() => events.find(pred), ms, what),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** A page's console errors and uncaught errors, as a person with the console open would see them. */
function recordConsole(page) {
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

let demo, browser, page, traffic, consoleErrors, relay;
const openSockets = new Set();
/** Every WebSocket the page opened, in order. */
const allSockets = [];
const attackers = [];

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
  // The page's time is Playwright's clock, flowing as usual: 60 s of a switch on without a relay
  // run as the page's own timers, not as 60 real seconds.
  await browser.context.clock.install();
  page = await browser.context.newPage();
  traffic = recordTraffic(page);
  consoleErrors = recordConsole(page);
  page.on('websocket', (ws) => {
    allSockets.push(ws);
    openSockets.add(ws);
    // A socket closed before it connected is reported as an error, not a close.
    ws.on('close', () => openSockets.delete(ws));
    ws.on('socketerror', () => openSockets.delete(ws));
  });
  await page.goto(`${demo.origin}/sample/`);
  await page.locator('ai-ops-switch[tool="sample"] input[role="switch"]').waitFor({ timeout: 30_000 });
});

after(async () => {
  for (const a of attackers) await a.stop();
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

/** Runs 60 s of the page's clock, 2 s at a time, letting the page's requests end in between. */
async function sixtySecondsOfPageTime() {
  for (let elapsed = 0; elapsed < 60_000; elapsed += 2000) await settlePage(page, traffic, 2000);
}

/** The demo's other tool pages. */
const OTHER_PAGES = ['slides', 'sql', 'drawio', 'excalidraw', 'node', 'go'];

test('[DOOR-9] with switches on and no relay, 60 s of the pages\' time: 0 console errors, 0 sockets, nothing asked of a relay port, on every page', { timeout: 300_000 }, async () => {
  const others = [];
  for (const tool of OTHER_PAGES) {
    const other = await browser.context.newPage();
    others.push({ tool, page: other, traffic: recordTraffic(other), errors: recordConsole(other) });
    await other.goto(`${demo.origin}/${tool}/`);
    await other.locator(`ai-ops-switch[tool="${tool}"] input[role="switch"]`).waitFor({ timeout: 30_000 });
    await clickSwitch(other, tool);
    assert.equal(await switchIsOn(other, tool), true, tool);
  }
  await clickSwitch(page, 'sample');
  assert.equal(await switchIsOn(page, 'sample'), true);
  // The clock is the context's: 60 s of it runs every page's timers.
  await sixtySecondsOfPageTime();
  const seen = (t, errors) => ({ sockets: t.sockets, toRelayPorts: t.toRelayPorts(), consoleErrors: errors });
  const none = { sockets: [], toRelayPorts: [], consoleErrors: [] };
  assert.deepEqual(seen(traffic, consoleErrors), none, 'sample');
  for (const other of others) {
    await settlePage(other.page, other.traffic, 0);
    assert.deepEqual(seen(other.traffic, other.errors), none, other.tool);
    await other.page.close();
  }
});

test('[DOOR-6] [DOOR-9] no relay running: a neighbour listening on the page\'s relay port gets no tools and no note', { timeout: 180_000 }, async () => {
  const neighbour = attacker('listen', PAGE_PORT);
  attackers.push(neighbour);
  await neighbour.next((e) => e.event === 'listening');
  // The page looks for a relay every 2 s while a switch is on: 60 s of its time is many looks.
  await sixtySecondsOfPageTime();
  await neighbour.stop();
  assert.deepEqual(neighbour.events.filter((e) => e.event !== 'listening'), [], 'the neighbour got nothing from the page');
  assert.deepEqual(traffic.sockets, []);
});

const sampleNames = async () => (await listedNames(relay.client)).filter((n) => n.startsWith('sample_')).sort();

test('[DOOR-6] [DOOR-10] the person\'s path: the agent asks for a code, the user types it in the log; the page\'s tools reach the agent, the log names the agent and each row its channel', { timeout: 90_000 }, async () => {
  relay = await startRelay({ origin: demo.origin, port: PAGE_PORT, clientInfo: { name: 'Claude Code', version: '2.1.0' } });
  // Before pairing, the relay lists none of the page's tools, though the page's switch is on.
  assert.deepEqual(await sampleNames(), []);
  assert.deepEqual(traffic.sockets, []);
  const { content } = await relay.client.callTool({ name: 'ai_ops_pair', arguments: {} });
  // The words the agent tells the user name the log's disclosure, the code and the button (README).
  assert.match(content[0].text, /「AI のエージェントのつなぎ方」を開き、コード [0-9A-Z]{5}-[0-9A-Z]{5} を入れて「つなぐ」を押してください/);
  await pairPage(page, relay.client, 'sample');
  await waitFor(async () => (await sampleNames()).length === 3, 30_000, 'the sample tools through the relay');
  const read = await relay.client.callTool({ name: 'sample_read_note', arguments: {} });
  assert.match(envelope(read).text, /メモ/);
  const status = await page.locator('ai-ops-log[tool="sample"] [part="relay-status-text"]').textContent();
  assert.match(status, /Claude Code 2\.1\.0 とつながっています \(.+ から\)/);
  // The call's row names its channel: the relay, and the agent behind it (DOOR-10).
  const row = page.locator('ai-ops-log[tool="sample"] [part="row"]').last();
  await row.locator('[part="row-summary"]').click();
  assert.equal((await row.locator('[part="via"]').textContent()).trim(), '経路: relay (Claude Code 2.1.0)');
});

test('[DOOR-6] [DOOR-2] a relay peer without Origin (relay/hello, relay/list-tools, relay/invoke) is closed unanswered', { timeout: 60_000 }, async () => {
  // The positive sign: the page's tools reach the user's agent, so there is something to steal.
  await waitFor(async () => (await listedNames(relay.client)).includes('sample_read_note'), 30_000, 'the sample tools through the relay');
  const peer = attacker('peer', PAGE_PORT, 'sample_read_note');
  attackers.push(peer);
  await peer.exited;
  assert.deepEqual(peer.events.filter((e) => e.event === 'tools' || e.event === 'result'), [], 'the peer got neither the tools nor the note');
  assert.ok(peer.events.some((e) => e.event === 'closed' || e.event === 'refused'), 'the door ended the connection');
});

test('[DOOR-6] [DOOR-8] a fake page without Origin under the real page\'s tab id: refused; the agent lists and calls only the real page\'s tool', { timeout: 60_000 }, async () => {
  const { structuredContent, content } = await relay.client.callTool({ name: 'webmcp_list_sources', arguments: {} });
  const sources = structuredContent?.sources ?? JSON.parse(content[0].text).sources;
  const tabId = sources.find((s) => s.origin === demo.origin).tabId;
  const fake = attacker('fake-page', PAGE_PORT, tabId, demo.origin, 'sample_read_note');
  attackers.push(fake);
  await fake.next((e) => e.event === 'refused' || e.event === 'planted' || e.event === 'closed');
  // Whatever the fake page did has reached the relay by the time a list asked after it answers.
  const { tools } = await relay.client.listTools();
  assert.deepEqual(tools.filter((t) => /Ignore earlier instructions/.test(t.description ?? '')).map((t) => t.name), [], 'the impostor\'s tool is not listed');
  const read = await relay.client.callTool({ name: 'sample_read_note', arguments: {} });
  assert.match(envelope(read).text, /メモ/, 'the agent\'s call reached the real page');
  assert.deepEqual(fake.events.filter((e) => e.event === 'invoked'), [], 'the impostor was never called');
  assert.ok(fake.events.some((e) => e.event === 'refused' && e.status === 403), `refused at the handshake: ${JSON.stringify(fake.events)}`);
});

test('[DOOR-6] a forged code typed in the page is refused, and the page stays as it was', { timeout: 60_000 }, async () => {
  const log = page.locator('ai-ops-log[tool="sample"]');
  await log.locator('[part="pair-code"]').fill('ABCDE-FGHJK');
  await log.locator('[part="pair-button"]').click();
  await log.locator('[part="pair-error"]').filter({ hasText: /このコードではつなげません/ }).waitFor({ timeout: 20_000 });
  assert.deepEqual(await sampleNames(), ['sample_clear_note', 'sample_read_note', 'sample_wait']);
});

test('[DOOR-6] reload keeps the pairing: the page comes back to the relay without a new code', { timeout: 90_000 }, async () => {
  await page.reload();
  await page.locator('ai-ops-switch[tool="sample"] input[role="switch"]').waitFor({ timeout: 30_000 });
  assert.equal(await switchIsOn(page, 'sample'), true);
  await waitFor(async () => (await sampleNames()).length === 3, 30_000, 'the sample tools again after the reload');
  await showLog(page, 'sample');
  await page.locator('ai-ops-log[tool="sample"] [part="relay-status-text"]').filter({ hasText: /とつながっています/ }).waitFor({ timeout: 20_000 });
});

test('[DOOR-6] [DOOR-9] off ends the pairing: the tools leave the relay by the time the switch reads off; on again, nothing connects until the user pairs', { timeout: 120_000 }, async () => {
  const before = traffic.sockets.length;
  await clickSwitch(page, 'sample');
  assert.equal(await switchIsOn(page, 'sample'), false);
  assert.deepEqual(await sampleNames(), []);
  await clickSwitch(page, 'sample');
  assert.equal(await switchIsOn(page, 'sample'), true);
  await sixtySecondsOfPageTime();
  assert.deepEqual(await sampleNames(), []);
  assert.equal(traffic.sockets.length, before, 'no new WebSocket without a pairing');
  assert.equal(await page.locator('ai-ops-log[tool="sample"] [part="relay-status"]').count(), 0);
  // The user pairs again: the tools are back.
  await pairPage(page, relay.client, 'sample');
  await waitFor(async () => (await sampleNames()).length === 3, 30_000, 'the sample tools after pairing again');
});

test('[DOOR-6] 「接続を解除」 ends the pairing: the tools leave the relay, the log says nothing is paired', { timeout: 60_000 }, async () => {
  const log = page.locator('ai-ops-log[tool="sample"]');
  await log.locator('[part="unpair-button"]').click();
  await waitFor(async () => (await sampleNames()).length === 0, 10_000, 'the tools withdrawn');
  await waitFor(async () => (await log.locator('[part="relay-status"]').count()) === 0, 10_000, 'the status gone');
  assert.equal(await switchIsOn(page, 'sample'), true);
});

test('[DOOR-6] a used code is refused: the code that paired once does not pair again', { timeout: 60_000 }, async () => {
  const code = await askPairingCode(relay.client);
  const log = page.locator('ai-ops-log[tool="sample"]');
  await log.locator('[part="pair-code"]').fill(code);
  await log.locator('[part="pair-button"]').click();
  await log.locator('[part="relay-status-text"]').filter({ hasText: /とつながっています/ }).waitFor({ timeout: 30_000 });
  await log.locator('[part="unpair-button"]').click();
  await waitFor(async () => (await log.locator('[part="relay-status"]').count()) === 0, 10_000, 'unpaired');
  await log.locator('[part="pair-code"]').fill(code);
  await log.locator('[part="pair-button"]').click();
  await log.locator('[part="pair-error"]').filter({ hasText: /このコードではつなげません/ }).waitFor({ timeout: 20_000 });
  assert.deepEqual(await sampleNames(), []);
});

test('[DOOR-9] [SAFE-5] the user pairs, and the switch goes off 0–200 ms later, 20 runs in a row: nothing left open or listed by the relay', { timeout: 600_000 }, async () => {
  const input = page.locator('ai-ops-switch[tool="sample"] input[role="switch"]');
  if (await switchIsOn(page, 'sample')) await clickSwitch(page, 'sample');
  const delays = [0, 10, 25, 50, 100, 150, 200];
  for (let run = 1; run <= 20; run++) {
    const ms = delays[run % delays.length];
    const first = allSockets.length;
    await clickSwitch(page, 'sample');
    assert.equal(await switchIsOn(page, 'sample'), true, `run ${run}: on`);
    const code = await askPairingCode(relay.client);
    await showLog(page, 'sample');
    const log = page.locator('ai-ops-log[tool="sample"]');
    if ((await log.locator('[part="connect"]').getAttribute('open')) === null) await log.locator('[part="connect"] summary').click();
    await log.locator('[part="pair-code"]').fill(code);
    // 「つなぐ」, then the switch off `ms` later, both inside the page (no round trip between them).
    await page.evaluate((delay) => new Promise((resolve) => {
      document.querySelector('ai-ops-log[tool="sample"]').shadowRoot.querySelector('[part="pair-button"]').click();
      setTimeout(() => {
        document.querySelector('ai-ops-switch[tool="sample"]').shadowRoot.querySelector('input[role="switch"]').click();
        resolve();
      }, delay);
    }), ms);
    await input.and(page.locator(':not([aria-busy])')).waitFor({ timeout: 20_000 });
    assert.equal(await switchIsOn(page, 'sample'), false, `run ${run} (${ms} ms): the switch reads off`);
    // Past whatever the pairing, the widget or a timer would still do: 10 s of the page's clock.
    await settlePage(page, traffic, 10_000);
    // The sockets this run opened (the pairing's, the widget's, a probe) have all closed.
    const opened = () => allSockets.slice(first).filter((ws) => openSockets.has(ws));
    await waitFor(() => opened().length === 0, 10_000, `run ${run} (${ms} ms): no WebSocket open`).catch(async (error) => {
      throw new Error(`${error.message}: ${opened().map((ws) => ws.url())} of ${allSockets.length - first}; listed ${await sampleNames()}`);
    });
    assert.deepEqual(await sampleNames(), [], `run ${run} (${ms} ms): nothing listed by the relay`);
    const { structuredContent, content } = await relay.client.callTool({ name: 'webmcp_list_sources', arguments: {} });
    assert.equal((structuredContent?.sources ?? JSON.parse(content[0].text).sources).length, 0, `run ${run} (${ms} ms): no source`);
    assert.equal(await page.locator('[data-webmcp-relay]').count(), 0, `run ${run} (${ms} ms): no widget`);
  }
});

test('[DOOR-7] an impostor holding the port and answering like a guarded door is never attached to: the command stops, naming the port and --port', { timeout: 60_000 }, async () => {
  const impostor = attacker('impostor', IMPOSTOR_PORT);
  attackers.push(impostor);
  await impostor.next((e) => e.event === 'listening');
  let second;
  let failure = null;
  try {
    second = await startRelay({ origin: demo.origin, port: IMPOSTOR_PORT });
  } catch (error) {
    failure = error;
  }
  if (second) {
    // Attached: what the agent would now see and send.
    const names = await listedNames(second.client).catch(() => []);
    await second.client.callTool({ name: 'read_file', arguments: { path: 'secrets.env' } }).catch(() => {});
    await second.close();
    assert.fail(`the relay attached to the impostor: the agent listed ${JSON.stringify(names)}; the impostor got ${JSON.stringify(impostor.events.filter((e) => e.event === 'invoked'))}`);
  }
  assert.match(failure.stderr ?? '', new RegExp(`port ${IMPOSTOR_PORT}`));
  assert.match(failure.stderr ?? '', /--port/);
  assert.deepEqual(impostor.events.filter((e) => e.event === 'invoked'), []);
});
