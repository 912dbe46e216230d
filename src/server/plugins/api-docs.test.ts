import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestApp, type TestApp } from '../../../tests/support/test-app';
import { operationId } from './api-docs';

/**
 * The OpenAPI document at /api/docs/json holds to what tools read it by: Redocly's recommended
 * rules find no error in it, and Ajv 8 compiles every schema in it, a nullable one taking null.
 */

type Schema = Record<string, unknown>;

interface Operation {
  parameters?: { name: string; in: string; schema: Schema }[];
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
});
