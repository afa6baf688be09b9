// A web-test-runner command that gives the test page a virtual authenticator (UV-1..UV-4): the
// user's device, as the e2e harness gives one to every automated page. Chromium over puppeteer: a
// CDP virtual authenticator (as heap-plugin.mjs reaches the page). Firefox (puppeteer-core over
// WebDriver BiDi, web-test-runner.engines.config.mjs): Firefox's own virtual authenticator over
// Marionette on the same browser (test/marionette.mjs; `marionettePort` given). Any other launcher
// (WebKitGTK, which has no WebAuthn) makes the command fail, so no test passes without the real
// WebAuthn stack.
//
// The CDP session stays attached for the page's life: Chromium removes a session's virtual
// authenticators when it detaches.
//
// Browser side: `executeServerCommand('webauthn', { action, ... })` with action
//   'add'       { automaticPresenceSimulation = true, isUserVerified = true } → { authenticatorId }
//   'remove'    { authenticatorId }
//   'verified'  { authenticatorId, isUserVerified }        (WebAuthn.setUserVerified)
//   'presence'  { authenticatorId, enabled }               (WebAuthn.setAutomaticPresenceSimulation)
//   'credentials' { authenticatorId } → { credentials }    (WebAuthn.getCredentials)
//
// In Firefox, presence is fixed when the authenticator is made (`isUserConsenting`; 'presence'
// replaces it, credentials kept), and an absent user there is an immediate NotAllowedError, never a
// prompt left waiting (measured: 2 ms); so a test of the waiting prompt (UV-7) is Chromium's alone.
// Firefox's authenticators are browser-wide, not per page.

import { connectMarionette } from './marionette.mjs';

/**
 * Firefox's side of the command, over Marionette on `port`. Presence is fixed when Firefox's
 * authenticator is made, so 'presence' replaces it with one made present or absent that holds the
 * same credentials (WebAuthn:AddCredential), and the test keeps using the id it was given.
 * @param {number} port
 */
function firefoxWebauthn(port) {
  /** @type {ReturnType<typeof connectMarionette> | undefined} */
  let connection;
  /** The id a test was given → the id of the authenticator standing for it now. */
  const current = new Map();
  const settings = new Map();
  const make = async (marionette, { present, verified }) => marionette.send('WebAuthn:AddVirtualAuthenticator', {
    protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true,
    isUserVerified: verified, isUserConsenting: present,
  });
  /** The test page (web-test-runner session) whose authenticators these are. */
  let owner;
  return async ({ action, authenticatorId, ...payload }, sessionId) => {
    connection ??= connectMarionette(port);
    const marionette = await connection;
    // Firefox's authenticators are browser-wide: what an earlier test file left (a test that failed
    // before removing its own) would answer this file's requests. Files run one at a time.
    if (owner !== sessionId) {
      for (const left of new Set(current.values())) await marionette.send('WebAuthn:RemoveVirtualAuthenticator', { authenticatorId: left }).catch(() => {});
      current.clear();
      settings.clear();
      owner = sessionId;
    }
    const id = current.get(authenticatorId) ?? authenticatorId;
    switch (action) {
      case 'add': {
        const made = { present: payload.automaticPresenceSimulation ?? true, verified: payload.isUserVerified ?? true };
        const added = await make(marionette, made);
        current.set(added, added);
        settings.set(added, made);
        return { authenticatorId: added };
      }
      case 'remove':
        await marionette.send('WebAuthn:RemoveVirtualAuthenticator', { authenticatorId: id });
        current.delete(authenticatorId);
        settings.delete(authenticatorId);
        return {};
      case 'verified':
        await marionette.send('WebAuthn:SetUserVerified', { authenticatorId: id, isUserVerified: payload.isUserVerified });
        settings.set(authenticatorId, { ...settings.get(authenticatorId), verified: payload.isUserVerified });
        return {};
      case 'presence': {
        const credentials = await marionette.send('WebAuthn:GetCredentials', { authenticatorId: id });
        await marionette.send('WebAuthn:RemoveVirtualAuthenticator', { authenticatorId: id });
        const made = { ...settings.get(authenticatorId), present: payload.enabled };
        const replaced = await make(marionette, made);
        for (const credential of credentials) await marionette.send('WebAuthn:AddCredential', { authenticatorId: replaced, credentials: credential });
        current.set(authenticatorId, replaced);
        settings.set(authenticatorId, made);
        return {};
      }
      case 'credentials':
        return { credentials: await marionette.send('WebAuthn:GetCredentials', { authenticatorId: id }) };
      default:
        throw new Error(`webauthn: unknown action ${action}`);
    }
  };
}

/**
 * The plugin.
 * @param {{marionettePort?: number}} [options] Firefox's Marionette port, when the run's browser is Firefox
 */
export function webauthnPlugin({ marionettePort } = {}) {
  const firefox = marionettePort ? firefoxWebauthn(marionettePort) : null;
  /** @type {Map<string, Promise<import('puppeteer-core').CDPSession>>} one attached session per test page */
  const sessions = new Map();
  const cdpOf = (session) => {
    if (session.browser.type !== 'puppeteer' || session.browser.name === 'Firefox') throw new Error(`webauthn needs Chromium over puppeteer, not ${session.browser.type}`);
    let cdp = sessions.get(session.id);
    if (!cdp) {
      cdp = (async () => {
        const client = await session.browser.getPage(session.id).createCDPSession();
        await client.send('WebAuthn.enable', { enableUI: false });
        client.once?.('CDPSession.Disconnected', () => sessions.delete(session.id));
        return client;
      })();
      sessions.set(session.id, cdp);
      cdp.catch(() => sessions.delete(session.id));
    }
    return cdp;
  };
  /**
   * The authenticators each test page added and has not removed. Chromium allows one internal
   * authenticator per browser: one a failed test file left (its page not yet gone) would refuse the
   * next file's, so a page's first 'add' removes those of the pages before it (files run one at a time).
   * @type {Map<string, Set<string>>}
   */
  const added = new Map();
  const removeLeftovers = async (sessionId) => {
    for (const [other, ids] of added) {
      if (other === sessionId) continue;
      const cdp = await sessions.get(other)?.catch(() => null);
      for (const authenticatorId of ids) await cdp?.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId }).catch(() => {});
      added.delete(other);
    }
  };
  return {
    name: 'ai-ops-webauthn',
    async executeCommand({ command, payload = {}, session }) {
      if (command !== 'webauthn') return undefined;
      if (session.browser.name === 'Firefox') {
        if (!firefox) throw new Error('webauthn in Firefox needs the plugin given its Marionette port');
        return firefox(payload, session.id);
      }
      const cdp = await cdpOf(session);
      const { action, authenticatorId } = payload;
      switch (action) {
        case 'add': {
          await removeLeftovers(session.id);
          const made = await cdp.send('WebAuthn.addVirtualAuthenticator', {
            options: {
              protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true,
              isUserVerified: payload.isUserVerified ?? true,
              automaticPresenceSimulation: payload.automaticPresenceSimulation ?? true,
            },
          });
          added.set(session.id, (added.get(session.id) ?? new Set()).add(made.authenticatorId));
          return made;
        }
        case 'remove':
          await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
          added.get(session.id)?.delete(authenticatorId);
          return {};
        case 'verified':
          await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: payload.isUserVerified });
          return {};
        case 'presence':
          await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: payload.enabled });
          return {};
        case 'credentials':
          return cdp.send('WebAuthn.getCredentials', { authenticatorId });
        default:
          throw new Error(`webauthn: unknown action ${action}`);
      }
    },
  };
}
