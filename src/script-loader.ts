/**
 * Loads the polyfill and the relay scripts with classic `<script src>` from the page's own origin
 * (SHAPE-7), only when a switch turns on (SW-2, SW-7); never while every switch is off.
 * @module
 */
import type { Clock } from './clock.js';

/** Loads one classic script. Injectable so tests can fail a load on purpose (SW-4). */
export interface ScriptLoader {
  /** Resolves when the script ran; rejects when it could not be fetched or run. */
  load(src: string, attributes?: Record<string, string>): Promise<HTMLScriptElement>;
}

/**
 * The DOM loader: appends `<script src>` to `document.head` (the relay's embed.js reads
 * `document.currentScript`, so it must be a classic script element).
 * @example await createDomScriptLoader().load('/ai-ops/vendor/mcp-b-global.js');
 */
export function createDomScriptLoader(doc: Document = document): ScriptLoader {
  return {
    load(src, attributes = {}) {
      return new Promise((resolve, reject) => {
        const script = doc.createElement('script');
        script.src = src;
        script.async = false;
        script.dataset.aiOps = '';
        for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
        script.addEventListener('load', () => resolve(script), { once: true });
        script.addEventListener('error', () => {
          script.remove();
          reject(new Error(`could not load ${src}`));
        }, { once: true });
        doc.head.append(script);
      });
    },
  };
}

/** How long a vendor script may take before the switch gives up and turns back off (SAFE-6). */
export const SCRIPT_LOAD_TIMEOUT_MS = 15_000;

/**
 * Races `loading` against a bound on the injected clock (SAFE-6): rejects after `ms` with a reason
 * the SW-4 notice can show. `loading` itself goes on, so a caller that must undo what a late script
 * does (the relay widget, SAFE-5) can still wait for it.
 * @example await within(loader.load(src), clock, SCRIPT_LOAD_TIMEOUT_MS, src);
 */
export function within<T>(loading: Promise<T>, clock: Clock, ms: number, src: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(new Error(`${src} did not load within ${Math.round(ms / 1000)} s`)), ms);
    loading.then(
      (value) => {
        clock.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clock.clearTimeout(timer);
        reject(error);
      },
    );
  });
}
