import { sql, type Selectable } from 'kysely';
import {
  documentTotals,
  lineFigures,
  MAX_DOCUMENT_AMOUNT,
  quantityDiscount,
  type DocumentTotals,
  type LineFigures,
} from '../../domain/documents';
import type { DiscountEntry } from '../../domain/fields';
import { centavosToPesos, formatPesos, pesosToCentavos } from '../../domain/money';
import { fromThousandths, MAX_LINE_THOUSANDTHS, toThousandths } from '../../domain/quantity';
import type { LineInput } from '../../domain/resources/document-fields';
import { validationError } from '../errors';
import type { DocumentLinesTable } from '../db/schema';
import type { Db, Scope, Trx } from '../db/scope';

/**
 * Document lines as stored: quantities in thousandths (also converted to the item's base unit),
 * prices and amounts in centavos, discounts in hundredths of a percent.
 */
export interface Line extends LineFigures {
  itemId: number;
  unitId: number;
  quantity: number;
  baseQuantity: number;
  unitPrice: number;
  discountHundredths: number;
  vatable: boolean;
  sourceLineId: number | null;
}

export interface PricedLines {
  lines: Line[];
  totals: DocumentTotals;
}

interface ItemRow {
  id: number;
  name: string;
  unit_of_measurement_id: number;
  vatable: number;
  purchase_discounts: string;
  sale_discounts: string;
}

/** How many base units one `unitId` is, for the item: 1 when it is the base unit; undefined when no conversion says. */
async function baseFactor(db: Db, scope: Scope, item: Pick<ItemRow, 'id' | 'unit_of_measurement_id'>, unitId: number) {
  if (unitId === item.unit_of_measurement_id) return 1;
  const row = await db
    .selectFrom('conversions')
    .select(['factor', 'item_id'])
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .where('from_unit_id', '=', unitId)
    .where('to_unit_id', '=', item.unit_of_measurement_id)
    .where((eb) => eb.or([eb('item_id', '=', item.id), eb('item_id', 'is', null)]))
    // The item's own conversion wins over the general one.
    .orderBy(sql`case when item_id is null then 1 else 0 end`)
    .executeTakeFirst();
  return row ? row.factor / 1_000_000 : undefined;
}

export type PriceList = 'purchase' | 'sale';

/** The latest price on or before `date` for the item and unit, from the purchase or sale price list. */
async function listedPrice(
  db: Db,
  scope: Scope,
  list: PriceList,
  itemId: number,
  unitId: number,
  date: string,
  partyId: number | null,
): Promise<number | undefined> {
  const table = list === 'purchase' ? 'purchase_item_prices' : 'sale_item_prices';
  const party = list === 'purchase' ? 'contact_id' : 'branch_id';
  const row = await db
    .selectFrom(table)
    .select('price')
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .where('item_id', '=', itemId)
    .where('unit_of_measurement_id', '=', unitId)
    .where('effective_date', '<=', date)
    .where((eb) => (partyId === null ? eb(party, 'is', null) : eb.or([eb(party, '=', partyId), eb(party, 'is', null)])))
    .orderBy('effective_date', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? row.price : undefined;
}

export interface PricingContext {
  /** The price list lines are priced from; none for goods moved between locations. */
  list: PriceList | null;
  date: string;
  /** The supplier (purchase list) or branch (sale list) whose prices apply first. */
  partyId: number | null;
  /** Lines may name the source document's line they fulfil (a receive order's purchase order lines). */
  fulfils?: boolean;
}

/**
 * Checks and prices lines: live items of the business, units they convert from, a price (given
 * or listed) and a discount (given or the item's quantity break). Refusals are field messages
 * under `lines.{n}.…`; all of them are reported at once.
 */
export async function priceLines(db: Db, scope: Scope, inputs: readonly LineInput[], context: PricingContext): Promise<PricedLines> {
  const errors: Record<string, string[]> = {};
  const lines: Line[] = [];
  for (const [index, input] of inputs.entries()) {
    const at = (field: string, message: string) => (errors[`lines.${index}.${field}`] ??= []).push(message);
    if (input.item_id === undefined) at('item_id', 'The item field is required.');
    if (input.unit_of_measurement_id === undefined) at('unit_of_measurement_id', 'The unit field is required.');
    if (input.item_id === undefined || input.unit_of_measurement_id === undefined) continue;
    const item = (await db
      .selectFrom('items')
      .select(['id', 'name', 'unit_of_measurement_id', 'vatable', 'purchase_discounts', 'sale_discounts'])
      .where('business_id', '=', scope.businessId)
      .where('deleted_at', 'is', null)
      .where('id', '=', input.item_id)
      .executeTakeFirst()) as ItemRow | undefined;
    if (!item) {
      at('item_id', 'The selected item is invalid.');
      continue;
    }
    const factor = await baseFactor(db, scope, item, input.unit_of_measurement_id);
    if (factor === undefined) {
      at('unit_of_measurement_id', `${item.name} has no conversion from this unit to its base unit.`);
      continue;
    }
    const quantity = toThousandths(input.quantity);
    if (Math.round(quantity * factor) > MAX_LINE_THOUSANDTHS) {
      at(
        'quantity',
        `This line is more than ${fromThousandths(MAX_LINE_THOUSANDTHS).toLocaleString('en-US')} of ${item.name}'s base unit, the most a line may move.`,
      );
      continue;
    }
    const list = context.list;
    // Goods moved between locations are counted, not priced.
    const unitPrice =
      list === null
        ? 0
        : input.unit_price === null || input.unit_price === undefined
          ? await listedPrice(db, scope, list, item.id, input.unit_of_measurement_id, context.date, context.partyId)
          : pesosToCentavos(input.unit_price);
    if (unitPrice === undefined) {
      at('unit_price', `No ${list} price is listed for ${item.name} in this unit on ${context.date}; enter the unit price.`);
      continue;
    }
    const breaks =
      list === null ? [] : (JSON.parse(list === 'purchase' ? item.purchase_discounts : item.sale_discounts) as DiscountEntry[]);
    const percent =
      (list === null ? 0 : input.discount_percent) ?? quantityDiscount(breaks, fromThousandths(Math.round(quantity * factor)));
    const discountHundredths = Math.round(percent * 100);
    const vatable = list !== null && Boolean(item.vatable);
    const figures = lineFigures(quantity, unitPrice, discountHundredths, vatable);
    if (figures.gross + figures.vat > MAX_DOCUMENT_AMOUNT) {
      at(
        'quantity',
        `This line comes to more than ${formatPesos(centavosToPesos(MAX_DOCUMENT_AMOUNT))}, the most a line may; split it over documents.`,
      );
      continue;
    }
    lines.push({
      itemId: item.id,
      unitId: input.unit_of_measurement_id,
      quantity,
      baseQuantity: Math.round(quantity * factor),
      unitPrice,
      discountHundredths,
      vatable,
      sourceLineId: context.fulfils ? (input.source_line_id ?? null) : null,
      ...figures,
    });
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const totals = documentTotals(lines);
  if (totals.subtotal + totals.vat_total > MAX_DOCUMENT_AMOUNT) {
    const most = formatPesos(centavosToPesos(MAX_DOCUMENT_AMOUNT));
    throw validationError({ lines: [`The lines come to more than ${most}, the most a document may total; split them over documents.`] });
  }
  return { lines, totals };
}

export async function insertLines(trx: Trx, scope: Scope, documentType: string, documentId: number, lines: readonly Line[]) {
  for (const [position, line] of lines.entries()) {
    await trx
      .insertInto('document_lines')
      .values({
        business_id: scope.businessId,
        document_type: documentType,
        document_id: documentId,
        position,
        item_id: line.itemId,
        unit_of_measurement_id: line.unitId,
        quantity: line.quantity,
        base_quantity: line.baseQuantity,
        unit_price: line.unitPrice,
        discount_percent: line.discountHundredths,
        vatable: line.vatable ? 1 : 0,
        amount: line.amount,
        vat: line.vat,
        source_line_id: line.sourceLineId,
        quantity_done: 0,
      })
      .execute();
  }
}

/** A line as it is stored: quantities in thousandths, money in centavos. */
export type StoredLine = Selectable<DocumentLinesTable>;

export async function storedLines(db: Db, documentType: string, documentIds: readonly number[]): Promise<StoredLine[]> {
  if (documentIds.length === 0) return [];
  return db
    .selectFrom('document_lines')
    .selectAll()
    .where('document_type', '=', documentType)
    .where('document_id', 'in', documentIds)
    .orderBy('document_id')
    .orderBy('position')
    .execute();
}
