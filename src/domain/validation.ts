import type { z } from 'zod';

/** Field messages keyed by dotted path (`sale_discounts.0.quantity`), as a 422 carries them. */
export type FieldErrors = Record<string, string[]>;

/** A 422's message: the first field message, and how many more there are, as Laravel says it. */
export function validationSummary(errors: FieldErrors): string {
  const messages = Object.values(errors).flat();
  const more = messages.length - 1;
  return more > 0 ? `${messages[0]} (and ${more} more error${more > 1 ? 's' : ''})` : (messages[0] ?? 'The given data was invalid.');
}

/** Zod's issues as field messages; an issue without a path belongs to `fallback`. */
export function fieldErrors(issues: readonly z.core.$ZodIssue[], fallback = 'body'): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) (errors[issue.path.map(String).join('.') || fallback] ??= []).push(issue.message);
  return errors;
}
