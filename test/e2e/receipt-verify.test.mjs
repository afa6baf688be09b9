// UV-5 and UV-12 end to end: verified calls made by an agent through the real path (an MCP SDK
// client on the relay command), each approved by a trusted click with the user's device present
// (the harness's CDP virtual authenticator), then 「記録を保存」; the downloaded lines are checked
// offline, in this Node process, with the package's `ai-ops/verify` entry imported as a consumer
// imports it (the built package, by its name), against the public key read from the device itself
// (WebAuthn.getCredentials is the authenticator's own record, not the page's). The lines of real
// calls verify: multi-line Markdown with quotes, backslashes and non-ASCII, a 12,000-character
// deck (only with its input handed), drawio_write's XML, and calls approved together (BATCH-2);
// a line changed by one byte, another key, a receipt moved to another call, the switch's receipt
// on a call line, and a cut line without its input do not.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { startDemo, startRelay, launchBrowser, freePort, waitFor, listedNames, relayedNames, callRelay, clickSwitch, openToolPage, confirmDialog, showLog, consentRecord, ensurePaired } from './harness.mjs';

let demo, relay, browser, page, verify;

before(async () => {
  // As a consumer imports it: the package's own name, resolved through its exports (dist/lib).
  verify = await import('ai-ops/verify');
  demo = await startDemo();
  relay = await startRelay({ origin: demo.origin, port: await freePort() });
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.goto(`${demo.origin}/sample/`);
  await page.locator('ai-ops-switch[tool="sample"] input[role="switch"]').waitFor();
  await clickSwitch(page, 'sample');
  // DOOR-6: the user pairs the page with their agent.
  await ensurePaired(page, relay.client, 'sample');
  await waitFor(async () => (await listedNames(relay.client)).includes('sample_clear_note'), 20_000, 'the sample operations through the relay');
});

after(async () => {
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

/** The SPKI of the device's credential, from the authenticator (PKCS#8 private key → public part). */
async function devicePublicKey(target = page) {
  const credentials = await (await browser.authenticatorOf(target)).credentials();
  assert.equal(credentials.length, 1, 'one credential on the device');
  const der = Buffer.from(credentials[0].privateKey, 'base64');
  const { createPrivateKey, createPublicKey } = await import('node:crypto');
  const spki = createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })).export({ type: 'spki', format: 'der' });
  const credentialId = Buffer.from(credentials[0].credentialId, 'base64').toString('base64url');
  return { credentialId, alg: -7, spki: Buffer.from(spki).toString('base64url') };
}

test('[UV-5] [UV-12] the exported line of a verified approval verifies offline against the device\'s key; one byte changed, or another call, fails', async () => {
  await page.locator('#note').fill('消してよいメモ');
  const pending = callRelay(relay.client, 'sample_clear_note', {});
  const dialog = page.locator('ai-ops-confirm dialog[open]');
  await dialog.getByRole('button', { name: '空にする' }).waitFor();
  await dialog.getByRole('button', { name: '空にする' }).click();
  assert.equal((await pending).env.ok, true);
  const read = await callRelay(relay.client, 'sample_read_note', {});
  assert.equal(read.env.ok, true);

  const lines = await exported(page, 'sample');
  const cleared = lines.find((l) => JSON.parse(l).operation === 'sample_clear_note');
  const other = lines.find((l) => JSON.parse(l).operation === 'sample_read_note');
  assert.ok(cleared && other);

  const key = await devicePublicKey();
  assert.equal(JSON.parse(cleared).receipt.credentialId, key.credentialId);
  assert.equal(await verify.verifyReceipt(cleared, key), true, await verify.explainReceipt?.(cleared, key));
  // A line changed in what the receipt binds: its input.
  const edited = JSON.parse(cleared);
  assert.equal(edited.inputJson, '{}');
  edited.inputJson = '{"note":1}';
  assert.equal(await verify.verifyReceipt(JSON.stringify(edited), key), false);
  // One byte of the signature.
  const forged = JSON.parse(cleared);
  const sig = Buffer.from(forged.receipt.signature, 'base64url');
  sig[sig.length - 1] ^= 1;
  forged.receipt.signature = sig.toString('base64url');
  assert.equal(await verify.verifyReceipt(JSON.stringify(forged), key), false);
  // The receipt replayed on another call's line.
  const replayed = { ...JSON.parse(other), receipt: JSON.parse(cleared).receipt };
  assert.equal(await verify.verifyReceipt(JSON.stringify(replayed), key), false);
  // Another key (one the line itself carries is never trusted).
  assert.equal(await verify.verifyReceipt(cleared, strangerKey(key)), false);
});

/** Another key of the same shape: the device's credential id, someone else's SPKI. */
function strangerKey(key) {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { ...key, spki: publicKey.export({ type: 'spki', format: 'der' }).toString('base64url') };
}

/** The page's record as the user saves it (「記録を保存」 in `tool`'s log): its lines, as text. */
async function exported(target, tool) {
  await target.bringToFront();
  await showLog(target, tool);
  const button = target.locator(`ai-ops-log[tool="${tool}"]`).getByRole('button', { name: '記録を保存' });
  const [download] = await Promise.all([target.waitForEvent('download'), button.click()]);
  return (await readFile(await download.path(), 'utf8')).split('\n').filter(Boolean);
}

/** Opens `tool`'s page in a tab, turns its switch on like a person (verified), and waits for `ready` to answer through the relay. */
async function openAndSwitchOn(tool, ready) {
  const target = await openToolPage(browser.context, demo.origin, tool);
  await clickSwitch(target, tool);
  await ensurePaired(target, relay.client, tool);
  await waitFor(async () => (await relayedNames(relay.client)).includes(ready), 30_000, `${tool}'s operations through the relay`);
  await waitFor(async () => (await callRelay(relay.client, ready, {})).env?.error?.code !== 'not_ready', 60_000, `${ready} ready`);
  return target;
}

/** An agent's call through the relay, approved by the user's click on `action` in `target`'s dialog. */
async function approvedCall(target, name, args, action) {
  await target.bringToFront();
  const pending = callRelay(relay.client, name, args);
  const button = confirmDialog(target).locator('dialog[open]').getByRole('button', { name: action, exact: true });
  await button.click({ timeout: 20_000 });
  const answer = await pending;
  assert.equal(answer.env?.ok, true, `${name}: ${JSON.stringify(answer.env)}`);
  await waitFor(async () => (await target.locator('ai-ops-confirm dialog[open]').count()) === 0, 10_000, 'the dialog to close');
  return answer;
}

/** Every character of `text` inside the members a receipt binds, changed one at a time: how many were tried; none may verify. */
async function assertEveryByteBound(text, key, options) {
  const line = JSON.parse(text);
  let tried = 0;
  for (const name of ['tool', 'operation', 'args', 'inputJson', 'inputDigest', 'receipt', 'batch']) {
    if (!(name in line)) continue;
    const member = `${JSON.stringify(name)}:${JSON.stringify(line[name])}`;
    const start = text.indexOf(member);
    assert.ok(start > 0, name);
    // A long args (10,000 characters) is tried at about 400 places spread over it, the rest byte by byte.
    const step = name === 'args' ? Math.max(1, Math.floor(member.length / 400)) : 1;
    for (let i = start; i < start + member.length; i += step) {
      const changed = text.slice(0, i) + (text[i] === 'a' ? 'b' : 'a') + text.slice(i + 1);
      if (await verify.verifyReceipt(changed, key, options)) assert.fail(`byte ${i} changed still verifies: …${changed.slice(Math.max(0, i - 30), i + 30)}…`);
      tried++;
    }
  }
  return tried;
}

/** The switch-on receipts the page keeps (its consent store, UV-8), of `tools`: each signed by the device. */
async function storedSwitchReceipts(target, tools) {
  const receipts = [];
  for (const tool of tools) {
    const stored = await consentRecord(target, `receipts:${tool}`);
    if (stored?.on) receipts.push(stored.on);
  }
  return receipts;
}

/** Markdown as people write it: slide breaks, quotes, backslashes, a tab, Japanese and an emoji. */
const MARKDOWN = '# 受領の確認 "引用" と \'単引用\'\n\n- パス: C:\\Users\\ai\\deck.md\n- `\\n` は改行の書き方\n\t> 😀 {"json": [1, 2]}\n\n---\n\n# 二枚目 café\n';
/** A deck of exactly 12,000 characters: longer than the row keeps (10,000). */
const LONG = `# 長いデッキ\n\n${'「引用」 "q" \\ é\n'.repeat(1200)}`.slice(0, 12_000);

let slides;

test('[UV-12] [UV-5] slides_write with multi-line Markdown (quotes, backslashes, non-ASCII) and a 12,000-character deck: the exported lines verify offline with ai-ops/verify, the long one only with its input', { timeout: 240_000 }, async () => {
  assert.equal(LONG.length, 12_000);
  slides = await openAndSwitchOn('slides', 'slides_read');
  await approvedCall(slides, 'slides_write', { markdown: MARKDOWN }, '置き換える');
  await approvedCall(slides, 'slides_write', { markdown: LONG }, '置き換える');
  const key = await devicePublicKey(slides);
  const writes = (await exported(slides, 'slides')).filter((l) => JSON.parse(l).operation === 'slides_write');
  assert.equal(writes.length, 2);
  const [multi, long] = writes;

  // The multi-line one: its line carries the signed input as JSON and verifies alone.
  const line = JSON.parse(multi);
  assert.equal(line.receipt.description.kind, 'call');
  assert.equal(line.inputJson, JSON.stringify({ markdown: MARKDOWN }));
  assert.equal(JSON.parse(line.inputJson).markdown, MARKDOWN);
  assert.match(line.args, /C:\\Users\\ai\\deck\.md\n/, 'the row\'s reading text keeps its real line breaks');
  assert.equal(await verify.explainReceipt(multi, key), null);
  assert.equal(await verify.verifyReceipt(multi, key), true);
  // Recomputed without the package: the SHA-256 of the line's inputJson (one member: already canonical) is what the receipt signed.
  assert.equal(createHash('sha256').update(line.inputJson).digest('hex'), line.receipt.description.inputDigest);
  assert.ok(await assertEveryByteBound(multi, key) > 500);
  assert.equal(await verify.verifyReceipt(multi, strangerKey(key)), false);

  // The 12,000-character one: only its digest is in the line; alone it is "input not checked", never true.
  const cut = JSON.parse(long);
  assert.equal(cut.argsTruncated, true);
  assert.equal(cut.inputJson, undefined);
  assert.equal(cut.inputDigest, createHash('sha256').update(JSON.stringify({ markdown: LONG })).digest('hex'));
  assert.equal(await verify.verifyReceipt(long, key), false);
  assert.match(await verify.explainReceipt(long, key), new RegExp(`^${verify.INPUT_NOT_CHECKED}: `));
  assert.equal(await verify.verifyReceipt(long, key, { input: { markdown: LONG } }), true);
  assert.equal(await verify.verifyReceipt(long, key, { input: { markdown: `${LONG.slice(0, -1)}!` } }), false);
  // Its args edited (issue 34: it still verified, its input unchecked): not true, with the input or without.
  assert.equal(await verify.verifyReceipt(JSON.stringify({ ...cut, args: cut.args.replace('長い', '短い') }), key), false);
  assert.equal(await verify.verifyReceipt(JSON.stringify({ ...cut, args: cut.args.replace('長い', '短い') }), key, { input: { markdown: LONG } }), false);
  assert.equal(await verify.verifyReceipt(JSON.stringify({ ...line, args: line.args.replace('deck', 'desk') }), key), false);
  assert.ok(await assertEveryByteBound(long, key, { input: { markdown: LONG } }) > 500);
  assert.equal(await verify.verifyReceipt(long, strangerKey(key), { input: { markdown: LONG } }), false);

  // The switches' own receipts (signed by the same device, one for this very tool) moved onto the call lines.
  const switches = await storedSwitchReceipts(slides, ['slides', 'sample']);
  assert.deepEqual(switches.map((r) => [r.description.kind, r.description.tool]), [['switch', 'slides'], ['switch', 'sample']]);
  for (const receipt of switches) {
    assert.equal(await verify.checkReceipt(receipt, key), null, 'a real receipt of the device');
    assert.equal(await verify.verifyReceipt({ ...line, receipt }, key), false);
    assert.equal(await verify.verifyReceipt({ ...cut, receipt }, key, { input: { markdown: LONG } }), false);
  }
});

test('[UV-12] [UV-5] drawio_write\'s XML: the exported line verifies offline; edited, it does not', { timeout: 240_000 }, async () => {
  const drawio = await openAndSwitchOn('drawio', 'drawio_read');
  const xml = '<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>\n'
    + '<mxCell id="q" value="&quot;引用&quot; \\ back &amp; café 😀" style="rounded=1;" vertex="1" parent="1">'
    + '<mxGeometry x="10" y="10" width="120" height="40" as="geometry"/></mxCell>\n</root></mxGraphModel>';
  await approvedCall(drawio, 'drawio_write', { xml }, '置き換える');
  const key = await devicePublicKey(drawio);
  const [written] = (await exported(drawio, 'drawio')).filter((l) => JSON.parse(l).operation === 'drawio_write');
  assert.equal(JSON.parse(JSON.parse(written).inputJson).xml, xml);
  assert.equal(await verify.explainReceipt(written, key), null);
  assert.ok(await assertEveryByteBound(written, key) > 1000);
  assert.equal(await verify.verifyReceipt(written, strangerKey(key)), false);
});

test('[UV-12] [BATCH-2] three slides_write approved with one 「すべて承認」: each line verifies alone, the 12,000-character one only with its input', { timeout: 240_000 }, async () => {
  slides ??= await openAndSwitchOn('slides', 'slides_read');
  await slides.bringToFront();
  const inputs = [{ markdown: '# 一枚目\r\n"a" \\ b\n' }, { markdown: LONG }, { markdown: MARKDOWN }];
  const before = (await exported(slides, 'slides')).length;
  const pending = inputs.map((args) => callRelay(relay.client, 'slides_write', args));
  const dialog = confirmDialog(slides);
  await dialog.getByText('ほかに 2 件が待っています').waitFor({ timeout: 20_000 });
  await dialog.getByRole('button', { name: 'すべて承認', exact: true }).click();
  assert.deepEqual((await Promise.all(pending)).map((a) => a.env?.ok), [true, true, true]);
  const key = await devicePublicKey(slides);
  const lines = (await exported(slides, 'slides')).slice(before).filter((l) => JSON.parse(l).operation === 'slides_write');
  assert.equal(lines.length, 3);
  const parsed = lines.map((l) => JSON.parse(l));
  assert.ok(parsed.every((l) => l.receipt.description.kind === 'batch' && l.batch.size === 3 && l.batch.id === parsed[0].batch.id));
  // In arrival order, as they ran.
  const order = parsed.map((l) => (l.inputJson ? JSON.parse(l.inputJson).markdown : 'long'));
  const first = order.indexOf(inputs[0].markdown);
  assert.ok(first >= 0 && order.includes(MARKDOWN) && order.includes('long'), JSON.stringify(order.map((m) => m.slice(0, 20))));
  for (const [i, text] of lines.entries()) {
    const line = parsed[i];
    if (line.inputJson !== undefined) {
      assert.equal(await verify.explainReceipt(text, key), null);
      assert.ok(await assertEveryByteBound(text, key) > 500);
    } else {
      assert.equal(line.inputDigest, createHash('sha256').update(JSON.stringify({ markdown: LONG })).digest('hex'));
      assert.match(await verify.explainReceipt(text, key), new RegExp(`^${verify.INPUT_NOT_CHECKED}: `));
      assert.equal(await verify.verifyReceipt(text, key, { input: { markdown: LONG } }), true);
      assert.equal(await verify.verifyReceipt(text, key, { input: inputs[0] }), false);
    }
    assert.equal(await verify.verifyReceipt(text, strangerKey(key), { input: { markdown: LONG } }), false);
  }
  // One line's batch call moved to another line: not that line's call.
  assert.equal(await verify.verifyReceipt({ ...parsed[0], batch: parsed[2].batch }, key), false);
});

/** The slides log's rows: id, undo state, who, name. */
function slidesRows(target) {
  return target.locator('ai-ops-log[tool="slides"]').evaluate((log) =>
    [...log.shadowRoot.querySelectorAll('[part="row"]')].map((row) => ({
      id: row.dataset.id, undo: row.dataset.undo ?? null, by: row.dataset.by ?? null, name: row.querySelector('[part="name"]')?.textContent.trim() ?? '',
    })));
}

/** A click on the row's 「元に戻す」 (CDP, as any browser agent clicks: isTrusted), the row opened first if needed. */
async function clickRowUndo(target, id) {
  await target.bringToFront();
  await showLog(target, 'slides');
  const row = target.locator(`ai-ops-log[tool="slides"] [role="log"] [part="row"][data-id="${id}"]`);
  const button = row.locator('[part="undo-button"]');
  if (!(await button.isVisible())) await row.locator('[part="row-summary"]').click();
  await button.click();
}

/** The deck's Markdown as the agent reads it. */
async function deck() {
  const answer = await callRelay(relay.client, 'slides_read', {});
  assert.equal(answer.env?.ok, true, JSON.stringify(answer.env));
  return answer.env.markdown;
}

test('[UV-17] an agent\'s click on 元に戻す of an unconfirmed slides_set_theme, after the user typed: it asks for verification and, the user away, the user\'s text stays; present, it undoes with a receipt that verifies, and that undo can be undone', { timeout: 300_000 }, async () => {
  slides ??= await openAndSwitchOn('slides', 'slides_read');
  await slides.bringToFront();
  const theme = await callRelay(relay.client, 'slides_set_theme', { theme: 'gaia' });
  assert.equal(theme.env?.ok, true, JSON.stringify(theme.env));
  const setRow = await waitFor(async () => (await slidesRows(slides)).findLast((r) => r.name === 'slides_set_theme' && r.undo === 'available'), 10_000, 'the set_theme row');
  // The user's own paragraph, typed after the agent's change (the log does not show it).
  const editor = slides.getByRole('textbox', { name: 'Markdown', exact: true });
  await editor.click();
  await slides.keyboard.press('Control+End');
  await slides.keyboard.type('\n\n利用者が書いた段落');
  await waitFor(async () => (await deck()).endsWith('利用者が書いた段落'), 10_000, 'the typed paragraph in the deck');
  const typed = await deck();

  // The user away: the device answers nothing. The agent clicks the row's 元に戻す, then the dialog's.
  const authenticator = await browser.authenticatorOf(slides);
  await authenticator.setPresence(false);
  try {
    await clickRowUndo(slides, setRow.id);
    const dialog = confirmDialog(slides).locator('dialog[open]');
    await dialog.waitFor({ timeout: 10_000 });
    assert.match(await dialog.textContent(), /記録にない変更|ページでの編集|page/i, 'the dialog says the user\'s own edit goes too');
    await dialog.locator('[part~="verification-notice"]').waitFor({ timeout: 5000 });
    await dialog.getByRole('button', { name: '元に戻す', exact: true }).click();
    await dialog.locator('[part~="verification-status"]', { hasText: /./ }).waitFor({ timeout: 5000 });
    // Nobody answers the prompt: the request's 50 s end it, and the dialog closes.
    await waitFor(async () => (await slides.locator('ai-ops-confirm dialog[open]').count()) === 0, 80_000, 'the unanswered undo to end');
  } finally {
    await authenticator.setPresence(true);
  }
  assert.equal(await deck(), typed, 'the user away: the typed paragraph is still there');
  assert.equal((await slidesRows(slides)).find((r) => r.id === setRow.id).undo, 'available');

  // The user present: the same undo, verified by the device, takes the deck back (the paragraph with it).
  await clickRowUndo(slides, setRow.id);
  const dialog = confirmDialog(slides).locator('dialog[open]');
  await dialog.waitFor({ timeout: 10_000 });
  await dialog.getByRole('button', { name: '元に戻す', exact: true }).click();
  await waitFor(async () => (await slidesRows(slides)).find((r) => r.id === setRow.id)?.undo === 'undone', 20_000, 'the set_theme row undone');
  assert.ok(!(await deck()).includes('利用者が書いた段落'));
  const undoRow = (await slidesRows(slides)).findLast((r) => r.by === 'user' && r.name === 'slides_set_theme');
  assert.equal(undoRow.undo, 'available', 'the undo keeps its own before-state');
  const key = await devicePublicKey(slides);
  const line = (await exported(slides, 'slides')).map((l) => JSON.parse(l)).findLast((l) => l.via === 'user' && l.operation === 'slides_set_theme');
  assert.equal(line.inputJson, JSON.stringify({ undo: Number(setRow.id) }));
  assert.equal(await verify.explainReceipt(line, key), null, 'the undo\'s row carries a receipt that verifies');

  // Undoing the undo takes back only the undo's own change: no dialog, the paragraph is back.
  await clickRowUndo(slides, undoRow.id);
  await waitFor(async () => (await deck()) === typed, 20_000, 'the typed deck back');
  assert.equal(await slides.locator('ai-ops-confirm dialog[open]').count(), 0);
});

/** Runs the package's `ai-ops-verify` command as its own process: its exit status and output. */
async function runVerify(args) {
  const { execFile } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const command = fileURLToPath(new URL('../../bin/ai-ops-verify.mjs', import.meta.url));
  return new Promise((resolve) => {
    execFile(process.execPath, [command, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? error.code : 0, stdout, stderr });
    });
  });
}

test('[AUDIT-2] [UV-12] the whole slides record (multi-line, 12,000 characters, a batch, undo rows) verifies with the ai-ops-verify command; a line edited, deleted, duplicated or swapped fails, named', { timeout: 300_000 }, async () => {
  slides ??= await openAndSwitchOn('slides', 'slides_read');
  // At least: the earlier tests' writes (multi-line, 12,000 characters, the batch of three) and undo rows.
  const lines = await exported(slides, 'slides');
  const parsed = lines.map((l) => JSON.parse(l));
  assert.ok(parsed.some((l) => l.via === 'user'), 'undo rows in the record');
  assert.ok(parsed.some((l) => l.batch), 'batch lines in the record');
  const cut = parsed.map((l, i) => [l, i + 1]).filter(([l]) => l.inputDigest).map(([, n]) => n);
  assert.ok(cut.length >= 1, 'a 12,000-character input in the record');
  const { mkdtemp, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = await mkdtemp(join(tmpdir(), 'ai-ops-verify-'));
  const file = join(dir, 'record.jsonl');
  const keyFile = join(dir, 'key.json');
  const longFile = join(dir, 'long.json');
  await writeFile(file, `${lines.join('\n')}\n`);
  await writeFile(keyFile, JSON.stringify(await devicePublicKey(slides)));
  await writeFile(longFile, JSON.stringify({ markdown: LONG }));

  const plain = await runVerify([file, '--key', keyFile]);
  assert.equal(plain.code, 0, plain.stdout + plain.stderr);
  assert.match(plain.stdout, new RegExp(`^OK: ${lines.length} lines, the chain holds; \\d+ receipts verified`));
  for (const n of cut) assert.match(plain.stdout, new RegExp(`line ${n}: input not checked`));
  const inputs = cut.flatMap((n) => ['--input', `${n}=${longFile}`]);
  const full = await runVerify([file, '--key', keyFile, ...inputs]);
  assert.equal(full.code, 0, full.stdout + full.stderr);
  assert.doesNotMatch(full.stdout, /input not checked/);
  const receipts = parsed.filter((l) => l.receipt).length;
  assert.match(full.stdout, new RegExp(`; ${receipts} receipts verified`));

  // Each way of changing the file fails, naming the first line it touched.
  const tampered = async (name, changed, expected) => {
    await writeFile(file, `${changed.join('\n')}\n`);
    const run = await runVerify([file, '--key', keyFile]);
    assert.equal(run.code, 1, `${name}: ${run.stdout}${run.stderr}`);
    assert.match(run.stdout, expected, name);
  };
  const n = lines.length;
  assert.ok(n >= 4);
  // The result of line 2 (not bound by any receipt) edited.
  const edited = JSON.stringify({ ...parsed[1], result: `${parsed[1].result} ` });
  await tampered('edited', [lines[0], edited.replace(/,"digest":"[0-9a-f]{64}"\}$/, `,"digest":"${parsed[1].digest}"}`), ...lines.slice(2)], /^FAILED: line 2 was edited/);
  await tampered('deleted', [lines[0], ...lines.slice(2)], /^FAILED: line 2 was deleted/);
  await tampered('last deleted', lines.slice(0, -1), new RegExp(`^FAILED: line ${n} was deleted`));
  await tampered('duplicated', [lines[0], lines[1], lines[1], ...lines.slice(2)], /^FAILED: line 3 duplicates line 2/);
  await tampered('swapped', [lines[0], lines[2], lines[1], ...lines.slice(3)], /^FAILED: line 2 is out of order/);
  // An approved line's code or time edited, its digest made again by hand: the next line names it.
  const { createHash } = await import('node:crypto');
  const approved = parsed.findIndex((l, i) => l.receipt && i < n - 1);
  const body = JSON.stringify({ ...parsed[approved], time: '2020-01-01T00:00:00.000Z' }).replace(/,"digest":"[0-9a-f]{64}"\}$/, '}');
  const rehashed = `${body.slice(0, -1)},"digest":"${createHash('sha256').update(body).digest('hex')}"}`;
  await tampered('time edited, digest remade', lines.map((l, i) => (i === approved ? rehashed : l)), new RegExp(`^FAILED: line ${approved + 1} was edited`));
  // Not used right: no key.
  assert.equal((await runVerify([file])).code, 2);
});
