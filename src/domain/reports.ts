import type { LocationType } from './documents';
import type { ListMeta } from './list-params';
import { holdsAny, VIEW_COSTS_PERMISSION } from './permissions';

/**
 * The reports on what goods cost (docs/costing.md): stock value on a date, by place and item —
 * which, on the last day of a year, is the annual inventory list the BIR asks for — and the gross
 * margin of a period, by place, item, brand, classification or user. The server builds them
 * (server/reports), the client shows them (client/features/reports); the inventory list is also a
 * CSV and a PDF to print. Money in pesos, quantities in the item's base unit. Types, not
 * interfaces: the routes' answer schemas take them as the plain records they are.
 */

/** The business as a report's heading names it: its registered name (or its name), trade name, address and TIN. */
export type ReportBusiness = { name: string; trade_name: string | null; address: string | null; tin: string | null };

/** What one place held of one item at the end of a day, and what it was worth at the item's average cost that day. */
export type StockValueRow = {
  item_id: number;
  sku: string;
  item: string;
  description: string | null;
  location_type: LocationType;
  location_id: number;
  location: string;
  /** On hand at the end of the day, in the base unit, to 3 places. */
  quantity: number;
  /** The base unit's abbreviation (its name when it has none). */
  unit: string;
  /** The item's moving-average cost per base unit that day, in pesos to 4 places; null for goods never costed. */
  unit_cost: number | null;
  /** Quantity × cost, in pesos to 2 places (nothing for goods never costed). */
  value: number;
};

/** One place's goods on a day: how many items it held and what they were worth. */
export type StockValuePlace = { location_type: LocationType; location_id: number; name: string; items: number; value: number };

/** `GET /api/reports/stock-value`: the places' totals, and a page of their rows (by place name, then item name). */
export type StockValueReport = {
  date: string;
  business: ReportBusiness;
  places: StockValuePlace[];
  total: number;
  /** Rows of goods never costed, counted at nothing. */
  uncosted: number;
  data: StockValueRow[];
  meta: ListMeta;
};

/** The inventory list as it is printed (its PDF): every row, place by place, each with its total. */
export type InventoryList = {
  date: string;
  business: ReportBusiness;
  places: (StockValuePlace & { rows: StockValueRow[] })[];
  total: number;
};

/** What a margin report's rows are grouped by. */
export const MARGIN_GROUPS = ['place', 'item', 'brand', 'classification', 'user'] as const;
export type MarginGroup = (typeof MARGIN_GROUPS)[number];

export const MARGIN_GROUP_LABELS: Record<MarginGroup, string> = {
  place: 'Place',
  item: 'Item',
  brand: 'Brand',
  classification: 'Classification',
  user: 'User',
};

/** A period's sales, net of VAT and of what returns gave back, against what those goods cost. */
export type MarginFigures = { sales: number; cost_of_goods: number; margin: number; margin_percent: number | null };

/**
 * One group's figures. `key` names the group (`branch:3`, `warehouse:1`, `item:42`, `brand:5`,
 * `classification:2`, `user:7`; `brand:none` and the like for sales of items without one);
 * `code` is an item's SKU, null for other groups.
 */
export type MarginRow = MarginFigures & { key: string; name: string; code: string | null };

/** `GET /api/reports/margins`: a page of groups, the highest margin first, and the period's totals. */
export type MarginsReport = {
  from: string;
  to: string;
  by: MarginGroup;
  data: MarginRow[];
  total: MarginFigures;
  /** Lines sold without a cost (goods never costed), counted at nothing. */
  uncosted: number;
  meta: ListMeta;
};

/** Who may read the stock value report (and the inventory list): who views stocks and costs. */
export const readsStockValue = (permissions: ReadonlySet<string> | readonly string[]) =>
  holdsAny(permissions, ['view-stocks']) && holdsAny(permissions, [VIEW_COSTS_PERMISSION]);

/** Who may read the margin report: who views invoices and costs. */
export const readsMargins = (permissions: ReadonlySet<string> | readonly string[]) =>
  holdsAny(permissions, ['view-invoices']) && holdsAny(permissions, [VIEW_COSTS_PERMISSION]);
