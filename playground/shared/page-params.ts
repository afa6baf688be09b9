/**
 * What a page reads from its URL, in one place: the embed id (`?id=`, the SQL/Go/Node pages) and
 * the document id (`?doc=`, the slides, Excalidraw and draw.io pages). Read when the page mounts,
 * not at module load: in the routed app the URL changes while modules stay loaded.
 * @module
 */

/** The longest embed id kept (DOC-3 shows it in the header and title). */
export const MAX_EMBED_ID = 100;

/** `?id=` trimmed and cut to {@link MAX_EMBED_ID}, or '' when absent. */
export function embedIdOf(search: string = location.search): string {
  return new URLSearchParams(search).get('id')?.trim().slice(0, MAX_EMBED_ID) ?? '';
}

/** `?doc=` trimmed, or `fallback` when absent or empty. */
export function documentIdOf(search: string = location.search, fallback = ''): string {
  return new URLSearchParams(search).get('doc')?.trim() || fallback;
}
