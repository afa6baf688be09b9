/**
 * Client-side routing without a library: the path is read with `useSyncExternalStore` over
 * `popstate`, and `navigate()` pushes a new entry and dispatches `popstate` so every reader updates.
 * @module
 */
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  addEventListener('popstate', onChange);
  return () => removeEventListener('popstate', onChange);
}

const pathname = () => location.pathname;

/** The current path; re-renders the caller when it changes. */
export function usePathname(): string {
  return useSyncExternalStore(subscribe, pathname, () => '/');
}

const search = () => location.search;

/**
 * The query string; re-renders the caller when it changes, so a page that reads `?doc=` follows
 * the app's navigation within the page (「開く」, the back button), not only its mount.
 */
export function useSearch(): string {
  return useSyncExternalStore(subscribe, search, () => '');
}

/** Goes to `href` (same origin) without reloading the document. */
export function navigate(href: string): void {
  const url = new URL(href, location.href);
  if (url.href === location.href) return;
  history.pushState(null, '', url);
  dispatchEvent(new PopStateEvent('popstate'));
}

/**
 * A click handler for the app's own links: a plain left click on a same-origin link that the app
 * can show is handled by `navigate`; anything else (modifier keys, another origin, a page the app
 * does not route, such as /sample/) is left to the browser.
 */
export function handleLinkClick(event: MouseEvent, isRouted: (path: string) => boolean): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
  if (!link || link.target || link.hasAttribute('download') || link.origin !== location.origin) return;
  if (!isRouted(link.pathname)) return;
  event.preventDefault();
  navigate(link.href);
}
