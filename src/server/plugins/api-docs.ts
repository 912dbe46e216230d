import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accessOf, SAFE_METHODS, SESSION_COOKIE, SESSION_DAYS } from './auth';

/**
 * The OpenAPI document (`/api/docs`, the JSON at `/api/docs/json`), made from the routes as they
 * are registered: each route's zod schemas turned into JSON Schema (`jsonSchemaTransform`), and
 * what every route asks of its caller added here from what the server checks, so no route
 * repeats it — the session cookie unless the route is public, `Business-ID` on business routes
 * and `X-Requested-With` on changes (plugins/auth.ts). What only some handlers read or send
 * they declare in their schema (`readsHeaders`, `sendsHeaders`). The document stays OpenAPI
 * 3.0: its schemas are mended where zod writes them in a way OpenAPI 3.0 tools or Ajv 8 read
 * otherwise than meant (`mend`).
 */

/**
 * Request headers a handler may read, beyond those its access and method ask for. A route that
 * reads `X-Made-At` (a write the history records, by `scopeOf` in plugins/auth.ts) reads
 * `X-Made-Offline` with it, and the document says so (`impliedReads`).
 */
type ReadHeader = 'Business-ID' | 'If-Match' | 'Idempotency-Key' | 'X-Made-At' | 'X-Made-Offline';
/**
 * Headers a handler may add to its success answers. A route that reads `Idempotency-Key` runs its
 * write through `runWrite` (idempotency.ts), which answers a repeat with `Idempotent-Replayed`:
 * the document says so without the route naming it (`impliedSends`).
 */
type SentHeader = 'ETag' | 'Idempotent-Replayed';

declare module 'fastify' {
  interface FastifySchema {
    /** Optional request headers the handler reads: the document describes them (plugins/api-docs.ts). */
    readsHeaders?: readonly ReadHeader[];
    /** Headers the handler sends with its success answers: the document describes them. */
    sendsHeaders?: readonly SentHeader[];
  }
}

/** JSON Schema as zod writes it for OpenAPI 3.0, and the keywords mended here. */
interface JsonSchema {
  [keyword: string]: unknown;
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  minimum?: number;
  exclusiveMinimum?: boolean;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** An answer as `jsonSchemaTransform` leaves it: a JSON answer's schema, or media types with theirs (`bytesAnswer`). */
type Answer = JsonSchema & { content?: Record<string, { schema: JsonSchema }> };

/** A route's schema after `jsonSchemaTransform`: its parts in JSON Schema, beside what it says of itself. */
interface RouteDocument {
  [key: string]: unknown;
  hide?: boolean;
  body?: JsonSchema;
  querystring?: JsonSchema;
  params?: JsonSchema;
  response?: Record<string, Answer>;
  readsHeaders?: readonly ReadHeader[];
  sendsHeaders?: readonly SentHeader[];
}

const SECURITY_SCHEME = 'session';

const REQUEST_HEADERS: Record<ReadHeader | 'X-Requested-With', JsonSchema> = {
  'Business-ID': {
    type: 'integer',
    minimum: 1,
    maximum: 999_999_999,
    description: 'The business the call is for: the id of one the signed-in user is a member of',
  },
  'X-Requested-With': {
    type: 'string',
    enum: ['XMLHttpRequest'],
    description: 'Every change carries it (a cross-site form cannot); a change without it is refused with 403',
  },
  'If-Match': {
    type: 'string',
    pattern: '^(W/)?"?[0-9]+"?$',
    description:
      "The version the change is based on (the record's `version`, as its ETag gives it): when the record has another, the change is refused with 412. Without it the change applies to the record as it is.",
  },
  'Idempotency-Key': {
    type: 'string',
    pattern: '^[!-~]{1,255}$',
    description:
      'Makes the change safe to send again: 1 to 255 visible ASCII characters (a UUID, say). A repeat with the same key gets the first answer back, with `Idempotent-Replayed: true`, and changes nothing; the same key with another request is refused with 422.',
  },
  'X-Made-At': {
    type: 'string',
    description:
      'When the change was made on the device, for the history (an outbox sending it later): an ISO 8601 date and time with its offset or Z, 2024-05-01T09:30:00+08:00. Only the history keeps it; one that is not such a time, or more than 5 minutes ahead of the server, is ignored, never refused.',
  },
  'X-Made-Offline': {
    type: 'string',
    description:
      '`true`: the device was offline when it made the change, for the history. Read only beside a valid X-Made-At; any other value is ignored.',
  },
};

const ANSWER_HEADERS: Record<SentHeader, JsonSchema> = {
  ETag: {
    type: 'string',
    description:
      "What was answered, as a quoted tag that changes when it does: a record's version (which If-Match takes), a file's SHA-256",
  },
  'Idempotent-Replayed': {
    type: 'string',
    enum: ['true'],
    description:
      'Sent, as `true`, only with an answer given again: the request repeated an Idempotency-Key already applied, so this is the first answer, stored, and nothing was changed. Absent from an answer to a change applied now.',
  },
};

/** The headers a route reads because of one it declares: `X-Made-Offline` beside `X-Made-At`. */
function impliedReads(reads: readonly ReadHeader[]): ReadHeader[] {
  return reads.includes('X-Made-At') && !reads.includes('X-Made-Offline') ? [...reads, 'X-Made-Offline'] : [...reads];
}

/** The headers a route sends because of one it reads: `Idempotent-Replayed` on a route that reads `Idempotency-Key`. */
function impliedSends(reads: readonly ReadHeader[], sends: readonly SentHeader[]): SentHeader[] {
  return reads.includes('Idempotency-Key') && !sends.includes('Idempotent-Replayed') ? [...sends, 'Idempotent-Replayed'] : [...sends];
}

const DESCRIPTION = `How to call it:

1. Sign in: \`POST /api/auth/login\` with \`{ "email": …, "password": … }\` as JSON and the header \`X-Requested-With: XMLHttpRequest\`. The answer sets the session cookie \`${SESSION_COOKIE}\` (HttpOnly, for ${SESSION_DAYS} days), which every later call sends, and names the user's businesses and the first one's id (\`user.business_id\`).
2. Business calls (most of \`/api\`) send \`Business-ID\` with the id of a business the user belongs to.
3. Every change (any method but GET, HEAD and OPTIONS) sends \`X-Requested-With: XMLHttpRequest\`.
4. \`POST /logout\` ends the session.

Each operation lists the headers it takes; the public ones need no session.`;

/**
 * An operation's id, by one rule from its method and path: the method in lower case, then each
 * segment of the path after `/api` in PascalCase, a path parameter read as "By" and its name.
 * `GET /api/items/:id` is getItemsById, `DELETE /api/items/:recordId/files/:fileId/force-delete`
 * deleteItemsByRecordIdFilesByFileIdForceDelete, `GET /api/brands/export.csv`
 * getBrandsExportCsv, `POST /logout` postLogout.
 */
export function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '/')
    .split('/')
    .flatMap((segment) => (segment.startsWith(':') ? ['by', segment.slice(1)] : segment.split(/[^A-Za-z0-9]+/)));
  const pascal = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
  return method.toLowerCase() + pascal;
}

/** The one method of a route: an operation id and the headers asked for are a method's. */
function methodOf(route: RouteOptions): string {
  const methods = [route.method].flat();
  if (methods.length !== 1) throw new Error(`${route.url} is one route of several methods: register one route per method.`);
  return methods[0];
}

/** The headers an operation takes, as the `headers` schema @fastify/swagger makes parameters of. */
function requestHeaders(route: RouteOptions, method: string, reads: readonly ReadHeader[]): JsonSchema | undefined {
  const required: (keyof typeof REQUEST_HEADERS)[] = [
    ...(accessOf(route) === 'business' ? ['Business-ID' as const] : []),
    ...(SAFE_METHODS.has(method) ? [] : ['X-Requested-With' as const]),
  ];
  const names = [...required, ...reads.filter((name) => !required.includes(name))];
  if (names.length === 0) return undefined;
  return { type: 'object', properties: Object.fromEntries(names.map((name) => [name, REQUEST_HEADERS[name]])), required };
}

/** Every schema directly inside one. */
function subschemas(schema: JsonSchema): JsonSchema[] {
  const { properties, items, additionalProperties, anyOf, allOf } = schema;
  return [
    ...Object.values(properties ?? {}),
    ...(items ? [items] : []),
    ...(typeof additionalProperties === 'object' ? [additionalProperties] : []),
    ...(anyOf ?? []),
    ...(allOf ?? []),
  ];
}

/**
 * Lets a schema take null as OpenAPI 3.0 says it: `nullable` counts only beside a `type`, so a
 * nullable union makes each of its members nullable; and an `enum` allows null only if it lists it.
 */
function allowNull(schema: JsonSchema): void {
  if (schema.type === undefined && schema.anyOf) {
    delete schema.nullable;
    schema.anyOf.forEach(allowNull);
    return;
  }
  schema.nullable = true;
  if (schema.enum && !schema.enum.includes(null)) schema.enum.push(null);
}

/**
 * Mends a schema zod wrote, in place (each is the transform's own copy), so it says in OpenAPI 3.0
 * what zod checks, in a form Ajv 8 compiles: null allowed where it is (`allowNull`), and a whole
 * number above a bound (`.positive()`: `minimum: 0, exclusiveMinimum: true`, draft 4's boolean
 * form, which Ajv 8 refuses) written as the least it may be (`minimum: 1`).
 */
function mend(schema: JsonSchema): void {
  if (schema.nullable === true) allowNull(schema);
  if (schema.type === 'integer' && schema.exclusiveMinimum === true && schema.minimum !== undefined) {
    schema.minimum += 1;
    delete schema.exclusiveMinimum;
  }
  subschemas(schema).forEach(mend);
}

/** Whether a zod schema takes nothing but `undefined`: a property named only to be refused (what a document fixed once made). */
function takesOnlyUndefined(schema: z.ZodType): boolean {
  const { def } = schema._zod;
  if (def.type === 'undefined') return true;
  return def.type === 'optional' && takesOnlyUndefined((def as z.core.$ZodOptionalDef).innerType as z.ZodType);
}

/**
 * Leaves out of a body's document the properties it may not carry: zod writes a property that
 * takes only `undefined` as one that takes anything (`{}`), but the server refuses it with 422
 * (a document's party or lines in an update, resource-schemas.ts).
 */
function omitRefused(body: unknown, document: JsonSchema | undefined): void {
  if (!(body instanceof z.ZodObject) || !document?.properties) return;
  for (const [name, schema] of Object.entries(body.shape as Record<string, z.ZodType>)) {
    if (!takesOnlyUndefined(schema)) continue;
    delete document.properties[name];
    if (Array.isArray(document.required)) document.required = document.required.filter((required) => required !== name);
  }
}

/** Mends every schema of an answer, and adds the headers its handler sends when it succeeds. */
function describeAnswer(status: string, answer: Answer, sends: readonly SentHeader[]): Answer {
  if (answer.content) for (const media of Object.values(answer.content)) mend(media.schema);
  else mend(answer);
  if (!status.startsWith('2') || sends.length === 0) return answer;
  return { ...answer, headers: Object.fromEntries(sends.map((name) => [name, ANSWER_HEADERS[name]])) };
}

/** What `jsonSchemaTransform` makes of a route, with what this document adds to every operation. */
const describeOperation: SwaggerTransform = (document) => {
  const described = jsonSchemaTransform(document);
  if (!described.schema || described.schema.hide) return described;
  const { readsHeaders = [], sendsHeaders = [], ...schema } = described.schema as RouteDocument;
  const { route } = document;
  const method = methodOf(route);
  omitRefused(document.schema?.body, schema.body);
  for (const part of [schema.body, schema.querystring, schema.params]) if (part) mend(part);
  const headers = requestHeaders(route, method, impliedReads(readsHeaders));
  const sends = impliedSends(readsHeaders, sendsHeaders);
  const response =
    schema.response &&
    Object.fromEntries(Object.entries(schema.response).map(([status, answer]) => [status, describeAnswer(status, answer, sends)]));
  return {
    url: described.url,
    schema: {
      ...schema,
      operationId: operationId(method, route.url),
      ...(accessOf(route) === 'public' && { security: [] }),
      ...(headers && { headers }),
      ...(response && { response }),
    },
  };
};

export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Bodega API', version: '1', description: DESCRIPTION },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          [SECURITY_SCHEME]: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'The session the sign-in sets (POST /api/auth/login)',
          },
        },
      },
      security: [{ [SECURITY_SCHEME]: [] }],
    },
    transform: describeOperation,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'none' } });
}
