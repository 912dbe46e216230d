import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ActivityEntry } from '../../domain/activity';
import { listMeta } from '../../domain/list-params';
import { permissionName, VIEW_ACTIVITY_PERMISSION } from '../../domain/permissions';
import { registry } from '../../domain/resources/registry';
import { historyBusinessId, listActivity } from '../activity/activity-log';
import { scopeOf } from '../plugins/auth';
import { entriesViewed } from '../resources/activity-places';
import { findRecordOrFail } from '../resources/record-service';
import { pageOf, refusals, PATH_ID } from './responses';

/**
 * The activity log, read two ways, newest first, as `{ data, meta }` like any list:
 *   GET /api/{name}/{id}/activity?page&per_page        one record's history     view-{prefix}
 *   GET /api/activity?resource&record_id&user_id&action&from&to&page&per_page   view-activity
 * The first needs the record (trashed or not) to be one the user reads: this business's, and at a
 * place they view (404 otherwise); a force-deleted record's history is found through the second.
 * The second shows a user confined to some places only the entries of records they view, and
 * those of a force-deleted record of a place only to someone who views every place
 * (`resources/activity-places.ts`). `from` and `to` are days in Manila, both included.
 */

const idParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, 'The id must be a whole number.')
    .meta(PATH_ID),
});
const MANILA_OFFSET = '+08:00';
const DAY_MS = 24 * 60 * 60 * 1000;

const wholeNumber = (label: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, `The ${label} field must be an integer.`)
    .transform(Number)
    .pipe(z.number().min(1, `The ${label} field must be at least 1.`).max(max, `The ${label} field must not be greater than ${max}.`));

const paging = {
  page: wholeNumber('page', 1_000_000).default(1),
  per_page: wholeNumber('per page', 100).default(15),
};

const manilaDay = (label: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `The ${label} field must be a date (YYYY-MM-DD).`)
    .refine(
      (day) => !Number.isNaN(Date.parse(day)) && new Date(day).toISOString().startsWith(day),
      `The ${label} field must be a real date.`,
    );

/** The first instant of a Manila day, as stored timestamps are written (ISO, UTC). */
function startOfManilaDay(day: string): string {
  return new Date(`${day}T00:00:00.000${MANILA_OFFSET}`).toISOString();
}

const entry: z.ZodType<ActivityEntry> = z.looseObject({
  id: z.number().int(),
  resource: z.string(),
  record_id: z.number().int(),
  action: z.string().describe('created, updated, deleted, restored, voided, file-attached …'),
  summary: z.string().nullable().describe('What the changes cannot say: a file name, the roles added and removed'),
  changes: z
    .record(z.string(), z.looseObject({ from: z.unknown(), to: z.unknown() }))
    .nullable()
    .describe('Each changed field, from and to, as the API speaks it; never a secret'),
  user_id: z.number().int(),
  user_name: z.string().nullable(),
  happened_at: z.string().describe("On the server's clock"),
  made_at: z.string().nullable().describe("On the device's clock, for a change sent from its outbox"),
  made_offline: z.boolean(),
});

const resourceNames = registry.map((definition) => definition.name) as [string, ...string[]];

const searchSchema = z
  .object({
    ...paging,
    resource: z.enum(resourceNames, { error: 'The selected resource is invalid.' }).optional(),
    record_id: wholeNumber('record id', 2_147_483_647).optional(),
    user_id: wholeNumber('user id', 2_147_483_647).optional(),
    action: z
      .string()
      .regex(/^[a-z-]{1,40}$/, 'The selected action is invalid.')
      .optional(),
    from: manilaDay('from').optional(),
    to: manilaDay('to').optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    path: ['to'],
    message: 'The to field must be a date after or equal to from.',
  });

export async function activityRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/activity',
    {
      config: { permission: VIEW_ACTIVITY_PERMISSION },
      schema: {
        tags: ['activity'],
        summary: "Search the business's activity log",
        querystring: searchSchema,
        response: { 200: pageOf(entry).describe('A page of entries, newest first'), ...refusals(401, 403, 422) },
      },
    },
    async (request) => {
      const { page, per_page: perPage, resource, record_id: recordId, user_id: userId, action, from, to } = request.query;
      const filters = {
        resource,
        recordId,
        userId,
        action,
        since: from ? startOfManilaDay(from) : undefined,
        until: to ? new Date(Date.parse(startOfManilaDay(to)) + DAY_MS).toISOString() : undefined,
      };
      const scope = scopeOf(request);
      const { entries, total } = await listActivity(app.db, scope, entriesViewed(app.db, scope, resource), filters, page, perPage);
      return { data: entries, meta: listMeta(total, page, perPage, entries.length) };
    },
  );

  for (const definition of registry) {
    routes.get(
      `/api/${definition.name}/:id/activity`,
      {
        config: { permission: permissionName('view', definition.permission) },
        schema: {
          tags: [definition.name],
          summary: `The history of a ${definition.singular.toLowerCase()}, newest first`,
          params: idParams,
          querystring: z.object(paging),
          response: { 200: pageOf(entry).describe('A page of entries, newest first'), ...refusals(401, 403, 404, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        const record = await findRecordOrFail(app.db, scope, definition, Number(request.params.id));
        const { page, per_page: perPage } = request.query;
        const kept = { ...scope, businessId: historyBusinessId(scope, definition.name, record.id) };
        const filters = { resource: definition.name, recordId: record.id };
        const { entries, total } = await listActivity(app.db, kept, entriesViewed(app.db, kept, definition.name), filters, page, perPage);
        return { data: entries, meta: listMeta(total, page, perPage, entries.length) };
      },
    );
  }
}
