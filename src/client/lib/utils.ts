import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names, later Tailwind classes winning: `cn('px-2 text-sm', wide && 'px-4')` gives `'text-sm px-4'` when wide. */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

/** `rows` with the one at `index` changed by `changes`, the others as they were: a row of an editor typed in. */
export function changeAt<T>(rows: readonly T[], index: number, changes: Partial<T>): T[] {
  return rows.map((row, at) => (at === index ? { ...row, ...changes } : row));
}

/**
 * tailwind-merge builds its table of Tailwind's classes on its first call: about 15 ms on a phone.
 * Made while the app waits for the server (first-screen.ts), it is not made inside the first
 * screen's drawing.
 */
export function warmClassNames(): void {
  twMerge('p-1', 'p-2');
}
