import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordId } from '../../domain/field-values';
import { holdsAny, permissionName } from '../../domain/permissions';
import { stockAdjustments } from '../../domain/resources/stock-adjustments';
import { stockCounts } from '../../domain/resources/stock-counts';
import { addEntry, postCount } from '../documents/counts';
import { forbidden } from '../errors';
import { runWrite } from '../idempotency';
import { scopeOf } from '../plugins/auth';
import { countLine, dataOf, recordSchema, refusals } from './responses';

/**
 * A stock count's own routes beyond its document routes: entries added by counters, and posting,
 * which writes the stock adjustment of its differences.
 */

const idParams = z.object({ id: z.string().regex(/^\d{1,9}$/, 'The id must be a whole number.') });
const COUNT_PERMISSION = permissionName('update', stockCounts.permission);
const ADJUST_PERMISSION = permissionName('create', stockAdjustments.permission);

const entryBody = z.object({
  item_id: recordId('Item'),
  unit_of_measurement_id: recordId('Unit').nullish().describe("Absent: the item's base unit"),
  quantity: z
    .number({ error: (issue) => (issue.input === undefined ? 'The quantity field is required.' : 'The quantity field must be a number.') })
    .min(-1_000_000_000, 'The quantity field must be at least -1000000000.')
    .max(1_000_000_000, 'The quantity field must not be greater than 1000000000.')
    .refine((value) => value !== 0, 'The quantity must not be 0.'),
});

export async function stockCountRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/stock-counts/:id/entries',
    {
      config: { permission: COUNT_PERMISSION },
      schema: {
        tags: [stockCounts.name],
        summary: 'Add what was counted of an item to an open stock count',
        description:
          'Entries add up: two devices counting the same item both count. A negative quantity takes back a miscount. ' +
          'An item not on the count yet is put on it, expecting what is on hand now. Send an Idempotency-Key to send it again safely.',
        params: idParams,
        body: entryBody,
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
    '/api/stock-counts/:id/post',
    {
      config: { permission: COUNT_PERMISSION },
      schema: {
        tags: [stockCounts.name],
        summary: 'Post an open stock count',
        description:
          'Writes one stock adjustment (reason: count correction) bringing each counted item to what was counted; uncounted items are left as they are. Once only: a second post is 409. Needs create-stock-adjustments too.',
        params: idParams,
        response: { 200: dataOf(recordSchema(stockCounts)).describe('The count, posted'), ...refusals(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      // Posting writes an adjustment: only for who may write one.
      if (!holdsAny(scope.permissions, [ADJUST_PERMISSION])) throw forbidden();
      return runWrite(request, reply, async (trx) => ({
        status: 200,
        body: { data: await postCount(trx, scope, Number(request.params.id)) },
      }));
    },
  );
}
