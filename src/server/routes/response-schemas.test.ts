import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listParamsSchema, type ListParams } from '../../domain/list-params-schema';
import { registry } from '../../domain/resources/registry';
import { findRecordOrFail, listRecords } from '../resources/record-service';
import type { Scope } from '../db/scope';
import { databaseKinds, startDemo, type Session, type TestApp } from '../../../tests/support/test-app';

/**
 * Every route declares its answers (`schema.response`): the OpenAPI document describes each
 * operation's answers and the upload's multipart form, and an answer checked against its schema
 * as it is sent loses nothing of what the handler made.
 */

interface Operation {
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: JsonSchema }> }>;
}

interface JsonSchema {
  type?: string;
  format?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  additionalProperties?: unknown;
}

/** `/api/brands/:id` as OpenAPI spells it: `/api/brands/{id}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe.each(databaseKinds)('response schemas on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let paths: Record<string, Record<string, Operation>>;

  beforeAll(async () => {
    ({ test, admin } = await startDemo(kind));
    const docs = await test.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    paths = docs.json().paths;
  });
  afterAll(() => test.close());

  it('describes the answers of every route: its success, with a schema unless it has no body, and its refusals', () => {
    // Every route registered after the auth plugin, which is all of the app's own (the API docs'
    // routes come before it). Left out: the HEAD twin Fastify adds to each GET, which shares its
    // schema, and the built web app's files (served beside the API when there is a build), which
    // are no part of the API. Sign-out is the one API route outside /api.
    const isApi = (url: string) => url.startsWith('/api/') || url === '/logout';
    const routes = test.app.routeAccess.filter((route) => route.method !== 'HEAD' && isApi(route.url));
    expect(routes.length).toBeGreaterThan(200);
    const undescribed: string[] = [];
    for (const route of routes) {
      const name = `${route.method} ${route.url}`;
      const operation = paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      if (!operation) {
        undescribed.push(`${name}: not in the OpenAPI document`);
        continue;
      }
      const answers = Object.entries(operation.responses);
      const successes = answers.filter(([status]) => status.startsWith('2'));
      if (successes.length === 0) undescribed.push(`${name}: no success answer`);
      for (const [status, answer] of answers) {
        const schemas = Object.values(answer.content ?? {}).map((media) => media.schema);
        if (status === '204') {
          if (schemas.length > 0) undescribed.push(`${name}: 204 with a body`);
        } else if (schemas.length === 0 || schemas.some((schema) => schema === undefined)) {
          undescribed.push(`${name}: ${status} without a schema`);
        }
      }
      // Its refusals: a catch-all 4XX, or each status it can be refused with (the batch), all in the error shape.
      const refusals = answers.filter(([status]) => status.startsWith('4'));
      if (refusals.length === 0 || refusals.some(([, answer]) => !answer.content?.['application/json']?.schema?.properties?.message)) {
        undescribed.push(`${name}: no error shape for its refusals`);
      }
    }
    expect(undescribed).toEqual([]);
  });

  it("derives a resource's record from its fields, keeping it open to what the store adds", () => {
    const view = paths['/api/stock-transfers/{id}'].get.responses['200'].content!['application/json'].schema!;
    const record = view.properties!.data;
    expect(record.additionalProperties).toEqual({});
    expect(Object.keys(record.properties!)).toEqual(
      expect.arrayContaining(['id', 'number', 'status', 'date', 'lines', 'from_location', 'to_location', 'version', 'deleted_at']),
    );
    expect(record.properties!.lines.items!.properties!.item.properties).toHaveProperty('display');

    const list = paths['/api/purchase-orders'].get.responses['200'].content!['application/json'].schema!;
    expect(Object.keys(list.properties!)).toEqual(['data', 'meta', 'links']);
    expect(Object.keys(list.properties!.meta.properties!)).toEqual(
      expect.arrayContaining(['total', 'per_page', 'current_page', 'last_page']),
    );
    expect(Object.keys(list.properties!.links.properties!)).toEqual(expect.arrayContaining(['prev', 'next']));
    const order = list.properties!.data.items!;
    expect(order.properties!.contact.properties).toHaveProperty('display');
    expect(order.properties!.total).toMatchObject({ type: 'number' });

    const user = paths['/api/users/{id}'].get.responses['200'].content!['application/json'].schema!.properties!.data;
    expect(user.properties).toHaveProperty('role_names');
    expect(user.properties).not.toHaveProperty('password');
    expect(paths['/api/brands/{id}/force-delete'].delete.responses['204'].content).toBeUndefined();
    expect(paths['/api/brands/{id}'].patch.responses['412'].content!['application/json'].schema!.properties).toHaveProperty('message');
  });

  it('describes the upload as a multipart form with a binary file, and files and exports as what they are', () => {
    const upload = paths['/api/purchase-orders/{recordId}/files'].post;
    expect(Object.keys(upload.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(upload.requestBody!.content['multipart/form-data'].schema.properties!.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(upload.responses['201'].content!['application/json'].schema!.properties!.data.properties).toHaveProperty('mime_type');
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['413', '415']));

    const download = paths['/api/items/{recordId}/files/{fileId}'].get.responses['200'].content!;
    expect(download['application/pdf'].schema).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(paths['/api/brands/export.csv'].get.responses['200'].content!)).toEqual(['text/csv']);
    expect(Object.keys(paths['/api/businesses/export.zip'].get.responses['200'].content!)).toEqual(['application/zip']);
  });

  it('answers every record exactly as the engine reads it: lists and views lose nothing', async () => {
    const me = (await admin.send('GET', '/api/auth/user')).body;
    const scope: Scope = { businessId: me.business_id, userId: me.id, permissions: new Set(me.permission_names) };
    const db = test.app.db as never;
    let compared = 0;
    for (const definition of registry) {
      const params = listParamsSchema(definition).parse({ per_page: '100', with_trashed: '1' }) as ListParams;
      const { records } = await listRecords(db, scope, definition, params);
      const list = await admin.send('GET', `/api/${definition.name}?per_page=100&with_trashed=1`);
      expect(list.status, definition.name).toBe(200);
      expect(list.body.data, definition.name).toEqual(JSON.parse(JSON.stringify(records)));
      const [first] = records;
      if (!first) continue;
      const view = await admin.send('GET', `/api/${definition.name}/${first.id}`);
      expect(view.body.data, definition.name).toEqual(JSON.parse(JSON.stringify(await findRecordOrFail(db, scope, definition, first.id))));
      compared += 1;
    }
    expect(compared).toBeGreaterThan(registry.length / 2);
    expect(test.errorLines).toEqual([]);
  });
});
