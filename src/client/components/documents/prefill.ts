import type { Prefill } from '../../../domain/lifecycle';
import { todayInManila } from '../../../domain/documents';
import { referenceKey, type ResourceDefinition } from '../../../domain/resource';
import { getResource } from '../../../domain/resources/registry';
import { paidInTenders } from '../../../domain/tenders';
import { placesAt, soleOperatingPlace, type Place } from '../../lib/places';
import { startingValues } from '../crud/record-form';
import type { FormValues } from '../crud/field-input';
import { emptyLine, rowsOf, type DocumentLine, type LineRow, type ReturnLineBody } from './line-rows';
import { countsOnArrival, receiving } from './receive-rows';
import { returnableRow, returnsGoods, returning, type ReturnRows } from './return-rows';
import { emptyTender } from './tender-rows';

/** The document a form is made from, and the field that names it (`stock_return_id` of `stock-returns`). */
export type SourceLink = NonNullable<NonNullable<ResourceDefinition['document']>['source']>;

/** Fields a document made from another takes from it: its party, and where the goods are. */
const PARTY_AND_PLACE = [
  'contact_id',
  'branch_id',
  'warehouse_id',
  'from_location_type',
  'from_location_id',
  'to_location_type',
  'to_location_id',
];

/**
 * A source line still open, to be fulfilled by this document (a purchase order line being
 * received); `counted`: its quantity starts blank, to be counted (see `countsOnArrival` in receive-rows.ts).
 */
const openLine = (line: DocumentLine, open: number, counted = false): LineRow => ({
  ...rowsOf([line])[0],
  quantity: counted ? '' : String(open),
  source_line_id: line.id,
  open,
});

/** What a document made from its source starts with, as the source's lifecycle declares it. */
function prefillOf(definition: ResourceDefinition, link: SourceLink): Prefill | undefined {
  return getResource(link.resource).document?.lifecycle.followOns?.find(
    (followOn) => followOn.resource === definition.name && followOn.field === link.field,
  )?.prefill;
}

/** What may still be done of a source line: what is open of it, or what arrived of it (a return's). */
const remaining = (line: DocumentLine, prefill: 'open-lines' | 'done-lines') =>
  Math.round((prefill === 'done-lines' ? line.quantity_done : line.quantity - line.quantity_done) * 1000) / 1000;

/**
 * A new document's form: dated today, with one empty line; made from a source document
 * (`/receive-orders/create/{purchase_order_id}`), it takes the source's party, location and
 * what its lifecycle says — a receive order what is left to receive, a bill the order's lines,
 * a payment the bill's balance (in its first tender).
 */
export function documentStartingValues(
  definition: ResourceDefinition,
  source?: Record<string, unknown>,
  link = definition.document?.source,
): FormValues {
  const values: FormValues = { ...startingValues(definition), date: todayInManila() };
  if (!link || !source) return values;
  values[link.field] = source.id;
  for (const name of PARTY_AND_PLACE) if (name in values) values[name] = source[name] ?? null;
  const lines = (source.lines as DocumentLine[] | undefined) ?? [];
  const prefill = prefillOf(definition, link);
  if (prefill === 'open-lines' || prefill === 'done-lines') {
    const counted = prefill === 'open-lines' && countsOnArrival(definition);
    const open = lines.filter((line) => remaining(line, prefill) > 0);
    const rows = open.map((line) => openLine(line, remaining(line, prefill), counted));
    // A receive's lines go with its answer about what did not arrive (receive-rows.ts); a return's
    // with how the customer is paid back, each line blank until something of it comes back.
    if (returnsGoods(definition)) {
      const returnable = rows.map((row, index) => returnableRow(row, open[index], definition.document!.returns!.usualDisposition));
      values.lines = returning(returnable, Boolean(source.prices_include_vat));
    } else values.lines = countsOnArrival(definition) ? receiving(rows) : rows;
  } else if (prefill === 'all-lines') {
    values.lines = rowsOf(lines);
  } else if (prefill === 'balance' && typeof source.balance === 'number') {
    values.amount = String(source.balance);
    // A payment's is its first tender's.
    if (paidInTenders(definition)) values.tenders = [emptyTender(String(source.balance))];
  }
  return values;
}

/**
 * The rows of a queued return (`queued`, its lines as its create was sent) against its sale as the
 * device holds it now (`sale`): each sold line still returnable, with how much of it the queued
 * return took back, why and what became of it — so that correcting a refused return (Pending
 * changes' "Edit and retry") shows what is left to return, and sends the sold lines it names.
 */
export function returnAgainst(
  definition: ResourceDefinition,
  sale: Record<string, unknown>,
  queued: readonly Partial<ReturnLineBody>[],
): Pick<ReturnRows, 'rows' | 'pricesIncludeVat'> {
  const fresh = documentStartingValues(definition, sale).lines as ReturnRows;
  const said = new Map(queued.map((line) => [line.source_line_id, line]));
  const rows = fresh.rows.map((row) => {
    const line = said.get(row.source_line_id);
    if (!line) return row;
    return {
      ...row,
      quantity: line.quantity === null || line.quantity === undefined ? '' : String(line.quantity),
      reason: line.reason ?? '',
      note: line.note ?? '',
      disposition: line.disposition ?? row.disposition,
    };
  });
  return { rows, pricesIncludeVat: fresh.pricesIncludeVat };
}

/** Where a user works: a branch or a warehouse, with its name as the profile gives it ("Branch: Makati"). */
export interface Workplace {
  type: 'branch' | 'warehouse';
  id: number;
  name: string;
}

/**
 * A new document starts at the user's own place, at the end where it is made (domain/places.ts:
 * an invoice's or an order's branch or warehouse, where a transfer or a return leaves, where a
 * stock request asks for goods): the one place they operate at, or else where they work when
 * they operate there. `places` unknown (never listed on this device): where they work. A field
 * the place does not fit (a branch field for a warehouse) stays blank, as does one already filled.
 */
export function atOwnPlace(
  definition: ResourceDefinition,
  values: FormValues,
  places: readonly Place[] | undefined,
  workplace: Workplace | undefined,
) {
  const unchanged = { values, known: undefined };
  const end = definition.document && definition.places ? definition.places.ends[definition.places.operates] : undefined;
  if (!end) return unchanged;
  const operated = places && placesAt(places, 'operate');
  const works = workplace && operated?.find((place) => place.type === workplace.type && place.id === workplace.id);
  const own = places ? (soleOperatingPlace(places) ?? works) : workplace;
  if (!own) return unchanged;
  const field = 'type' in end ? end.id : end[own.type];
  const writable = field !== undefined && definition.fields[field] && !definition.fields[field].computed;
  if (!writable || (values[field] !== null && values[field] !== undefined && values[field] !== '')) return unchanged;
  const placed: FormValues = { ...values, [field]: own.id };
  if ('type' in end) placed[end.type] = own.type;
  return { values: placed, known: { [field]: own.id, [referenceKey(field)]: { id: own.id, display: own.name } } };
}

/** Documents that restock a low stock, and the fields that say where the goods should go. */
const RESTOCKING: Record<string, (stock: Record<string, unknown>) => FormValues> = {
  'stock-requests': (stock) => ({ to_location_type: stock.location_type, to_location_id: stock.location_id }),
  'purchase-orders': (stock) => ({ [stock.location_type === 'branch' ? 'branch_id' : 'warehouse_id']: stock.location_id }),
};

export const restocks = (definition: ResourceDefinition) => definition.name in RESTOCKING;

/**
 * A new request or order for a low stock (`?restock={stock id}`, from the overview): its place,
 * and one line of its item, in its base unit, for what brings it back to twice its reorder level.
 */
export function restockValues(definition: ResourceDefinition, stock: Record<string, unknown>): FormValues {
  const values = documentStartingValues(definition);
  const reorder = Number(stock.reorder_level ?? 0);
  const wanted = Math.max(1, Math.round((2 * reorder - Number(stock.quantity_on_hand)) * 1000) / 1000);
  const line: LineRow = {
    ...emptyLine(),
    item_id: Number(stock.item_id),
    item_name: (stock.item as { display?: string } | null)?.display ?? null,
    unit_of_measurement_id: stock.unit_of_measurement_id === null ? null : Number(stock.unit_of_measurement_id),
    quantity: String(wanted),
  };
  return { ...values, ...RESTOCKING[definition.name](stock), lines: [line] };
}

/** The restocked place with its name, for its picker. */
export function restockDisplays(definition: ResourceDefinition, stock: Record<string, unknown>): Record<string, unknown> {
  const place = RESTOCKING[definition.name](stock);
  const [field] = Object.keys(place).filter((name) => name.endsWith('_id'));
  return { ...place, [field.replace(/_id$/, '')]: stock.location };
}

/**
 * What the pickers of a form made from a source document show before anyone touches them: the
 * source's own names for its party and location, and its number for itself.
 */
export function sourceDisplays(
  definition: ResourceDefinition,
  source: Record<string, unknown> | undefined,
  link = definition.document?.source,
): Record<string, unknown> | undefined {
  if (!link || !source) return undefined;
  const known: Record<string, unknown> = {
    [link.field]: source.id,
    [link.field.replace(/_id$/, '')]: { id: source.id, display: source.number },
  };
  for (const name of PARTY_AND_PLACE) {
    known[name] = source[name];
    known[name.replace(/_id$/, '')] = source[name.replace(/_id$/, '')];
  }
  return known;
}
