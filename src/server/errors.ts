import { validationSummary, type FieldErrors } from '../domain/validation';

/**
 * Errors a handler throws on purpose; the error handler answers them as
 * `{ message, errors? }` with their status (the 422 shape is Laravel's).
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
  }
}

/** 422 with field messages; the summary names the first and counts the rest, as Laravel does. */
export function validationError(errors: FieldErrors): HttpError {
  return new HttpError(422, validationSummary(errors), errors);
}

export const notFound = (what = 'record') => new HttpError(404, `No ${what} was found.`);
export const forbidden = (message = 'This action is unauthorized.') => new HttpError(403, message);
export const unauthenticated = () => new HttpError(401, 'Unauthenticated.');
export const conflict = (message: string) => new HttpError(409, message);
