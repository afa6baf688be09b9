// Receipts that check on the lines as exported (UV-5, UV-12), through the runtime: the call path
// (session.call → the dialog's approval → the row), the audit export (auditRecord) and the
// auditor's verifyReceipt (src/verify.ts, the `ai-ops/verify` entry). The verifier here signs for
// real (ES256 with WebCrypto, test/helpers/synthetic-assertion.mjs, built apart from the code it
// checks); the platform's own authenticator is proven end to end in test/e2e/receipt-verify.test.mjs.
import { expect } from '@open-wc/testing';
import { createAiOps } from '../../src/runtime.js';
import { defineOperation } from '../../src/definition.js';
import { succeed } from '../../src/result.js';
import { inputDigest, type ConsentDescription, type Receipt } from '../../src/consent-proof.js';
import type { UserVerifier } from '../../src/user-verifier.js';
import { auditLine, auditRecord } from '../../src/audit-export.js';
import { describeCall, signedInputOf } from '../../src/log-entry.js';
import { formatValue, DETAIL_CHARS } from '../../src/log-format.js';
import { explainReceipt, verifyAuditRecord, verifyReceipt } from '../../src/verify.js';
import { makeKey, makeReceipt, type SyntheticKey } from '../helpers/synthetic-assertion.mjs';
import { FakeClock, FakeLoader, MemoryConsentStore, MemoryStorage, decide, flush, readConsentDatabase } from './helpers.js';

/** A verifier that applies and signs every description with the user's key, for real; it keeps what it signed. */
class SigningVerifier implements UserVerifier {
  readonly origin = 'http://localhost:8000';
  signed: Receipt[] = [];
  constructor(readonly key: SyntheticKey) {}
  applies = () => true;
  possible = () => true;
  enrolled = async () => this.key.record;
  async verify(description: ConsentDescription): Promise<Receipt> {
    const receipt = await makeReceipt(this.key, description);
    this.signed.push(receipt);
    return receipt;
  }
  check = async () => true;
  unenrol = async () => {};
  fingerprint = async () => '3f2a';
}

const user = await makeKey();
const stranger = await makeKey();

/** Markdown as people write it: line breaks, quotes, backslashes, tabs, Japanese and an emoji. */
const MARKDOWN = '# 見出し "引用"\n\n- C:\\Users\\a\\b.txt\n- `\\n` は改行, \'single\'\n\t> 😀 {"json": [1, 2]}\n';

async function setup() {
  const clock = new FakeClock();
  const verifier = new SigningVerifier(user);
  const aiOps = createAiOps({
    // Its own consent store: the page's IndexedDB is shared with every later test file (UV-8's
    // default store is proven in user-verifier.test.ts and default-runtime-uv.test.ts).
    clock, storage: new MemoryStorage(), consentStore: new MemoryConsentStore(), loader: new FakeLoader(), embedded: false,
    browserModelContext: null, autoReconnect: false, assetsBase: '/vendor/', automated: true, verifier,
  });
  const written: unknown[] = [];
  const session = aiOps.provideOperations('docs', [
    defineOperation({
      name: 'docs_write', description: 'Replaces the document.',
      inputSchema: { type: 'object', properties: { markdown: { type: 'string' }, title: { type: 'string' } }, required: ['markdown'], additionalProperties: false },
      confirmation: () => ({ title: '文書を置き換える', summary: 'Replaces the document.', actionLabel: '置き換える' }),
      execute: async (input: { markdown: string }) => {
        written.push(input);
        return succeed({ length: input.markdown.length });
      },
    }),
  ]);
  await session.turnOn();
  for (let i = 0; i < 500 && session.getState().status === 'starting'; i++) await flush();
  expect(session.getState().status).to.equal('on');
  // The dialog's view of the queue and the user's decisions, as the page's elements have them.
  const queue = { ...aiOps.confirmations, ...decide(aiOps) };
  runtimes.push(aiOps);
  return { aiOps, clock, verifier, session, queue, written };
}

/** The runtimes this file made, disposed after each test. */
const runtimes: ReturnType<typeof createAiOps>[] = [];

/** Resolves once `condition` holds (pending callbacks run in between). */
async function until(condition: () => boolean, what = 'the condition') {
  for (let i = 0; i < 500 && !condition(); i++) await flush();
  expect(condition(), what).to.equal(true);
}

/** Calls docs_write with each input at once and approves them: one by one, or all with one 「すべて承認」. */
async function approved(ctx: Awaited<ReturnType<typeof setup>>, inputs: object[], { together = false } = {}): Promise<string[]> {
  const before = ctx.aiOps.log.getState().entries.length;
  const answers = inputs.map((input) => ctx.session.call('docs_write', input).then((json) => JSON.parse(json)));
  const waiting = () => { const { current, queued } = ctx.queue.getState(); return (current ? 1 : 0) + queued.length; };
  await until(() => waiting() >= inputs.length, 'the calls queued');
  const { current, queued } = ctx.queue.getState();
  const ids = [current!, ...queued].map((r) => r.id);
  ctx.clock.advance(1000);
  if (together) ctx.queue.approveAll(ids);
  else for (const id of ids) ctx.queue.approve(id);
  expect((await Promise.all(answers)).map((a) => a.ok)).to.deep.equal(inputs.map(() => true));
  return auditRecord(ctx.aiOps.log.getState().entries.slice(before), user.record).split('\n').filter(Boolean);
}

/** `text` with the character at `i` changed to another. */
const changeAt = (text: string, i: number) => text.slice(0, i) + (text[i] === 'a' ? 'b' : 'a') + text.slice(i + 1);

/** The character spans, in the line's text, of the members the receipt binds. */
function boundSpans(text: string): [number, number][] {
  const line = JSON.parse(text) as Record<string, unknown>;
  const spans: [number, number][] = [];
  for (const name of ['tool', 'operation', 'inputJson', 'inputDigest', 'receipt', 'batch']) {
    if (!(name in line)) continue;
    const member = `${JSON.stringify(name)}:${JSON.stringify(line[name])}`;
    const start = text.indexOf(member);
    expect(start, name).to.be.greaterThan(0);
    spans.push([start, start + member.length]);
  }
  return spans;
}

describe('receipts that check on the exported lines (UV-5, UV-12)', () => {
  afterEach(async () => {
    for (const aiOps of runtimes.splice(0)) aiOps.dispose();
    // Test files share the page's origin, so its IndexedDB: what a test here kept there, a later
    // file would find (a `receipts:docs` record was seen by another file's count of the records).
    expect(await readConsentDatabase(), 'nothing of this file is left in the page\'s consent database').to.deep.equal({});
  });

  it('[UV-12] a verified call whose Markdown has line breaks, quotes, backslashes and non-ASCII verifies on its exported line; the row\'s text stays as shown', async () => {
    const ctx = await setup();
    const input = { markdown: MARKDOWN, title: '"q" \\ é' };
    const [text] = await approved(ctx, [input]);
    const line = JSON.parse(text);
    expect(await explainReceipt(text, user.record)).to.equal(null);
    expect(await verifyReceipt(text, user.record)).to.equal(true);
    expect(line.inputJson).to.equal(JSON.stringify(input));
    expect(line.inputDigest).to.equal(undefined);
    // The log's reading text is unchanged: real line breaks and quotes, not JSON.
    expect(line.args).to.equal(formatValue(input).text);
    expect(line.args).to.contain('\n- C:\\Users\\a\\b.txt\n');
    // The input handed back, in any key order, is the same input; another is not.
    expect(await verifyReceipt(text, user.record, { input: { title: input.title, markdown: MARKDOWN } })).to.equal(true);
    expect(await explainReceipt(text, user.record, { input: { markdown: `${MARKDOWN} ` } })).to.match(/^the input handed is not the one signed/);
  });

  it('[UV-12] a line whose input is longer than the row keeps carries its digest: it verifies only against the input handed to it, never alone', async () => {
    const ctx = await setup();
    const input = { markdown: `# 長い\n${'x"\\é'.repeat(3000)}` };
    expect(input.markdown.length).to.be.greaterThan(12_000);
    const [text] = await approved(ctx, [input]);
    const line = JSON.parse(text);
    expect(line.argsTruncated).to.equal(true);
    // Its args edited (issue 34: it still verified): not true.
    const edited = JSON.stringify({ ...line, args: line.args.replace('長い', '短い') });
    expect(await verifyReceipt(edited, user.record)).to.equal(false);
    // Alone: not checked, and so not true.
    expect(await verifyReceipt(text, user.record)).to.equal(false);
    expect(await explainReceipt(text, user.record)).to.match(/^input not checked: /);
    expect(line.inputJson).to.equal(undefined);
    expect(line.inputDigest).to.equal(await inputDigest(input));
    // With the input it was given: it verifies; with any other, it does not.
    expect(await verifyReceipt(text, user.record, { input })).to.equal(true);
    expect(await verifyReceipt(JSON.parse(text), user.record, { input: JSON.parse(JSON.stringify(input)) })).to.equal(true);
    expect(await verifyReceipt(text, user.record, { input: { markdown: `${input.markdown.slice(0, -1)}y` } })).to.equal(false);
    // Its digest edited to another input's: that input does not verify either, the receipt binds the first.
    const other = { markdown: 'rm -rf' };
    const swapped = JSON.stringify({ ...line, inputDigest: await inputDigest(other) });
    expect(await verifyReceipt(swapped, user.record, { input: other })).to.equal(false);
  });

  it('[UV-12] a switch receipt never verifies a call line, even for the same tool', async () => {
    const ctx = await setup();
    const [text] = await approved(ctx, [{ markdown: 'a' }]);
    const switchReceipt = ctx.verifier.signed.find((r) => r.description.kind === 'switch')!;
    expect(switchReceipt.description).to.include({ kind: 'switch', tool: 'docs' });
    const line = { ...JSON.parse(text), receipt: switchReceipt };
    expect(await verifyReceipt(line, user.record)).to.equal(false);
    expect(await verifyReceipt(line, user.record, { input: { markdown: 'a' } })).to.equal(false);
    expect(await explainReceipt(line, user.record)).to.match(/switch receipt/);
  });

  it('[UV-12] [BATCH-2] lines approved together verify each alone; one of them cut verifies only with its input', async () => {
    const ctx = await setup();
    const long = { markdown: `${'長'.repeat(10_500)}\n"end"` };
    const inputs = [{ markdown: MARKDOWN }, { markdown: 'two\r\nlines \\ "q"' }, long];
    const lines = await approved(ctx, inputs, { together: true });
    expect(lines).to.have.length(3);
    const parsed = lines.map((l) => JSON.parse(l));
    expect(parsed.every((l) => l.receipt.description.kind === 'batch' && l.batch.size === 3)).to.equal(true);
    expect(await explainReceipt(lines[0], user.record)).to.equal(null);
    expect(await explainReceipt(lines[1], user.record)).to.equal(null);
    expect(await explainReceipt(lines[2], user.record)).to.match(/^input not checked: /);
    expect(await verifyReceipt(lines[2], user.record, { input: long })).to.equal(true);
    expect(await verifyReceipt(lines[2], user.record, { input: inputs[0] })).to.equal(false);
    // Another line's input in this line: not this call's.
    expect(await verifyReceipt({ ...parsed[0], inputJson: parsed[1].inputJson }, user.record)).to.equal(false);
  });

  it('[UV-12] [AUDIT-2] [BATCH-2] a batch whose set lost a call during the prompt (its caller cancelled): the others\' lines verify', async () => {
    const ctx = await setup();
    // The OS prompt stays up until released, so a caller can cancel meanwhile.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sign = ctx.verifier.verify.bind(ctx.verifier);
    ctx.verifier.verify = async (description) => {
      if (description.kind === 'batch') await held;
      return sign(description);
    };
    const cancel = new AbortController();
    const inputs = [{ markdown: 'one' }, { markdown: 'two\n"q"' }, { markdown: 'three' }];
    const before = ctx.aiOps.log.getState().entries.length;
    const answers = inputs.map((input, i) => ctx.session.call('docs_write', input, i === 1 ? { signal: cancel.signal } : {}).then((json) => JSON.parse(json)));
    await until(() => (ctx.queue.getState().current ? 1 : 0) + ctx.queue.getState().queued.length === 3, 'the calls queued');
    const { current, queued } = ctx.queue.getState();
    ctx.queue.approveAll([current!, ...queued].map((r) => r.id));
    await until(() => ctx.queue.getState().current?.status === 'verifying', 'the prompt up');
    cancel.abort();
    await until(() => ctx.queue.getState().queued.length === 1, 'the cancelled call gone');
    release();
    const envelopes = await Promise.all(answers);
    expect(envelopes.map((e) => e.ok)).to.deep.equal([true, false, true]);
    const lines = auditRecord(ctx.aiOps.log.getState().entries.slice(before), user.record).split('\n').filter(Boolean);
    const approvedLines = lines.filter((l) => JSON.parse(l).receipt);
    expect(approvedLines).to.have.length(2);
    for (const text of approvedLines) expect(await explainReceipt(text, user.record), text).to.equal(null);
    // The size says how many the one press approved (what the receipt binds), not how many ran.
    expect(approvedLines.map((l) => JSON.parse(l).batch.size)).to.deep.equal([3, 3]);
    // [AUDIT-2] The whole record, the cancelled call's line among the others, verifies as a chain.
    const check = await verifyAuditRecord(auditRecord(ctx.aiOps.log.getState().entries, user.record), user.record);
    expect([check.ok, check.problem, check.inputNotChecked]).to.deep.equal([true, null, []]);
    expect(check.verified).to.have.length(2);
  });

  it('[UV-5] [UV-12] one changed byte anywhere in what the receipt binds fails, on a call line and on a batch line; another key fails', async () => {
    const ctx = await setup();
    const [single] = await approved(ctx, [{ markdown: MARKDOWN }]);
    const [inBatch] = await approved(ctx, [{ markdown: 'b\n"c"' }, { markdown: 'd' }], { together: true });
    let tried = 0;
    for (const text of [single, inBatch]) {
      expect(await verifyReceipt(text, user.record)).to.equal(true);
      expect(await verifyReceipt(text, stranger.record)).to.equal(false);
      for (const [start, end] of boundSpans(text)) {
        for (let i = start; i < end; i++) {
          const changed = changeAt(text, i);
          if (await verifyReceipt(changed, user.record)) expect.fail(`byte ${i} changed still verifies: …${changed.slice(Math.max(0, i - 30), i + 30)}…`);
          tried++;
        }
      }
    }
    expect(tried).to.be.greaterThan(1500);
  });

  it('[UV-12] a row keeps the signed input only with a receipt: the other lines keep their shape; what JSON cannot write falls back to the signed digest', async () => {
    const plain = auditLine({ ...describeCall({ time: 0, tool: 'docs', name: 'docs_read', args: { a: 1 }, result: succeed({}) }), id: 1 });
    expect(Object.keys(plain)).to.deep.equal(['time', 'tool', 'operation', 'via', 'args', 'result', 'code', 'durationMs', 'undone', 'argsTruncated', 'receipt', 'publicKey']);
    const description = {
      kind: 'call', origin: 'http://localhost:8000', tool: 'docs', operation: 'docs_write', inputDigest: await inputDigest({ b: [1, 'é'], a: null }),
      callId: 1, openedAt: 0, skipFuture: false, skipUntil: null,
    } as const;
    const receipt = await makeReceipt(user, description);
    // In the caller's member order (the row's args show that order); the receipt binds its canonical digest.
    expect(signedInputOf({ b: [1, 'é'], a: null }, receipt)).to.deep.equal({ json: '{"b":[1,"é"],"a":null}' });
    expect(await inputDigest(JSON.parse('{"b":[1,"é"],"a":null}'))).to.equal(description.inputDigest);
    // At the limit the JSON is kept whole; one character more, the digest of the description.
    const at = { m: 'x'.repeat(DETAIL_CHARS - 8) };
    expect(JSON.stringify(at).length).to.equal(DETAIL_CHARS);
    expect(signedInputOf(at, receipt)).to.deep.equal({ json: JSON.stringify(at) });
    expect(signedInputOf({ m: `${at.m}x` }, receipt)).to.deep.equal({ digest: description.inputDigest });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(signedInputOf(cyclic, receipt)).to.deep.equal({ digest: description.inputDigest });
    expect(signedInputOf({ n: 1n }, receipt)).to.deep.equal({ digest: description.inputDigest });
    // A receipt that is not a call's, with no call of its own: nothing to carry.
    const switchReceipt = await makeReceipt(user, { kind: 'switch', origin: 'http://localhost:8000', tool: 'docs', enabledUntil: 1 });
    expect(signedInputOf({ m: `${at.m}x` }, switchReceipt)).to.equal(undefined);
  });
});
