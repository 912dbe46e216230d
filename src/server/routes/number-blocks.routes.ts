import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_ID } from '../../domain/fields';
import { PLACE_RESOURCES } from '../../domain/places';
import { holdsAny, permissionName } from '../../domain/permissions';
import { findResource, registry } from '../../domain/resources/registry';
import type { ResourceDefinition } from '../../domain/resource';
import { blockAnswer, BLOCK_SIZE, openBlocks, reserveBlock, returnBlock } from '../documents/number-blocks';
import { forbidden, validationError } from '../errors';
import { runWrite } from '../idempotency';
import { scopeOf } from '../plugins/auth';
import { assertOperates } from '../resources/places';
import { dataOf, refusals } from './responses';

const block = z.looseObject({
  id: z.number().int(),
  resource: z.string().describe('The document kind whose series it is of: invoices, bills …'),
  location: z.looseObject({ type: z.enum(['branch', 'warehouse']), id: z.number().int() }),
  first: z.number().int().describe('The first sequence of the block'),
  last: z.number().int().describe('The last sequence of the block'),
  numbers: z
    .looseObject({ first: z.string(), last: z.string() })
    .describe('The first and last numbers as printed, dated the day it was reserved'),
  reserved_at: z.string(),
  expires_on: z.string().describe('The last date a document may carry to take one of its numbers'),
  returned_from: z.number().int().nullable().describe('Where the numbers handed back unused begin; null while the device holds them all'),
});

const reserveBody = z.strictObject({
  resource: z
    .string()
    .describe('The document kind: invoices, quotations, bills …')
    // What `documentKind` takes: a kind of document made at one branch or warehouse.
    .meta({ enum: registry.filter((definition) => definition.document && !definition.document.twoLocations).map(({ name }) => name) }),
  place: z.strictObject({ type: z.enum(['branch', 'warehouse']), id: z.number().int().positive().max(MAX_ID) }),
  size: z
    .number()
    .int()
    .min(1)
    .max(BLOCK_SIZE.most)
    .optional()
    .describe(`How many numbers; a day's work of the caller in that series when left out (${BLOCK_SIZE.least} to ${BLOCK_SIZE.most})`),
});

const idParams = z.strictObject({ id: z.coerce.number().int().positive() });

/** A document kind numbered at one place, which the caller may make. */
function documentKind(name: string, permissions: ReadonlySet<string>): ResourceDefinition {
  const definition = findResource(name);
  if (!definition?.document || definition.document.twoLocations)
    throw validationError({ resource: ['Must be a kind of document made at one branch or warehouse.'] });
  if (!holdsAny(permissions, [permissionName('create', definition.permission)]))
    throw forbidden(`You may not make ${definition.plural.toLowerCase()}, so you hold no numbers of theirs.`);
  return definition;
}

/**
 * Number blocks (documents/number-blocks.ts): a device reserves a block of a series it makes
 * documents in while online, numbers what it makes offline from it, and hands back what it did not
 * use. A block is its holder's alone; making the kind at the place is what entitles one.
 */
export async function numberBlocksRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/number-blocks',
    {
      schema: {
        tags: ['number-blocks'],
        summary: 'Your number blocks still serving: not handed back, not expired',
        response: { 200: dataOf(z.array(block)), ...refusals(401, 403) },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const rows = await openBlocks(app.db, scope);
      return { data: rows.flatMap((row) => (findResource(row.resource) ? [blockAnswer(row, findResource(row.resource)!)] : [])) };
    },
  );

  routes.post(
    '/api/number-blocks',
    {
      schema: {
        tags: ['number-blocks'],
        summary: 'Reserve a block of numbers of a series (a document kind at a place) for this device to number offline',
        body: reserveBody,
        readsHeaders: ['Idempotency-Key'],
        response: { 201: dataOf(block), ...refusals(401, 403, 422) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const { resource, place, size } = request.body;
      const definition = documentKind(resource, scope.permissions);
      const exists = await app.db
        .selectFrom(PLACE_RESOURCES[place.type])
        .select('id')
        .where('id', '=', place.id)
        .where('business_id', '=', scope.businessId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!exists) throw validationError({ 'place.id': [`No such ${place.type} in this business.`] });
      await assertOperates(app.db, scope, definition, { [place.type === 'branch' ? 'branch_id' : 'warehouse_id']: place.id });
      return runWrite(request, reply, async (trx) => ({
        status: 201,
        body: { data: await reserveBlock(trx, scope, definition, place, size) },
      }));
    },
  );

  routes.post(
    '/api/number-blocks/:id/return',
    {
      schema: {
        tags: ['number-blocks'],
        summary: 'Hand back the numbers of your block this device did not use, from `first_unused` on',
        params: idParams,
        readsHeaders: ['Idempotency-Key'],
        body: z.strictObject({
          first_unused: z.number().int().describe("The first sequence not used (the block's last + 1: every number was used)"),
        }),
        response: { 200: dataOf(block), ...refusals(401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      return runWrite(request, reply, async (trx) => {
        const row = await returnBlock(trx, scope, request.params.id, request.body.first_unused);
        return { status: 200, body: { data: blockAnswer(row, findResource(row.resource)!) } };
      });
    },
  );
}
