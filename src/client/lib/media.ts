import { useSyncExternalStore } from 'react';

/** A tablet's width and up (Tailwind's `md`), and any printout: where a list is a table rather than cards. */
export const TABLE_WIDTH = '(min-width: 768px), print';

/** Whether the media query matches now, following it as the window is resized or turned. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => window.matchMedia(query).matches,
    () => true,
  );
}
