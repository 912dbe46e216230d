import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { constraintViolation } from '../db/dialect';
import { HttpError, validationError } from '../errors';

/**
 * One place turns every failure into `{ message, errors? }`: validation to 422 with field
 * messages, our own HttpErrors to their status, Fastify's client errors (bad JSON, too large)
 * to theirs, constraint races to 409 — and only the unexpected to 500.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || (error.validationContext ?? 'body');
        (errors[field] ??= []).push(issue.message ?? 'The value is invalid.');
      }
      const answer = validationError(errors);
      return reply.status(422).send({ message: answer.message, errors });
    }
    if (error instanceof HttpError) {
      return reply
        .status(error.statusCode)
        .send(error.errors ? { message: error.message, errors: error.errors } : { message: error.message });
    }
    const violation = constraintViolation(error);
    if (violation) {
      const message =
        violation === 'unique'
          ? 'Another record already holds one of these values.'
          : 'This record refers to, or is referred to by, a record that does not allow the change.';
      return reply.status(409).send({ message });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.status(status).send({ message: error.message });
    request.log.error(error);
    return reply.status(500).send({ message: 'Server Error' });
  });
}
