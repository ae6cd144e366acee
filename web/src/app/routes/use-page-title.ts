import { useEffect } from 'react';

/** Sets the document title for a page ("Planning session — Blockwise"). */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} — Blockwise`;
  }, [title]);
}
