// Issue 43, the relay's pairing (DOOR-6, DOOR-7), from Node: the real relay command with a real MCP
// SDK client on its stdio, pages as the widget speaks for them (test/node/relay-door.lib.mjs), and the
// pairing book with an injected clock for the code's 120 s. The pages in a real Chromium are
// test/e2e/relay-pairing.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { statSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import WebSocket from 'ws';
import {
  startRelayClient, fakePage, waitFor, relayed, pairingCode, RUNTIME_DIR,
} from './relay-door.lib.mjs';
import {
  PairingBook, codeKey, proof, newCode, normalizeCode, CODE_TTL_MS, runtimeDir, pairingWords, ephemeralKey, nonce, MSG,
} from '../../bin/relay-pairing.mjs';

const ALLOWED = 'http://localhost:8000';

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer().once('error', fail).listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/**
 * Records every message a page sends on a connection and lets a test send them again elsewhere:
 * opens a page connection with the allowed Origin and runs `script(challenge, send)` on the
 * relay's challenge; resolves with what came back once the relay closed it or `until(got)` holds.
 */
function pageConnection(port, script, until = () => false) {
  return new Promise((done) => {
    const got = { types: [], closeCode: null, messages: [] };
    const ws = new WebSocket(`ws://127.0.0.1:${port}`, ['webmcp.v1'], { origin: ALLOWED });
    const finish = () => {
      ws.removeAllListeners();
      ws.on('error', () => {});
      if (ws.readyState === WebSocket.OPEN) ws.close();
      done(got);
    };
    ws.on('error', finish);
    ws.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      got.types.push(message.type);
      got.messages.push(message);
      if (message.type === MSG.challenge) script(message.nonce, (m) => ws.send(JSON.stringify(m)));
      if (until(got)) finish();
    });
    ws.on('close', (code) => {
      got.closeCode = code;
      finish();
    });
  });
}

let port, relay;

before(async () => {
  port = await freePort();
  relay = await startRelayClient({ args: ['--port', String(port), '--widget-origin', ALLOWED] });
});

after(async () => {
  await relay?.close();
});

test('[DOOR-6] ai_ops_pair gives a code of 10 base32 characters (50 bits) and the README\'s words; the relay says it on stderr too', async () => {
  const { content } = await relay.client.callTool({ name: 'ai_ops_pair', arguments: {} });
  const code = /コード ([0-9A-Z]{5}-[0-9A-Z]{5}) /.exec(content[0].text)[1];
  assert.equal(content[0].text, pairingWords(code));
  assert.match(normalizeCode(code), /^[0-9A-HJKMNP-TV-Z]{10}$/);
  await waitFor(() => relay.stderr().includes(code), 5000, 'the code on stderr');
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  assert.ok(readme.includes(pairingWords('XXXXX-XXXXX').split('\n')[0].replace(/^Tell the user exactly this \(in Japanese, as the page speaks\): /, '')),
    'the README quotes the words the agent relays');
  const codes = new Set(Array.from({ length: 200 }, () => normalizeCode(newCode())));
  assert.equal(codes.size, 200);
});

test('[DOOR-6] a page pairs with the code once: listed; the same code again (reused) is refused and closed unanswered', async () => {
  const code = await pairingCode(relay.client);
  const page = await fakePage({ port, origin: ALLOWED, label: 'paired', code, tools: [{ name: 'paired_echo', inputSchema: { type: 'object', properties: {} } }] });
  assert.ok(await page.pairing);
  await waitFor(async () => (await relayed(relay.client)).includes('paired_echo'), 10_000, 'the paired page\'s tool');
  const again = await fakePage({ port, origin: ALLOWED, label: 'reused', code, tools: [{ name: 'reused_echo', inputSchema: { type: 'object', properties: {} } }] });
  assert.equal(await again.pairing, null);
  assert.deepEqual(again.refused, [MSG.pairRefused]);
  assert.equal(await again.closed, 1008);
  assert.ok(!(await relayed(relay.client)).includes('reused_echo'));
  page.close();
  await waitFor(async () => !(await relayed(relay.client)).includes('paired_echo'), 10_000, 'the page gone');
});

test('[DOOR-6] a forged code is refused (1008, nothing listed); after five wrong codes a real pending code is void too', async () => {
  const real = await pairingCode(relay.client);
  for (let i = 0; i < 5; i++) {
    const forged = await fakePage({ port, origin: ALLOWED, label: `forged${i}`, code: newCode(), tools: [{ name: 'forged_echo', inputSchema: { type: 'object', properties: {} } }] });
    assert.equal(await forged.pairing, null);
    assert.equal(await forged.closed, 1008);
  }
  const late = await fakePage({ port, origin: ALLOWED, label: 'late', code: real, tools: [{ name: 'late_echo', inputSchema: { type: 'object', properties: {} } }] });
  assert.equal(await late.pairing, null, 'the online guesser\'s five tries voided the pending code');
  assert.deepEqual((await relayed(relay.client)).filter((n) => n.endsWith('_echo')), []);
});

test('[DOOR-6] a pairing request replayed on a new connection is refused: its proof was over another challenge', async () => {
  const code = await pairingCode(relay.client);
  const key = ephemeralKey();
  const mine = nonce();
  // A listener saw a page's pairing request on another connection (here: made for a challenge it never got).
  const seen = await pageConnection(port, (challenge, send) => send({ type: MSG.pair, nonce: mine, pub: key.pub, proof: proof(codeKey(code), 'ai-ops pair page', 'another challenge', mine, key.pub, ALLOWED) }), (got) => got.closeCode !== null);
  assert.deepEqual(seen.types, [MSG.challenge, 'server-hello', MSG.pairRefused]);
  assert.equal(seen.closeCode, 1008);
});

test('[DOOR-6] a proof of the pairing replayed on a new connection is refused; the page that holds the key gets in', async () => {
  const code = await pairingCode(relay.client);
  const page = await fakePage({ port, origin: ALLOWED, label: 'holder', code, tools: [{ name: 'holder_echo', inputSchema: { type: 'object', properties: {} } }] });
  const pairing = await page.pairing;
  // What a listener saw: an auth message with a valid proof, over the challenge of its connection.
  let seenAuth;
  const first = await pageConnection(port, (challenge, send) => {
    const mine = nonce();
    seenAuth = { type: MSG.auth, id: pairing.id, nonce: mine, proof: proof(pairing.key, 'ai-ops auth page', challenge, mine, ALLOWED) };
    send(seenAuth);
  }, (got) => got.types.includes(MSG.authOk));
  assert.ok(first.types.includes(MSG.authOk), 'the key holder is let in');
  const replayed = await pageConnection(port, (_challenge, send) => send(seenAuth), (got) => got.closeCode !== null);
  assert.deepEqual(replayed.types, [MSG.challenge, 'server-hello', MSG.authRefused]);
  assert.equal(replayed.closeCode, 1008);
  // The relay proved the key back: the page can check it, a listener could not have made it.
  const ok = first.messages.find((m) => m.type === MSG.authOk);
  assert.equal(ok.proof, proof(pairing.key, 'ai-ops auth relay', first.messages[0].nonce, seenAuth.nonce, ALLOWED));
  page.close();
});

test('[DOOR-6] ai-ops/unpair ends the pairing: the page\'s tools leave at once and its key no longer gets in', async () => {
  const code = await pairingCode(relay.client);
  const page = await fakePage({ port, origin: ALLOWED, label: 'leaving', code, tools: [{ name: 'leaving_echo', inputSchema: { type: 'object', properties: {} } }] });
  const pairing = await page.pairing;
  await waitFor(async () => (await relayed(relay.client)).includes('leaving_echo'), 10_000, 'the tool');
  page.ws.send(JSON.stringify({ type: MSG.unpair }));
  assert.equal(await page.closed, 1008);
  assert.ok(!(await relayed(relay.client)).includes('leaving_echo'));
  const back = await fakePage({ port, origin: ALLOWED, label: 'back', pairing, tools: [{ name: 'back_echo', inputSchema: { type: 'object', properties: {} } }] });
  assert.equal(await back.pairing, null);
  assert.deepEqual(back.refused, [MSG.authRefused]);
});

test('[DOOR-6] [DOOR-7] the runtime directory is 0700 and the secret, pairings and codes files are 0600', () => {
  assert.equal(statSync(RUNTIME_DIR).mode & 0o777, 0o700);
  for (const name of [`relay-${port}.secret`, 'pairings.json', 'codes.json']) {
    assert.equal(statSync(join(RUNTIME_DIR, name)).mode & 0o777, 0o600, name);
  }
});

test('[DOOR-6] a code expires after 120 s (the book\'s clock), and is taken once', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ai-ops-pair-book-'));
  try {
    let now = 1_000_000;
    const book = new PairingBook(dir, { now: () => now });
    const sent = (code) => proof(codeKey(code), 'label', 'c');
    const expected = (key) => proof(key, 'label', 'c');
    const { code } = book.issueCode({ name: 'agent', version: '1' });
    now += CODE_TTL_MS + 1;
    assert.equal(book.takeCode(expected, sent(code)), null, 'expired');
    const fresh = book.issueCode(null).code;
    now += CODE_TTL_MS - 1;
    assert.ok(book.takeCode(expected, sent(fresh)), 'within 120 s');
    assert.equal(book.takeCode(expected, sent(fresh)), null, 'taken once');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('[DOOR-7] a runtime directory others can read is refused', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ai-ops-pair-open-'));
  try {
    const { chmod } = await import('node:fs/promises');
    await chmod(dir, 0o755);
    assert.throws(() => runtimeDir({ AI_OPS_RELAY_RUNTIME_DIR: dir }), /read by other users/);
    await chmod(dir, 0o700);
    assert.equal(runtimeDir({ AI_OPS_RELAY_RUNTIME_DIR: dir }), dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
