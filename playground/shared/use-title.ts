import { useEffect } from 'react';

/**
 * Sets the document's title while the calling page is shown (DOC-3: the document's name first),
 * e.g. `usePageTitle(['welcome', 'slides'])` → `welcome — slides — ai-ops`.
 */
export function usePageTitle(parts: readonly (string | undefined)[]): void {
  const title = [...parts.filter(Boolean), 'ai-ops'].join(' — ');
  useEffect(() => {
    document.title = title;
  }, [title]);
}
