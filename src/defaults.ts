/**
 * The defaults of the options that say where things are, in one place: `relayPort` and
 * `assetsBase` (`AiOpsOptions`, `RelayOptions`, `ModelContextOptions`).
 * @module
 */

/** The port relay 2.2.0 listens on unless told otherwise, and the first one the widget tries. */
export const DEFAULT_RELAY_PORT = 9333;

/**
 * The folder, on the page's origin, holding the vendor files: `mcp-b-global.js` and the relay's
 * `relay/embed.js` (what `dist/vendor/` holds, served at `/ai-ops/vendor/`).
 */
export const DEFAULT_ASSETS_BASE = '/ai-ops/vendor/';
