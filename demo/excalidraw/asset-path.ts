/**
 * Tells Excalidraw where its fonts are: beside this page (build.mjs copies them to `fonts/`), never
 * a CDN. Imported first by the page's modules, so it runs before Excalidraw reads the value.
 * @module
 */
declare global {
  interface Window {
    /** Excalidraw's asset base URL (fonts). */
    EXCALIDRAW_ASSET_PATH?: string | string[];
  }
}

window.EXCALIDRAW_ASSET_PATH = new URL('./', location.href).href;

export {};
