/**
 * Tells Excalidraw where its fonts are: /excalidraw/ on this origin (the page's build.mjs copies
 * them to /excalidraw/fonts/), never a CDN. Excalidraw reads the value when it first registers its
 * fonts (when the component mounts), so setting it when the page boots is early enough. An
 * absolute path, not one relative to the document: in the routed app the document's URL changes.
 * @module
 */
declare global {
  interface Window {
    /** Excalidraw's asset base URL (fonts). */
    EXCALIDRAW_ASSET_PATH?: string | string[];
  }
}

/** Where the page's build puts Excalidraw's fonts. */
export const EXCALIDRAW_ASSETS = '/excalidraw/';

/**
 * Sets `window.EXCALIDRAW_ASSET_PATH` to /excalidraw/ on this origin and returns it.
 * @example setLocalExcalidrawAssetPath() // 'http://localhost:8000/excalidraw/'
 */
export function setLocalExcalidrawAssetPath(): string {
  const path = new URL(EXCALIDRAW_ASSETS, location.href).href;
  window.EXCALIDRAW_ASSET_PATH = path;
  return path;
}
