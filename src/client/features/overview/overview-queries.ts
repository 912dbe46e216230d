import { queryOptions } from '@tanstack/react-query';
import type { LocationType } from '../../../domain/documents';
import { api, queryString, type Query } from '../../lib/api';
import { keptAnswer } from '../../lib/kept-answer';
import type { ReadBack } from '../../lib/resource-queries';

/** The overview's figures, one endpoint per card (src/server/routes/overview.routes.ts); money in pesos. */

export interface SalesPurchases {
  /** Every period of the range, zeros included; a series is absent when the user may not view it. */
  data: { period: string; sales?: number; purchases?: number }[];
  totals: { sales?: number; purchases?: number };
  /** Each side's documents over the period by how they were taxed: output VAT on sales, input VAT on purchases. */
  vat?: { sales?: VatBreakdown; purchases?: VatBreakdown };
}

export interface VatBreakdown {
  vatable_sales: number;
  exempt_sales: number;
  zero_rated_sales: number;
  vat_total: number;
}

export type AgingBucket = '0-30' | '31-60' | '61-90' | '90+';

export interface UnpaidDocument {
  id: number;
  number: string;
  contact: string | null;
  date: string;
  due_date: string | null;
  balance: number;
  days_overdue: number;
}

/** Unpaid invoices (receivables) or bills (payables). */
export interface Unpaid {
  data: {
    total: number;
    count: number;
    aging: { bucket: AgingBucket; amount: number; count: number }[];
    /** The most overdue first. */
    oldest: UnpaidDocument[];
  };
}

export interface StockValue {
  data: { location_type: LocationType; location_id: number; name: string; value: number; items: number }[];
  total: number;
}

export interface LowStock {
  data: {
    stock_id: number;
    item_id: number;
    item: string;
    sku: string | null;
    location_type: LocationType;
    location_id: number;
    location: string;
    quantity_on_hand: number;
    reorder_level: number;
    unit: string | null;
    /** The open stock request from its place already asking for its item; absent from an answer kept before the server sent it. */
    open_request?: { id: number; number: string } | null;
  }[];
  /** All the stocks at or under their reorder level, of which `data` shows the lowest. */
  total: number;
}

export interface TopItems {
  data: { item_id: number; item: string; quantity: number; amount: number }[];
}

/** A period's gross margin, by the place that sold (GET /api/overview/margins). */
export interface MarginFigures {
  sales: number;
  cost_of_goods: number;
  margin: number;
  margin_percent: number | null;
}

export interface Margins {
  data: ({ location_type: LocationType; location_id: number; name: string } & MarginFigures)[];
  total: MarginFigures;
  /** Lines sold without a cost, counted at nothing. */
  uncosted: number;
}

export interface ReturnsByReason {
  returns: number;
  amount: number;
  data: { reason: string; label: string; returns: number; amount: number }[];
}

export interface RecentDocuments {
  data: {
    resource: string;
    singular: string;
    id: number;
    number: string;
    date: string;
    contact: string | null;
    total: number | null;
    status: string | null;
    created_at: string;
  }[];
}

export type OverviewCard =
  | 'sales-purchases'
  | 'receivables'
  | 'payables'
  | 'receivables/ageing'
  | 'payables/ageing'
  | 'stock-value'
  | 'low-stock'
  | 'top-items'
  | 'margins'
  | 'returns'
  | 'recent-documents';

/**
 * One card's figures: from the server, kept on this device like lists are; without a network,
 * the kept copy with the time it was saved. `what` names the card in the "not available
 * offline" message.
 */
export const overviewQuery = <T extends object>(businessId: number | null, card: OverviewCard, what: string, params: Query = {}) =>
  queryOptions({
    queryKey: [businessId, 'overview', card, params],
    queryFn: ({ signal }): Promise<T & ReadBack> =>
      keptAnswer(businessId, 'overview', `${businessId}|overview|${card}|${queryString(params)}`, what, () =>
        api<T>('GET', `/api/overview/${card}`, { query: params, signal }),
      ),
    networkMode: 'always',
    // While another period loads, the chart keeps the one shown — never another business's.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[0] === businessId ? previous : undefined),
    retry: false,
  });

/** A card's figures as the screen asks for them (overview-screen.tsx): the query, and whether the user may see them. */
export type OverviewQueryOptions<T extends object> = ReturnType<typeof overviewQuery<T>> & { enabled?: boolean };
