import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names, later Tailwind classes winning: `cn('px-2 text-sm', wide && 'px-4')` gives `'text-sm px-4'` when wide. */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}
