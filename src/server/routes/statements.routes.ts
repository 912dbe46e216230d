import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { todayInManila } from '../../domain/documents';
import { permissionName } from '../../domain/permissions';
import { getResource } from '../../domain/resources/registry';
import {
  defaultStatementPeriod,
  readsStatements,
  STATEMENT_MAX_ROWS,
  STATEMENT_PERMISSIONS,
  STATEMENT_SOURCES,
} from '../../domain/statement';
import type { Db } from '../db/scope';
import { forbidden, validationError } from '../errors';
import { statementPdf } from '../overview/statement-pdf';
import { statement, type StatementQuery } from '../overview/statement';
import { scopeOf } from '../plugins/auth';
import { bytesAnswer, refusals, PATH_ID } from './responses';

/**
 * A customer's statement of account (overview/statement.ts), as JSON and as a PDF to download: for
 * whoever views the customer and every kind of document it is made of (`STATEMENT_PERMISSIONS`),
 * of the documents at the places they view. Days are `YYYY-MM-DD`; money in pesos to 2 places.
 */

const idParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, 'The id must be a whole number.')
    .meta(PATH_ID),
});

const day = (name: string) => z.iso.date(`The ${name} field must be a valid date (YYYY-MM-DD).`).optional();

const statementQuery = z.object({
  from: day('from').describe('The first day (default: the first of the month three months ago, in Manila)'),
  to: day('to').describe('The last day (default: today in Manila)'),
});

/** The period asked, or the default; refused when backwards. */
function queryOf(id: string, query: z.infer<typeof statementQuery>): StatementQuery {
  const period = defaultStatementPeriod(query.to ?? todayInManila());
  const from = query.from ?? period.from;
  const to = query.to ?? period.to;
  if (from > to) throw validationError({ from: ['The from date must be on or before the to date.'] });
  return { contactId: Number(id), from, to };
}

const pesos = (what: string) => z.number().describe(`${what}, in pesos`);

const statementAnswer = z.looseObject({
  from: z.string().describe('The first day (YYYY-MM-DD)'),
  to: z.string().describe('The last day (YYYY-MM-DD)'),
  business: z.looseObject({
    name: z.string().describe('The registered name, or the business’s name when it has none'),
    trade_name: z.string().nullable(),
    address: z.string().nullable(),
    tin: z.string().nullable(),
  }),
  customer: z.looseObject({
    id: z.number().int(),
    name: z.string(),
    company_name: z.string().nullable(),
    address: z.string().nullable(),
    tin: z.string().nullable(),
  }),
  places: z
    .array(z.string())
    .nullable()
    .describe('The names of the places whose documents it holds, for a caller who views only some; null: every place'),
  opening_balance: pesos('What the customer owed before the first day'),
  data: z
    .array(
      z.looseObject({
        date: z.string(),
        resource: z.string().describe('The document’s resource, with `id` naming it'),
        id: z.number().int(),
        kind: z.string().describe('Its kind in words: Invoice, Invoice Payment …'),
        number: z.string(),
        description: z.string().describe('What it settles and its details, in words'),
        debit: pesos('What it charged (a total owed)'),
        credit: pesos('What it credited (a payment, a memorandum, a return)'),
        balance: pesos('What the customer owed after it'),
      }),
    )
    .describe('By date, then by kind (charges first) and id'),
  totals: z.looseObject({ debit: pesos('Charged in the period'), credit: pesos('Credited in the period') }),
  closing_balance: pesos('What the customer owed at the end of the last day'),
});

const kinds = STATEMENT_SOURCES.map(({ resource }) => getResource(resource).plural.toLowerCase()).join(', ');

export async function statementRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db as unknown as Db;
  const tags = ['contacts'];
  const config = { permission: permissionName('view', getResource(STATEMENT_SOURCES[0].resource).permission) };
  // Refused before the query is read: a statement shown in part (a kind left out) would mislead.
  const onRequest = async (request: FastifyRequest) => {
    if (!readsStatements(scopeOf(request).permissions)) throw forbidden();
  };
  const description = `The customer's ${kinds} (neither voided nor trashed) at the places the caller views, between from and to (both counted), with the balance after each, from what was owed before from. Needs ${STATEMENT_PERMISSIONS.join(', ')}. At most ${STATEMENT_MAX_ROWS} rows: a longer period is refused (422).`;

  routes.get(
    '/api/contacts/:id/statement',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: "A customer's statement of account: charges, credits and the running balance over a period",
        description,
        params: idParams,
        querystring: statementQuery,
        response: { 200: statementAnswer, ...refusals(401, 403, 404, 422) },
      },
    },
    async (request) => statement(db, scopeOf(request), queryOf(request.params.id, request.query)),
  );

  routes.get(
    '/api/contacts/:id/statement.pdf',
    {
      config,
      onRequest,
      schema: {
        tags,
        summary: "A customer's statement of account, as a PDF (A4) to download",
        description,
        params: idParams,
        querystring: statementQuery,
        response: {
          200: bytesAnswer(Buffer, 'The statement as a PDF on A4 pages', ['application/pdf'], 'binary'),
          ...refusals(401, 403, 404, 422),
        },
      },
    },
    async (request, reply) => {
      const query = queryOf(request.params.id, request.query);
      const answer = await statement(db, scopeOf(request), query);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="statement-${fileWord(answer.customer)}-${query.from}-${query.to}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(await statementPdf(answer));
    },
  );
}

/** The customer's name as a file name's word: ASCII letters and digits between hyphens ("bayanihan-cooperative"), else their id. */
function fileWord(customer: { id: number; name: string }): string {
  const word = customer.name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return word || `contact-${customer.id}`;
}
