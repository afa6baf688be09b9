// UV-5 end to end: a destructive call through the real relay, approved by a trusted click with the
// user's device (the harness's CDP virtual authenticator), then 「記録を保存」; the downloaded line
// is checked offline, in this Node process, with the built `ai-ops/verify` entry against the public
// key read from the device itself (WebAuthn.getCredentials is the authenticator's own record, not
// the page's): it verifies, and a line changed by one byte, or the receipt moved to another call,
// does not.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startDemo, startRelay, launchBrowser, freePort, waitFor, listedNames, callRelay, clickSwitch, root } from './harness.mjs';

let demo, relay, browser, page, verify;

before(async () => {
  verify = await import(pathToFileURL(join(root, 'dist/lib/src/verify.js')).href);
  demo = await startDemo();
  relay = await startRelay({ origin: demo.origin, port: await freePort() });
  browser = await launchBrowser();
  page = await browser.context.newPage();
  await page.goto(`${demo.origin}/sample/`);
  await page.locator('ai-ops-switch[tool="sample"] input[role="switch"]').waitFor();
  await clickSwitch(page, 'sample');
  await waitFor(async () => (await listedNames(relay.client)).includes('sample_clear_note'), 20_000, 'the sample operations through the relay');
});

after(async () => {
  await browser?.close();
  await relay?.close();
  await demo?.close();
});

/** The SPKI of the device's credential, from the authenticator (PKCS#8 private key → public part). */
async function devicePublicKey() {
  const credentials = await (await browser.authenticatorOf(page)).credentials();
  assert.equal(credentials.length, 1, 'one credential on the device');
  const der = Buffer.from(credentials[0].privateKey, 'base64');
  const { createPrivateKey, createPublicKey } = await import('node:crypto');
  const spki = createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })).export({ type: 'spki', format: 'der' });
  const credentialId = Buffer.from(credentials[0].credentialId, 'base64').toString('base64url');
  return { credentialId, alg: -7, spki: Buffer.from(spki).toString('base64url') };
}

test('[UV-5] the exported line of a verified approval verifies offline against the device\'s key; one byte changed, or another call, fails', async () => {
  await page.locator('#note').fill('消してよいメモ');
  const pending = callRelay(relay.client, 'sample_clear_note', {});
  const dialog = page.locator('ai-ops-confirm dialog[open]');
  await dialog.getByRole('button', { name: '空にする' }).waitFor();
  await dialog.getByRole('button', { name: '空にする' }).click();
  assert.equal((await pending).env.ok, true);
  const read = await callRelay(relay.client, 'sample_read_note', {});
  assert.equal(read.env.ok, true);

  const log = page.locator('ai-ops-log[tool="sample"]');
  await log.locator('[part="panel-summary"]').click();
  const [download] = await Promise.all([page.waitForEvent('download'), log.getByRole('button', { name: '記録を保存' }).click()]);
  const lines = (await readFile(await download.path(), 'utf8')).trim().split('\n');
  const cleared = lines.find((l) => JSON.parse(l).operation === 'sample_clear_note');
  const other = lines.find((l) => JSON.parse(l).operation === 'sample_read_note');
  assert.ok(cleared && other);

  const key = await devicePublicKey();
  assert.equal(JSON.parse(cleared).receipt.credentialId, key.credentialId);
  assert.equal(await verify.verifyReceipt(cleared, key), true, await verify.explainReceipt?.(cleared, key));
  // A line changed by one byte in what the receipt binds: its args.
  const edited = JSON.parse(cleared);
  edited.args = edited.args.replace('{', '{ "note": 1');
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
  const { generateKeyPairSync } = await import('node:crypto');
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const stranger = { ...key, spki: publicKey.export({ type: 'spki', format: 'der' }).toString('base64url') };
  assert.equal(await verify.verifyReceipt(cleared, stranger), false);
});
