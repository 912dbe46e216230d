import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fieldErrors, validationSummary } from '../../domain/validation';
import { refusals } from './responses';

/**
 * POST /api/batch: the outbox's changes in one round trip, in order. Each change is the request
 * the outbox would otherwise send alone — its own method, path, body, business, `Idempotency-Key`
 * and base version — and is run through the whole API (session, permission, validation, its own
 * transaction, the idempotency record) exactly as if it had come alone. The answers come back in
 * the order sent; the batch stops at the first change that is not answered 2xx, and the changes
 * after it are not tried, so a refusal or a failure leaves the rest to be sent again as before.
 * A change that is not well formed is answered 422 in its place, and so is one that reaches the
 * sign-in routes or the batch itself, however its path is spelt: `/api/%62atch` and `/api/./batch`
 * reach the batch as `/api/batch` does.
 */

export const BATCH_LIMIT = 100;

const UNBATCHABLE = 'Sign-in calls and batches cannot be batched.';

/** A route no change may reach: the batch itself, and signing in. */
function unbatchable(route: string | undefined): boolean {
  return route !== undefined && /^\/api\/(batch|auth)(\/|$)/.test(route);
}

/**
 * A path as a router might take it: without its query, fragment or parameters, percent-decoded,
 * its dot segments resolved, empty segments dropped, in lower case. A spelling of a route no change
 * may reach is refused by it even where no route matches it (which would answer 404).
 */
function asRouted(path: string): string {
  const bare = path.split(/[?#;]/)[0];
  let decoded = bare;
  try {
    decoded = decodeURIComponent(bare);
  } catch {
    // A malformed escape is left as it was: the router matches nothing by it either.
  }
  const segments: string[] = [];
  for (const segment of decoded.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '' && segment !== '.') segments.push(segment.toLowerCase());
  }
  return `/${segments.join('/')}`;
}

/**
 * Marks a change sent on by a batch. Its value is known only to this process, so no request from
 * outside passes for one.
 */
const BATCHED_HEADER = 'x-batched-change';
const BATCHED_MARK = randomBytes(24).toString('hex');

/**
 * Refuses, before anything of it runs, a change a batch sent on that reached a route no change may
 * reach, by the route the router matched: whatever the spelling of its path, the batch or sign-in
 * is not run. Added at the root of the app, ahead of the session check, so it sees every route.
 */
export function refuseUnbatchableChanges(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers[BATCHED_HEADER] !== BATCHED_MARK || !unbatchable(request.routeOptions.url)) return;
    return reply.code(422).send({ message: UNBATCHABLE, errors: { path: [UNBATCHABLE] } });
  });
}

const change = z.object({
  method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']),
  path: z
    .string()
    .max(2000)
    .regex(/^\/api\//, 'The path must be an API path.')
    .refine((path) => !unbatchable(asRouted(path)), UNBATCHABLE),
  business_id: z.number().int().positive().nullable(),
  idempotency_key: z.string().regex(/^[\x21-\x7e]{1,255}$/, 'The idempotency key must be 1 to 255 visible ASCII characters.'),
  if_match: z.string().max(100).optional(),
  made_at: z.string().max(40).optional(),
  made_offline: z.boolean().optional(),
  body: z.unknown().optional(),
});

type Change = z.infer<typeof change>;

const answer = z.looseObject({
  status: z.number().int().describe('What the change alone would have been answered'),
  body: z.unknown().describe('Its answer: the record, or `{message, errors}`'),
  replayed: z.boolean().describe('True when its Idempotency-Key had been applied before: the stored answer, nothing changed'),
});

type Answer = z.infer<typeof answer>;

/** The headers a change carries when it is sent alone, with the batch's own session. */
function headersOf(request: FastifyRequest, item: Change): Record<string, string> {
  const headers: Record<string, string> = {
    'x-requested-with': 'XMLHttpRequest',
    'idempotency-key': item.idempotency_key,
    accept: 'application/json',
    [BATCHED_HEADER]: BATCHED_MARK,
  };
  if (request.headers.cookie) headers.cookie = request.headers.cookie;
  if (request.headers.host) headers.host = request.headers.host;
  if (item.business_id !== null) headers['business-id'] = String(item.business_id);
  if (item.body !== undefined) headers['content-type'] = 'application/json';
  if (item.if_match !== undefined) headers['if-match'] = item.if_match;
  if (item.made_at !== undefined) headers['x-made-at'] = item.made_at;
  if (item.made_offline) headers['x-made-offline'] = 'true';
  return headers;
}

/** A change that is not well formed, answered as a 422 answers it. */
function malformed(error: z.ZodError): Answer {
  const errors = fieldErrors(error.issues, 'change');
  return { status: 422, body: { message: validationSummary(errors), errors }, replayed: false };
}

export async function batchRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/batch',
    {
      config: { access: 'user' },
      schema: {
        tags: ['batch'],
        summary: `Up to ${BATCH_LIMIT} changes in one request, applied in order, each as if sent alone`,
        body: z.object({ changes: z.array(z.unknown()).min(1).max(BATCH_LIMIT) }),
        response: { 200: z.looseObject({ data: z.array(answer) }).describe('One answer per change tried'), ...refusals() },
      },
    },
    async (request) => {
      const answers: Answer[] = [];
      for (const raw of request.body.changes) {
        const parsed = change.safeParse(raw);
        const result = parsed.success ? await sendAlone(app, request, parsed.data) : malformed(parsed.error);
        answers.push(result);
        if (result.status < 200 || result.status > 299) break;
      }
      return { data: answers };
    },
  );
}

/** One change through the whole API, as its own request. */
async function sendAlone(app: FastifyInstance, request: FastifyRequest, item: Change): Promise<Answer> {
  const response = await app.inject({
    method: item.method,
    url: item.path,
    headers: headersOf(request, item),
    payload: item.body === undefined ? undefined : JSON.stringify(item.body),
  });
  return { status: response.statusCode, body: bodyOf(response.body), replayed: response.headers['idempotent-replayed'] === 'true' };
}

/** An answer's JSON; an answer that is not JSON (none is, today) is passed on as its text. */
function bodyOf(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
