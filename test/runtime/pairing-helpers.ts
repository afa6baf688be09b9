// A page that the user paired with a relay (DOOR-6), for the tests of what the relay connection
// does once paired (widget loading, discovery, races): the consent store holds a pairing whose key is
// a non-extractable HMAC CryptoKey, as `pairWithCode` leaves it.
import { createMemoryConsentStore, type ConsentStore } from '../../src/consent-store.js';
import { keepPairing } from '../../src/relay-pairing.js';

/**
 * A memory consent store holding a pairing with the relay on `port`.
 * @example createAiOps({ consentStore: await pairedConsentStore(9), relayPort: 9 })
 */
export async function pairedConsentStore(port: number, store: ConsentStore = createMemoryConsentStore()): Promise<ConsentStore> {
  const key = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256', length: 256 }, false, ['sign']);
  await keepPairing(store, { id: 'test-pairing', key, port, client: { name: 'test-agent', version: '1.0' } });
  return store;
}

/**
 * The same, at once: the pairing is in the store by the time anything reads it (every read waits
 * for the key to be made), for setups that build a runtime synchronously.
 */
export function pairedStore(port: number): ConsentStore {
  const store = createMemoryConsentStore();
  const seeded = pairedConsentStore(port, store);
  return {
    get: (key) => seeded.then(() => store.get(key)),
    set: (key, value) => seeded.then(() => store.set(key, value)),
    delete: (key) => seeded.then(() => store.delete(key)),
  };
}
