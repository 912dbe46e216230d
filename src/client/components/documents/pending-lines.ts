import { useQuery } from '@tanstack/react-query';
import { centavosToPesos } from '../../../domain/money';
import type { ResourceDefinition } from '../../../domain/resource';
import { getResource } from '../../../domain/resources/registry';
import { documentTotals, type LineFigures } from '../../../domain/documents';
import { toThousandths } from '../../../domain/quantity';
import { referenceKey } from '../../../domain/resource';
import { returnedFigures, soldFigures, soldLineOf, sourceDateField } from '../../../domain/returns';
import { isClientKey } from '../../lib/outbox';
import { listQuery, recordQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId } from '../../lib/session';
import type { DocumentLine, LineRow, ReturnLineBody } from './line-rows';
import { lineContext, useLinePricing } from './line-pricing';
import { totalsInPesos } from './printed-figures';
import { returnsGoods } from './return-rows';

/** A line as a create sends it (`linesBody`). */
interface SentLine {
  item_id: number | null;
  unit_of_measurement_id: number | null;
  quantity: number | string;
  unit_price: number | null;
  discount_percent: number | null;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** What a document made from its sale takes of it, as the server fills it in: the customer and the place. */
const FROM_THE_SALE = ['contact_id', 'branch_id', 'warehouse_id'];

/**
 * A return made on this device and not yet synced, read as the server will save it, from the sale
 * it comes back from as the device holds it (`sale`): each line its share of the sold line it names
 * (domain/returns.ts), after what the device knows came back of it already; the customer, the place
 * and the sale's date; what it credits or refunds. A line naming no line of the sale, or a sale
 * the device does not hold, is priced when sent.
 */
export function pendingReturn(record: ApiRecord, sale: ApiRecord | undefined, saleField: string): ApiRecord & { unpriced?: boolean } {
  const sent = record.lines as ReturnLineBody[];
  const sold = new Map(((sale?.lines as DocumentLine[] | undefined) ?? []).map((line) => [line.id, line]));
  const pricesIncludeVat = Boolean(sale?.prices_include_vat);
  const figured: (LineFigures | null)[] = [];
  const lines: DocumentLine[] = sent.map((line, index) => {
    const source = line.source_line_id === null ? undefined : sold.get(line.source_line_id);
    const quantity = Number(line.quantity);
    const figures =
      source && Number.isFinite(quantity) && quantity > 0
        ? returnedFigures(
            soldFigures(soldLineOf(source), pricesIncludeVat),
            toThousandths(source.quantity),
            toThousandths(source.quantity_done),
            toThousandths(quantity),
          )
        : null;
    figured.push(figures);
    return {
      id: -(index + 1),
      item_id: source?.item_id ?? 0,
      item: source?.item ?? null,
      unit_of_measurement_id: source?.unit_of_measurement_id ?? 0,
      unit: source?.unit ?? null,
      quantity,
      unit_price: source?.unit_price ?? Number.NaN,
      discount_percent: source?.discount_percent ?? 0,
      vat_category: figures?.category ?? 'vatable',
      sc_pwd: figures?.scPwd ?? false,
      amount: figures ? centavosToPesos(figures.amount) : Number.NaN,
      vat: figures ? centavosToPesos(figures.vat) : 0,
      quantity_done: 0,
      reason: line.reason,
      note: line.note,
      disposition: line.disposition,
    };
  });
  const totals = totalsInPesos(documentTotals(figured.filter((line) => line !== null)), pricesIncludeVat);
  const total = Number(totals.total);
  const fromSale = sale
    ? Object.fromEntries(
        FROM_THE_SALE.flatMap((field) => [
          [field, sale[field]],
          [referenceKey(field), sale[referenceKey(field)]],
        ]),
      )
    : {};
  return {
    ...record,
    ...fromSale,
    [sourceDateField(saleField)]: sale?.date ?? null,
    lines,
    ...totals,
    // Credited to the sale, refunded, or kept on the customer's account (neither).
    amount: record.settlement === 'credit' ? total : 0,
    refunded: record.settlement === 'refund' ? total : 0,
    unpriced: figured.some((line) => line === null),
  };
}

/**
 * The sale a return (`body`, as it was made or queued) comes back from, read as the server or the
 * device holds it; no source and nothing asked for a kind that returns no goods, or when not `wanted`.
 */
export function useSaleOf(businessId: number | null, definition: ResourceDefinition, body: Record<string, unknown>, wanted = true) {
  const source = returnsGoods(definition) ? definition.document?.source : undefined;
  const saleId = source ? Number(body[source.field]) : Number.NaN;
  const sale = useQuery({
    ...recordQuery(businessId, getResource(source?.resource ?? definition.name), saleId),
    enabled: wanted && source !== undefined && Number.isInteger(saleId) && saleId > 0,
  });
  return { source, sale };
}

/**
 * A document made on this device and not yet synced, read as the server will save it: its lines
 * priced by the same rules as the line editor's (the price lists, conversions and items kept on
 * the device), with item and unit names and the totals. A line that cannot be priced here shows
 * no amount ("priced when sent"). A synced document is returned as it is.
 */
export function usePendingDocument(definition: ResourceDefinition, record: ApiRecord): ApiRecord & { unpriced?: boolean } {
  const businessId = useActiveBusinessId();
  const pending =
    isClientKey(record.id) && Array.isArray(record.lines) && (record.lines as unknown[]).every((line) => !('id' in (line as object)));
  // A return is priced from its sale, not from the price lists.
  const { source, sale } = useSaleOf(businessId, definition, record, pending);
  const sent = pending && !source ? (record.lines as SentLine[]) : [];
  const rows: LineRow[] = sent.map((line) => ({
    item_id: line.item_id,
    unit_of_measurement_id: line.unit_of_measurement_id,
    quantity: text(line.quantity),
    unit_price: text(line.unit_price),
    discount_percent: text(line.discount_percent),
  }));
  // A synced document is read as it is: nothing of the price lists or the stock is asked for it.
  const pricing = useLinePricing(rows, lineContext(pending ? definition.document : undefined, record));
  const units = useQuery({
    ...listQuery(businessId, getResource('unit-of-measurements'), { per_page: 100, order_by: 'asc', order_by_field_name: 'name' }),
    enabled: pending && !source,
  });
  if (!pending) return record;
  if (source) return pendingReturn(record, sale.data, source.field);
  const unitName = new Map((units.data?.data ?? []).map((unit) => [Number(unit.id), String(unit.abbreviation)]));
  const priced = pricing.states.map((state) => (state.kind === 'priced' ? state.line : null));
  const lines: DocumentLine[] = rows.map((row, index) => {
    const item = pricing.itemOf.get(row.item_id ?? 0);
    const line = priced[index];
    return {
      id: -(index + 1),
      item_id: row.item_id ?? 0,
      item: item ? { id: Number(item.id), display: String(item.name), sku: String(item.sku) } : null,
      unit_of_measurement_id: row.unit_of_measurement_id ?? 0,
      unit: unitName.get(row.unit_of_measurement_id ?? 0) ?? null,
      quantity: Number(row.quantity),
      unit_price: line ? centavosToPesos(line.unitPrice) : Number.NaN,
      discount_percent: line ? line.discountHundredths / 100 : 0,
      vat_category: line?.category ?? 'vatable',
      sc_pwd: line?.scPwd ?? false,
      amount: line ? centavosToPesos(line.amount) : Number.NaN,
      vat: line ? centavosToPesos(line.vat) : 0,
      quantity_done: 0,
    };
  });
  const totals = documentTotals(priced.filter((line) => line !== null));
  return {
    ...record,
    lines,
    ...totalsInPesos(totals, pricing.pricesIncludeVat),
    unpriced: priced.some((line) => line === null),
  };
}
