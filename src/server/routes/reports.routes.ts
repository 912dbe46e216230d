import { Readable } from 'node:stream';
import { constants } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { todayInManila } from '../../domain/documents';
import { PAGING } from '../../domain/list-params-schema';
import { VIEW_COSTS_PERMISSION } from '../../domain/permissions';
import { MARGIN_GROUP_LABELS, MARGIN_GROUPS, readsMargins, readsStockValue } from '../../domain/reports';
import type { Db } from '../db/scope';
import { costsSettled } from '../documents/cost-follow-up';
import { forbidden, validationError } from '../errors';
import { addDays, daysBetween } from '../overview/calendar';
import { scopeOf } from '../plugins/auth';
import { marginGroups, marginsCsv, marginsReport, type MarginsQuery } from '../reports/margins';
import { inventoryListPdf } from '../reports/inventory-list-pdf';
import { inventoryList, inventoryListCsv, stockValueReport, type StockValueQuery } from '../reports/stock-value';
import { BYTE_ORDER_MARK } from '../resources/csv-export';
import { day, placeOf, withOnePlace } from './report-queries';
import { bytesAnswer, pageOf, refusals } from './responses';

/**
 * The reports on what goods cost (docs/costing.md), for the active business and the places the
 * caller views: stock value on a date by place and item (the BIR's annual inventory list on a
 * December 31st), as JSON, CSV and a PDF to print; and the gross margin of a period by place,
 * item, brand, classification or user, as JSON and CSV. They need view-costs, and what they are
 * made of: stocks, or invoices. Money in pesos, quantities in the base unit, days `YYYY-MM-DD`.
 */

const MAX_DAYS = 366;

const stockValueFilter = { date: day('date').describe('The day whose end it values (default: today in Manila)') };
const stockValueQuery = withOnePlace(stockValueFilter, 'goods');
const stockValuePage = withOnePlace({ ...stockValueFilter, ...PAGING }, 'goods');

const stockValueOf = (query: z.infer<typeof stockValueQuery>): StockValueQuery => ({
  date: query.date ?? todayInManila(),
  place: placeOf(query),
});

const marginsFilter = {
  from: day('from').describe('The first day (default: 29 days before to)'),
  to: day('to').describe('The last day (default: today in Manila)'),
  by: z
    .enum(MARGIN_GROUPS, { error: `The by field must be one of ${MARGIN_GROUPS.join(', ')}.` })
    .default('place')
    .describe('What the rows are grouped by'),
};
const marginsQuery = withOnePlace(marginsFilter, 'documents');
const marginsPage = withOnePlace({ ...marginsFilter, ...PAGING }, 'documents');

/** The period asked (by default the last 30 days): refused when backwards or longer than 366 days. */
function marginsOf(query: z.infer<typeof marginsQuery>): MarginsQuery {
  const to = query.to ?? todayInManila();
  const from = query.from ?? addDays(to, -29);
  if (from > to) throw validationError({ from: ['The from date must be on or before the to date.'] });
  if (daysBetween(from, to) + 1 > MAX_DAYS) throw validationError({ to: [`A period can span at most ${MAX_DAYS} days.`] });
  return { from, to, by: query.by, place: placeOf(query) };
}

const pesos = (what: string) => z.number().describe(`${what}, in pesos`);
const business = z.looseObject({
  name: z.string().describe('The registered name, or the business’s name when it has none'),
  trade_name: z.string().nullable(),
  address: z.string().nullable(),
  tin: z.string().nullable(),
});

const stockValueRow = z.looseObject({
  item_id: z.number().int(),
  sku: z.string(),
  item: z.string(),
  description: z.string().nullable(),
  location_type: z.enum(['branch', 'warehouse']),
  location_id: z.number().int(),
  location: z.string(),
  quantity: z.number().describe('On hand at the end of the day, in the base unit'),
  unit: z.string().describe('The base unit'),
  unit_cost: z.number().nullable().describe('Moving-average cost per base unit that day, in pesos to 4 places; null: never costed'),
  value: pesos('Quantity × unit cost'),
});

const stockValueAnswer = pageOf(stockValueRow).extend({
  date: z.string(),
  business,
  places: z
    .array(
      z.looseObject({
        location_type: z.enum(['branch', 'warehouse']),
        location_id: z.number().int(),
        name: z.string(),
        items: z.number().int().describe('How many items it held'),
        value: pesos('What they were worth'),
      }),
    )
    .describe('Every place with goods that day, by name'),
  total: pesos('Everything held that day was worth'),
  uncosted: z.number().int().describe('Rows of goods never costed, counted at nothing'),
});

const marginFigures = {
  sales: pesos('What was sold, net of VAT, less what returns gave back'),
  cost_of_goods: pesos('What those goods cost, at moving-average cost'),
  margin: pesos('Sales less their cost'),
  margin_percent: z.number().nullable().describe('The margin as a percent of sales; null without sales'),
};

const marginsAnswer = pageOf(
  z.looseObject({
    key: z.string().describe('The group: branch:3, warehouse:1, item:42, brand:5, classification:2, user:7, or brand:none …'),
    name: z.string(),
    code: z.string().nullable().describe('An item’s SKU; null for other groups'),
    ...marginFigures,
  }),
).extend({
  from: z.string(),
  to: z.string(),
  by: z.enum(MARGIN_GROUPS),
  total: z.looseObject(marginFigures),
  uncosted: z.number().int().describe('Lines sold without a cost (goods never costed), counted at nothing'),
});

const csvAnswer = bytesAnswer(Readable, 'CSV (UTF-8 with a byte-order mark)', ['text/csv']);

/** A download's headers, kept private. */
const download = (type: string, name: string) => ({
  'content-type': type,
  'content-disposition': `attachment; filename="${name}"`,
  'cache-control': 'private, no-store',
});

async function* withByteOrderMark(lines: Iterable<string> | AsyncIterable<string>): AsyncGenerator<string> {
  yield BYTE_ORDER_MARK;
  yield* lines;
}

/**
 * How the inventory list's CSV (some 12 MB for 150,000 rows) is compressed: the app's encodings
 * and threshold, at the fastest levels (gzip 1, brotli 1: a few hundred kB more, a third of the
 * time or less), in pieces of 256 kB: each piece the compressor hands back is a turn of the event
 * loop, which the report reading its rows shares with other requests.
 */
const csvCompression = {
  encodings: ['br', 'gzip'] as ('br' | 'gzip')[],
  threshold: 1024,
  zlibOptions: { level: constants.Z_BEST_SPEED, chunkSize: 256 * 1024 },
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 }, chunkSize: 256 * 1024 },
};

const placeWord = (place: StockValueQuery['place']) => (place ? `-${place.type}-${place.id}` : '');

export async function reportRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const db = app.db as unknown as Db;
  const tags = ['reports'];
  // Whatever waits to be costed in the business is costed before a report reads costs.
  app.addHook('preHandler', async (request) => costsSettled(db, scopeOf(request).businessId));
  // Refused before the query is read: who may not see costs learns nothing from its messages.
  const gate = (reads: (permissions: ReadonlySet<string>) => boolean) => async (request: FastifyRequest) => {
    if (!reads(scopeOf(request).permissions)) throw forbidden();
  };
  // Declared: view-costs; the gate asks for what each report is made of too.
  const stockValue = { config: { permission: VIEW_COSTS_PERMISSION }, onRequest: gate(readsStockValue) };
  const stockValueNeeds = `Needs view-stocks and ${VIEW_COSTS_PERMISSION}.`;
  const margins = { config: { permission: VIEW_COSTS_PERMISSION }, onRequest: gate(readsMargins) };
  const marginsNeeds = `Needs view-invoices and ${VIEW_COSTS_PERMISSION}.`;

  routes.get(
    '/api/reports/stock-value',
    {
      ...stockValue,
      schema: {
        tags,
        summary: 'Stock value on a date, by place and item, at moving-average cost',
        description: `What each place held of each item at the end of the day, and its worth at the item's moving-average cost that day: every place's total, and a page of the rows by place, then item name. ${stockValueNeeds}`,
        querystring: stockValuePage,
        response: { 200: stockValueAnswer, ...refusals(401, 403, 422) },
      },
    },
    async (request) => stockValueReport(db, scopeOf(request), stockValueOf(request.query), request.query.page, request.query.per_page),
  );

  routes.get(
    '/api/reports/stock-value.csv',
    {
      ...stockValue,
      schema: {
        tags,
        summary: 'The inventory list on a date, as CSV',
        description: `Every row of the stock value report: Place, Item code, Item, Description, Quantity, Unit, Unit cost, Total cost; each place's total after its rows, the whole total last. On December 31st, the annual inventory list. ${stockValueNeeds}`,
        querystring: stockValueQuery,
        response: { 200: csvAnswer, ...refusals(401, 403, 422) },
      },
      compress: csvCompression,
    },
    async (request, reply) => {
      const query = stockValueOf(request.query);
      // Written as its rows are read.
      return reply
        .headers(download('text/csv; charset=utf-8', `inventory-list${placeWord(query.place)}-${query.date}.csv`))
        .send(Readable.from(withByteOrderMark(inventoryListCsv(db, scopeOf(request), query))));
    },
  );

  routes.get(
    '/api/reports/stock-value.pdf',
    {
      ...stockValue,
      schema: {
        tags,
        summary: 'The inventory list on a date, as a PDF (A4) to print',
        description: `The business and the day at the top, then place by place its items (code, description, quantity, unit, unit cost, total cost) and its total, the whole total last; every page numbered. On December 31st, the annual inventory list. ${stockValueNeeds}`,
        querystring: stockValueQuery,
        response: {
          200: bytesAnswer(Buffer, 'The inventory list as a PDF on A4 pages', ['application/pdf'], 'binary'),
          ...refusals(401, 403, 422),
        },
      },
    },
    async (request, reply) => {
      const query = stockValueOf(request.query);
      const list = await inventoryList(db, scopeOf(request), query);
      return reply
        .headers(download('application/pdf', `inventory-list${placeWord(query.place)}-${query.date}.pdf`))
        .send(await inventoryListPdf(list));
    },
  );

  routes.get(
    '/api/reports/margins',
    {
      ...margins,
      schema: {
        tags,
        summary: 'Gross margin in a period, by place, item, brand, classification or user',
        description: `Sales net of VAT less their cost as stamped on each line, the period's sales returns taken off, from invoices and returns neither voided nor trashed: a page of groups, the highest margin first, and the totals. At most ${MAX_DAYS} days. ${marginsNeeds}`,
        querystring: marginsPage,
        response: { 200: marginsAnswer, ...refusals(401, 403, 422) },
      },
    },
    async (request) => marginsReport(db, scopeOf(request), marginsOf(request.query), request.query.page, request.query.per_page),
  );

  routes.get(
    '/api/reports/margins.csv',
    {
      ...margins,
      schema: {
        tags,
        summary: 'Gross margin in a period, as CSV',
        description: `Every group of the margin report (with the item code when by item), then the total. ${marginsNeeds}`,
        querystring: marginsQuery,
        response: { 200: csvAnswer, ...refusals(401, 403, 422) },
      },
    },
    async (request, reply) => {
      const query = marginsOf(request.query);
      const groups = await marginGroups(db, scopeOf(request), query);
      return reply
        .headers(download('text/csv; charset=utf-8', `margins-by-${query.by}${placeWord(query.place)}-${query.from}-to-${query.to}.csv`))
        .send(Readable.from(withByteOrderMark(marginsCsv(query.by, MARGIN_GROUP_LABELS[query.by], groups))));
    },
  );
}
