import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requiredMessage } from '../../domain/fields';
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

/** A type error that reads "is required" when the value is missing altogether (as `field-values.ts` words it). */
function typeError(label: string, message: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? requiredMessage(label) : message);
}

const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** One change, as the outbox would send it alone: what the batch checks of it, with Laravel-style messages. */
const change = z.object(
  {
    method: z
      .enum(METHODS, { error: typeError('Method', `The method must be ${METHODS.slice(0, -1).join(', ')} or ${METHODS.at(-1)}.`) })
      .describe('The method the change is sent with'),
    path: z
      .string({ error: typeError('Path', 'The path field must be a string.') })
      .max(2000, 'The path field must not be greater than 2000 characters.')
      .regex(/^\/api\//, 'The path must be an API path.')
      .refine((path) => !unbatchable(asRouted(path)), UNBATCHABLE)
      .describe('The path it is sent to, with its query if any: any API route but those under /api/auth and the batch (422 in its place)'),
    business_id: z
      .number({ error: typeError('Business id', 'The business id field must be a whole number, or null.') })
      .int('The business id field must be a whole number, or null.')
      .positive('The business id field must be at least 1.')
      .nullable()
      .describe('Sent as its Business-ID header: the business it is for, or null for a call that names none'),
    idempotency_key: z
      .string({ error: typeError('Idempotency key', 'The idempotency key field must be a string.') })
      .regex(/^[\x21-\x7e]{1,255}$/, 'The idempotency key must be 1 to 255 visible ASCII characters.')
      .describe('Sent as its Idempotency-Key header: a change sent again with it is answered from the first time (`replayed`)'),
    if_match: z
      .string({ error: 'The if match field must be a string.' })
      .max(100, 'The if match field must not be greater than 100 characters.')
      .optional()
      .describe('Sent as its If-Match header: the version the change is based on'),
    made_at: z
      .string({ error: 'The made at field must be a string.' })
      .max(40, 'The made at field must not be greater than 40 characters.')
      .optional()
      .describe('Sent as its X-Made-At header: when the change was made on the device, for the history'),
    made_offline: z
      .boolean({ error: 'The made offline field must be true or false.' })
      .optional()
      .describe('True sends its X-Made-Offline header: the device was offline when it was made, for the history'),
    body: z.unknown().optional().describe('Its JSON body, as the route takes it; none when absent'),
  },
  { error: 'Each change must be an object.' },
);

type Change = z.infer<typeof change>;

/** A change as the batch reads it: well formed, or the issues that make it not, answered 422 in its place. */
type ReadChange = { change: Change } | { issues: z.core.$ZodIssue[] };

/**
 * The batch's item: `change`, which the document describes as it is, except that a change that is
 * not well formed does not refuse the batch — it is caught, and the batch answers it 422 in its
 * place (`malformed`) after trying those before it. The JSON Schema of a catch is its inner
 * schema's, and so the change's (a transform's input is what it transforms): zod asks the catch for
 * a default with no parse's context, which this one cannot make, so none is written.
 */
const batchedChange = change
  .transform((parsed): ReadChange => ({ change: parsed }))
  .catch((context): ReadChange => ({ issues: change.safeParse(context.value).error?.issues ?? [] }));

const answer = z.looseObject({
  status: z
    .number()
    .int()
    .min(100)
    .max(599)
    .describe('What the change alone would have been answered: 2xx, or the refusal the batch stopped at'),
  body: z
    .unknown()
    .describe(
      'Its answer: the record (`{data}`) or `{message, errors}`, as the change alone would have got it; null for an answer without a body (204)',
    ),
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
function malformed(issues: readonly z.core.$ZodIssue[]): Answer {
  const errors = fieldErrors(issues, 'change');
  return { status: 422, body: { message: validationSummary(errors), errors }, replayed: false };
}

/** The batch's own refusals, each in the one error shape (plugins/errors.ts): nothing of it is tried. */
function batchRefusals() {
  const { 422: refused } = refusals(422);
  return {
    400: refused.describe('The body is not JSON that can be read'),
    401: refused.describe('Not signed in, or the session has ended'),
    403: refused.describe('X-Requested-With is missing'),
    413: refused.describe('The body is larger than 1 MB'),
    415: refused.describe('The body is of a media type the server does not read (a form, a file): send it as application/json'),
    422: refused.describe(
      `The body is not \`{changes}\` with 1 to ${BATCH_LIMIT} changes, with messages per field; a change that is not well formed is answered 422 in its place instead`,
    ),
  };
}

export async function batchRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/batch',
    {
      config: { access: 'user' },
      schema: {
        tags: ['batch'],
        summary: `Up to ${BATCH_LIMIT} changes in one request, applied in order, each as if sent alone`,
        description:
          'Each change is answered as it would be alone, in order, and the batch stops at the first change not answered 2xx: ' +
          'the changes after it are not tried and have no answer. A change that is not well formed, or that goes to the sign-in ' +
          'routes or the batch itself, is answered 422 in its place.',
        body: z.object(
          {
            changes: z
              .array(batchedChange, { error: typeError('Changes', 'The changes field must be a list of changes.') })
              .min(1, 'The changes field must have at least 1 item.')
              .max(BATCH_LIMIT, `The changes field must not have more than ${BATCH_LIMIT} items.`),
          },
          { error: 'The body must be a JSON object.' },
        ),
        response: { 200: z.looseObject({ data: z.array(answer) }).describe('One answer per change tried'), ...batchRefusals() },
      },
    },
    async (request) => {
      const answers: Answer[] = [];
      for (const read of request.body.changes) {
        const result = 'change' in read ? await sendAlone(app, request, read.change) : malformed(read.issues);
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
