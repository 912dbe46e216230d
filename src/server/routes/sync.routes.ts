import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { holdsAny, permissionName } from '../../domain/permissions';
import { getResource } from '../../domain/resources/registry';
import { WORKING_SET } from '../../domain/working-set';
import type { Scope } from '../db/scope';
import { notFound } from '../errors';
import { scopeOf } from '../plugins/auth';
import { workingSetCount, workingSetRecords } from '../resources/record-service';
import { changesAfter, formatCursor, parseCursor, startingCursor } from '../sync/change-log';
import type { ApiRecord } from '../resources/codec';
import { refusals } from './responses';

/**
 * A device's working set (`domain/working-set.ts`) and the deltas that keep it current:
 *   GET /api/sync                          what to download: the resources and how many of each, and the cursor to follow after
 *   GET /api/sync/records/{resource}       a page of one resource's working set, in id order after `after`
 *   GET /api/sync/changes?cursor=          what changed since the cursor: records to keep and ids to drop
 * Each reads through the record engine, so a user receives exactly what their lists show them:
 * the resources they may view, at the places they view.
 */

/** Log rows read per delta: a page of changes, a few hundred kilobytes of records at most. */
const CHANGES_PER_PAGE = 1000;
/** Records per page of a first download. */
export const RECORDS_PER_PAGE = 1000;

/** The working-set resources the scope may view. */
export function resourcesOf(scope: Scope): string[] {
  return WORKING_SET.filter((name) => holdsAny(scope.permissions, [permissionName('view', getResource(name).permission)]));
}

const record = z.looseObject({ id: z.number() });

export async function syncRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/sync',
    {
      config: { access: 'business' },
      schema: {
        tags: ['sync'],
        summary: "What this user's device keeps of the business, and the cursor to follow after downloading it",
        response: {
          200: z.looseObject({
            data: z.looseObject({
              cursor: z
                .string()
                .describe('Ask /api/sync/changes with it once the pages are downloaded: what changed meanwhile comes there'),
              resources: z.array(z.looseObject({ name: z.string(), total: z.number() })),
            }),
          }),
          ...refusals(401, 403),
        },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      // The cursor first: whatever commits after it is in the deltas, whatever before in the pages.
      const cursor = formatCursor(await startingCursor(app.db));
      const resources = [];
      for (const name of resourcesOf(scope)) resources.push({ name, total: await workingSetCount(app.db, scope, getResource(name)) });
      return { data: { cursor, resources } };
    },
  );

  routes.get(
    '/api/sync/records/:resource',
    {
      config: { access: 'business' },
      schema: {
        tags: ['sync'],
        summary: "A page of one resource of the user's working set, in id order",
        params: z.object({ resource: z.string() }),
        querystring: z.object({
          after: z.coerce.number().int().min(0).max(2_147_483_647).default(0).describe('The last id of the page before'),
          limit: z.coerce.number().int().min(1).max(RECORDS_PER_PAGE).default(RECORDS_PER_PAGE),
        }),
        response: {
          200: z.looseObject({
            data: z.array(record),
            next: z.number().nullable().describe('Ask again with after= this; null when this was the last page'),
          }),
          ...refusals(401, 403, 404, 422),
        },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const { resource } = request.params;
      if (!resourcesOf(scope).includes(resource)) throw notFound('working set');
      const { after, limit } = request.query;
      const data = await workingSetRecords(app.db, scope, getResource(resource), { after, limit });
      return { data, next: data.length < limit ? null : Number(data[data.length - 1].id) };
    },
  );

  routes.get(
    '/api/sync/changes',
    {
      config: { access: 'business' },
      schema: {
        tags: ['sync'],
        summary: "What changed in the user's working set since a cursor",
        querystring: z.object({ cursor: z.string().max(100) }),
        response: {
          200: z.looseObject({
            data: z.looseObject({
              reset: z.boolean().describe('The cursor can no longer be followed: download the working set again'),
              cursor: z.string().nullable(),
              more: z.boolean().describe('More changes wait: ask again at once with the new cursor'),
              changed: z.record(z.string(), z.array(record)).describe('By resource: records to keep, as they are now'),
              removed: z.record(z.string(), z.array(z.number())).describe('By resource: ids that left the working set'),
            }),
          }),
          ...refusals(401, 403, 422),
        },
      },
    },
    async (request) => {
      const scope = scopeOf(request);
      const logged = await changesAfter(app.db, scope.businessId, parseCursor(request.query.cursor), CHANGES_PER_PAGE);
      if (!logged) return { data: { reset: true, cursor: null, more: false, changed: {}, removed: {} } };
      const viewed = new Set(resourcesOf(scope));
      const changed: Record<string, ApiRecord[]> = {};
      const removed: Record<string, number[]> = {};
      for (const [resource, ids] of logged.changed) {
        if (!viewed.has(resource)) continue;
        const records = await workingSetRecords(app.db, scope, getResource(resource), { ids: [...ids] });
        const kept = new Set(records.map((found) => Number(found.id)));
        if (records.length > 0) changed[resource] = records;
        const gone = [...ids].filter((id) => !kept.has(id));
        if (gone.length > 0) removed[resource] = gone;
      }
      return { data: { reset: false, cursor: formatCursor(logged.cursor), more: logged.more, changed, removed } };
    },
  );
}
