/**
 * What a page reads from its URL, in one place: the embed id (`?id=`, the SQL/Go/Node pages), the
 * document id (`?doc=`, the slides, Excalidraw and draw.io pages) and `?undo=off`. Read when the
 * page mounts, not at module load: in the routed app the URL changes while modules stay loaded.
 * @module
 */

/** The longest embed id kept (DOC-3 shows it in the header and title). */
export const MAX_EMBED_ID = 100;

/** The embed id of a page opened without `?id=`. */
export const DEFAULT_EMBED_ID = 'demo';

/** `?id=` trimmed and cut to {@link MAX_EMBED_ID}, or {@link DEFAULT_EMBED_ID} when absent or empty. */
export function embedIdOf(search: string = location.search): string {
  return new URLSearchParams(search).get('id')?.trim().slice(0, MAX_EMBED_ID) || DEFAULT_EMBED_ID;
}

/**
 * False for `?undo=off`: the agents' calls keep no before-states. The bench's baseline of what
 * keeping them costs (UNDO-1, issue 24); no user-facing link carries it.
 */
export function keepsUndo(search: string = location.search): boolean {
  return new URLSearchParams(search).get('undo') !== 'off';
}

/** `?doc=` trimmed, or `fallback` when absent or empty. */
export function documentIdOf(search: string = location.search, fallback = ''): string {
  return new URLSearchParams(search).get('doc')?.trim() || fallback;
}
