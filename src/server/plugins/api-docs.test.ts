import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, databaseKinds, startTestApp, type TestApp } from '../../../tests/support/test-app';
import { ROUNDED_TO_2, ROUNDED_TO_3 } from '../../domain/field-values';
import { operationId } from './api-docs';

/**
 * The OpenAPI document at /api/docs/json holds to what tools read it by: Redocly's recommended
 * rules find no error in it, and Ajv 8 compiles every schema in it, a nullable one taking null.
 */

type Schema = Record<string, unknown>;

interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }>; headers?: Record<string, { schema: Schema }> }>;
}

interface OpenApiDocument {
  components?: { schemas?: Record<string, Schema> };
  paths: Record<string, Record<string, Operation>>;
}

/** Every schema of the document, each with where it is. */
function schemasOf(document: OpenApiDocument): [string, Schema][] {
  const found: [string, Schema][] = Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => [
    `components.schemas.${name}`,
    schema,
  ]);
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) found.push([`${where} ${parameter.in} ${parameter.name}`, parameter.schema]);
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) found.push([`${where} body ${type}`, media.schema]);
      for (const [status, answer] of Object.entries(operation.responses)) {
        for (const [type, media] of Object.entries(answer.content ?? {})) found.push([`${where} ${status} ${type}`, media.schema]);
        for (const [name, header] of Object.entries(answer.headers ?? {})) found.push([`${where} ${status} header ${name}`, header.schema]);
      }
    }
  }
  return found;
}

/** A schema and every schema inside it. */
function* withinSchema(schema: Schema): Generator<Schema> {
  yield schema;
  const { properties, items, additionalProperties, anyOf, allOf, oneOf, not } = schema as Record<string, Schema | Schema[] | undefined>;
  for (const inner of [
    ...Object.values(properties ?? {}),
    items,
    additionalProperties,
    ...((anyOf ?? []) as Schema[]),
    ...((allOf ?? []) as Schema[]),
    ...((oneOf ?? []) as Schema[]),
    not,
  ]) {
    if (inner && typeof inner === 'object') yield* withinSchema(inner as Schema);
  }
}

/** Problems by rule, each as its message and where it is, the first ten of a rule: what a failure prints. */
function byRule(problems: NormalizedProblem[]): Record<string, string[]> {
  const grouped: Record<string, string[]> = {};
  for (const problem of problems) {
    (grouped[problem.ruleId] ??= []).push(`${problem.message} (${problem.location[0]?.pointer ?? 'the document'})`);
  }
  return Object.fromEntries(
    Object.entries(grouped).map(([rule, found]) => [
      rule,
      found.length > 10 ? [...found.slice(0, 10), `… and ${found.length - 10} more`] : found,
    ]),
  );
}

/**
 * Ajv 8 as strict as it goes, knowing the formats OpenAPI 3.0 schemas use: JSON Schema's
 * (ajv-formats) and OpenAPI's own `binary`. OpenAPI 3.0's `nullable` is one of Ajv's keywords.
 */
function strictAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  return ajv;
}

/**
 * The request headers the server's code reads by name (`request.headers['…']`), lower-cased, each
 * with the files that read it — the page server's own (client-page.ts, no API route) left out, and
 * what the batch passes on to its changes as they came (`cookie`, `host`), which no operation takes as a parameter.
 */
function headersReadByServer(): Map<string, string[]> {
  const root = join(__dirname, '..');
  const read = new Map<string, string[]>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && entry.name !== 'client-page.ts') {
        for (const [, name] of readFileSync(path, 'utf8').matchAll(/request\.headers(?:\[['"]([^'"]+)['"]\]|\.([A-Za-z_]+))/g)) {
          if (name) (read.get(name.toLowerCase()) ?? read.set(name.toLowerCase(), []).get(name.toLowerCase())!).push(path);
        }
      }
    }
  };
  walk(root);
  return read;
}

describe('operationId', () => {
  it('reads the method, then the path after /api, a parameter as By and its name', () => {
    expect(operationId('GET', '/api/items/:id')).toBe('getItemsById');
    expect(operationId('DELETE', '/api/items/:recordId/files/:fileId/force-delete')).toBe('deleteItemsByRecordIdFilesByFileIdForceDelete');
    expect(operationId('GET', '/api/brands/export.csv')).toBe('getBrandsExportCsv');
    expect(operationId('POST', '/logout')).toBe('postLogout');
  });
});

describe.each(databaseKinds)('the OpenAPI document on %s', (kind) => {
  let test: TestApp;
  let text: string;
  let document: OpenApiDocument;

  beforeAll(async () => {
    test = await startTestApp(kind, { demoData: false });
    const answer = await test.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(answer.statusCode).toBe(200);
    text = answer.body;
    document = answer.json();
  });
  afterAll(() => test.close());

  it("breaks none of Redocly's recommended rules", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: text, absoluteRef: '/api/docs/json', config });
    expect(byRule(problems.filter((problem) => problem.severity === 'error'))).toEqual({});
  });

  it('says what the server checks beyond the input zod shows (issue #34)', () => {
    const body = (method: string, path: string) => document.paths[path][method].requestBody?.content['application/json'].schema as Schema;
    const parameter = (method: string, path: string, name: string) =>
      document.paths[path][method].parameters?.find((one) => one.name === name)?.schema;
    const conversion = body('post', '/api/conversions') as { properties: Record<string, Schema>; required: string[] };
    // A pipe's later stages: a factor's bound, and that it is required.
    expect(conversion.required).toContain('factor');
    expect(conversion.properties.factor).toMatchObject({ type: 'number', minimum: 0.000001, maximum: 1_000_000_000 });
    const order = body('post', '/api/purchase-orders') as { properties: Record<string, Schema>; oneOf: Schema[] };
    expect(order.properties.date).toMatchObject({ type: 'string', format: 'date' });
    // Exactly one of the two places.
    expect(order.oneOf.map((branch) => branch.required)).toEqual([['branch_id'], ['warehouse_id']]);
    // What a document fixed once made is not in its update's body.
    const update = body('patch', '/api/purchase-orders/{id}') as { properties: Record<string, Schema> };
    expect(Object.keys(update.properties)).not.toContain('contact_id');
    // Ids, pages and page sizes as the whole numbers they name.
    expect(parameter('patch', '/api/items/{id}', 'id')).toMatchObject({ type: 'integer', minimum: 1, maximum: 999_999_999 });
    expect(parameter('get', '/api/items', 'page')).toMatchObject({ type: 'integer', minimum: 1 });
    expect(parameter('get', '/api/items', 'per_page')).toMatchObject({ type: 'integer', enum: [15, 25, 50, 75, 100] });
  });

  it("states a document line's and a tender's rules, as their checks apply them (issue #34)", () => {
    const body = (path: string) =>
      document.paths[path].post.requestBody?.content['application/json'].schema as { properties: Record<string, Schema> };
    const items = (path: string, list: string) => (body(path).properties[list] as { items: Schema }).items;
    const ajv = strictAjv();
    const valid = (schema: Schema, value: Record<string, unknown>) => ajv.compile(schema)(value);

    // An invoice's line: its item and unit required and not null; its numbers bounded, and how they are kept.
    const line = items('/api/invoices', 'lines') as { properties: Record<string, Schema>; required: string[] };
    expect(line.required).toEqual(expect.arrayContaining(['item_id', 'unit_of_measurement_id', 'quantity']));
    expect(line.properties.item_id.nullable).toBeUndefined();
    expect(line.properties.quantity).toMatchObject({ type: 'number', minimum: 0.001, maximum: 1_000_000_000 });
    expect(line.properties.quantity.description).toContain(ROUNDED_TO_3);
    expect(line.properties.unit_price.description).toContain(ROUNDED_TO_2);
    expect(line.properties.discount_percent).toMatchObject({ minimum: 0, maximum: 100 });
    expect(valid(line, { item_id: 1, unit_of_measurement_id: 1, quantity: 2 })).toBe(true);
    expect(valid(line, { item_id: null, unit_of_measurement_id: 1, quantity: 2 })).toBe(false);
    expect(valid(line, { item_id: 1, quantity: 2 })).toBe(false);
    // A receipt's line may take its item and unit from its purchase order's: said in words.
    const received = items('/api/receive-orders', 'lines') as { required: string[]; description: string };
    expect(received.required).not.toContain('item_id');
    expect(received.description).toContain('source_line_id');

    // An adjustment's line: the reason decides the sign where it can, and "other" needs a note.
    const adjustment = items('/api/stock-adjustments', 'lines');
    const adjusted = (reason: string, quantity: number, note?: string) =>
      valid(adjustment, { item_id: 1, unit_of_measurement_id: 1, reason, quantity, ...(note !== undefined && { note }) });
    expect([adjusted('damaged', -3), adjusted('damaged', 3), adjusted('found', 3), adjusted('found', -3)]).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect([adjusted('count_correction', -3), adjusted('count_correction', 3)]).toEqual([true, true]);
    expect([adjusted('other', 3), adjusted('other', 3, ' '), adjusted('other', -3, 'Spilt')]).toEqual([false, false, true]);
    // A return's line: "other" needs a note.
    const returned = items('/api/sales-returns', 'lines');
    const sent = { source_line_id: 1, quantity: 1, disposition: 'restock' };
    expect([valid(returned, { ...sent, reason: 'other' }), valid(returned, { ...sent, reason: 'other', note: 'Torn' })]).toEqual([
      false,
      true,
    ]);
    expect(valid(returned, { ...sent, reason: 'damaged' })).toBe(true);

    // A tender: an amount above 0, and what each method needs, and nothing it takes no value of.
    const tender = items('/api/invoice-payments', 'tenders') as { properties: Record<string, Schema> };
    expect(tender.properties.amount).toMatchObject({ type: 'number', minimum: 0.01 });
    expect(body('/api/invoice-payments').properties.amount).toMatchObject({ type: 'number', minimum: 0.01, nullable: true });
    const tendered = (value: Record<string, unknown>) => valid(tender, { amount: 100, ...value });
    expect([tendered({ method: 'cash' }), tendered({ method: 'cash', amount: 0 }), tendered({ method: 'cash', received: 500 })]).toEqual([
      true,
      false,
      true,
    ]);
    expect([tendered({ method: 'cash', reference: 'X1' }), tendered({ method: 'cash', reference: null })]).toEqual([false, true]);
    expect([tendered({ method: 'gcash' }), tendered({ method: 'gcash', reference: '123' })]).toEqual([false, true]);
    expect(tendered({ method: 'gcash', reference: '123', received: 500 })).toBe(false);
    const check = { method: 'check', bank: 'BDO', check_number: '001', check_date: '2025-01-31' };
    expect([tendered(check), tendered({ ...check, check_date: undefined }), tendered({ ...check, reference: '9' })]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('holds only schemas Ajv 8 compiles, each nullable one taking null', () => {
    const ajv = strictAjv();
    // Many schemas are written alike (every refusal's, every record's in its four answers): each is compiled once.
    const distinct = new Map<string, string>();
    for (const [where, schema] of schemasOf(document)) {
      for (const inner of withinSchema(schema)) {
        if (inner === schema || inner.nullable === true) {
          const key = JSON.stringify(inner);
          if (!distinct.has(key)) distinct.set(key, where);
        }
      }
    }
    const failures: string[] = [];
    for (const [key, where] of distinct) {
      const schema = JSON.parse(key) as Schema;
      try {
        const validate = ajv.compile(schema);
        if (schema.nullable === true && !validate(null)) failures.push(`${where}: refuses null in ${key}`);
      } catch (error) {
        failures.push(`${where}: ${(error as Error).message}`);
      }
    }
    expect(distinct.size).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  });
  it('declares the headers the server reads and sends (issue #34)', async () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ where: `${method.toUpperCase()} ${path}`, operation })),
    );
    const headerParameters = (operation: Operation) =>
      (operation.parameters ?? []).filter((one) => one.in === 'header').map((one) => one.name.toLowerCase());
    // Every header the server's code reads is a parameter of some operation.
    const declared = new Set(operations.flatMap(({ operation }) => headerParameters(operation)));
    const read = headersReadByServer();
    expect([...read.keys()].sort()).toEqual(
      expect.arrayContaining(['business-id', 'idempotency-key', 'if-match', 'x-made-at', 'x-made-offline', 'x-requested-with']),
    );
    expect(Object.fromEntries([...read].filter(([name]) => !declared.has(name) && name !== 'cookie' && name !== 'host'))).toEqual({});
    // Who reads Idempotency-Key may answer a repeat from its key: each of its 2xx answers declares Idempotent-Replayed.
    const undeclared: string[] = [];
    for (const { where, operation } of operations) {
      const headers = headerParameters(operation);
      if (headers.includes('x-made-at') !== headers.includes('x-made-offline'))
        undeclared.push(`${where}: X-Made-At without X-Made-Offline`);
      if (!headers.includes('idempotency-key')) continue;
      for (const [status, answer] of Object.entries(operation.responses)) {
        if (status.startsWith('2') && !answer.headers?.['Idempotent-Replayed']) undeclared.push(`${where} ${status}: Idempotent-Replayed`);
      }
    }
    expect(undeclared).toEqual([]);
    // The history's headers, on the writes it records: a record's create, not a number block's.
    expect(headerParameters(document.paths['/api/brands'].post)).toEqual(expect.arrayContaining(['x-made-at', 'x-made-offline']));
    expect(headerParameters(document.paths['/api/number-blocks/{id}/return'].post)).not.toContain('x-made-at');
    expect(headerParameters(document.paths['/api/batch'].post)).not.toContain('idempotency-key');

    // A replayed answer carries the header its operation declares.
    const admin = await test.signIn(ADMIN_EMAIL);
    const create = () => admin.send('POST', '/api/brands', { name: `Replayed ${kind}` }, { 'idempotency-key': `replayed-${kind}` });
    const first = await create();
    const again = await create();
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.headers['idempotent-replayed']).toBe('true');
    const replayed = document.paths['/api/brands'].post.responses['201'].headers?.['Idempotent-Replayed']?.schema as Schema;
    expect(replayed).toMatchObject({ type: 'string', enum: ['true'] });
    expect(strictAjv().compile(replayed)(again.headers['idempotent-replayed'])).toBe(true);
  });

  it('describes each change of a batch as the batch checks it, and its own refusals (issue #34)', () => {
    const operation = document.paths['/api/batch'].post;
    const body = operation.requestBody?.content['application/json'].schema as {
      properties: { changes: { minItems: number; maxItems: number; items: { properties: Record<string, Schema>; required: string[] } } };
    };
    const { changes } = body.properties;
    expect([changes.minItems, changes.maxItems]).toEqual([1, 100]);
    expect(changes.items.required).toEqual(['method', 'path', 'business_id', 'idempotency_key']);
    expect(changes.items.properties.method).toMatchObject({ type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'] });
    expect(changes.items.properties.business_id).toMatchObject({ type: 'integer', minimum: 1, nullable: true });
    expect(Object.keys(changes.items.properties)).toEqual([
      'method',
      'path',
      'business_id',
      'idempotency_key',
      'if_match',
      'made_at',
      'made_offline',
      'body',
    ]);
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '401', '403', '413', '415', '422']);
  });
});
