// A minimal client of Marionette, the WebDriver-classic endpoint built into Firefox (PLATFORM-NOTES
// "Firefox and WebKit"): it is how the tests reach Firefox's WebAuthn virtual authenticator, since
// WebDriver BiDi (what puppeteer-core drives Firefox with) has no WebAuthn commands and geckodriver
// does not exist here. Firefox is started with `--marionette` and the pref `marionette.port`.
//
// Marionette reuses the session puppeteer opened over BiDi, so no `WebDriver:NewSession` is sent
// (sending one fails: a session already exists). Its wire format: `<length>:<json>`, where a
// command is `[0, id, name, params]` and its answer `[1, id, error, result]`.
import net from 'node:net';

/**
 * Connects to Marionette on `port`, retrying while Firefox starts.
 * @param {number} port
 * @param {{host?: string, timeoutMs?: number}} [options]
 * @returns {Promise<{send: (name: string, params?: object) => Promise<any>, close: () => void}>}
 *   `send` resolves with the command's result (its `value` when it has one) or rejects with
 *   Marionette's error (`error: message`).
 */
export async function connectMarionette(port, { host = '127.0.0.1', timeoutMs = 30_000 } = {}) {
  const end = Date.now() + timeoutMs;
  let socket;
  for (;;) {
    try {
      socket = await new Promise((resolve, reject) => {
        const s = net.connect(port, host);
        s.once('connect', () => resolve(s));
        s.once('error', reject);
      });
      break;
    } catch (error) {
      if (Date.now() > end) throw new Error(`Marionette on ${host}:${port} did not answer within ${timeoutMs} ms: ${error.message}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  let buffer = Buffer.alloc(0);
  let greeted;
  const greeting = new Promise((resolve) => (greeted = resolve));
  const pending = new Map();
  let nextId = 0;
  const fail = (error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('Marionette closed the connection')));
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const colon = buffer.indexOf(0x3a);
      if (colon < 0) return;
      const length = Number(buffer.subarray(0, colon).toString());
      if (buffer.length < colon + 1 + length) return;
      const message = JSON.parse(buffer.subarray(colon + 1, colon + 1 + length).toString());
      buffer = buffer.subarray(colon + 1 + length);
      if (Array.isArray(message) && message[0] === 1) {
        const [, id, error, result] = message;
        const waiting = pending.get(id);
        pending.delete(id);
        if (!waiting) continue;
        if (error) waiting.reject(Object.assign(new Error(`${error.error}: ${error.message}`), { marionette: error }));
        else waiting.resolve(result && typeof result === 'object' && 'value' in result ? result.value : result);
      } else {
        // The first message is the greeting ({applicationType, marionetteProtocol}).
        greeted(message);
      }
    }
  });
  await greeting;
  return {
    send(name, params = {}) {
      return new Promise((resolve, reject) => {
        const id = ++nextId;
        pending.set(id, { resolve, reject });
        const body = Buffer.from(JSON.stringify([0, id, name, params]));
        socket.write(Buffer.concat([Buffer.from(`${body.length}:`), body]));
      });
    },
    close: () => socket.destroy(),
  };
}

/**
 * How the tests start Firefox ESR for puppeteer-core (WebDriver BiDi) with Marionette listening on
 * `marionettePort`, for its WebAuthn virtual authenticator.
 * @param {number} marionettePort
 * @example puppeteer.launch(firefoxLaunchOptions(await freeLocalPort()))
 */
export function firefoxLaunchOptions(marionettePort) {
  return {
    browser: /** @type {const} */ ('firefox'),
    executablePath: process.env.FIREFOX_PATH || '/usr/bin/firefox-esr',
    headless: true,
    args: ['--marionette'],
    extraPrefsFirefox: {
      'marionette.port': marionettePort,
      // The virtual authenticator answers only with the soft token on (without it WebAuthn hangs);
      // no USB keys are looked for.
      'security.webauth.webauthn_enable_softtoken': true,
      'security.webauth.webauthn_enable_usbtoken': false,
    },
  };
}

/** A free TCP port on 127.0.0.1 (Marionette opens on the port it is given). */
export function freeLocalPort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}
