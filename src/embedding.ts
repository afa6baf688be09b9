/**
 * The one place that decides whether the page is embedded (SW-5, VER-4): a page inside any frame
 * registers nothing, loads nothing and reads no stored state.
 * @module
 */

/**
 * True when `win` is not the top-level browsing context. A cross-origin parent makes reading
 * `win.top` itself safe, but comparing may throw in old engines: treat a throw as embedded.
 */
export function isEmbedded(win: Window = window): boolean {
  try {
    return win.self !== win.top;
  } catch {
    return true;
  }
}
