import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { todayInManila } from '../../domain/documents';
import { holdsAny } from '../../domain/permissions';
import { forbidden, validationError } from '../errors';
import { addDays, daysBetween, monthsSpanned, startOfMonth, type Interval } from '../overview/calendar';
import { lowStock } from '../overview/low-stock';
import { openBalances } from '../overview/open-balances';
import { recentDocuments } from '../overview/recent-documents';
import { salesAndPurchases } from '../overview/sales-purchases';
import { stockValue } from '../overview/stock-value';
import { topItems } from '../overview/top-items';
import { scopeOf } from '../plugins/auth';
import type { Db } from '../db/scope';

/**
 * The overview dashboard's cards, one GET each, for the active business and only from what the
 * user may view. Money in pesos to 2 places, quantities to 3, days as `YYYY-MM-DD` in Manila.
 * Voided and trashed documents never count.
 */

const MAX_DAYS = 366;
const MAX_MONTHS = 120;

const day = (name: string) => z.iso.date(`The ${name} field must be a valid date (YYYY-MM-DD).`).optional();

const limit = (fallback: number, max: number) =>
  z.coerce
    .number({ error: 'The limit field must be a number.' })
    .int('The limit field must be an integer.')
    .min(1, 'The limit field must be at least 1.')
    .max(max, `The limit field must not be greater than ${max}.`)
    .default(fallback);

const period = {
  from: day('from'),
  to: day('to'),
  interval: z.enum(['day', 'month'], { error: 'The interval field must be day or month.' }).default('day'),
};

/**
 * The days a card covers: by default the last 30 days to today (by day) or the last 12 months
 * (by month); refused when backwards or longer than 366 days (by day) or 10 years (by month).
 */
function periodOf(query: { from?: string; to?: string; interval: Interval }) {
  const to = query.to ?? todayInManila();
  const from = query.from ?? (query.interval === 'day' ? addDays(to, -29) : startOfMonth(to, -11));
  if (from > to) throw validationError({ from: ['The from date must be on or before the to date.'] });
  if (query.interval === 'day' && daysBetween(from, to) + 1 > MAX_DAYS) {
    throw validationError({ to: [`A period by day can span at most ${MAX_DAYS} days.`] });
  }
  if (query.interval === 'month' && monthsSpanned(from, to) > MAX_MONTHS) {
    throw validationError({ to: ['A period by month can span at most 10 years.'] });
  }
  return { from, to, interval: query.interval };
}

const mayView = (request: FastifyRequest, prefix: string) => holdsAny(scopeOf(request).permissions, [`view-${prefix}`]);

export async function overviewRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db as unknown as Db;
  const tags = ['overview'];

  routes.get(
    '/api/overview/sales-purchases',
    {
      config: { access: 'business' },
      // Refused before the query is read: a caller without either learns nothing from its messages.
      onRequest: async (request) => {
        if (!mayView(request, 'invoices') && !mayView(request, 'bills')) throw forbidden();
      },
      schema: {
        tags,
        summary: 'Sales (invoices) and purchases (bills) per day or month, every period present',
        querystring: z.object(period),
      },
    },
    async (request) =>
      salesAndPurchases(db, scopeOf(request).businessId, {
        ...periodOf(request.query),
        sales: mayView(request, 'invoices'),
        purchases: mayView(request, 'bills'),
      }),
  );

  for (const [path, table, prefix, who] of [
    ['receivables', 'invoices', 'invoices', 'customers owe'],
    ['payables', 'bills', 'bills', 'is owed suppliers'],
  ] as const) {
    routes.get(
      `/api/overview/${path}`,
      { config: { permission: `view-${prefix}` }, schema: { tags, summary: `What ${who}: unpaid ${table}, aged, the most overdue first` } },
      async (request) => ({ data: await openBalances(db, table, scopeOf(request).businessId, todayInManila()) }),
    );
  }

  routes.get(
    '/api/overview/stock-value',
    { config: { permission: 'view-stocks' }, schema: { tags, summary: 'What the goods on hand are worth, by warehouse and branch' } },
    async (request) => stockValue(db, scopeOf(request).businessId, todayInManila()),
  );

  routes.get(
    '/api/overview/low-stock',
    {
      config: { permission: 'view-stocks' },
      schema: { tags, summary: 'Stocks at or under their reorder level, lowest first', querystring: z.object({ limit: limit(10, 50) }) },
    },
    async (request) => lowStock(db, scopeOf(request).businessId, request.query.limit),
  );

  routes.get(
    '/api/overview/top-items',
    {
      config: { permission: 'view-invoices' },
      schema: {
        tags,
        summary: 'The items that sold for the most in a period',
        querystring: z.object({ from: period.from, to: period.to, limit: limit(5, 20) }),
      },
    },
    async (request) => {
      const { from, to } = periodOf({ ...request.query, interval: 'day' });
      return topItems(db, scopeOf(request).businessId, from, to, request.query.limit);
    },
  );

  routes.get(
    '/api/overview/recent-documents',
    {
      config: { access: 'business' },
      schema: {
        tags,
        summary: 'The documents created last, of every kind the user may view',
        querystring: z.object({ limit: limit(10, 30) }),
      },
    },
    async (request) => recentDocuments(db, scopeOf(request), request.query.limit),
  );
}
