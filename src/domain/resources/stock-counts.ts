import type { SelectOption } from '../fields';
import { boolean, date, reference, select, text, textarea } from '../fields';
import { statusValues, type Lifecycle } from '../lifecycle';
import { defineResource } from '../resource';
import { statusField } from './document-fields';

/** Which items a count covers at its place. */
export const COUNT_SCOPES: readonly SelectOption[] = [
  { value: 'all', label: 'Every item' },
  { value: 'brand', label: 'One brand' },
  { value: 'item_classification', label: 'One item classification' },
  { value: 'item_type', label: 'One item type' },
  { value: 'picked', label: 'Picked items (added as they are counted)' },
];

/** The field naming what a scope narrows the items to: `brand` → `brand_id`. */
export const SCOPE_FIELDS: Readonly<Record<string, string>> = {
  brand: 'brand_id',
  item_classification: 'item_classification_id',
  item_type: 'item_type_id',
};

/** Which of a count's lines are read (`GET /api/stock-counts/{id}/lines?show=`). */
export const COUNT_LINE_FILTERS = [
  { value: 'all', label: 'Every item' },
  { value: 'uncounted', label: 'Not counted yet' },
  { value: 'counted', label: 'Counted' },
  { value: 'differences', label: 'Differences' },
] as const satisfies readonly SelectOption[];

export type CountLineFilter = (typeof COUNT_LINE_FILTERS)[number]['value'];

/** A count's lines come a page at a time: a count of every item of a large business is too many for one answer. */
export const COUNT_LINES_PAGE = 100;

/**
 * Why an item may not be counted on a count: it is outside the count's scope — of another brand,
 * item classification or item type than the one the count covers (`covered` names it). Null when
 * it belongs, as every item does on a count of every item or of picked items. (An item already on
 * the count belongs whatever it is now: the caller does not ask.)
 */
export function outsideScope(count: Record<string, unknown>, item: Record<string, unknown>, covered: string | null): string | null {
  const field = SCOPE_FIELDS[String(count.scope)];
  if (!field || Number(item[field]) === Number(count[field])) return null;
  const kind = stockCounts.fields[field].label.toLowerCase();
  return `${String(item.name)} is not of the ${kind} this count covers${covered ? ` (${covered})` : ''}: count it on a count of its own.`;
}

const lifecycle: Lifecycle = {
  // Counted: counting is finished (a blind count's differences show), and it waits to be posted.
  statuses: { open: 'open', counted: 'outstanding', posted: 'complete', cancelled: 'undone' },
  start: 'open',
  transitions: [
    {
      name: 'finish',
      direction: 'forward',
      label: 'Finish counting',
      from: ['open'],
      to: 'counted',
      permission: 'update',
      does:
        'Nothing more can be counted on it or taken off it. Then what was expected of each item and what it differs by show, ' +
        'to be seen before it is posted.',
      over: 'its counting is over',
      logged: 'finished-counting',
      onSheet: true,
    },
    {
      // Its differences go into stock as a stock adjustment (server/documents/counts.ts): for who may write one.
      name: 'post',
      direction: 'forward',
      label: 'Post count',
      from: ['open', 'counted'],
      to: 'posted',
      permission: 'update',
      alsoNeeds: { permission: 'create', resource: 'stock-adjustments' },
      // A blind count's differences are seen before they go into stock.
      blocked: (count) =>
        count.blind && count.status === 'open'
          ? 'is blind: finish counting it first, so that its differences are seen before they are posted'
          : undefined,
      does:
        'A stock adjustment brings each counted item to what was counted; items not counted are left as they are. ' +
        'Nothing can be counted on it afterwards.',
      over: 'nothing can be posted from it any more',
      // Asked with the differences it posts listed.
      onSheet: true,
    },
    {
      name: 'cancel',
      direction: 'undo',
      from: ['open', 'counted'],
      to: 'cancelled',
      permission: 'update',
      reverses: 'Nothing is posted: what was counted stays on it, and the stock is left as it is.',
    },
  ],
  trashable: ['cancelled'],
};

/**
 * While a blind count is being counted, nobody sees what is expected of its items, what moved
 * since, what is on hand, nor what a count differs by: a counter who knows what to expect tends to
 * find it. Once counting is finished (or the count posted or cancelled) they show as on any count.
 * Nobody is excepted: the people who count are the people who post (both belong to a warehouse
 * clerk's job), so an exception for who may post would show every counter what to expect.
 */
export const expectedHidden = (count: Readonly<Record<string, unknown>>): boolean => Boolean(count.blind) && count.status === 'open';

/**
 * A stock count at one place. Starting it records, for each item in its scope, what the ledger
 * holds there; counters then add what they count (entries, from any number of devices, which add
 * up); finishing it closes the counting; posting it writes one stock adjustment (reason: count
 * correction) that brings each counted item's balance to what was counted, once. A blind count
 * (chosen when it is started) is counted without seeing what is expected, and is finished before
 * it is posted.
 */
export const stockCounts = defineResource({
  name: 'stock-counts',
  singular: 'Stock Count',
  plural: 'Stock Counts',
  display: 'number',
  menu: { group: 'Inventory', icon: 'clipboard-check' },
  editable: false,
  document: { type: 'stock-count', prefix: 'SC', lines: 'none', lifecycle },
  fields: {
    number: text('Number', { computed: true }),
    branch_id: reference('Branch', 'branches'),
    warehouse_id: reference('Warehouse', 'warehouses'),
    date: date('Date', { required: true }),
    scope: select('Items counted', COUNT_SCOPES, { required: true }),
    brand_id: reference('Brand', 'brands', { shownWhen: { field: 'scope', is: 'brand' } }),
    item_classification_id: reference('Item classification', 'item-classifications', {
      shownWhen: { field: 'scope', is: 'item_classification' },
    }),
    item_type_id: reference('Item type', 'item-types', { shownWhen: { field: 'scope', is: 'item_type' } }),
    blind: boolean('Blind count (what is expected stays hidden until counting is finished)'),
    notes: textarea('Notes'),
    status: statusField(statusValues(lifecycle)),
    stock_adjustment_id: reference('Stock adjustment', 'stock-adjustments', { computed: true }),
  },
  search: ['id', 'number', 'branch_id', 'warehouse_id', 'status', 'date', 'scope'],
  sort: ['number', 'date', 'status'],
  columns: ['number', 'date', 'branch_id', 'warehouse_id', 'scope', 'status'],
});
