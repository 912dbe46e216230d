import { z } from 'zod';
import { MAX_FILE_BYTES } from '../../domain/attachments';
import { sellsGoods } from '../../domain/costing';
import type { Field } from '../../domain/fields';
import type { ListMeta } from '../../domain/list-params';
import { readableFields, referenceKey, type ResourceDefinition } from '../../domain/resource';
import { getResource } from '../../domain/resources/registry';
import { placeAnswer } from '../resources/answer-shapes';
import type { ApiRecord } from '../resources/codec';
import { composedStore } from '../resources/stores';

/**
 * The answers of the API, as every route declares them in `schema.response`: the OpenAPI
 * document (/api/docs) describes them, and each answer is checked against its schema as it is
 * serialised — one that does not match is a server error, never a silently different answer.
 *
 * Objects stay open (`z.looseObject`): what a schema does not name is sent as it is. A record
 * carries more than its fields (a document's lines, reference displays, role names …), and an
 * answer must never lose a property because nobody named it here.
 */

/** The one error shape every refusal has (see plugins/errors.ts): a message, and messages per field. */
const errorBody = z.looseObject({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional().describe('Messages per field (422, and some 413 and 415)'),
});

const REFUSALS = {
  400: 'The body could not be read (a malformed form)',
  401: 'Not signed in, or the session has ended',
  403: 'Not allowed: a permission, a Business-ID naming a business of the user, or X-Requested-With on a change is missing',
  404: 'No such record in the active business',
  409: "The change conflicts with the record's state or with another record",
  412: 'If-Match is malformed, or names another version than the record has',
  413: `The file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`,
  415: 'Not a file that can be attached: images and PDF only, judged by their content',
  422: 'Invalid input, with messages per field: a rule of the body, or one on other records that no schema states — a record named that does not exist in the business or is not of the kind the field takes, a value another record already holds, more than another record leaves',
  429: 'Too many attempts from this address; wait a minute',
} as const;

type Refusal = keyof typeof REFUSALS;

/**
 * The error answers of a route: those it gives by design, each described, and `4xx` for any
 * other refusal (a malformed JSON body, too large a request …), in the same shape.
 */
export function refusals<C extends Refusal>(...codes: C[]): Record<C | '4xx', typeof errorBody> {
  const answers = Object.fromEntries(codes.map((code) => [code, errorBody.describe(REFUSALS[code])]));
  return { ...answers, '4xx': errorBody.describe('Any other refusal, in the same shape') } as Record<C | '4xx', typeof errorBody>;
}

/**
 * What the document says of a record's id in a path: the whole number it names. Each route reads
 * it from up to 9 digits (a query string or a path is text: `7` and `007` both name record 7).
 */
export const PATH_ID = {
  type: 'integer',
  minimum: 1,
  maximum: 999_999_999,
  description: "The record's id",
  pattern: undefined,
} as const;

/** An answer without a body (204). */
export const noContent = (description: string) => z.undefined().describe(description);

/**
 * An answer sent as bytes rather than JSON — a stream or a buffer, which is never serialised:
 * typed as what the handler sends, and described as a string in the given media types.
 */
export function bytesAnswer<T extends new (...args: never[]) => object>(
  sent: T,
  description: string,
  mediaTypes: readonly string[],
  format?: 'binary',
) {
  const schema = z.instanceof(sent).meta({ type: 'string', ...(format && { format }) });
  return { description, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema }])) };
}

/** `{ data }`: one record (or anything else) wrapped as every single answer is. */
export const dataOf = <T extends z.ZodType>(schema: T) => z.looseObject({ data: schema });

const count = z.number().int();

/** A list's `meta` (see domain/list-params.ts). */
const pageMeta: z.ZodType<ListMeta> = z.looseObject({
  total: count.describe('Every record the list selects; when total_exact is false, how many were counted before counting stopped'),
  total_exact: z.boolean().describe('False when a search matched more records than it counts: more than total match'),
  per_page: count,
  current_page: count,
  last_page: count,
  from: count.nullable().describe('The position of the first row on this page; null when it has none'),
  to: count.nullable(),
});

/** A list's `links`: the same request at the first, last, previous and next page. */
const pageLinks = z.looseObject({ first: z.string(), last: z.string(), prev: z.string().nullable(), next: z.string().nullable() });

/** A page of rows with its `meta`: what the history and a stock's movements answer. */
export const pageOf = <T extends z.ZodType>(row: T) => z.looseObject({ data: z.array(row), meta: pageMeta });

/** A list as every `GET /api/{name}` answers it: a page of rows, its `meta` and its `links`. */
export const listOf = <T extends z.ZodType>(row: T) => z.looseObject({ data: z.array(row), meta: pageMeta, links: pageLinks });

/** A field's value as a read answers it (see resources/codec.ts): pesos, quantities and ids as numbers. */
function fieldValue(field: Field): z.ZodType {
  switch (field.kind) {
    case 'integer':
    case 'reference':
      return z.number().int().describe(field.label);
    case 'money':
      return z.number().describe(`${field.label}, in pesos`);
    case 'quantity':
    case 'factor':
      return z.number().describe(field.label);
    case 'boolean':
      return z.boolean().describe(field.label);
    case 'discounts':
      return z.array(z.looseObject({ quantity: z.number(), discount_percent: z.number() })).describe(field.label);
    case 'select':
      return z.string().describe(`${field.label}: ${(field.options ?? []).map((option) => option.value).join(', ')}`);
    default:
      return z.string().describe(field.label);
  }
}

/** How a read names another record: `{ id, display }`, the display being the other's display field. */
function referenceTo(resource: string): z.ZodType {
  const target = getResource(resource);
  const display = target.display === 'id' ? z.number().int() : fieldValue(target.fields[target.display]);
  return z.looseObject({ id: z.number().int(), display: display.nullable() }).nullable();
}

const documentLine = z.looseObject({
  id: z.number().int(),
  item_id: z.number().int(),
  item: z.looseObject({ id: z.number().int(), display: z.string(), sku: z.string() }).nullable(),
  unit_of_measurement_id: z.number().int(),
  unit: z.string().nullable().describe("The unit's abbreviation"),
  quantity: z.number(),
  unit_price: z.number().describe('In pesos'),
  discount_percent: z.number(),
  vat_category: z
    .enum(['vatable', 'exempt', 'zero_rated'])
    .describe("How the line was taxed: the item's category, or exempt on a senior citizen's or PWD's line"),
  sc_pwd: z.boolean().describe("The line took the buyer's senior citizen or PWD discount"),
  amount: z.number().describe('In pesos, after discount, net of VAT'),
  vat: z.number().describe('In pesos'),
  source_line_id: z.number().int().nullable().describe("The source document's line this one fulfils"),
  quantity_done: z.number().describe('How much of it later documents fulfilled'),
  reason: z.string().nullable().optional().describe("A stock adjustment's or a return's line's reason"),
  note: z.string().nullable().optional().describe("A stock adjustment's or a return's line's note"),
  disposition: z.string().nullable().optional().describe("A return's line's disposition: restock, quarantine or write_off"),
  cost: z
    .number()
    .nullable()
    .optional()
    .describe('What the goods it moved cost, in pesos, at moving-average cost; only to a user holding view-costs; null while not costed'),
  margin: z.number().nullable().optional().describe("A sale's line: its amount less its cost, in pesos; only to a user holding view-costs"),
});

/** What a document was issued with (`documents/particulars.ts`): what its every print shows, whatever changed since. */
const issuedParticulars = z
  .looseObject({
    seller: z.looseObject({
      name: z.string().describe("The business's registered name (its name when it had none)"),
      trade_name: z.string().nullable(),
      address: z.string().nullable(),
      tin: z.string().nullable(),
      vat_registered: z.boolean(),
    }),
    place: z
      .looseObject({
        type: z.enum(['branch', 'warehouse']),
        name: z.string(),
        address: z.string().nullable(),
        branch_code: z.string().nullable().describe('Its BIR branch code, printed after the TIN'),
      })
      .nullable()
      .describe('Where it was issued; goods between two places, where they leave'),
    party: z
      .looseObject({ name: z.string(), address: z.string().nullable(), tin: z.string().nullable() })
      .nullable()
      .describe('Its customer or supplier; null for a document without one'),
  })
  .nullable()
  .describe('The particulars it was issued with: the seller, its place and its customer or supplier as they were when it was made');

/** What a document adds to its fields: its lines, the two places goods move between, its particulars and prints. */
function documentShape(definition: ResourceDefinition): z.ZodRawShape {
  const spec = definition.document;
  if (!spec) return {};
  return {
    ...(spec.lines !== 'none' && { lines: z.array(documentLine) }),
    ...(spec.twoLocations && { from_location: placeAnswer, to_location: placeAnswer }),
    ...(sellsGoods(definition) && {
      cost_of_goods: z.number().nullable().optional().describe('What its goods cost, in pesos; only to a user holding view-costs'),
      margin: z
        .number()
        .nullable()
        .optional()
        .describe('Its lines’ amounts (net of VAT) less their cost, in pesos; only to a user holding view-costs'),
      margin_percent: z.number().nullable().optional().describe('The margin as a percent of the lines’ amounts'),
    }),
    particulars: issuedParticulars,
    prints: z.number().int().describe('How many times it was printed: the first print is the original, every later one a reprint'),
  };
}

/** A line of a stock count: quantities in the item's base unit, money in pesos. */
export const countLine = z.looseObject({
  id: z.number().int(),
  item_id: z.number().int(),
  item: z.looseObject({ id: z.number().int(), display: z.string(), sku: z.string(), barcode: z.string().nullable() }),
  unit_of_measurement_id: z.number().int(),
  unit: z.string().nullable().describe("The item's base unit's abbreviation"),
  expected: z.number().optional().describe('On hand at the place when the item was put on the count; absent while a blind count is open'),
  on_hand: z.number().optional().describe('On hand now; once posted, when it was posted; absent while a blind count is open'),
  moved: z.number().optional().describe('What documents moved in or out since: on hand less expected; absent while a blind count is open'),
  counted: z.number().nullable().describe('The sum of its entries; null while nothing was counted'),
  entries: z.number().int(),
  difference: z
    .number()
    .nullable()
    .optional()
    .describe('Counted less on hand: what posting adjusts by; absent while a blind count is open'),
  unit_cost: z.number().nullable().describe("The item's moving-average cost per base unit on the count's date, in pesos"),
  difference_value: z.number().nullable().optional().describe('The difference at that cost, in pesos; absent while a blind count is open'),
});

const schemaOfRecords = new WeakMap<ResourceDefinition, z.ZodType<ApiRecord>>();

/**
 * A record of the resource as reads answer it: its readable fields (a reference also as
 * `{ id, display }` under its name without `_id`), what its kind or store adds, and its
 * timestamps and version.
 */
export function recordSchema(definition: ResourceDefinition): z.ZodType<ApiRecord> {
  const known = schemaOfRecords.get(definition);
  if (known) return known;
  // What its store adds; known once the engine is composed, before any route is registered.
  const store = composedStore(definition);
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of readableFields(definition)) {
    shape[name] = field.kind === 'discounts' ? fieldValue(field) : fieldValue(field).nullable();
    if (field.kind === 'reference') shape[referenceKey(name)] = referenceTo(field.references as string);
  }
  const schema: z.ZodType<ApiRecord> = z
    .looseObject({
      id: z.number().int(),
      ...shape,
      ...documentShape(definition),
      ...store?.decorated,
      created_at: z.string(),
      updated_at: z.string(),
      deleted_at: z.string().nullable().describe('When it went to the trash; null when it is not there'),
      version: z.number().int().describe('Send it as If-Match to update only this version'),
    })
    .describe(`A ${definition.singular.toLowerCase()}`);
  if (store) schemaOfRecords.set(definition, schema);
  return schema;
}
