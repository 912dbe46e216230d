import type { SelectOption } from '../fields';
import { date, reference, text, textarea } from '../fields';
import { statusValues } from '../lifecycle';
import { defineResource } from '../resource';
import { postedLifecycle, statusField } from './document-fields';

/** Which way a reason moves the stock: `out` takes goods away, `in` adds them, `either` may do both. */
export type ReasonDirection = 'in' | 'out' | 'either';

export interface AdjustmentReason extends SelectOption {
  direction: ReasonDirection;
  /** The goods, as a refusal of the wrong sign names them; `{label} goods` where absent. */
  goods?: string;
}

/** Quarantined goods (a return's, held back from sale) let go to be sold: on hand already, they stop being quarantined. */
export const RELEASED = 'released';
/** Quarantined goods written off: they leave the stock, and the quarantine. */
export const QUARANTINE_WRITTEN_OFF = 'quarantine_written_off';

/**
 * Why a line of a stock adjustment changes the stock: each line says one of these. Goods damaged,
 * expired or lost leave the stock and goods found come in, so those reasons decide the sign of
 * their line's quantity; a count's correction, an opening balance and "other" go either way. Two
 * take goods out of quarantine: released ones become sellable (a quantity above zero, as they add
 * to what may be sold) and written-off ones leave the stock (below zero).
 */
export const ADJUSTMENT_REASONS: readonly AdjustmentReason[] = [
  { value: 'damaged', label: 'Damaged', direction: 'out' },
  { value: 'expired', label: 'Expired', direction: 'out' },
  { value: 'lost', label: 'Lost', direction: 'out' },
  { value: 'found', label: 'Found', direction: 'in' },
  { value: 'count_correction', label: 'Count correction', direction: 'either' },
  { value: 'opening_balance', label: 'Opening balance', direction: 'either' },
  { value: RELEASED, label: 'Released from quarantine', direction: 'in', goods: 'Goods released from quarantine' },
  { value: QUARANTINE_WRITTEN_OFF, label: 'Written off from quarantine', direction: 'out', goods: 'Quarantined goods written off' },
  { value: 'other', label: 'Other', direction: 'either' },
];

/** The reasons whose lines move what is on hand and sellable, not the quarantine. */
const SELLABLE_REASONS = ADJUSTMENT_REASONS.map((option) => option.value).filter(
  (reason) => reason !== RELEASED && reason !== QUARANTINE_WRITTEN_OFF,
);

/** The way a line with this reason moves the stock; `either` while no reason (or one it does not know) is chosen. */
export const reasonDirection = (reason: string | null | undefined): ReasonDirection =>
  ADJUSTMENT_REASONS.find((option) => option.value === reason)?.direction ?? 'either';

/**
 * What is wrong with a line's quantity for its reason, in words, or undefined when its sign is
 * the reason's: "Damaged goods leave the stock: the quantity must be below zero (−3, not 3)."
 */
export function reasonSignRefusal(reason: string | null | undefined, quantity: number): string | undefined {
  const option = ADJUSTMENT_REASONS.find((candidate) => candidate.value === reason);
  if (!option || quantity === 0) return undefined;
  const size = String(Math.abs(quantity));
  const goods = option.goods ?? `${option.label} goods`;
  if (option.direction === 'out' && quantity > 0)
    return `${goods} leave the stock: the quantity must be below zero (−${size}, not ${size}).`;
  if (option.direction === 'in' && quantity < 0)
    return `${goods} come into stock: the quantity must be above zero (${size}, not −${size}).`;
  return undefined;
}

/** The reason whose line must say more in its note. */
export const OTHER_REASON = 'other';

const lifecycle = postedLifecycle(
  'Each line’s change to the stock is undone: what it added leaves stock, what it took away returns.',
  // A clerk who posted a wrong adjustment undoes it at once, rather than posting a second one.
  { byMakerSameDay: true },
);

/**
 * Stock corrected at one place, outside buying, selling and transfers: goods damaged, expired,
 * lost or found, a count's differences, the stock a business had before it used Bodega. Each line
 * is an item, a unit and a signed quantity (added when positive, taken away when negative) with
 * its reason, which may decide the sign. Posted when made, the ledger moving in the same
 * transaction; a void undoes it once — by someone who may delete adjustments, or by its maker on
 * the day they made it.
 */
export const stockAdjustments = defineResource({
  name: 'stock-adjustments',
  singular: 'Stock Adjustment',
  plural: 'Stock Adjustments',
  display: 'number',
  menu: { group: 'Inventory', icon: 'sliders-horizontal' },
  editable: false,
  document: {
    type: 'stock-adjustment',
    prefix: 'SA',
    lines: 'adjustments',
    stock: 'both',
    // Its lines are signed: a negative one takes goods away (from quarantine, for a quarantined write-off).
    effects: {
      stock: [
        { at: 'own', onHand: 1, inTransit: 0, reasons: SELLABLE_REASONS },
        { at: 'own', onHand: 0, inTransit: 0, quarantined: -1, reasons: [RELEASED] },
        { at: 'own', onHand: 1, inTransit: 0, quarantined: 1, reasons: [QUARANTINE_WRITTEN_OFF] },
      ],
      // An opening balance comes in at the cost it was imported with; goods found, a count's gains and losses at the average.
      cost: { from: 'unit-price', reasons: ['opening_balance'] },
    },
    lifecycle,
  },
  fields: {
    number: text('Number', { computed: true }),
    branch_id: reference('Branch', 'branches'),
    warehouse_id: reference('Warehouse', 'warehouses'),
    date: date('Date', { required: true }),
    notes: textarea('Notes'),
    stock_count_id: reference('Stock count', 'stock-counts', { computed: true }),
    status: statusField(statusValues(lifecycle)),
  },
  search: ['id', 'number', 'branch_id', 'warehouse_id', 'status', 'date', 'stock_count_id'],
  sort: ['number', 'date', 'status'],
  columns: ['number', 'date', 'branch_id', 'warehouse_id', 'status'],
});
