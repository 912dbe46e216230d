import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { todayInManila } from '../../domain/documents';
import { permissionName } from '../../domain/permissions';
import { registry } from '../../domain/resources/registry';
import { paidInTenders } from '../../domain/tenders';
import { tenderColumns, tenderLines, tenderSummaryLines, SUMMARY_COLUMNS, type Period } from '../documents/tenders';
import { validationError } from '../errors';
import { daysBetween } from '../overview/calendar';
import { scopeOf } from '../plugins/auth';
import { bytesAnswer, refusals } from './responses';

/**
 * Payments taken away for reconciliation, by each kind paid in tenders (invoice and bill
 * payments), for whoever may view that kind, of the places they view (a payment's branch or
 * warehouse, as its list shows it):
 *   GET /api/{kind}/tenders.csv?from=&to=          one row per tender of the period's unvoided payments (refunds below zero)
 *   GET /api/{kind}/tenders-by-day.csv?from=&to=   their count and total per day and method
 * Both days included, today (in Manila) when not given; a period is at most 366 days.
 */

const MAX_DAYS = 366;

const day = (name: string) =>
  z.iso
    .date(`The ${name} field must be a valid date (YYYY-MM-DD).`)
    .optional()
    .describe(`YYYY-MM-DD; ${name === 'to' ? 'today' : 'the to date'} when not given`);
const periodQuery = z.object({ from: day('from'), to: day('to') });

function periodOf(query: z.infer<typeof periodQuery>): Period {
  const to = query.to ?? todayInManila();
  const from = query.from ?? to;
  if (from > to) throw validationError({ from: ['The from date must be on or before the to date.'] });
  if (daysBetween(from, to) + 1 > MAX_DAYS) throw validationError({ to: [`A period can span at most ${MAX_DAYS} days.`] });
  return { from, to };
}

export async function paymentTenderRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  for (const definition of registry.filter((resource) => paidInTenders(resource))) {
    const plural = definition.plural.toLowerCase();
    const exports = [
      {
        path: 'tenders.csv',
        summary: `The tenders of ${plural} in a period, as CSV`,
        description: `One row per tender of the period's payments at the places the caller views, voided ones left out, by date — and of refunds of what they pay (a sales return's, for whoever may view them) as money out, below zero: ${tenderColumns(definition).join(', ')}. Money as plain decimals.`,
        lines: tenderLines,
      },
      {
        path: 'tenders-by-day.csv',
        summary: `The tenders of ${plural} in a period, totalled by day and method, as CSV`,
        description: `One row per day and method with tenders of payments at the places the caller views, voided payments left out, refunds counted as money out: ${SUMMARY_COLUMNS.join(', ')}.`,
        lines: tenderSummaryLines,
      },
    ];
    for (const { path, summary, description, lines } of exports) {
      routes.get(
        `/api/${definition.name}/${path}`,
        {
          config: { permission: permissionName('view', definition.permission) },
          schema: {
            tags: [definition.name],
            summary,
            description,
            querystring: periodQuery,
            response: {
              200: bytesAnswer(Readable, 'CSV (UTF-8 with a byte-order mark)', ['text/csv']),
              ...refusals(401, 403, 422),
            },
          },
        },
        async (request, reply) => {
          const period = periodOf(request.query);
          const name = `${definition.name}-${path.replace(/\.csv$/, '')}-${period.from}-to-${period.to}.csv`;
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${name}"`)
            .header('cache-control', 'private, no-store')
            .send(Readable.from(lines(request.server.db, scopeOf(request), definition, period)));
        },
      );
    }
  }
}
