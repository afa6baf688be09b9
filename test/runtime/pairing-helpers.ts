// A page that the user paired with a relay (DOOR-6), for the tests of what the relay connection
// does once paired (widget loading, discovery, races): the consent store holds a pairing whose key is
// a non-extractable HMAC CryptoKey, as `pairWithCode` leaves it.
import { createMemoryConsentStore, type ConsentStore } from '../../src/consent-store.js';
import { keepPairing, PAIRING_KEY } from '../../src/relay-pairing.js';

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
  // Only the pairing waits for its key to be made: the consent gate's own reads go on at once, as
  // the tests of races count the steps of a switch-on.
  const ready = (key: string) => (key === PAIRING_KEY ? seeded.then(() => undefined) : Promise.resolve());
  return {
    get: (key) => ready(key).then(() => store.get(key)),
    set: (key, value) => ready(key).then(() => store.set(key, value)),
    delete: (key) => ready(key).then(() => store.delete(key)),
  };
}
