// A web-test-runner command that gives the test page a CDP virtual authenticator (UV-1..UV-4): the
// user's device, as the e2e harness gives one to every automated page. Chromium only, over
// puppeteer (as heap-plugin.mjs reaches the page): any other launcher makes the command fail, so no
// test passes without the real WebAuthn stack.
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

/** The plugin. */
export function webauthnPlugin() {
  /** @type {Map<string, Promise<import('puppeteer-core').CDPSession>>} one attached session per test page */
  const sessions = new Map();
  const cdpOf = (session) => {
    if (session.browser.type !== 'puppeteer') throw new Error(`webauthn needs Chromium over puppeteer, not ${session.browser.type}`);
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
  return {
    name: 'ai-ops-webauthn',
    async executeCommand({ command, payload = {}, session }) {
      if (command !== 'webauthn') return undefined;
      const cdp = await cdpOf(session);
      const { action, authenticatorId } = payload;
      switch (action) {
        case 'add':
          return cdp.send('WebAuthn.addVirtualAuthenticator', {
            options: {
              protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true,
              isUserVerified: payload.isUserVerified ?? true,
              automaticPresenceSimulation: payload.automaticPresenceSimulation ?? true,
            },
          });
        case 'remove':
          await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
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
