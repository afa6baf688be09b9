/**
 * The browser's own WebAuthn, captured when the runtime loads (UV-15).
 *
 * An agent that writes storage can also replace `navigator.credentials.get/create`: a
 * storage-state file carrying `credentials` makes Playwright install, in every frame's main world
 * and in the tabs already open, functions that sign with the file's key and claim user
 * verification, with no prompt. Its replacements are own properties of the page's
 * `navigator.credentials`; the platform's are `CredentialsContainer.prototype`'s. So the runtime
 * keeps the prototype's functions (and `Function.prototype.toString`, to read them) from the
 * moment it loads, and the verifier, loaded later on demand, refuses to prompt unless what the
 * page has then is exactly these and they read as `[native code]` (`user-verifier.ts`).
 *
 * A raised bar, not a guarantee (the README's L3): a script that runs before this one, or a
 * program that rewrites the page's scripts on the wire, can replace the prototype and
 * `toString` too. Imported by `runtime.ts`, so it loads with every page; kept to a few bytes (PKG-4).
 * @module
 */

/** The platform functions as the runtime found them at load (each undefined where the browser has none). */
export interface NativeWebAuthn {
  readonly get: unknown;
  readonly create: unknown;
  readonly toString: unknown;
}

const proto = (globalThis as { CredentialsContainer?: { prototype: CredentialsContainer } }).CredentialsContainer?.prototype;

/** This realm's WebAuthn functions, read when the runtime loaded. */
export const nativeWebAuthn: NativeWebAuthn = { get: proto?.get, create: proto?.create, toString: Function.prototype.toString };
