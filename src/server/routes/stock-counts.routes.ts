import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordId } from '../../domain/field-values';
import { permissionName } from '../../domain/permissions';
import { roundsToNothing } from '../../domain/quantity';
import { COUNT_LINE_FILTERS, COUNT_LINES_PAGE, stockCounts } from '../../domain/resources/stock-counts';
import { addEntry, countLinesPage, uncountLine } from '../documents/counts';
import { runWrite } from '../idempotency';
import { scopeOf } from '../plugins/auth';
import { countLine, dataOf, pageOf, refusals, PATH_ID } from './responses';

/**
 * A stock count's own routes beyond its document routes: its lines a page at a time, entries added
 * by counters, and a line taken back to not counted. Each is kept to the count's place as its
 * record is: a count at a place the user does not view answers 404; one where they only view is
 * read but not changed (403). Finishing the counting and posting are transitions its lifecycle
 * declares, served with every kind's by routes/documents.routes.ts.
 */

const idParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, 'The id must be a whole number.')
    .meta(PATH_ID),
});
const VIEW_PERMISSION = permissionName('view', stockCounts.permission);
const COUNT_PERMISSION = permissionName('update', stockCounts.permission);

const entryBody = z.object({
  item_id: recordId('Item'),
  unit_of_measurement_id: recordId('Unit').nullish().describe("Absent: the item's base unit"),
  quantity: z
    .number({ error: (issue) => (issue.input === undefined ? 'The quantity field is required.' : 'The quantity field must be a number.') })
    .min(-1_000_000_000, 'The quantity field must be at least -1000000000.')
    .max(1_000_000_000, 'The quantity field must not be greater than 1000000000.')
    .superRefine((value, context) => {
      // Kept in thousandths: 0.0004 would count the item as none there.
      const problem = value === 0 ? 'The quantity must not be 0.' : roundsToNothing(value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
});

const linesQuery = z.object({
  show: z
    .enum(
      COUNT_LINE_FILTERS.map((filter) => filter.value),
      { error: `The show field must be one of: ${COUNT_LINE_FILTERS.map((filter) => filter.value).join(', ')}.` },
    )
    .default('all')
    .describe('all, uncounted, counted, or differences (counted and not what is on hand)'),
  search: z
    .string()
    .max(100, 'The search field must not be greater than 100 characters.')
    .optional()
    .describe("Part of an item's name, SKU or barcode"),
  page: z.coerce
    .number()
    .int()
    .min(1, 'The page field must be at least 1.')
    .max(1_000_000, 'The page field must not be greater than 1000000.')
    .default(1),
  per_page: z.coerce
    .number()
    .int()
    .min(1, 'The per page field must be at least 1.')
    .max(COUNT_LINES_PAGE, `The per page field must not be greater than ${COUNT_LINES_PAGE}.`)
    .default(COUNT_LINES_PAGE),
});

export async function stockCountRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/stock-counts/:id/lines',
    {
      config: { permission: VIEW_PERMISSION },
      schema: {
        tags: [stockCounts.name],
        summary: "A page of a stock count's lines, by item name",
        description:
          'What the count covers, a page at a time (a count of every item may hold a hundred thousand): filtered by what was counted, ' +
          "and searched by the item's name, SKU or barcode. A count at a place the user does not view is not found (404). " +
          'While a blind count is open its lines come without expected, on_hand, moved, difference and difference_value, ' +
          'whoever asks, and show=differences is refused (422): they show once its counting is finished.',
        params: idParams,
        querystring: linesQuery,
        response: { 200: pageOf(countLine).describe('A page of lines'), ...refusals(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const { show, search, page, per_page: perPage } = request.query;
      return countLinesPage(app.db, scopeOf(request), Number(request.params.id), { show, search, page, perPage });
    },
  );

  routes.post(
    '/api/stock-counts/:id/entries',
    {
      config: { permission: COUNT_PERMISSION },
      schema: {
        tags: [stockCounts.name],
        summary: 'Add what was counted of an item to an open stock count',
        description:
          'Entries add up: two devices counting the same item both count. A negative quantity takes back a miscount. ' +
          'An item not on the count yet is put on it, expecting what is on hand now — unless it is outside the count’s scope ' +
          '(another brand, classification or type than the one counted), which is refused (422). ' +
          'Only someone who operates at the count’s place counts (403 where they only view). ' +
          'Send an Idempotency-Key to send it again safely.',
        params: idParams,
        body: entryBody,
        readsHeaders: ['Idempotency-Key'],
        response: { 201: dataOf(countLine).describe('The item’s line, with the entry added'), ...refusals(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      return runWrite(request, reply, async (trx) => ({
        status: 201,
        body: { data: await addEntry(trx, scope, Number(request.params.id), request.body) },
      }));
    },
  );

  routes.patch(
    '/api/stock-counts/:id/uncount',
    {
      config: { permission: COUNT_PERMISSION },
      schema: {
        tags: [stockCounts.name],
        summary: "Take an item's line of an open stock count back to not counted",
        description:
          'Its entries are taken off (a stray scan, an item counted on the wrong count), so posting leaves its stock as it is. ' +
          'A line not counted is answered as it is. Refused (409) once the count is posted or cancelled, ' +
          'and (403) to someone who only views the count’s place.',
        params: idParams,
        body: z.object({ item_id: recordId('Item') }),
        readsHeaders: ['Idempotency-Key', 'X-Made-At'],
        response: { 200: dataOf(countLine).describe('The item’s line, not counted'), ...refusals(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      return runWrite(request, reply, async (trx) => ({
        status: 200,
        body: { data: await uncountLine(trx, scope, Number(request.params.id), request.body.item_id) },
      }));
    },
  );
}
