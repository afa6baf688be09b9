/**
 * The consent store's trust anchor (UV-14): a key no storage restore can write.
 *
 * IndexedDB is not out of reach of a program that only writes storage: Playwright MCP's
 * `browser_set_storage_state` (`--caps=storage`) deletes every database of the origin and
 * re-creates it from a JSON file, with records of its author's choosing: an enrolment of the
 * agent's own key, receipts self-signed for "switch on" and "skip". What such a file cannot hold
 * is a `CryptoKey`: the page generates a non-extractable HMAC key of its own and keeps it in the
 * same store (structured clone); every record is kept with a tag made with that key, and a record
 * read back counts only when its tag checks. A record without one — planted, or left from before
 * the key was wiped — reads as absent: nothing planted is enrolled, and consent only ever asks
 * again (it never lowers).
 *
 * A wipe takes the key with it. When the store then holds an enrolment that does not check, or
 * this page had read a trusted enrolment that is now gone, the store was reset behind the page's
 * back: {@link AnchoredConsentStore.reset} says so once (the switch-on's notice, with the
 * fingerprint the page knew), and the next switch-on enrols again, verified.
 *
 * What this does not stop: script in the page (L2) can ask the page to tag anything, and reads
 * the key object itself. Part of the on-demand part (PKG-4).
 * @module
 */
import { canonicalJson, fingerprint, fromBase64Url, toBase64Url } from './consent-proof.js';
import { ENROLMENT_KEY, parseEnrolment, type ConsentStore } from './consent-store.js';

/** Where the anchor key is kept in the inner store. */
export const ANCHOR_KEY = 'anchor';

/** A record as the inner store keeps it: the value and its tag (HMAC-SHA-256, base64url) under the anchor. */
export interface AnchoredRecord {
  readonly anchored: unknown;
  readonly tag: string;
}

/** What {@link AnchoredConsentStore.reset} reports: the enrolment's fingerprint as the page knew it, or null. */
export interface ConsentReset {
  readonly fingerprint: string | null;
}

/** A consent store whose records count only with a tag from the page's own non-extractable key. */
export interface AnchoredConsentStore extends ConsentStore {
  /**
   * Non-null, once per detection, when the enrolment was reset behind the page's back: the store
   * holds an enrolment without a valid tag (planted, or from before the key was wiped), or the
   * trusted enrolment this page read earlier is gone. Afterwards null until the next detection:
   * the user has been told, and the next switch-on enrols again.
   */
  reset(): Promise<ConsentReset | null>;
}

/** Options of {@link anchorConsentStore}. */
export interface AnchorOptions {
  /** The WebCrypto the key is made with; default `globalThis.crypto.subtle`. Without one, nothing is ever trusted. */
  subtle?: SubtleCrypto | null;
}

const HMAC = { name: 'HMAC', hash: 'SHA-256' } as const;

/** What {@link anchorConsentStore}'s reader answers for a record without a valid tag. */
const UNTRUSTED = Symbol('untrusted');

/** Whether `value` can be the anchor: a secret HMAC CryptoKey that cannot be exported. */
function isAnchorKey(value: unknown): value is CryptoKey {
  const key = value as CryptoKey | null;
  return typeof CryptoKey === 'function' && key instanceof CryptoKey && key.type === 'secret'
    && key.extractable === false && key.algorithm?.name === 'HMAC' && key.usages.includes('sign') && key.usages.includes('verify');
}

/** What a record's tag covers: its place and its value, so no tagged value can be moved under another key. */
const tagged = (key: string, value: unknown) => new TextEncoder().encode(canonicalJson({ key, value }));

/**
 * Wraps `inner` so that each value is kept with a tag from the page's own non-extractable HMAC
 * key (kept in `inner` itself), and read back only when the tag checks (UV-14).
 * @example
 * const store = anchorConsentStore(defaultConsentStore(window));
 * await store.set('enrolment', record); // kept as {anchored: record, tag}
 * await store.get('enrolment');         // record, or undefined once the key or the tag is not the page's
 */
export function anchorConsentStore(inner: ConsentStore, options: AnchorOptions = {}): AnchoredConsentStore {
  const subtle = options.subtle === undefined ? globalThis.crypto?.subtle ?? null : options.subtle;
  /** The trusted enrolment this page last read or wrote, for the fingerprint a reset names. */
  let knownEnrolment: unknown;
  /** A reset was found and not yet reported. */
  let found = false;
  /** The current detection was reported: the same untrusted record does not report again. */
  let told = false;

  const currentKey = async (): Promise<CryptoKey | null> => {
    const value = await inner.get(ANCHOR_KEY);
    return isAnchorKey(value) ? value : null;
  };

  /** The anchor, made now when the store has none (first use, or after a wipe). */
  const ensureKey = async (): Promise<CryptoKey | null> => {
    const existing = await currentKey();
    if (existing || !subtle) return existing;
    const made = await subtle.generateKey(HMAC, false, ['sign', 'verify']) as CryptoKey;
    await inner.set(ANCHOR_KEY, made);
    // Another tab may have made its own meanwhile: the one kept wins, for both.
    return (await currentKey()) ?? made;
  };

  const read = async (key: string): Promise<unknown> => {
    const stored = await inner.get(key);
    if (stored === undefined) return undefined;
    try {
      const anchor = subtle && await currentKey();
      const { anchored, tag } = stored as AnchoredRecord;
      if (anchor && typeof tag === 'string' && await subtle.verify(HMAC, anchor, fromBase64Url(tag) as BufferSource, tagged(key, anchored))) {
        return anchored;
      }
    } catch {
      // Not a record of this page's (no tag, a bad one, a value that cannot be read): untrusted.
    }
    return UNTRUSTED;
  };

  const store: AnchoredConsentStore = {
    async get(key) {
      const value = await read(key);
      if (key === ENROLMENT_KEY) {
        if (value === UNTRUSTED) found = true;
        else if (value !== undefined) knownEnrolment = value;
      }
      return value === UNTRUSTED ? undefined : value;
    },
    async set(key, value) {
      try {
        const anchor = await ensureKey();
        if (!anchor || !subtle) return;
        const tag = toBase64Url(new Uint8Array(await subtle.sign(HMAC, anchor, tagged(key, value))));
        await inner.set(key, { anchored: value, tag } satisfies AnchoredRecord);
        if (key === ENROLMENT_KEY) {
          knownEnrolment = value;
          found = told = false;
        }
      } catch {
        // WebCrypto refused: nothing is kept, so nothing counts later (consent asks again).
      }
    },
    async delete(key) {
      if (key === ENROLMENT_KEY) knownEnrolment = undefined;
      await inner.delete(key);
    },
    async reset() {
      const value = await read(ENROLMENT_KEY);
      // The page read a trusted enrolment earlier, and now there is none it can trust.
      if (value === UNTRUSTED || (value === undefined && knownEnrolment !== undefined)) found = true;
      else if (value !== undefined) {
        knownEnrolment = value;
        found = told = false;
      }
      if (!found || told) return null;
      told = true;
      const record = parseEnrolment(knownEnrolment);
      knownEnrolment = undefined;
      return { fingerprint: record ? await fingerprint(record) : null };
    },
  };
  return store;
}
