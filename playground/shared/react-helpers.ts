/**
 * Small React helpers the pages share: a ref setter for components that hand out a handle, and
 * the save-on-leave effect of pages that save after a pause.
 * @module
 */
import { useEffect, type Ref } from 'react';

/** Gives `value` to a callback ref or a ref object (nothing for no ref). */
export function setRef<T>(ref: Ref<T> | undefined, value: T): void {
  if (typeof ref === 'function') ref(value);
  else if (ref) (ref as { current: T }).current = value;
}

/**
 * Calls `save` when the page is hidden or closed, and when the component unmounts (the app
 * routed away), so an edit still waiting for its pause is written.
 * @example useSaveOnLeave(() => void files.flush());
 */
export function useSaveOnLeave(save: () => void): void {
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') save();
    };
    addEventListener('pagehide', save);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      removeEventListener('pagehide', save);
      document.removeEventListener('visibilitychange', onVisibility);
      save();
    };
  }, [save]);
}
