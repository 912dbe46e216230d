import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names, later Tailwind classes winning: `cn('px-2 text-sm', wide && 'px-4')` gives `'text-sm px-4'` when wide. */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

/**
 * tailwind-merge builds its table of Tailwind's classes on its first call: about 15 ms on a phone.
 * Made while the app waits for the server (first-screen.ts), it is not made inside the first
 * screen's drawing.
 */
export function warmClassNames(): void {
  twMerge('p-1', 'p-2');
}
