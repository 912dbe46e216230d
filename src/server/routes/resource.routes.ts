import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { todayInManila } from '../../domain/documents';
import { attributeName } from '../../domain/fields';
import { listMeta } from '../../domain/list-params';
import { listParamsSchema, type ListParams } from '../../domain/list-params-schema';
import { permissionName } from '../../domain/permissions';
import type { ResourceDefinition } from '../../domain/resource';
import { createSchema, updateSchema } from '../../domain/resource-schemas';
import { registry } from '../../domain/resources/registry';
import { HttpError, notFound } from '../errors';
import { runWrite } from '../idempotency';
import { csvLines } from '../resources/csv-export';
import { scopeOf } from '../plugins/auth';
import { changeMark } from '../db/dialect';
import { keepList, keptList, listKey } from './kept-lists';
import { listLinks } from './list-links';
import { bytesAnswer, dataOf, listOf, noContent, recordSchema, refusals, PATH_ID } from './responses';
import {
  createRecord,
  findRecordOrFail,
  forceDeleteRecord,
  listRecords,
  restoreRecord,
  trashRecord,
  updateRecord,
} from '../resources/record-service';
import { storeFor } from '../resources/stores';

/**
 * Mounts, for every resource of the registry, the same REST contract:
 *   GET    /api/{name}                      list (see domain/list-params.ts)   view-{prefix}
 *   GET    /api/{name}/export.csv           the list as CSV, every page         view-{prefix}
 *   GET    /api/{name}/{id}                 one record, trashed or not          view-{prefix}
 *   POST   /api/{name}                      create → 201 with the record        create-{prefix}
 *   PATCH  /api/{name}/{id}                 update (If-Match: version → 412)    update-{prefix}
 *   DELETE /api/{name}/{id}                 move to trash → 200 with the record delete-{prefix}
 *   PATCH  /api/{name}/{id}/restore         out of the trash                    restore-{prefix}
 *   DELETE /api/{name}/{id}/force-delete    permanently, when nothing uses it   force-delete-{prefix}
 * Read-only resources get the two GETs; resources without edit get no PATCH. Each change but a
 * create takes If-Match (the version it is based on) and is refused with 412 for another one.
 */

const idParams = z.object({ id: z.string().meta(PATH_ID) });

/** The content type Fastify gives an answer it serialises: a kept list's text goes out as it did. */
const JSON_ANSWER = 'application/json; charset=utf-8';

function recordId(raw: string): number {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) === 0) throw notFound('record');
  return Number(raw);
}

/** `If-Match: 3`, `"3"` or `W/"3"`. */
function expectedVersion(request: FastifyRequest): number | undefined {
  const header = request.headers['if-match'];
  if (header === undefined) return undefined;
  const match = /^(?:W\/)?"?(\d+)"?$/.exec(String(header).trim());
  if (!match) throw new HttpError(412, 'The If-Match header must hold the version the change is based on.');
  return Number(match[1]);
}

/**
 * A document made at one place names a branch or a warehouse, exactly one: the server refuses
 * both or neither (document-store.ts, `locationErrors`), and the document says so.
 */
function atOnePlace<T extends z.ZodObject>(definition: ResourceDefinition, body: T): T {
  const spec = definition.document;
  if (!spec || spec.twoLocations || !('branch_id' in body.shape) || !('warehouse_id' in body.shape)) return body;
  const named = (field: string) => ({ type: 'object', required: [field], properties: { [field]: { type: 'integer' } } });
  return body.meta({
    oneOf: [named('branch_id'), named('warehouse_id')],
    description: 'Made at a branch or at a warehouse: exactly one of branch_id and warehouse_id names it, the other is left out or null',
  });
}

function mountResource(app: FastifyInstance, definition: ResourceDefinition): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const base = `/api/${definition.name}`;
  const can = (action: Parameters<typeof permissionName>[0]) => permissionName(action, definition.permission);
  const tags = [definition.name];
  const noun = attributeName(definition.singular);
  const record = recordSchema(definition);
  const one = (description: string) => dataOf(record).describe(description);

  routes.get(
    base,
    {
      config: { permission: can('view') },
      schema: {
        tags,
        summary: `List ${definition.plural.toLowerCase()}`,
        querystring: listParamsSchema(definition),
        response: { 200: listOf(record).describe(`A page of ${definition.plural.toLowerCase()}`), ...refusals(401, 403, 422) },
      },
    },
    async (request, reply) => {
      const { db } = request.server;
      const scope = scopeOf(request);
      const params = request.query as ListParams;
      // The answer as it went out, while the database has not changed (kept-lists.ts).
      const mark = await changeMark(db);
      const key = listKey(definition.name, scope, request.url);
      const kept = mark === undefined ? undefined : keptList(db, mark, key);
      // Sent as text, written already (the route's type names the object it was written from).
      if (kept !== undefined) return reply.type(JSON_ANSWER).send(kept as never);
      const { records, total, exact } = await listRecords(db, scope, definition, params, mark);
      const perPage = params.limit ?? params.per_page;
      const meta = listMeta(total, params.limit ? 1 : params.page, perPage, records.length, exact);
      // Written as the route writes any answer (its schema's serializer, answers.ts: text), so a kept one is the same text.
      const answer = reply.serialize({ data: records, meta, links: listLinks(request, meta) }) as string;
      if (mark !== undefined && (await changeMark(db)) === mark) keepList(db, mark, key, answer);
      return reply.type(JSON_ANSWER).send(answer as never);
    },
  );

  routes.get(
    `${base}/export.csv`,
    {
      config: { permission: can('view') },
      schema: {
        tags,
        summary: `Export ${definition.plural.toLowerCase()} as CSV`,
        querystring: listParamsSchema(definition),
        response: {
          200: bytesAnswer(Readable, 'Every page of the list as CSV (UTF-8), references by name and money as plain decimals', ['text/csv']),
          ...refusals(401, 403, 422),
        },
      },
    },
    async (request, reply) => {
      const lines = csvLines(request.server.db, scopeOf(request), definition, request.query as ListParams);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${definition.name}-${todayInManila()}.csv"`)
        .header('cache-control', 'private, no-store')
        .send(Readable.from(lines));
    },
  );

  routes.get(
    `${base}/:id`,
    {
      config: { permission: can('view') },
      schema: {
        tags,
        summary: `View a ${noun}`,
        params: idParams,
        sendsHeaders: ['ETag'],
        response: { 200: one(`The ${noun}, trashed or not`), ...refusals(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const record = await findRecordOrFail(request.server.db, scope, definition, recordId(request.params.id));
      return reply.header('etag', `"${record.version}"`).send({ data: record });
    },
  );

  if (definition.readOnly) return;

  const extraCreateFields = storeFor(definition).createFields;
  const createBody = atOnePlace(
    definition,
    extraCreateFields ? createSchema(definition).extend(extraCreateFields) : createSchema(definition),
  );
  routes.post(
    base,
    {
      config: { permission: can('create') },
      schema: {
        tags,
        summary: `Create a ${noun}`,
        body: createBody,
        readsHeaders: ['Idempotency-Key', 'X-Made-At'],
        response: { 201: one(`The new ${noun}`), ...refusals(401, 403, 409, 422) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      return runWrite(request, reply, async (trx) => ({
        status: 201,
        body: { data: await createRecord(trx, scope, definition, request.body as Record<string, unknown>) },
      }));
    },
  );

  const extraUpdateFields = storeFor(definition).updateFields;
  const updateBody = extraUpdateFields ? updateSchema(definition).extend(extraUpdateFields) : updateSchema(definition);
  if (definition.editable) {
    routes.patch(
      `${base}/:id`,
      {
        config: { permission: can('update') },
        schema: {
          tags,
          summary: `Update a ${noun}`,
          params: idParams,
          body: updateBody,
          readsHeaders: ['If-Match', 'Idempotency-Key', 'X-Made-At'],
          response: { 200: one(`The ${noun} as updated`), ...refusals(401, 403, 404, 409, 412, 422) },
        },
      },
      async (request, reply) => {
        const scope = scopeOf(request);
        const id = recordId(request.params.id);
        const version = expectedVersion(request);
        return runWrite(request, reply, async (trx) => ({
          status: 200,
          body: { data: await updateRecord(trx, scope, definition, id, request.body as Record<string, unknown>, version) },
        }));
      },
    );
  }

  routes.delete(
    `${base}/:id`,
    {
      config: { permission: can('delete') },
      schema: {
        tags,
        summary: `Move a ${noun} to the trash`,
        params: idParams,
        readsHeaders: ['If-Match', 'Idempotency-Key', 'X-Made-At'],
        response: { 200: one(`The ${noun}, in the trash`), ...refusals(401, 403, 404, 409, 412, 422) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const id = recordId(request.params.id);
      const version = expectedVersion(request);
      return runWrite(request, reply, async (trx) => ({
        status: 200,
        body: { data: await trashRecord(trx, scope, definition, id, version) },
      }));
    },
  );

  routes.patch(
    `${base}/:id/restore`,
    {
      config: { permission: can('restore') },
      schema: {
        tags,
        summary: `Restore a ${noun} from the trash`,
        params: idParams,
        readsHeaders: ['If-Match', 'Idempotency-Key', 'X-Made-At'],
        response: { 200: one(`The ${noun}, out of the trash`), ...refusals(401, 403, 404, 409, 412, 422) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const id = recordId(request.params.id);
      const version = expectedVersion(request);
      return runWrite(request, reply, async (trx) => ({
        status: 200,
        body: { data: await restoreRecord(trx, scope, definition, id, version) },
      }));
    },
  );

  routes.delete(
    `${base}/:id/force-delete`,
    {
      config: { permission: can('force-delete') },
      schema: {
        tags,
        summary: `Delete a ${noun} permanently`,
        params: idParams,
        readsHeaders: ['If-Match', 'Idempotency-Key', 'X-Made-At'],
        response: { 204: noContent(`The ${noun} is gone`), ...refusals(401, 403, 404, 409, 412, 422) },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      const id = recordId(request.params.id);
      const version = expectedVersion(request);
      return runWrite(request, reply, async (trx) => {
        await forceDeleteRecord(trx, scope, definition, id, version);
        return { status: 204 };
      });
    },
  );
}

export async function resourceRoutes(app: FastifyInstance): Promise<void> {
  for (const definition of registry) mountResource(app, definition);
}
