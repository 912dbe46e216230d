import { useQuery } from '@tanstack/react-query';
import { centavosToPesos } from '../../../domain/money';
import type { ResourceDefinition } from '../../../domain/resource';
import { getResource } from '../../../domain/resources/registry';
import { documentTotals } from '../../../domain/documents';
import { isClientKey } from '../../lib/outbox';
import { listQuery, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId } from '../../lib/session';
import type { DocumentLine, LineRow } from './line-rows';
import { lineContext, useLinePricing } from './line-pricing';
import { totalsInPesos } from './printed-figures';

/** A line as a create sends it (`linesBody`). */
interface SentLine {
  item_id: number | null;
  unit_of_measurement_id: number | null;
  quantity: number | string;
  unit_price: number | null;
  discount_percent: number | null;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

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
  const sent = pending ? (record.lines as SentLine[]) : [];
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
    enabled: pending,
  });
  if (!pending) return record;
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
