// AUDIT-2 offline, in Node with no DOM: records written by the package's own auditRecord (rows made
// with its describeCall, receipts signed for real with WebCrypto, test/helpers/synthetic-assertion.mjs),
// checked by `verifyAuditRecord` from `ai-ops/verify` and by the `ai-ops-verify` command run as its
// own process. Every change to a line — edited, deleted (first, middle, last), duplicated,
// reordered, a digest made again by hand — fails, naming the line; a true record passes.
// The same record made by the real page (slides, a batch, undo rows) is checked in
// test/e2e/receipt-verify.test.mjs. Build first: `npm run build`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { auditRecord, describeCall } from 'ai-ops/internals';
import { INPUT_NOT_CHECKED, inputDigest, verifyAuditRecord } from 'ai-ops/verify';
import { makeKey, makeReceipt } from '../helpers/synthetic-assertion.mjs';

const COMMAND = fileURLToPath(new URL('../../bin/ai-ops-verify.mjs', import.meta.url));
const ORIGIN = 'http://localhost:8000';
const user = await makeKey();
const stranger = await makeKey();

/** A verified call's row: its receipt signed by `key` for this tool, operation and input. */
async function approvedRow(id, name, input, key = user) {
  const description = {
    kind: 'call', origin: ORIGIN, tool: 'docs', operation: name, inputDigest: await inputDigest(input), callId: id, openedAt: 1000, skipFuture: false, skipUntil: null,
  };
  const receipt = await makeReceipt(key, description);
  return { ...describeCall({ time: Date.UTC(2026, 11, 1, 9, id), tool: 'docs', name, args: input, result: { ok: true, length: 1 }, via: 'relay', receipt }), id };
}

/** A record of five rows: a read, two verified writes (one of 12,000 characters), a failure, the user's undo. */
async function record() {
  const long = { markdown: `# 長い\n${'「引用」 "q" \\ é\n'.repeat(1200)}`.slice(0, 12_000) };
  const rows = [
    { ...describeCall({ time: Date.UTC(2026, 11, 1, 9, 0), tool: 'docs', name: 'docs_read', args: {}, result: { ok: true, markdown: 'a\nb' }, via: 'webmcp' }), id: 1 },
    await approvedRow(2, 'docs_write', { markdown: '# 見出し "q"\n\n- C:\\a\\b\n😀' }),
    await approvedRow(3, 'docs_write', long),
    { ...describeCall({ time: Date.UTC(2026, 11, 1, 9, 4), tool: 'docs', name: 'docs_write', args: { markdown: 1 }, result: { ok: false, error: { code: 'invalid_input', message: 'no' } }, via: 'relay' }), id: 4 },
    { ...describeCall({ time: Date.UTC(2026, 11, 1, 9, 5), tool: 'docs', name: 'docs_write', args: { undo: 2 }, result: { ok: true, undone: 2 }, via: 'user', by: 'user' }), id: 5, undo: null },
  ];
  return { text: auditRecord(rows, user.record), long };
}

/** Runs the command as its own process. */
function run(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [COMMAND, ...args], { timeout: 30_000 }, (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }));
  });
}

/** The line with its own digest made again by hand, as someone who edits it carefully would. */
function rehash(line) {
  const body = line.replace(/,"digest":"[0-9a-f]{64}"\}$/, '}');
  return `${body.slice(0, -1)},"digest":"${createHash('sha256').update(body).digest('hex')}"}`;
}

const linesOf = (text) => text.slice(0, -1).split('\n');
const join_ = (lines) => `${lines.join('\n')}\n`;

test('[AUDIT-2] every line carries its number, the count, the digest of the line before it and its own: the SHA-256 of its text without it', async () => {
  const { text } = await record();
  const lines = linesOf(text);
  assert.equal(lines.length, 5);
  let prev = '0'.repeat(64);
  for (const [i, line] of lines.entries()) {
    const parsed = JSON.parse(line);
    assert.deepEqual([parsed.line, parsed.lines, parsed.prev], [i + 1, 5, prev]);
    assert.ok(line.endsWith(`,"digest":"${parsed.digest}"}`), 'the digest is the last member');
    // Recomputed without the package.
    assert.equal(createHash('sha256').update(line.replace(/,"digest":"[0-9a-f]{64}"\}$/, '}')).digest('hex'), parsed.digest);
    prev = parsed.digest;
  }
});

test('[AUDIT-2] [UV-12] verifyAuditRecord: a true record holds; the long line is listed as input not checked until its input is handed; another key fails at the first receipt', async () => {
  const { text, long } = await record();
  const check = await verifyAuditRecord(text, user.record);
  assert.deepEqual({ ...check, head: check.head?.length }, { ok: true, lines: 5, head: 64, problem: null, verified: [2], inputNotChecked: [3] });
  const full = await verifyAuditRecord(text, JSON.stringify(user.record), { inputs: { 3: long } });
  assert.deepEqual([full.ok, full.verified, full.inputNotChecked], [true, [2, 3], []]);
  const wrong = await verifyAuditRecord(text, user.record, { inputs: { 3: { markdown: 'other' } } });
  assert.deepEqual([wrong.ok, wrong.problem.line, wrong.problem.kind], [false, 3, 'receipt']);
  const other = await verifyAuditRecord(text, stranger.record);
  assert.deepEqual([other.ok, other.problem.line, other.problem.kind], [false, 2, 'receipt']);
  assert.ok(INPUT_NOT_CHECKED);
  assert.deepEqual(await verifyAuditRecord('', user.record), { ok: true, lines: 0, head: null, problem: null, verified: [], inputNotChecked: [] });
});

test('[AUDIT-2] each change names the first line it touched: edited (result, code, time, via, undone, batch), deleted (first, middle, last), duplicated, reordered, a digest remade', async () => {
  const { text } = await record();
  const lines = linesOf(text);
  const problem = async (changed) => {
    const check = await verifyAuditRecord(join_(changed), user.record);
    assert.equal(check.ok, false);
    return [check.problem.line, check.problem.kind];
  };
  const withMember = (i, patch) => lines.map((l, j) => (j === i ? JSON.stringify({ ...JSON.parse(l), ...patch }) : l));
  for (const patch of [{ result: 'changed' }, { code: 'failed' }, { time: '2020-01-01T00:00:00.000Z' }, { via: 'page' }, { undone: true }, { durationMs: 1 }, { batch: { id: 'x', size: 1 } }]) {
    assert.deepEqual(await problem(withMember(3, patch)), [4, 'edited'], JSON.stringify(patch));
  }
  // Edited and its digest remade: the next line's `prev` names it.
  assert.deepEqual(await problem(lines.map((l, j) => (j === 1 ? rehash(JSON.stringify({ ...JSON.parse(l), result: 'x' })) : l))), [2, 'edited']);
  assert.deepEqual(await problem(lines.slice(1)), [1, 'deleted']);
  assert.deepEqual(await problem([lines[0], ...lines.slice(2)]), [2, 'deleted']);
  assert.deepEqual(await problem(lines.slice(0, -1)), [5, 'deleted']);
  assert.deepEqual(await problem([...lines.slice(0, 3), lines[2], ...lines.slice(3)]), [4, 'duplicated']);
  assert.deepEqual(await problem([...lines, lines[0]]), [6, 'duplicated']);
  assert.deepEqual(await problem([lines[0], lines[2], lines[1], ...lines.slice(3)]), [2, 'reordered']);
  assert.deepEqual(await problem([lines[1], lines[0], ...lines.slice(2)]), [1, 'reordered']);
  assert.deepEqual(await problem([lines[0], 'not json', ...lines.slice(2)]), [2, 'unreadable']);
  assert.deepEqual(await problem([lines[0], '', ...lines.slice(1)]), [2, 'unreadable']);
  // A file saved with Windows line ends is an edit too.
  assert.equal((await verifyAuditRecord(lines.join('\r\n'), user.record)).ok, false);
});

test('[AUDIT-2] the ai-ops-verify command, as its own process: 0 for a true record (saying which inputs were not checked), 1 naming the first changed line, 2 when not used right', async () => {
  const { text, long } = await record();
  const dir = await mkdtemp(join(tmpdir(), 'ai-ops-chain-'));
  const file = join(dir, 'record.jsonl');
  const keyFile = join(dir, 'key.json');
  const inputFile = join(dir, 'input.json');
  await writeFile(file, text);
  await writeFile(keyFile, JSON.stringify(user.record));
  await writeFile(inputFile, JSON.stringify(long));

  const ok = await run([file, '--key', keyFile]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /^OK: 5 lines, the chain holds; 1 receipts verified\nlast digest: [0-9a-f]{64}\nline 3: input not checked/);
  const full = await run([file, `--key=${JSON.stringify(user.record)}`, '--input', `3=${inputFile}`]);
  assert.equal(full.code, 0, full.stderr);
  assert.doesNotMatch(full.stdout, /not checked/);
  assert.match(full.stdout, /2 receipts verified/);

  await writeFile(file, join_(linesOf(text).filter((_, i) => i !== 2)));
  const deleted = await run([file, '--key', keyFile]);
  assert.equal(deleted.code, 1);
  assert.match(deleted.stdout, /^FAILED: line 3 was deleted/);

  await writeFile(keyFile, JSON.stringify(stranger.record));
  await writeFile(file, text);
  const otherKey = await run([file, '--key', keyFile]);
  assert.equal(otherKey.code, 1);
  assert.match(otherKey.stdout, /^FAILED: line 2's receipt does not check/);

  assert.equal((await run([file])).code, 2);
  assert.equal((await run(['--key', keyFile])).code, 2);
  assert.equal((await run([file, '--key', join(dir, 'missing.json')])).code, 2);
  assert.equal((await run([file, '--key', keyFile, '--input', 'x'])).code, 2);
  assert.equal((await run([file, '--key', keyFile, '--frobnicate'])).code, 2);
});

test('[AUDIT-2] the command ships with the package: package.json names it in `bin`, and `files` carries bin/', async () => {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
  assert.equal(pkg.bin['ai-ops-verify'], 'bin/ai-ops-verify.mjs');
  assert.ok(pkg.files.includes('bin'));
});
