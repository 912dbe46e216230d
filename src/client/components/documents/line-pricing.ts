import { useQueries, useQuery } from '@tanstack/react-query';
import { todayInManila, type DocumentSpec, type Location, type VatCategory } from '../../../domain/documents';
import type { DiscountEntry } from '../../../domain/fields';
import { centavosToPesos, formatPesos, pesosToCentavos } from '../../../domain/money';
import {
  baseFactor,
  isRefusal,
  listedPrice,
  listedPriceRow,
  priceLine,
  pricingOf,
  unitsOfItem,
  type ConversionRow,
  type LineRefusal,
  type ListedPriceRow,
  type PricedLine,
} from '../../../domain/pricing';
import { fromThousandths, toMillionths, toThousandths } from '../../../domain/quantity';
import { getResource } from '../../../domain/resources/registry';
import { QUARANTINE_WRITTEN_OFF } from '../../../domain/resources/stock-adjustments';
import { inWorkingSet } from '../../../domain/working-set';
import { asOfWords, onHandWords, shownAsOf, useAsOfStatus } from '../../lib/freshness';
import { listQuery, recordQuery, type ApiRecord } from '../../lib/resource-queries';
import { businessesQuery, useActiveBusinessId } from '../../lib/session';
import type { FormValues } from '../crud/field-input';
import type { LineRow } from './line-rows';

/** Where and when a document is priced and takes its goods from, as its form holds it now. */
export interface LineContext {
  spec: DocumentSpec | undefined;
  date: string;
  /** The supplier or branch whose own prices apply first. */
  partyId: number | null;
  /** The place its goods leave (an invoice's branch or warehouse, a transfer's from location, an adjustment's place); none when none leave. */
  takesFrom: Location | null;
  /** Signed quantities (a stock adjustment's lines): a negative one takes stock away, a positive one adds it. */
  adjusts: boolean;
  /** The buyer takes a senior citizen's or PWD's discount (an invoice's). */
  buyerDiscount: boolean;
}

/** What a stock row holds on hand that may leave (sold, moved, adjusted away): on hand less quarantined; none without a row. */
const sellableThousandths = (stock: ApiRecord | undefined): number =>
  stock ? toThousandths(Number(stock.quantity_on_hand ?? 0)) - toThousandths(Number(stock.quantity_quarantined ?? 0)) : 0;

/** What a stock row holds in quarantine (a number, as the API gives it), or 0. */
const quarantinedOf = (stock: ApiRecord | undefined): number => Number(stock?.quantity_quarantined ?? 0);

const positive = (value: unknown) => (Number.isInteger(Number(value)) && Number(value) > 0 ? Number(value) : null);

/** The line editor's context, read from the form's values and the document's spec. */
export function lineContext(spec: DocumentSpec | undefined, values: FormValues): LineContext {
  const pricing = pricingOf(spec);
  const place = (type: unknown, id: unknown): Location | null =>
    (type === 'branch' || type === 'warehouse') && positive(id) ? { type, id: positive(id)! } : null;
  const takesFrom =
    spec?.stock === 'out' || spec?.stock === 'both'
      ? (place('branch', values.branch_id) ?? place('warehouse', values.warehouse_id))
      : spec?.twoLocations
        ? place(values.from_location_type, values.from_location_id)
        : null;
  return {
    spec,
    // A document saved without a date is dated today, in Manila.
    date: typeof values.date === 'string' && values.date !== '' ? values.date : todayInManila(),
    partyId: pricing ? positive(values[pricing.party]) : null,
    takesFrom,
    adjusts: spec?.lines === 'adjustments',
    buyerDiscount: values.buyer_discount === 'senior' || values.buyer_discount === 'pwd',
  };
}

/** What the editor shows of one line: its figures, or why the server would refuse it; nothing while its item is unknown. */
export type LineState =
  | { kind: 'blank' }
  | { kind: 'loading' }
  | { kind: 'priced'; line: PricedLine; item: ApiRecord }
  | { kind: 'refused'; refusal: LineRefusal; item?: ApiRecord };

const conversionRow = (record: ApiRecord): ConversionRow => ({
  itemId: record.item_id === null ? null : Number(record.item_id),
  fromUnitId: Number(record.from_unit_id),
  toUnitId: Number(record.to_unit_id),
  factor: toMillionths(Number(record.factor)),
});

/** Whether the device's working set keeps stock current (then a kept copy is as old as its last update). */
const stocksKept = inWorkingSet('stocks');

const number = (text: string) => (text.trim() === '' || !Number.isFinite(Number(text)) ? null : Number(text));

/**
 * Prices the lines as the server will (`domain/pricing.ts`), from the item, its conversions and
 * the price list, and checks what leaves a place against its stock. Every read is a list or record
 * query, so what was read online is kept and the same figures show offline.
 */
export function useLinePricing(rows: readonly LineRow[], context: LineContext) {
  const businessId = useActiveBusinessId();
  const pricing = pricingOf(context.spec);
  const itemIds = [...new Set(rows.map((row) => row.item_id).filter((id): id is number => id !== null))];
  const items = useQueries({ queries: itemIds.map((id) => recordQuery(businessId, getResource('items'), id)) });
  const itemOf = new Map(itemIds.map((id, at) => [id, items[at]?.data]));
  const conversions = useQuery(listQuery(businessId, getResource('conversions'), { per_page: 100 }));
  // Whether the business's prices include VAT: from the session's businesses, which every member reads.
  const businesses = useQuery(businessesQuery());
  const business = businesses.data?.find((each) => each.id === businessId);
  const pricesIncludeVat = Boolean(business?.prices_include_vat);
  // A business not VAT-registered charges no VAT on its sales (until the session has read it, it is taken as registered).
  const sellerNotVatRegistered = business?.vat_registered === false;
  const conversionRows = (conversions.data?.data ?? []).filter((record) => !record.deleted_at).map(conversionRow);
  const priceList = pricing ? getResource(pricing.list === 'purchase' ? 'purchase-item-prices' : 'sale-item-prices') : undefined;
  /** A price list's live records as the pricing rules take them (none without a list: nothing is read then). */
  const priceRows = (records: readonly ApiRecord[]): ListedPriceRow[] =>
    pricing
      ? records
          .filter((record) => !record.deleted_at)
          .map((record) => listedPriceRow(record, pricing.list, pesosToCentavos(Number(record.price))))
      : [];
  const prices = useQueries({
    queries: (priceList ? itemIds : []).map((id) =>
      listQuery(businessId, priceList!, { item_id: id, is_strict: 1, per_page: 100, order_by_field_name: 'effective_date' }),
    ),
  });
  const pricesOf = new Map(itemIds.map((id, at) => [id, prices[at]?.data?.data]));
  const place = context.takesFrom;
  const stocks = useQueries({
    queries: (place ? itemIds : []).map((id) =>
      listQuery(businessId, getResource('stocks'), { item_id: id, location_type: place!.type, location_id: place!.id, is_strict: 1 }),
    ),
  });
  const placeRecord = useQuery({
    ...recordQuery(businessId, getResource(place?.type === 'warehouse' ? 'warehouses' : 'branches'), place?.id ?? 0),
    enabled: place !== null,
  });
  const placeName = placeRecord.data ? String(placeRecord.data.name) : `this ${place?.type}`;
  // Stock read from this device, or left on screen after the connection went, says how old it is.
  const status = useAsOfStatus();
  const onHandAsOf = new Map(
    itemIds.map((id, at) => {
      const stock = stocks[at];
      return [
        id,
        shownAsOf({ savedOffline: stock?.data?.savedOffline, fetchedAt: stock?.dataUpdatedAt, workingSet: stocksKept }, status),
      ] as const;
    }),
  );
  const onHandOf = new Map(
    itemIds.map((id, at) => {
      const answer = stocks[at]?.data;
      const row = answer?.data.find((stock) => Number(stock.item_id) === id);
      // No stock row yet at the place: nothing on hand. Not read (no permission, not kept offline): unknown.
      // What is quarantined there is on hand but may not leave: the lines may take only the rest.
      return [id, answer ? sellableThousandths(row) : undefined] as const;
    }),
  );

  // For the item picker's results: what the place holds and what the list asks, of the first hundred items read here.
  const placeStock = useQuery({
    ...listQuery(businessId, getResource('stocks'), {
      location_type: place?.type ?? '',
      location_id: place?.id ?? 0,
      is_strict: 1,
      per_page: 100,
    }),
    enabled: place !== null,
  });
  const listPrices = useQuery({
    ...listQuery(businessId, priceList ?? getResource('sale-item-prices'), { per_page: 100, order_by_field_name: 'effective_date' }),
    enabled: priceList !== undefined,
  });
  const placeStockAsOf = shownAsOf(
    { savedOffline: placeStock.data?.savedOffline, fetchedAt: placeStock.dataUpdatedAt, workingSet: stocksKept },
    status,
  );
  /**
   * An item result's second line: its SKU, its listed price in its base unit, and what is on hand
   * where its goods leave that may leave (as of when, from an older copy), and what is quarantined there.
   */
  const resultDetails = (record: ApiRecord): string => {
    const id = Number(record.id);
    const baseUnit = Number(record.unit_of_measurement_id);
    const rows = priceRows((listPrices.data?.data ?? []).filter((row) => Number(row.item_id) === id));
    const price = listedPrice(rows, baseUnit, context.date, context.partyId);
    const stock = placeStock.data?.data.find((row) => Number(row.item_id) === id);
    return [
      String(record.sku ?? ''),
      price !== undefined && formatPesos(centavosToPesos(price)),
      place && placeStock.data && onHandWords(fromThousandths(sellableThousandths(stock)), placeStockAsOf),
      quarantinedOf(stock) > 0 && `${quarantinedOf(stock)} quarantined`,
    ]
      .filter(Boolean)
      .join(' · ');
  };

  const unitsOf = (item: ApiRecord | undefined) =>
    item ? unitsOfItem(conversionRows, { id: Number(item.id), baseUnitId: Number(item.unit_of_measurement_id) }) : [];

  const states: LineState[] = rows.map((row) => {
    if (row.item_id === null || row.unit_of_measurement_id === null) return { kind: 'blank' };
    const item = itemOf.get(row.item_id);
    const typed = number(row.quantity);
    // An adjustment's line is checked by its size, as the server does; its sign says which way the stock moves.
    const quantity = typed !== null && context.adjusts ? Math.abs(typed) : typed;
    if (!item || quantity === null || quantity <= 0) return { kind: item ? 'blank' : 'loading' };
    const factor = baseFactor(
      conversionRows,
      { id: Number(item.id), baseUnitId: Number(item.unit_of_measurement_id) },
      row.unit_of_measurement_id,
    );
    const typedPrice = number(row.unit_price);
    const listRows = pricesOf.get(row.item_id);
    if (pricing && typedPrice === null && !listRows) return { kind: 'loading' };
    const listed = listedPrice(priceRows(listRows ?? []), row.unit_of_measurement_id, context.date, context.partyId);
    const side = pricing?.list === 'purchase' ? item.purchase_discounts : item.sale_discounts;
    const priced = priceLine(
      {
        name: String(item.name),
        vatCategory: (item.vat_category as VatCategory | undefined) ?? 'vatable',
        scPwdDiscount: Boolean(item.sc_pwd_discount),
        breaks: (Array.isArray(side) ? side : []) as DiscountEntry[],
      },
      {
        quantity: toThousandths(quantity),
        factor,
        unitPrice: typedPrice === null ? null : pesosToCentavos(typedPrice),
        listed,
        discountPercent: number(row.discount_percent),
      },
      { list: pricing?.list ?? null, date: context.date, pricesIncludeVat, sellerNotVatRegistered, buyerDiscount: context.buyerDiscount },
    );
    return isRefusal(priced) ? { kind: 'refused', refusal: priced, item } : { kind: 'priced', line: priced, item };
  });

  // What the lines take of each item at the place, against what is on hand there (of an adjustment, its decreases).
  const needed = new Map<number, number>();
  rows.forEach((row, at) => {
    const state = states[at];
    if (row.item_id === null || state.kind !== 'priced') return;
    // Goods added, and quarantined goods written off, take nothing of what may leave.
    if (context.adjusts && (Number(row.quantity) > 0 || row.reason === QUARANTINE_WRITTEN_OFF)) return;
    needed.set(row.item_id, (needed.get(row.item_id) ?? 0) + state.line.baseQuantity);
  });
  const shortOf = (row: LineRow): string | undefined => {
    if (!place || row.item_id === null) return undefined;
    const onHand = onHandOf.get(row.item_id);
    const need = needed.get(row.item_id) ?? 0;
    if (onHand === undefined || need <= onHand) return undefined;
    const item = itemOf.get(row.item_id);
    const stock = stocks[itemIds.indexOf(row.item_id)]?.data?.data.find((each) => Number(each.item_id) === row.item_id);
    const quarantined = quarantinedOf(stock);
    const held = quarantined > 0 ? ` (${quarantined} more quarantined, not for sale or transfer)` : '';
    return `Not enough ${String(item?.name)} (${String(item?.sku)}) in stock at ${placeName}: ${fromThousandths(onHand)} on hand${held}${asOfWords(onHandAsOf.get(row.item_id))}, ${fromThousandths(need)} needed.`;
  };

  return { states, unitsOf, shortOf, onHandOf, onHandAsOf, itemOf, resultDetails, pricesIncludeVat };
}
