import type { Db, Scope } from '../db/scope';
import { monthOf, periodsOf, type Interval } from './calendar';
import { liveDocuments, pesos, type BalanceTable } from './live-documents';

export interface SalesPurchasesQuery {
  from: string;
  to: string;
  interval: Interval;
  /** What the user may see: invoices (sales), bills (purchases). */
  sales: boolean;
  purchases: boolean;
}

export interface PeriodTotals {
  period: string;
  sales?: number;
  purchases?: number;
}

/** A side's sales (or purchases) net of VAT by how they were taxed, and the VAT: output VAT on sales, input VAT on purchases. */
export type VatBreakdown = {
  vatable_sales: number;
  exempt_sales: number;
  zero_rated_sales: number;
  vat_total: number;
};

const BREAKDOWN = ['vatable_sales', 'exempt_sales', 'zero_rated_sales', 'vat_total'] as const;

async function vatBreakdown(db: Db, table: BalanceTable, scope: Scope, query: SalesPurchasesQuery): Promise<VatBreakdown> {
  const row = await liveDocuments(db, table, scope)
    .where('date', '>=', query.from)
    .where('date', '<=', query.to)
    .select((eb) => BREAKDOWN.map((column) => eb.fn.sum(column).as(column)))
    .executeTakeFirst();
  const sums = (row ?? {}) as Record<string, unknown>;
  return Object.fromEntries(BREAKDOWN.map((column) => [column, pesos(sums[column])])) as unknown as VatBreakdown;
}

/** Centavos per period label, from the documents' totals by their own date. */
async function totalsByPeriod(db: Db, table: BalanceTable, scope: Scope, query: SalesPurchasesQuery) {
  const rows = await liveDocuments(db, table, scope)
    .where('date', '>=', query.from)
    .where('date', '<=', query.to)
    .select(['date', (eb) => eb.fn.sum('total').as('total')])
    .groupBy('date')
    .execute();
  const byPeriod = new Map<string, number>();
  for (const row of rows) {
    const period = query.interval === 'day' ? String(row.date) : monthOf(String(row.date));
    byPeriod.set(period, (byPeriod.get(period) ?? 0) + Number(row.total));
  }
  return byPeriod;
}

/**
 * Sales (invoices' totals by invoice date) and purchases (bills' totals by bill date) for every
 * day or month from `from` to `to`, zeros included, and each side's VAT breakdown over the
 * period, from the places the user views; a side the user may not view is left out.
 */
export async function salesAndPurchases(db: Db, scope: Scope, query: SalesPurchasesQuery) {
  const sales = query.sales ? await totalsByPeriod(db, 'invoices', scope, query) : undefined;
  const purchases = query.purchases ? await totalsByPeriod(db, 'bills', scope, query) : undefined;
  const sum = (byPeriod: Map<string, number>) => [...byPeriod.values()].reduce((total, centavos) => total + centavos, 0);
  const data: PeriodTotals[] = periodsOf(query.from, query.to, query.interval).map((period) => ({
    period,
    ...(sales && { sales: pesos(sales.get(period)) }),
    ...(purchases && { purchases: pesos(purchases.get(period)) }),
  }));
  return {
    data,
    totals: {
      ...(sales && { sales: pesos(sum(sales)) }),
      ...(purchases && { purchases: pesos(sum(purchases)) }),
    },
    vat: {
      ...(sales && { sales: await vatBreakdown(db, 'invoices', scope, query) }),
      ...(purchases && { purchases: await vatBreakdown(db, 'bills', scope, query) }),
    },
  };
}
