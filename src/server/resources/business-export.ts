import { sql } from 'kysely';
import { Zip, ZipDeflate } from 'fflate';
import { todayInManila, VAT_CATEGORIES } from '../../domain/documents';
import { listParamsSchema } from '../../domain/list-params-schema';
import { centavosToPesos } from '../../domain/money';
import { fromThousandths } from '../../domain/quantity';
import type { ResourceDefinition } from '../../domain/resource';
import { getResource, registry } from '../../domain/resources/registry';
import { ADJUSTMENT_REASONS } from '../../domain/resources/stock-adjustments';
import { methodLabel, paidInTenders } from '../../domain/tenders';
import { BYTE_ORDER_MARK, csvLines, csvRow, inert } from './csv-export';
import { holdsEveryPlace, placeAccessOf, placeCondition } from './places';
import { untyped, type Db, type Scope } from '../db/scope';
import { giveWay } from '../yielding';

/**
 * One business's data to take away, as a zip: a CSV per resource of the business, with the
 * columns of the list's Export CSV and every record, trashed ones too (their Deleted column is
 * set); a `-lines.csv` per kind of document with items, one row per line; a `-tenders.csv` per
 * kind of payment, one row per tender; and a README.txt that
 * says what each file holds. Streamed entry by entry and each table a batch at a time, deflated
 * as it goes, so neither a table nor the zip ever sits in memory whole. Every file is read in one
 * read-only transaction, so the zip holds the business as it was at one moment (an invoice made
 * meanwhile is in none of the files, never in its lines but not its invoices), and it lets other
 * requests have their turns between batches.
 *
 * It holds what its user may view: of records that belong to places (documents, stocks, prices
 * with a branch, the places themselves), those of the user's places, and the lines and tenders of
 * the documents they view. The route asks for the master permission, which holds every place, so
 * today's zip is the whole business; the walk keeps to the scope's places all the same.
 */

/** Every resource with records of its own in a business: all but the global permission list. */
const EXPORTED = registry.filter((definition) => definition.tenancy !== 'global');

interface Entry {
  name: string;
  text: AsyncIterable<string> | Iterable<string>;
}

/** What a resource's file holds, for the README. */
function recordsNote(definition: ResourceDefinition): string {
  if (definition.name === 'businesses') return 'this business itself.';
  if (definition.name === 'users') return 'the members of this business (never a password or pin); a trashed one was removed from it.';
  return `every ${definition.singular.toLowerCase()} of this business.`;
}

function linesNote(definition: ResourceDefinition): string {
  const lines = definition.document!.lines;
  const figures =
    lines === 'priced' || lines === 'returns'
      ? ', unit price, discount %, how it was taxed (VATable, VAT-exempt, zero-rated), whether it took a senior citizen or PWD discount, amount net of VAT, VAT' +
        (lines === 'returns'
          ? `, reason, note, what became of the goods (${definition.document!.returns!.dispositions.map((option) => option.label.toLowerCase()).join(', ')})`
          : '')
      : lines === 'adjustments'
        ? ' (signed: added or taken away), reason, note'
        : '';
  const fulfilled = isFulfilled(definition) ? ', how much later documents fulfilled of it' : '';
  const source = sourceOf(definition);
  const fulfils = source ? `, the ${source.singular.toLowerCase()} line it fulfils` : '';
  return `Lines of the ${definition.plural.toLowerCase()}, one a row: the document's number, the item (name and SKU), unit, quantity${figures}${fulfilled}${fulfils}.`;
}

/** The document kind a kind's lines fulfil (a receive order's purchase order), when that kind has lines. */
function sourceOf(definition: ResourceDefinition): ResourceDefinition | undefined {
  const source = definition.document?.source && getResource(definition.document.source.resource);
  return source?.document && source.document.lines !== 'none' ? source : undefined;
}

/** Whether later documents fulfil this kind's lines (a purchase order's, by receive orders and bills). */
function isFulfilled(definition: ResourceDefinition): boolean {
  return registry.some((other) => sourceOf(other) === definition);
}

const hasLines = (definition: ResourceDefinition) => definition.document !== undefined && definition.document.lines !== 'none';

function readme(businessName: string, exportedAt: Date, confined: boolean): string {
  const files = EXPORTED.flatMap((definition) => [
    [`${definition.name}.csv`, `${definition.plural}: ${recordsNote(definition)}`],
    ...(hasLines(definition) ? [[`${definition.name}-lines.csv`, linesNote(definition)]] : []),
    ...(paidInTenders(definition) ? [[`${definition.name}-tenders.csv`, tendersNote(definition)]] : []),
  ]);
  const width = Math.max(...files.map(([name]) => name.length));
  const text = [
    `All data of ${businessName}, exported from Bodega on ${todayInManila(exportedAt)} (${exportedAt.toISOString()}).`,
    '',
    'Each .csv file is UTF-8 text with a byte-order mark, comma-separated, one record a row, with',
    "the columns of that list's Export CSV: references by name, money in pesos as plain decimals,",
    'Created and Updated as UTC timestamps. Every record is there, trashed ones too: the Deleted',
    'column holds when a record went to the trash, and is empty for the others. A lines file names',
    "each line's document by its number and by its ID, the ID column of the document's own file.",
    '',
    ...(confined
      ? [
          'Of what belongs to branches and warehouses (documents, their lines and payments, stocks, prices',
          'for a branch, the places themselves), it holds only what is at the places you work at.',
          '',
        ]
      : []),
    ...files.map(([name, note]) => `${name.padEnd(width)}  ${note}`),
    '',
    'Not in it: attached files, the history of changes, stock movements one by one (stocks.csv holds',
    'the balances), and the permission list, which is the same for every business.',
    '',
  ];
  return text.join('\r\n');
}

interface LineColumn {
  heading: string;
  cell(row: Record<string, unknown>): string;
}

function lineColumns(definition: ResourceDefinition): LineColumn[] {
  const text = (name: string) => (row: Record<string, unknown>) => (row[name] === null ? '' : inert(String(row[name])));
  const pesos = (name: string) => (row: Record<string, unknown>) => centavosToPesos(Number(row[name])).toFixed(2);
  const quantity = (name: string) => (row: Record<string, unknown>) => String(fromThousandths(Number(row[name])));
  const columns: LineColumn[] = [
    { heading: 'Document ID', cell: (row) => String(row.document_id) },
    { heading: 'Document number', cell: text('document_number') },
    { heading: 'Line', cell: (row) => String(Number(row.position) + 1) },
    { heading: 'Line ID', cell: (row) => String(row.id) },
    { heading: 'Item', cell: text('item_name') },
    { heading: 'SKU', cell: text('item_sku') },
    { heading: 'Unit', cell: text('unit') },
    { heading: 'Quantity', cell: quantity('quantity') },
  ];
  const { lines } = definition.document!;
  if (lines === 'priced' || lines === 'returns') {
    const categories = new Map<string, string>(VAT_CATEGORIES.map((option) => [option.value, option.label]));
    columns.push(
      { heading: 'Unit price', cell: pesos('unit_price') },
      { heading: 'Discount %', cell: (row) => String(Number(row.discount_percent) / 100) },
      { heading: 'VAT category', cell: (row) => categories.get(String(row.vat_category)) ?? text('vat_category')(row) },
      { heading: 'SC/PWD', cell: (row) => (Number(row.sc_pwd) ? 'yes' : 'no') },
      { heading: 'Amount (net of VAT)', cell: pesos('amount') },
      { heading: 'VAT', cell: pesos('vat') },
    );
  }
  if (lines === 'adjustments' || lines === 'returns') {
    const reasons = new Map(
      (lines === 'returns' ? definition.document!.returns!.reasons : ADJUSTMENT_REASONS).map((option) => [option.value, option.label]),
    );
    columns.push(
      { heading: 'Reason', cell: (row) => reasons.get(String(row.reason)) ?? text('reason')(row) },
      { heading: 'Note', cell: text('note') },
    );
  }
  if (lines === 'returns') {
    const dispositions = new Map(definition.document!.returns!.dispositions.map((option) => [option.value, option.label]));
    columns.push({ heading: 'Disposition', cell: (row) => dispositions.get(String(row.disposition)) ?? text('disposition')(row) });
  }
  if (isFulfilled(definition)) columns.push({ heading: 'Fulfilled', cell: quantity('quantity_done') });
  if (sourceOf(definition)) {
    columns.push(
      { heading: 'Source document', cell: text('source_number') },
      { heading: 'Source line ID', cell: (row) => (row.source_line_id === null ? '' : String(row.source_line_id)) },
    );
  }
  return columns;
}

/**
 * The condition that keeps a document (named `alias` in the query) to the places the scope views,
 * or null when it views every place (or the kind belongs to none).
 */
function viewedDocuments(scope: Scope, definition: ResourceDefinition, alias: string) {
  return definition.places ? placeCondition(definition.places, (column) => `${alias}.${column}`, placeAccessOf(scope), 'view') : null;
}

/**
 * Every line of a kind of document in the business (of the documents the scope views), by
 * document and position, a batch at a time: each batch continues after the last (document,
 * position) of the one before, which the lines' own index answers.
 */
async function* documentLines(db: Db, scope: Scope, definition: ResourceDefinition, batchSize = 500): AsyncGenerator<string> {
  const { businessId } = scope;
  const viewed = viewedDocuments(scope, definition, 'doc');
  const columns = lineColumns(definition);
  yield BYTE_ORDER_MARK + csvRow(columns.map((column) => column.heading));
  const type = definition.document!.type;
  const source = sourceOf(definition);
  let last: { documentId: number; position: number } | undefined;
  for (;;) {
    let query = untyped(db)
      .selectFrom('document_lines as dl')
      .innerJoin(`${definition.table} as doc`, 'doc.id', 'dl.document_id')
      .innerJoin('items as item', 'item.id', 'dl.item_id')
      .innerJoin('unit_of_measurements as unit', 'unit.id', 'dl.unit_of_measurement_id')
      .select([
        'dl.id',
        'dl.document_id',
        'dl.position',
        'dl.quantity',
        'dl.unit_price',
        'dl.discount_percent',
        'dl.amount',
        'dl.vat',
        'dl.vat_category',
        'dl.sc_pwd',
        'dl.quantity_done',
        'dl.source_line_id',
        'dl.reason',
        'dl.note',
        'dl.disposition',
        'doc.number as document_number',
        'item.name as item_name',
        'item.sku as item_sku',
        'unit.abbreviation as unit',
      ])
      .where('dl.business_id', '=', businessId)
      .where('dl.document_type', '=', type)
      .where('doc.business_id', '=', businessId);
    if (viewed) query = query.where(viewed);
    if (source) {
      query = query
        .leftJoin('document_lines as source_line', (join) =>
          join.onRef('source_line.id', '=', 'dl.source_line_id').on('source_line.document_type', '=', source.document!.type),
        )
        .leftJoin(`${source.table} as source_doc`, 'source_doc.id', 'source_line.document_id')
        .select('source_doc.number as source_number');
    }
    if (last) query = query.where(sql<boolean>`(dl.document_id, dl.position) > (${last.documentId}, ${last.position})`);
    const rows = await query.orderBy('dl.document_id').orderBy('dl.position').limit(batchSize).execute();
    if (rows.length > 0) yield rows.map((row) => csvRow(columns.map((column) => column.cell(row)))).join('');
    if (rows.length < batchSize) return;
    const final = rows[rows.length - 1];
    last = { documentId: Number(final.document_id), position: Number(final.position) };
  }
}

const TENDER_HEADINGS = [
  'Payment ID',
  'Payment number',
  'Tender',
  'Method',
  'Amount',
  'Reference',
  'Bank',
  'Check number',
  'Check date',
  'Cash received',
];

function tendersNote(definition: ResourceDefinition): string {
  return (
    `How the ${definition.plural.toLowerCase()} were paid, one tender a row: the payment's ID and number, the tender's place ` +
    "in it, method, amount, reference (a card's approval code), a check's bank, number and date, and the cash received."
  );
}

/**
 * Every tender of a kind of payment in the business (of the payments the scope views), voided and
 * trashed payments' too, by payment and position, a batch at a time after the last (payment,
 * position) of the one before.
 */
async function* tenders(db: Db, scope: Scope, definition: ResourceDefinition, batchSize = 500): AsyncGenerator<string> {
  const { businessId } = scope;
  const viewed = viewedDocuments(scope, definition, 'payment');
  yield BYTE_ORDER_MARK + csvRow(TENDER_HEADINGS);
  const text = (value: unknown) => (value === null || value === undefined ? '' : inert(String(value)));
  const cells = (row: Record<string, unknown>) => [
    String(row.payment_id),
    text(row.number),
    String(Number(row.position) + 1),
    methodLabel(row.method),
    centavosToPesos(Number(row.amount)).toFixed(2),
    text(row.reference),
    text(row.bank),
    text(row.check_number),
    text(row.check_date),
    row.received === null || row.received === undefined ? '' : centavosToPesos(Number(row.received)).toFixed(2),
  ];
  let last: { paymentId: number; position: number } | undefined;
  for (;;) {
    let query = untyped(db)
      .selectFrom('payment_tenders as tender')
      .innerJoin(`${definition.table} as payment`, 'payment.id', 'tender.payment_id')
      .select(['tender.payment_id', 'payment.number', 'tender.position', 'tender.method', 'tender.amount', 'tender.reference'])
      .select(['tender.bank', 'tender.check_number', 'tender.check_date', 'tender.received'])
      .where('tender.business_id', '=', businessId)
      .where('tender.payment_type', '=', definition.document!.type)
      .where('payment.business_id', '=', businessId);
    if (viewed) query = query.where(viewed);
    if (last) query = query.where(sql<boolean>`(tender.payment_id, tender.position) > (${last.paymentId}, ${last.position})`);
    const rows = await query.orderBy('tender.payment_id').orderBy('tender.position').limit(batchSize).execute();
    if (rows.length > 0) yield rows.map((row) => csvRow(cells(row))).join('');
    if (rows.length < batchSize) return;
    const final = rows[rows.length - 1];
    last = { paymentId: Number(final.payment_id), position: Number(final.position) };
  }
}

/** The records of a resource as its list exports them with trashed ones included, oldest first. */
function records(db: Db, scope: Scope, definition: ResourceDefinition): AsyncGenerator<string> {
  const only = definition.name === 'businesses' ? { id: String(scope.businessId) } : {};
  const params = listParamsSchema(definition).parse({ ...only, with_trashed: '1', order_by: 'asc', order_by_field_name: 'id' });
  return csvLines(db, scope, definition, params);
}

function* entries(db: Db, scope: Scope, businessName: string, exportedAt: Date): Generator<Entry> {
  yield { name: 'README.txt', text: [readme(businessName, exportedAt, !holdsEveryPlace(scope, 'view'))] };
  for (const definition of EXPORTED) {
    yield { name: `${definition.name}.csv`, text: records(db, scope, definition) };
    if (hasLines(definition)) yield { name: `${definition.name}-lines.csv`, text: documentLines(db, scope, definition) };
    if (paidInTenders(definition)) yield { name: `${definition.name}-tenders.csv`, text: tenders(db, scope, definition) };
  }
}

/**
 * The zip's bytes as they are made: each entry's text is deflated as it is read, and what the
 * deflater has written is handed on before the next piece is read, so a slow reader holds the
 * walk back rather than letting the zip pile up. The reads are one read-only transaction, held
 * from the first piece to the last (or until the reader goes away), on a connection of its own:
 * it holds up no one's writes.
 */
export async function* businessZip(db: Db, scope: Scope, businessName: string, exportedAt = new Date()): AsyncGenerator<Uint8Array> {
  const snapshot = await db.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute();
  try {
    yield* zipOf(snapshot, scope, businessName, exportedAt);
  } finally {
    // Nothing was written: ending it either way is the same.
    await snapshot.rollback().execute();
  }
}

async function* zipOf(db: Db, scope: Scope, businessName: string, exportedAt: Date): AsyncGenerator<Uint8Array> {
  const written: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else written.push(chunk);
  });
  const encoder = new TextEncoder();
  function* drain(): Generator<Uint8Array> {
    if (failure) throw failure;
    while (written.length > 0) yield written.shift()!;
  }
  for (const entry of entries(db, scope, businessName, exportedAt)) {
    const file = new ZipDeflate(entry.name, { level: 6 });
    file.mtime = exportedAt;
    zip.add(file);
    for await (const text of entry.text) {
      file.push(encoder.encode(text));
      yield* drain();
      await giveWay();
    }
    file.push(new Uint8Array(0), true);
    yield* drain();
  }
  zip.end();
  yield* drain();
}
