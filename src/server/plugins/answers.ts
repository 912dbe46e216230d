import { isDeepStrictEqual } from 'node:util';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler } from 'fastify-type-provider-zod';

type RouteSchema = Parameters<typeof serializerCompiler>[0]['schema'];

/** JSON as it goes on the wire, read back: what a client receives. */
const onTheWire = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? 'null');

/**
 * How answers are written. Checking each one against its route's schema took 8 % of a list's
 * time, so only tests and development check (`checkAnswers`); the production server writes the
 * answer as it is. The check also refuses a schema that changes what it checks (strips a field,
 * fills in a default, transforms a value): the suites, which run every route with it on, so
 * prove that an unchecked answer is the same JSON a checked one would have been.
 */
export function answerSerializer(check: boolean): FastifySerializerCompiler<RouteSchema> {
  return (route) => {
    if (!check) return (data) => JSON.stringify(data);
    const checked = serializerCompiler(route);
    return (data) => {
      const text = checked(data);
      if (!isDeepStrictEqual(JSON.parse(text), onTheWire(data)))
        throw new Error(`The answer schema of ${route.method} ${route.url} changes the answer it checks: it must only check it.`);
      return text;
    };
  };
}
