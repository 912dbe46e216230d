import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { todayInManila } from '../../domain/documents';
import { holdsAny, VIEW_COSTS_PERMISSION } from '../../domain/permissions';
import { forbidden, validationError } from '../errors';
import { AGEING_BUCKETS, AGEING_SIDES } from '../../domain/ageing';
import { addDays, daysBetween, monthsSpanned, startOfMonth, type Interval } from '../overview/calendar';
import { ageing, ageingCsv, type AgeingQuery } from '../overview/ageing';
import { lowStock } from '../overview/low-stock';
import { openBalances } from '../overview/open-balances';
import { recentDocuments } from '../overview/recent-documents';
import { salesAndPurchases, type PeriodTotals } from '../overview/sales-purchases';
import { stockValue } from '../overview/stock-value';
import { returnsByReason } from '../overview/returns-by-reason';
import { topItems } from '../overview/top-items';
import { scopeOf } from '../plugins/auth';
import { marginGroups } from '../reports/margins';
import type { Db } from '../db/scope';
import { BYTE_ORDER_MARK } from '../resources/csv-export';
import { day, placeOf, withOnePlace } from './report-queries';
import { bytesAnswer, refusals } from './responses';

/**
 * The overview dashboard's cards, one GET each, for the active business and only from what the
 * user may view: the kinds of record their permissions name, at the places they view (a user
 * kept to one branch sees that branch's figures). Money in pesos to 2 places, quantities to 3,
 * days as `YYYY-MM-DD` in Manila. Voided and trashed documents never count.
 */

const MAX_DAYS = 366;
const MAX_MONTHS = 120;

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

const pesos = (what: string) => z.number().describe(`${what}, in pesos`);
const sides = {
  sales: pesos('Sales (invoices)').optional().describe('Left out for a user who may not view invoices'),
  purchases: pesos('Purchases (bills)').optional().describe('Left out for a user who may not view bills'),
};

const periodTotals: z.ZodType<PeriodTotals> = z.looseObject({
  period: z.string().describe('A day (YYYY-MM-DD) or a month (YYYY-MM)'),
  ...sides,
});

const vatBreakdown = z
  .looseObject({
    vatable_sales: pesos('VATable sales, net of VAT'),
    exempt_sales: pesos('VAT-exempt sales'),
    zero_rated_sales: pesos('Zero-rated sales'),
    vat_total: pesos('VAT'),
  })
  .describe("The period's documents by how they were taxed");

const salesPurchasesAnswer = z.looseObject({
  data: z.array(periodTotals),
  totals: z.looseObject(sides),
  vat: z.looseObject({
    sales: vatBreakdown.optional().describe('Output VAT: left out for a user who may not view invoices'),
    purchases: vatBreakdown.optional().describe('Input VAT: left out for a user who may not view bills'),
  }),
});

const openBalancesAnswer = z.looseObject({
  data: z.looseObject({
    total: pesos('What is unpaid'),
    count: z.number().int(),
    aging: z.array(z.looseObject({ bucket: z.enum(['0-30', '31-60', '61-90', '90+']), amount: pesos('Unpaid'), count: z.number().int() })),
    oldest: z
      .array(
        z.looseObject({
          id: z.number().int(),
          number: z.string(),
          contact: z.string().nullable(),
          date: z.string(),
          due_date: z.string().nullable(),
          balance: pesos('The balance'),
          days_overdue: z.number().int(),
        }),
      )
      .describe('The most overdue'),
  }),
});

const bucketAmounts = z.looseObject(Object.fromEntries(AGEING_BUCKETS.map(({ key, label }) => [key, pesos(label)])));

const ageingAnswer = z.looseObject({
  as_of: z.string().describe('The day (YYYY-MM-DD, Manila) the days past due are counted to'),
  data: z
    .array(
      z.looseObject({
        contact_id: z.number().int().nullable().describe('Null: the documents that name no party'),
        contact: z.string().nullable(),
        buckets: bucketAmounts,
        total: pesos('What is unpaid'),
        count: z.number().int().describe('How many documents are unpaid'),
        oldest_due: z.string().describe('The earliest due day of those (YYYY-MM-DD)'),
      }),
    )
    .describe('One row per party, the most owed first'),
  totals: z.looseObject({ buckets: bucketAmounts, total: pesos('What is unpaid'), count: z.number().int() }),
});

/** One branch or one warehouse, or every place the user views (neither). */
const ageingQuery = withOnePlace({}, 'documents');

const ageingQueryOf = (query: z.infer<typeof ageingQuery>): AgeingQuery => ({ today: todayInManila(), place: placeOf(query) });

const stockValueAnswer = z.looseObject({
  data: z.array(
    z.looseObject({
      location_type: z.string(),
      location_id: z.number().int(),
      name: z.string(),
      value: pesos('What is on hand there is worth'),
      items: z.number().int().describe('How many items are on hand there'),
    }),
  ),
  total: pesos('Everything on hand is worth'),
});

const marginFigures = {
  sales: pesos('What was sold, net of VAT, less what returns gave back'),
  cost_of_goods: pesos('What those goods cost, at moving-average cost'),
  margin: pesos('Sales less their cost'),
  margin_percent: z.number().nullable().describe('The margin as a percent of sales; null without sales'),
};

const marginsAnswer = z.looseObject({
  data: z.array(z.looseObject({ location_type: z.string(), location_id: z.number().int(), name: z.string(), ...marginFigures })),
  total: z.looseObject(marginFigures),
  uncosted: z.number().int().describe('Lines sold without a cost (goods never costed), counted at nothing'),
});

const lowStockAnswer = z.looseObject({
  data: z.array(
    z.looseObject({
      stock_id: z.number().int(),
      item_id: z.number().int(),
      item: z.string(),
      sku: z.string().nullable(),
      location_type: z.string(),
      location_id: z.number().int(),
      location: z.string(),
      quantity_on_hand: z.number(),
      reorder_level: z.number(),
      unit: z.string().nullable(),
      open_request: z
        .looseObject({ id: z.number().int(), number: z.string() })
        .nullable()
        .describe(
          'The newest open stock request from this place still asking for the item; null when none does, or the user may not view stock requests',
        ),
    }),
  ),
  total: z.number().int().describe('How many stocks are at or under their reorder level'),
});

const topItemsAnswer = z.looseObject({
  data: z.array(
    z.looseObject({
      item_id: z.number().int(),
      item: z.string(),
      quantity: z.number().describe('In the base unit'),
      amount: pesos('Sold, after discount and before VAT'),
    }),
  ),
});

const returnsAnswer = z.looseObject({
  returns: z.number().int().describe("The period's sales returns"),
  amount: pesos('What they came to, with VAT'),
  data: z.array(
    z.looseObject({
      reason: z.string().describe('damaged, wrong_item, expired, changed_mind or other'),
      label: z.string(),
      returns: z.number().int().describe('How many returns gave it for a line'),
      amount: pesos('What those lines came to, with VAT'),
    }),
  ),
});

const recentDocumentsAnswer = z.looseObject({
  data: z.array(
    z.looseObject({
      resource: z.string(),
      singular: z.string(),
      id: z.number().int(),
      number: z.string(),
      date: z.string(),
      contact: z.string().nullable(),
      total: pesos('Its total (or amount)').nullable(),
      status: z.string().nullable(),
      created_at: z.string().nullable(),
    }),
  ),
});

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
        response: { 200: salesPurchasesAnswer.describe('Every period from the first to the last'), ...refusals(401, 403, 422) },
      },
    },
    async (request) =>
      salesAndPurchases(db, scopeOf(request), {
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
      {
        config: { permission: `view-${prefix}` },
        schema: {
          tags,
          summary: `What ${who}: unpaid ${table}, aged, the most overdue first`,
          response: { 200: openBalancesAnswer.describe(`The unpaid ${table}`), ...refusals(401, 403) },
        },
      },
      async (request) => ({ data: await openBalances(db, table, scopeOf(request), todayInManila()) }),
    );
  }

  for (const [side, { resource, party }] of Object.entries(AGEING_SIDES) as [
    keyof typeof AGEING_SIDES,
    (typeof AGEING_SIDES)[keyof typeof AGEING_SIDES],
  ][]) {
    const config = { permission: `view-${resource}` };
    const summary = `What each ${party.toLowerCase()} owes or is owed on unpaid ${resource}, by days past due`;
    routes.get(
      `/api/overview/${side}/ageing`,
      {
        config,
        schema: {
          tags,
          summary,
          description: `Unpaid ${resource} of the places the caller views (or of one of them), by party, in buckets of days past their due date (their date when they have none) on today in Manila: ${AGEING_BUCKETS.map(({ label }) => label).join(', ')}.`,
          querystring: ageingQuery,
          response: { 200: ageingAnswer, ...refusals(401, 403, 422) },
        },
      },
      async (request) => ageing(db, side, scopeOf(request), ageingQueryOf(request.query)),
    );
    routes.get(
      `/api/overview/${side}/ageing.csv`,
      {
        config,
        schema: {
          tags,
          summary: `${summary}, as CSV`,
          description: `The ageing as CSV (UTF-8 with a byte-order mark): ${party}, one column per bucket, Total, the count of unpaid ${resource} and the oldest due day; a Total row last. Money as plain decimals.`,
          querystring: ageingQuery,
          response: { 200: bytesAnswer(String, 'CSV (UTF-8 with a byte-order mark)', ['text/csv']), ...refusals(401, 403, 422) },
        },
      },
      async (request, reply) => {
        const query = ageingQueryOf(request.query);
        const place = query.place ? `-${query.place.type}-${query.place.id}` : '';
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${side}-ageing${place}-${query.today}.csv"`)
          .header('cache-control', 'private, no-store')
          .send(BYTE_ORDER_MARK + ageingCsv(side, await ageing(db, side, scopeOf(request), query)));
      },
    );
  }

  routes.get(
    '/api/overview/stock-value',
    {
      config: { permission: 'view-stocks' },
      schema: {
        tags,
        summary: 'What the goods on hand are worth, by warehouse and branch',
        response: { 200: stockValueAnswer.describe('Highest value first'), ...refusals(401, 403) },
      },
    },
    async (request) => stockValue(db, scopeOf(request), todayInManila()),
  );

  routes.get(
    '/api/overview/low-stock',
    {
      config: { permission: 'view-stocks' },
      schema: {
        tags,
        summary: 'Stocks at or under their reorder level, lowest first',
        querystring: z.object({ limit: limit(10, 50) }),
        response: { 200: lowStockAnswer.describe('The lowest stocks'), ...refusals(401, 403, 422) },
      },
    },
    async (request) => lowStock(db, scopeOf(request), request.query.limit),
  );

  routes.get(
    '/api/overview/top-items',
    {
      config: { permission: 'view-invoices' },
      schema: {
        tags,
        summary: 'The items that sold for the most in a period',
        querystring: z.object({ from: period.from, to: period.to, limit: limit(5, 20) }),
        response: { 200: topItemsAnswer.describe('The top items, most sold first'), ...refusals(401, 403, 422) },
      },
    },
    async (request) => {
      const { from, to } = periodOf({ ...request.query, interval: 'day' });
      return topItems(db, scopeOf(request), from, to, request.query.limit);
    },
  );

  routes.get(
    '/api/overview/margins',
    {
      config: { permission: 'view-invoices' },
      // What goods cost is for those who may see costs (docs/costing.md).
      onRequest: async (request) => {
        if (!holdsAny(scopeOf(request).permissions, [VIEW_COSTS_PERMISSION])) throw forbidden();
      },
      schema: {
        tags,
        summary: 'Gross margin in a period, by the branch or warehouse that sold',
        querystring: z.object({ from: period.from, to: period.to }),
        response: { 200: marginsAnswer.describe('Highest margin first'), ...refusals(401, 403, 422) },
      },
    },
    async (request) => {
      const { from, to } = periodOf({ ...request.query, interval: 'day' });
      const { data, total, uncosted } = await marginGroups(db, scopeOf(request), { from, to, by: 'place' });
      const places = data.map(({ key, code: _code, ...figures }) => {
        const [type, id] = key.split(':');
        return { location_type: type, location_id: Number(id), ...figures };
      });
      return { data: places, total, uncosted };
    },
  );

  routes.get(
    '/api/overview/returns',
    {
      config: { permission: 'view-sales-returns' },
      schema: {
        tags,
        summary: 'Goods that came back in a period, by reason',
        querystring: z.object({ from: period.from, to: period.to }),
        response: { 200: returnsAnswer.describe('By reason, in the order the return form offers them'), ...refusals(401, 403, 422) },
      },
    },
    async (request) => {
      const { from, to } = periodOf({ ...request.query, interval: 'day' });
      return returnsByReason(db, scopeOf(request), from, to);
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
        response: { 200: recentDocumentsAnswer.describe('Newest first'), ...refusals(401, 403, 422) },
      },
    },
    async (request) => recentDocuments(db, scopeOf(request), request.query.limit),
  );
}
