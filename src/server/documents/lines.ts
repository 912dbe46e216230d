import { sql, type Selectable } from 'kysely';
import { documentTotals, type DocumentTotals, type LineFigures, type VatCategory } from '../../domain/documents';
import type { DiscountEntry } from '../../domain/fields';
import { pesosToCentavos } from '../../domain/money';
import {
  baseFactor,
  documentTotalRefusal,
  isRefusal,
  listedPrice,
  listedPriceRow,
  priceLine,
  PRICE_LIST_PARTY,
  type ConversionRow,
  type ListedPriceRow,
  type PriceList,
} from '../../domain/pricing';
import { toThousandths } from '../../domain/quantity';
import type { LineInput } from '../../domain/document-lines';
import { forShare } from '../db/dialect';
import { validationError } from '../errors';
import type { DocumentLinesTable } from '../db/schema';
import { untyped, type Db, type Scope, type Trx } from '../db/scope';

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
  sourceLineId: number | null;
  /** A stock adjustment's or a return's line's reason and note (null on other kinds' lines). */
  reason: string | null;
  note: string | null;
  /** A return line's disposition (null on other kinds' lines). */
  disposition: string | null;
}

export interface PricedLines {
  lines: Line[];
  /** The lines' totals, and the VAT terms they were priced on, as the document keeps them. */
  totals: DocumentTotals & { prices_include_vat: number };
}

interface ItemRow {
  id: number;
  name: string;
  unit_of_measurement_id: number;
  vat_category: VatCategory;
  sc_pwd_discount: number;
  purchase_discounts: string;
  sale_discounts: string;
}

/** The conversions that may take `unitId` to the item's base unit: its own and the general ones. */
async function conversionsFor(db: Db, scope: Scope, item: ItemRow, unitId: number): Promise<ConversionRow[]> {
  if (unitId === item.unit_of_measurement_id) return [];
  const rows = await forShare(
    db,
    db
      .selectFrom('conversions')
      .select(['item_id', 'from_unit_id', 'to_unit_id', 'factor'])
      .where('business_id', '=', scope.businessId)
      .where('deleted_at', 'is', null)
      .where('from_unit_id', '=', unitId)
      .where('to_unit_id', '=', item.unit_of_measurement_id)
      .where((eb) => eb.or([eb('item_id', '=', item.id), eb('item_id', 'is', null)])),
  ).execute();
  return rows.map((row) => ({ itemId: row.item_id, fromUnitId: row.from_unit_id, toUnitId: row.to_unit_id, factor: row.factor }));
}

/** The price list's rows that may hold for the item in the unit on `date`, for the party or every party. */
async function priceRows(
  db: Db,
  scope: Scope,
  list: PriceList,
  itemId: number,
  unitId: number,
  date: string,
  partyId: number | null,
): Promise<ListedPriceRow[]> {
  const table = list === 'purchase' ? 'purchase_item_prices' : 'sale_item_prices';
  const party = PRICE_LIST_PARTY[list];
  const rows = await untyped(db)
    .selectFrom(table)
    .select(['id', 'unit_of_measurement_id', party, 'effective_date', 'price'])
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .where('item_id', '=', itemId)
    .where('unit_of_measurement_id', '=', unitId)
    .where('effective_date', '<=', date)
    .where((eb) => (partyId === null ? eb(party, 'is', null) : eb.or([eb(party, '=', partyId), eb(party, 'is', null)])))
    .execute();
  return rows.map((row) => listedPriceRow(row, list, Number(row.price)));
}

export interface LinesContext {
  /** The price list lines are priced from; none for goods moved between locations. */
  list: PriceList | null;
  date: string;
  /** The supplier (purchase list) or branch (sale list) whose prices apply first. */
  partyId: number | null;
  /** Lines may name the source document's line they fulfil (a receive order's purchase order lines). */
  fulfils?: boolean;
  /** Quantities are signed, each line with its reason (a stock adjustment's): a negative one takes stock away. */
  adjusts?: boolean;
  /** The buyer takes a senior citizen's or PWD's discount on what qualifies (an invoice's). */
  buyerDiscount?: boolean;
}

/**
 * Checks and prices lines: live items of the business, units they convert from, a price (given
 * or listed) and a discount (given or the item's quantity break), by the rules of
 * `domain/pricing.ts`, which the line editor shares. Refusals are field messages under
 * `lines.{n}.…`; all of them are reported at once.
 */
export async function priceLines(db: Db, scope: Scope, inputs: readonly LineInput[], context: LinesContext): Promise<PricedLines> {
  const errors: Record<string, string[]> = {};
  const lines: Line[] = [];
  const business = context.list === null ? undefined : await businessVatTerms(db, scope);
  const terms = {
    ...context,
    pricesIncludeVat: Boolean(business?.prices_include_vat),
    sellerNotVatRegistered: business !== undefined && !business.vat_registered,
  };
  for (const [index, input] of inputs.entries()) {
    const at = (field: string, message: string) => (errors[`lines.${index}.${field}`] ??= []).push(message);
    if (input.item_id === undefined || input.item_id === null) {
      at('item_id', 'Pick an item, or remove this line.');
      continue;
    }
    if (input.unit_of_measurement_id === undefined || input.unit_of_measurement_id === null) {
      at('unit_of_measurement_id', 'The unit field is required.');
      continue;
    }
    // Held until the lines are written: its base unit and conversions cannot change under them (see itemsStore).
    const item = (await forShare(
      db,
      db
        .selectFrom('items')
        .select(['id', 'name', 'unit_of_measurement_id', 'vat_category', 'sc_pwd_discount', 'purchase_discounts', 'sale_discounts'])
        .where('business_id', '=', scope.businessId)
        .where('deleted_at', 'is', null)
        .where('id', '=', input.item_id),
    ).executeTakeFirst()) as ItemRow | undefined;
    if (!item) {
      at('item_id', 'The selected item is invalid.');
      continue;
    }
    const unitId = input.unit_of_measurement_id;
    const factor = baseFactor(
      await conversionsFor(db, scope, item, unitId),
      { id: item.id, baseUnitId: item.unit_of_measurement_id },
      unitId,
    );
    const { list } = context;
    const typedPrice = input.unit_price === null || input.unit_price === undefined ? null : pesosToCentavos(input.unit_price);
    const listed =
      list === null || typedPrice !== null || factor === undefined
        ? undefined
        : listedPrice(
            await priceRows(db, scope, list, item.id, unitId, context.date, context.partyId),
            unitId,
            context.date,
            context.partyId,
          );
    const breaks =
      list === null ? [] : (JSON.parse(list === 'purchase' ? item.purchase_discounts : item.sale_discounts) as DiscountEntry[]);
    // An adjustment's line is checked by its size; its sign says which way the stock moves.
    const sign = context.adjusts && input.quantity < 0 ? -1 : 1;
    const priced = priceLine(
      { name: item.name, vatCategory: item.vat_category, scPwdDiscount: Boolean(item.sc_pwd_discount), breaks },
      {
        quantity: toThousandths(sign * input.quantity),
        factor,
        unitPrice: typedPrice,
        listed,
        discountPercent: input.discount_percent ?? null,
      },
      terms,
    );
    if (isRefusal(priced)) {
      at(priced.field, priced.message);
      continue;
    }
    lines.push({
      itemId: item.id,
      unitId,
      sourceLineId: context.fulfils ? (input.source_line_id ?? null) : null,
      ...priced,
      // An adjustment's line is not priced: it keeps what the goods cost, when given (an opening balance's).
      unitPrice: context.adjusts ? (typedPrice ?? 0) : priced.unitPrice,
      quantity: sign * priced.quantity,
      baseQuantity: sign * priced.baseQuantity,
      reason: context.adjusts ? (input.reason ?? null) : null,
      note: context.adjusts ? input.note || null : null,
      disposition: null,
    });
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const refusal = documentTotalRefusal(lines);
  if (refusal) throw validationError({ lines: [refusal] });
  return { lines, totals: { ...documentTotals(lines), prices_include_vat: terms.pricesIncludeVat ? 1 : 0 } };
}

/**
 * Whether the business prices with VAT in (what its documents' lines are priced on, kept on each
 * document), and whether it is VAT-registered (a business that is not charges no VAT on its sales).
 */
async function businessVatTerms(db: Db, scope: Scope) {
  return db.selectFrom('businesses').select(['prices_include_vat', 'vat_registered']).where('id', '=', scope.businessId).executeTakeFirst();
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
        vat_category: line.category,
        sc_pwd: line.scPwd ? 1 : 0,
        amount: line.amount,
        vat: line.vat,
        source_line_id: line.sourceLineId,
        quantity_done: 0,
        reason: line.reason,
        note: line.note,
        disposition: line.disposition,
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

/** Adds to what later documents fulfilled of source lines, refusing (in the UPDATE itself) more than they hold. */
export async function fulfil(trx: Trx, fulfilled: readonly { sourceLineId: number | null; quantity: number }[], sign = 1): Promise<void> {
  for (const [index, line] of fulfilled.entries()) {
    if (line.sourceLineId === null) continue;
    const done = await trx
      .updateTable('document_lines')
      .set({ quantity_done: sql`quantity_done + ${sign * line.quantity}` })
      .where('id', '=', line.sourceLineId)
      .where(sql<boolean>`quantity_done + ${sign * line.quantity} between 0 and quantity`)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) throw validationError({ [`lines.${index}.quantity`]: ['More than remains of this line.'] });
  }
}
