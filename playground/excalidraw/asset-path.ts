/**
 * Tells Excalidraw where its fonts are: beside this page (build.mjs copies them to `fonts/`), never
 * a CDN. Excalidraw reads the value when it first registers its fonts (when the component mounts),
 * so setting it from a module the page imports before rendering is early enough.
 * @module
 */
declare global {
  interface Window {
    /** Excalidraw's asset base URL (fonts). */
    EXCALIDRAW_ASSET_PATH?: string | string[];
  }
}

/**
 * Sets `window.EXCALIDRAW_ASSET_PATH` to this page's folder and returns it. A function the page
 * calls, not a bare import: the package's `sideEffects` list lets bundlers drop bare imports.
 * @example setLocalExcalidrawAssetPath() // 'http://127.0.0.1:8000/excalidraw/'
 */
export function setLocalExcalidrawAssetPath(): string {
  const path = new URL('./', location.href).href;
  window.EXCALIDRAW_ASSET_PATH = path;
  return path;
}
