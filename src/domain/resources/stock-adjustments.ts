import type { SelectOption } from '../fields';
import { date, reference, select, text, textarea } from '../fields';
import { statusLabel, statusValues, type Lifecycle } from '../lifecycle';
import { defineResource } from '../resource';

/** Why a line of a stock adjustment changes the stock: each line says one of these. */
export const ADJUSTMENT_REASONS: readonly SelectOption[] = [
  { value: 'damaged', label: 'Damaged' },
  { value: 'expired', label: 'Expired' },
  { value: 'lost', label: 'Lost' },
  { value: 'found', label: 'Found' },
  { value: 'count_correction', label: 'Count correction' },
  { value: 'opening_balance', label: 'Opening balance' },
  { value: 'other', label: 'Other' },
];

/** The reason whose line must say more in its note. */
export const OTHER_REASON = 'other';

const lifecycle: Lifecycle = {
  statuses: { posted: 'complete', void: 'undone' },
  transitions: [
    {
      name: 'void',
      from: ['posted'],
      to: 'void',
      permission: 'delete',
      reverses: 'Each line’s change to the stock is undone: what it added leaves stock, what it took away returns.',
    },
  ],
  trashable: ['void'],
};

/**
 * Stock corrected at one place, outside buying, selling and transfers: goods damaged, expired,
 * lost or found, a count's differences, the stock a business had before it used Bodega. Each line
 * is an item, a unit and a signed quantity (added when positive, taken away when negative) with
 * its reason. Posted when made, the ledger moving in the same transaction; a void undoes it once.
 */
export const stockAdjustments = defineResource({
  name: 'stock-adjustments',
  singular: 'Stock Adjustment',
  plural: 'Stock Adjustments',
  display: 'number',
  editable: false,
  document: { type: 'stock-adjustment', prefix: 'SA', lines: 'adjustments', stock: 'both', lifecycle },
  fields: {
    number: text('Number', { computed: true }),
    branch_id: reference('Branch', 'branches'),
    warehouse_id: reference('Warehouse', 'warehouses'),
    date: date('Date', { required: true }),
    notes: textarea('Notes'),
    stock_count_id: reference('Stock count', 'stock-counts', { computed: true }),
    status: select(
      'Status',
      statusValues(lifecycle).map((value) => ({ value, label: statusLabel(value) })),
      { computed: true },
    ),
  },
  search: ['id', 'number', 'branch_id', 'warehouse_id', 'status', 'date', 'stock_count_id'],
  sort: ['number', 'date', 'status'],
  columns: ['number', 'date', 'branch_id', 'warehouse_id', 'status'],
});
