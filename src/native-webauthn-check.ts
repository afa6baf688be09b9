/**
 * The verifier's check that the page still has the browser's own WebAuthn (UV-15), against what
 * the runtime captured when it loaded (`native-webauthn.ts`, which loads with every page and so
 * holds nothing but the capture). Part of the on-demand part (PKG-4).
 * @module
 */
import { nativeWebAuthn, type NativeWebAuthn } from './native-webauthn.js';

export type { NativeWebAuthn };

/**
 * Whether `credentials` still has the platform's own `get` and `create` (UV-15): the very functions
 * the runtime captured, which read as native code by the captured `Function.prototype.toString`.
 * @example isNativeWebAuthn(navigator.credentials, nativeWebAuthn) // false once Playwright installed its passkey
 */
export function isNativeWebAuthn(credentials: CredentialsContainer, native: NativeWebAuthn): boolean {
  const isNative = (fn: unknown) => {
    try {
      return typeof fn === 'function' && /\{\s*\[native code\]\s*\}\s*$/.test((native.toString as typeof Function.prototype.toString).call(fn));
    } catch {
      return false;
    }
  };
  return credentials.get === native.get && credentials.create === native.create
    && isNative(native.toString) && isNative(native.get) && isNative(native.create);
}

/**
 * What a verifier on `win` checks against: `given` when the caller passed it; this realm's
 * capture for the page's own window; null (no check) for a stand-in window, as tests make.
 * @example nativeFor(window, undefined) === nativeWebAuthn // true
 */
export function nativeFor(win: Window, given: NativeWebAuthn | null | undefined): NativeWebAuthn | null {
  return given !== undefined ? given : win === globalThis.window ? nativeWebAuthn : null;
}
