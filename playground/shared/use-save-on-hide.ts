import { useEffect } from 'react';

/**
 * Calls `save` when the document is hidden or closed (the browser may end the page there), and
 * when the calling page unmounts (the app navigates away): a page's pending typing is never lost.
 * `save` should be stable (a module's function).
 */
export function useSaveOnHide(save: () => unknown): void {
  useEffect(() => {
    const now = () => void save();
    const onVisibility = () => document.visibilityState === 'hidden' && now();
    addEventListener('pagehide', now);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      removeEventListener('pagehide', now);
      document.removeEventListener('visibilitychange', onVisibility);
      now();
    };
  }, [save]);
}
