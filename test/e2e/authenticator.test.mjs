// The e2e harness's virtual authenticator (issue 23, "Tests"; UV-4's "the playground is served on
// http://localhost"): the demo server's origin is http://localhost:<port>, where a page can hold a
// WebAuthn credential; every page launchBrowser gives is there with a CDP virtual authenticator
// playing the user's device before its first script runs; the pages of one context share the
// device's credentials; and an IP-literal origin cannot hold one at all — the fact UV-4's
// "where verification cannot happen" stands on, asserted so that a Chromium change shows.
// Build first: `node esbuild.config.mjs`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, launchBrowser } from './harness.mjs';

let demo, browser;

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

/** A page with nothing of ai-ops on it, on the demo origin (or `origin`). */
async function blankPage(origin = demo.origin, context = browser.context) {
  const page = await context.newPage();
  await page.goto(`${origin}/sample/`);
  return page;
}

/**
 * `navigator.credentials.create` in `page` with user verification required, as UV-1 enrols:
 * answers the credential's id and its authenticator data's flags, or the error's name and message.
 */
function create(page) {
  return page.evaluate(async () => {
    try {
      const credential = await navigator.credentials.create({
        publicKey: {
          rp: { name: 'ai-ops e2e' },
          user: { id: crypto.getRandomValues(new Uint8Array(16)), name: 'user', displayName: 'user' },
          challenge: crypto.getRandomValues(new Uint8Array(32)),
          pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
          authenticatorSelection: { authenticatorAttachment: 'platform', userVerification: 'required', residentKey: 'preferred' },
          timeout: 5000,
        },
      });
      return { id: credential.id, flags: new Uint8Array(credential.response.getAuthenticatorData())[32] };
    } catch (error) {
      return { error: error.name, message: error.message };
    }
  });
}

/**
 * `navigator.credentials.get` for the credential `id` in `page` (user verification required), with
 * a short timeout for the cases where no device answers: its id and flags, or the error's name.
 */
function assertion(page, id, timeout = 5000) {
  return page.evaluate(async ([credentialId, ms]) => {
    const raw = Uint8Array.from(atob(credentialId.replaceAll('-', '+').replaceAll('_', '/') + '='.repeat((4 - (credentialId.length % 4)) % 4)), (c) => c.charCodeAt(0));
    try {
      const credential = await navigator.credentials.get({
        publicKey: {
          challenge: crypto.getRandomValues(new Uint8Array(32)),
          allowCredentials: [{ type: 'public-key', id: raw }],
          userVerification: 'required',
          timeout: ms,
        },
      });
      return { id: credential.id, flags: new Uint8Array(credential.response.authenticatorData)[32] };
    } catch (error) {
      return { error: error.name, message: error.message };
    }
  }, [id, timeout]);
}

/** A CDP credential id (base64) as the page names it (`PublicKeyCredential.id`, base64url). */
const base64url = (base64) => base64.replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_');

/** The authenticator data's flags: user present (UP) and user verified (UV). */
const UP = 0x01;
const UV = 0x04;

test('[UV-4] the demo server is served as http://localhost:<port> (a secure context), still listening on 127.0.0.1', async () => {
  const url = new URL(demo.origin);
  assert.equal(url.hostname, 'localhost');
  assert.equal(demo.url, `${demo.origin}/`);
  const page = await browser.context.newPage();
  try {
    const response = await page.goto(`${demo.origin}/sample/`);
    assert.equal(response.status(), 200);
    assert.equal((await response.serverAddr()).ipAddress, '127.0.0.1', 'Chromium reached the 127.0.0.1 listener');
    assert.deepEqual(await page.evaluate(async () => ({
      secure: isSecureContext,
      platform: await PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable(),
      webdriver: navigator.webdriver,
    })), { secure: true, platform: true, webdriver: true });
  } finally {
    await page.close();
  }
});

test('[UV-4] on http://localhost a harness page creates a credential with user verification required, and asserts it', async () => {
  const page = await blankPage();
  try {
    const made = await create(page);
    assert.equal(made.error, undefined, `create: ${made.error}: ${made.message}`);
    assert.equal(made.flags & (UP | UV), UP | UV, 'the device verified its user at enrolment');
    const signed = await assertion(page, made.id);
    assert.deepEqual(signed, { id: made.id, flags: signed.flags });
    assert.equal(signed.flags & (UP | UV), UP | UV, 'the assertion carries UP and UV');
    const held = (await (await browser.authenticatorOf(page)).credentials()).find((c) => base64url(c.credentialId) === made.id);
    assert.deepEqual([held?.rpId, held?.isResidentCredential], ['localhost', true], 'the page\'s authenticator holds it, for localhost');
  } finally {
    await page.close();
  }
});

test('[UV-4] the authenticator is in place before the page\'s first script: a WebAuthn call at document start succeeds', async () => {
  const page = await browser.context.newPage();
  try {
    // The earliest any script of the page can run: before the document's own scripts.
    await page.addInitScript(() => {
      window.__earliest = navigator.credentials.create({
        publicKey: {
          rp: { name: 'ai-ops e2e' },
          user: { id: new Uint8Array([1, 2, 3]), name: 'early', displayName: 'early' },
          challenge: new Uint8Array(32),
          pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
          authenticatorSelection: { userVerification: 'required' },
          timeout: 5000,
        },
      }).then((c) => new Uint8Array(c.response.getAuthenticatorData())[32], (e) => e.name);
    });
    await page.goto(`${demo.origin}/sample/`);
    const flags = await page.evaluate(() => window.__earliest);
    assert.equal(typeof flags, 'number', `create at document start: ${flags}`);
    assert.equal(flags & UV, UV);
  } finally {
    await page.close();
  }
});

test('[UV-4] the pages of one context are one device: a tab opened before or after the enrolment, and a popup, assert the credential', async () => {
  const before = await blankPage();
  const enrolling = await blankPage();
  try {
    const made = await create(enrolling);
    assert.equal(made.error, undefined, `create: ${made.error}: ${made.message}`);
    const after = await blankPage();
    const popupOpened = enrolling.context().waitForEvent('page');
    await enrolling.evaluate((url) => void window.open(url), `${demo.origin}/sample/`);
    const popup = await popupOpened;
    await browser.authenticatorOf(popup);
    await popup.waitForLoadState();
    try {
      for (const [name, page] of Object.entries({ before, after, popup })) {
        const signed = await assertion(page, made.id);
        assert.equal(signed.id, made.id, `${name}: ${signed.error}: ${signed.message}`);
        assert.equal(signed.flags & UV, UV, name);
      }
    } finally {
      await after.close();
      await popup.close();
    }
  } finally {
    await before.close();
    await enrolling.close();
  }
});

test('[UV-4] the user absent (presence off), not verified, or no authenticator: no assertion; back present, it signs again', async () => {
  const page = await blankPage();
  try {
    const made = await create(page);
    assert.equal(made.error, undefined, `create: ${made.error}: ${made.message}`);
    const authenticator = await browser.authenticatorOf(page);
    await authenticator.setPresence(false);
    assert.equal((await assertion(page, made.id, 1000)).error, 'NotAllowedError', 'the user absent');
    await authenticator.setPresence(true);
    assert.equal((await assertion(page, made.id)).id, made.id, 'the user back');
    await authenticator.setUserVerified(false);
    assert.equal((await assertion(page, made.id, 1000)).error, 'NotAllowedError', 'the user not verified');
    await authenticator.setUserVerified(true);
    assert.equal((await assertion(page, made.id)).id, made.id);
    await authenticator.remove();
    assert.equal((await assertion(page, made.id, 1000)).error, 'NotAllowedError', 'no authenticator');
  } finally {
    await page.close();
  }
});

test('[UV-4] with shareCredentials: false each tab is its own device until copyCredentials copies the enrolment', async () => {
  const apart = await launchBrowser({ shareCredentials: false });
  try {
    const one = await blankPage(demo.origin, apart.context);
    const made = await create(one);
    assert.equal(made.error, undefined, `create: ${made.error}: ${made.message}`);
    const two = await blankPage(demo.origin, apart.context);
    assert.equal((await assertion(two, made.id, 1000)).error, 'NotAllowedError', 'a device without the credential cannot sign for it');
    assert.equal(await apart.copyCredentials(one, two), 1);
    const signed = await assertion(two, made.id);
    assert.equal(signed.id, made.id, `${signed.error}: ${signed.message}`);
  } finally {
    await apart.close();
  }
});

test('[UV-4] an IP-literal origin (http://127.0.0.1:<port>) cannot hold a credential: create rejects SecurityError', async () => {
  // The playground itself sends 127.0.0.1 to localhost (the next test): the page is one the browser is given here.
  const page = await browser.context.newPage();
  await page.route(`http://127.0.0.1:${demo.port}/ip-literal`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>ip</title>' }));
  await page.goto(`http://127.0.0.1:${demo.port}/ip-literal`);
  try {
    assert.equal(new URL(page.url()).hostname, '127.0.0.1');
    const made = await create(page);
    assert.equal(made.error, 'SecurityError', `create on 127.0.0.1 answered ${JSON.stringify(made)}`);
    const held = await (await browser.authenticatorOf(page)).credentials();
    assert.deepEqual(held.filter((c) => c.rpId !== 'localhost'), [], 'the authenticator was there and holds nothing for 127.0.0.1');
  } finally {
    await page.close();
  }
});

test('[UV-4] the playground answers http://127.0.0.1:<port> with a redirect to http://localhost:<port>, the runner\'s workspace included: one origin', async () => {
  const page = await browser.context.newPage();
  try {
    const response = await page.goto(`http://127.0.0.1:${demo.port}/sample/?x=1`);
    assert.equal(page.url(), `${demo.origin}/sample/?x=1`);
    assert.equal(response.request().redirectedFrom()?.url(), `http://127.0.0.1:${demo.port}/sample/?x=1`);
    const runner = await fetch(`http://127.0.0.1:${demo.port}/__runner/info`, { method: 'POST', redirect: 'manual', body: '{}' });
    assert.equal(runner.status, 308);
    assert.equal(runner.headers.get('location'), `${demo.origin}/__runner/info`);
  } finally {
    await page.close();
  }
});
