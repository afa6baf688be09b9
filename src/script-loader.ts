/**
 * Loads the polyfill and the relay scripts with classic `<script src>` from the page's own origin
 * (SHAPE-7), only when a switch turns on (SW-2, SW-7); never while every switch is off.
 * @module
 */

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
