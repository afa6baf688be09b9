/**
 * The URL's query string as React state: a page that reads `?doc=` follows it when the app
 * navigates within the page (the 「開く」 list, the back button), not only when it mounts.
 * @module
 */
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  addEventListener('popstate', onChange);
  return () => removeEventListener('popstate', onChange);
}

const search = () => location.search;

/** `location.search`; re-renders the caller when it changes. */
export function useLocationSearch(): string {
  return useSyncExternalStore(subscribe, search, () => '');
}
