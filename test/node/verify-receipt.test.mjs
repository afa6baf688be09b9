// UV-5: an auditor checks an audit export's approvals offline, in plain Node (no DOM), through the
// built package's `ai-ops/verify` entry (dist/lib; `npm run build` first), against a key they hold.
// The receipts here are made with WebCrypto by test/helpers/synthetic-assertion.mjs (authenticator
// data, client data and a DER ES256 signature built by hand) — the pure code path. The browser
// tests (test/runtime/consent-proof.test.ts, user-verifier.test.ts) cover a real authenticator's
// output through the same checkReceipt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeKey, makeReceipt } from '../helpers/synthetic-assertion.mjs';

const verify = await import('ai-ops/verify');
const { verifyReceipt, explainReceipt, inputDigest, fingerprint, canonicalJson, INPUT_NOT_CHECKED } = verify;
const { describeCall } = await import('ai-ops/internals');

/** The input as the log's row writes it (the line's `args`, `argsTruncated`): what the export carries. */
const shown = (args) => {
  const { text, truncated } = describeCall({ time: 0, tool: 'node', name: 'node_write_file', args, result: { ok: true } }).args;
  return { args: text, argsTruncated: truncated };
};

const origin = 'http://localhost:8000';
const input = { path: 'notes/a.txt', text: 'é'.repeat(3), lines: [1, 2, 3] };
const auditor = await makeKey();

async function approvedLine({ key = auditor, args = input, over = {} } = {}) {
  const description = {
    kind: 'call', origin, tool: 'node', operation: 'node_write_file', inputDigest: await inputDigest(args),
    callId: 42, openedAt: 1_764_000_000_000, skipFuture: false, ...over,
  };
  return {
    id: 42, at: '2026-12-02T00:00:00.000Z', status: 'ok',
    tool: 'node', operation: 'node_write_file', ...shown(args),
    receipt: await makeReceipt(key, description), inputJson: JSON.stringify(args), publicKey: key.record,
  };
}

/** The line as export text, with the character spans of the members a receipt binds. */
function lineText(line) {
  const bound = ['tool', 'operation', 'args', 'inputJson', 'inputDigest', 'receipt'];
  let text = '{';
  const spans = [];
  for (const [name, value] of Object.entries(line)) {
    if (text.length > 1) text += ',';
    const start = text.length;
    text += `${JSON.stringify(name)}:${JSON.stringify(value)}`;
    if (bound.includes(name)) spans.push([start, text.length]);
  }
  return { text: `${text}}`, spans };
}

test('[UV-5] ai-ops/verify imports in plain Node without a DOM and offers the auditor\'s functions', () => {
  assert.equal(typeof globalThis.window, 'undefined');
  assert.equal(typeof globalThis.document, 'undefined');
  for (const name of ['verifyReceipt', 'explainReceipt', 'checkReceipt', 'fingerprint', 'canonicalJson', 'challengeOf', 'inputDigest']) {
    assert.equal(typeof verify[name], 'function', name);
  }
  assert.equal(INPUT_NOT_CHECKED, 'input not checked');
});

test('[UV-5] a line approved with the auditor\'s key verifies: as text or parsed, the key as a record or its JSON', async () => {
  const line = await approvedLine();
  const { text } = lineText(line);
  assert.equal(await explainReceipt(text, auditor.record), null);
  assert.equal(await verifyReceipt(text, auditor.record), true);
  assert.equal(await verifyReceipt(line, JSON.stringify(auditor.record)), true);
  assert.equal(await verifyReceipt(JSON.parse(text), { v: 1, ...auditor.record }), true);
  assert.match(await fingerprint(auditor.record), /^([0-9a-f]{4} ){7}[0-9a-f]{4}$/);
});

test('[UV-5] [UV-12] a line changed by one byte anywhere in what the receipt binds (tool, operation, args, inputJson, receipt) fails', async () => {
  const { text, spans } = lineText(await approvedLine());
  let tried = 0;
  for (const [start, end] of spans) {
    for (let i = start; i < end; i++) {
      const changed = text.slice(0, i) + (text[i] === 'a' ? 'b' : 'a') + text.slice(i + 1);
      assert.equal(await verifyReceipt(changed, auditor.record), false, `byte ${i}: ${changed.slice(Math.max(0, i - 20), i + 20)}`);
      tried++;
    }
  }
  assert.ok(tried > 500, `${tried} changed lines tried`);
});

test('[UV-5] a receipt replayed on another call\'s line, or signed for other input, fails', async () => {
  const line = await approvedLine();
  const replays = {
    'another operation': { ...line, operation: 'node_delete_file' },
    'another tool': { ...line, tool: 'go' },
    'other input': { ...line, inputJson: JSON.stringify({ ...input, path: 'notes/b.txt' }) },
    'other args': { ...line, ...shown({ ...input, path: 'notes/b.txt' }) },
  };
  for (const [what, replay] of Object.entries(replays)) assert.equal(await verifyReceipt(replay, auditor.record), false, what);
  // The same input in another key order is the same signed input (its canonical digest), but the
  // line's args show the order it came in: reordering inputJson alone no longer matches them.
  const reordered = { lines: input.lines, text: input.text, path: input.path };
  assert.equal(await verifyReceipt(line, auditor.record, { input: reordered }), true);
  assert.equal(await explainReceipt({ ...line, inputJson: JSON.stringify(reordered) }, auditor.record), 'the line\'s args are not the signed input as the log shows it');
  assert.equal(await verifyReceipt({ ...line, inputJson: JSON.stringify(reordered), ...shown(reordered) }, auditor.record), true);
  assert.equal(await explainReceipt({ ...line, inputJson: JSON.stringify(input, null, 1) }, auditor.record), 'the line\'s inputJson is not as JSON writes it');
  const otherInput = await approvedLine({ over: { inputDigest: await inputDigest({ path: 'x' }) } });
  assert.equal(await explainReceipt(otherInput, auditor.record), 'the receipt is for other input');
  // Another call's receipt (its own call id and time) on this line: it verifies as that call's
  // approval only where tool, operation and input are the same; the export's row id is the line's.
  const elsewhere = await approvedLine({ args: { path: 'other' }, over: { callId: 7 } });
  assert.equal(await verifyReceipt({ ...line, receipt: elsewhere.receipt }, auditor.record), false);
});

test('[UV-5] the key is the auditor\'s, never the line\'s: a receipt signed by another key fails even with that key in the line', async () => {
  const intruder = await makeKey();
  const forged = await approvedLine({ key: intruder });
  assert.deepEqual(forged.publicKey, intruder.record);
  assert.equal(await verifyReceipt(forged, intruder.record), true, 'it is a valid signature, by the intruder');
  assert.equal(await verifyReceipt(forged, auditor.record), false);
  const sameId = { ...forged, receipt: { ...forged.receipt, credentialId: auditor.record.credentialId } };
  assert.equal(await explainReceipt(sameId, auditor.record), 'the signature does not verify');
});

test('[UV-12] a line carrying only the input\'s digest verifies only with the input handed; never a switch receipt; a batch or missing receipt fails', async () => {
  // An input longer than the row keeps: the line carries its digest and the row's cut text.
  const long = { path: 'notes/long.txt', text: 'ながい'.repeat(4000) };
  const line = await approvedLine({ args: long });
  const { inputJson: _json, ...rest } = line;
  assert.equal(rest.argsTruncated, true);
  const cut = { ...rest, inputDigest: await inputDigest(long) };
  assert.equal(await verifyReceipt(cut, auditor.record), false);
  assert.match(await explainReceipt(cut, auditor.record), new RegExp(`^${INPUT_NOT_CHECKED}: `));
  assert.equal(await verifyReceipt(cut, auditor.record, { input: long }), true);
  assert.equal(await explainReceipt({ ...cut, args: `${cut.args.slice(0, -1)}x` }, auditor.record, { input: long }), 'the line\'s args are not the signed input as the log shows it');
  assert.equal(await explainReceipt(cut, auditor.record, { input: { ...long, path: 'x' } }), 'the input handed is not the one signed');
  assert.equal(await verifyReceipt({ ...cut, operation: 'node_delete_file' }, auditor.record, { input: long }), false);
  assert.equal(await verifyReceipt({ ...cut, inputDigest: await inputDigest({ path: 'x' }) }, auditor.record, { input: { path: 'x' } }), false);
  assert.match(await explainReceipt({ ...cut, inputJson: JSON.stringify(long) }, auditor.record, { input: long }), /both/);
  assert.equal(await explainReceipt(rest, auditor.record, { input: long }), 'the line carries no input (inputJson or inputDigest)');
  const switchReceipt = await makeReceipt(auditor, { kind: 'switch', origin, tool: 'node', enabledUntil: 1_764_604_800_000 });
  assert.match(await explainReceipt({ ...line, receipt: switchReceipt }, auditor.record), /switch receipt/);
  assert.equal(await verifyReceipt({ ...cut, receipt: switchReceipt }, auditor.record, { input: long }), false);
  const batch = await makeReceipt(auditor, { kind: 'batch', origin, batchId: 'b1', calls: ['ab', 'cd'] });
  assert.match(await explainReceipt({ ...line, receipt: batch }, auditor.record), /batch receipt/);
  assert.equal(await explainReceipt({ ...line, receipt: null }, auditor.record), 'the line has no receipt');
});

test('[BATCH-2] [BATCH-4] a batch receipt verifies each line that carries its own call description, one of the set\'s digests; any other set, batch or call fails', async () => {
  const { createHash } = await import('node:crypto');
  // The digest recomputed here from the canonical JSON, as an auditor would, not with the package's helper.
  const digest = (d) => createHash('sha256').update(verify.canonicalJson(d)).digest('hex');
  const inputs = [{ path: 'a.txt' }, { path: 'b.txt' }];
  const calls = await Promise.all(inputs.map(async (args, i) => ({
    kind: 'call', origin, tool: 'node', operation: 'node_delete_file', inputDigest: await inputDigest(args), callId: 7 + i, openedAt: 1_764_000_000_000, skipFuture: false,
  })));
  const receipt = await makeReceipt(auditor, { kind: 'batch', origin, batchId: 'b1', calls: calls.map(digest) });
  const lines = inputs.map((args, i) => ({
    tool: 'node', operation: 'node_delete_file', ...shown(args), inputJson: JSON.stringify(args), receipt, batch: { id: 'b1', size: 2, call: calls[i] },
  }));
  for (const line of lines) assert.equal(await explainReceipt(JSON.stringify(line), auditor.record), null);
  // Another set: signed over the first call alone, the second line's call is not in it.
  const alone = await makeReceipt(auditor, { kind: 'batch', origin, batchId: 'b1', calls: [digest(calls[0])] });
  assert.match(await explainReceipt({ ...lines[1], receipt: alone }, auditor.record), /not in the batch/);
  // The set edited in the receipt: the signature no longer covers it.
  assert.equal(await verifyReceipt({ ...lines[0], receipt: { ...receipt, description: { ...receipt.description, calls: [digest(calls[0])] } } }, auditor.record), false);
  assert.match(await explainReceipt({ ...lines[0], batch: { ...lines[0].batch, id: 'b2' } }, auditor.record), /another batch/);
  assert.match(await explainReceipt({ ...lines[0], batch: { ...lines[0].batch, call: { ...calls[0], callId: 99 } } }, auditor.record), /not in the batch/);
  assert.match(await explainReceipt({ ...lines[0], inputJson: lines[1].inputJson }, auditor.record), /other input/);
  assert.match(await explainReceipt({ ...lines[0], batch: { ...lines[0].batch, size: 3 } }, auditor.record), /batch size/);
  assert.match(await explainReceipt({ ...lines[0], operation: 'node_write_file' }, auditor.record), /another operation/);
});

test('[UV-5] verifyReceipt never rejects: unreadable lines and keys give false', async () => {
  const line = await approvedLine();
  for (const [what, value, key] of [
    ['not JSON', '{"tool":', auditor.record], ['an array', '[]', auditor.record], ['null', 'null', auditor.record],
    ['a key that is not JSON', line, '{'], ['no key', line, null], ['a key without spki', line, { credentialId: auditor.record.credentialId, alg: -7 }],
    ['inputJson that is not JSON', { ...line, inputJson: '{' }, auditor.record], ['a receipt that is a string', { ...line, receipt: 'x' }, auditor.record],
  ]) {
    assert.equal(await verifyReceipt(value, key), false, what);
    assert.equal(typeof await explainReceipt(value, key), 'string', what);
  }
  // Options that are not an object read as none.
  assert.equal(await verifyReceipt(line, auditor.record, null), true);
  assert.equal(await verifyReceipt(line, auditor.record, 'input'), true);
});
