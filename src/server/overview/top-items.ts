import type { Db, Scope } from '../db/scope';
import { liveDocuments, pesos, quantity } from './live-documents';

/**
 * The items that sold for the most from `from` to `to`: their invoice lines' amounts (after
 * discount, before VAT) and quantities in the item's base unit, so that boxes and pieces add up;
 * from the invoices of the places the user views.
 */
export async function topItems(db: Db, scope: Scope, from: string, to: string, limit: number) {
  // From the period's invoices (invoices_live_date_index) to their lines; the cross join keeps
  // SQLite in that order, which without statistics would rather read every invoice line.
  const ranked = liveDocuments(db, 'invoices', scope)
    .crossJoin('document_lines')
    .where('invoices.date', '>=', from)
    .where('invoices.date', '<=', to)
    .whereRef('document_lines.document_id', '=', 'invoices.id')
    .where('document_lines.document_type', '=', 'invoice')
    .select([
      'document_lines.item_id',
      (eb) => eb.fn.sum('document_lines.base_quantity').as('quantity'),
      (eb) => eb.fn.sum('document_lines.amount').as('amount'),
    ])
    .groupBy('document_lines.item_id')
    .orderBy('amount', 'desc')
    .orderBy('document_lines.item_id')
    .limit(limit);
  const rows = await db
    .selectFrom(ranked.as('ranked'))
    .innerJoin('items', 'items.id', 'ranked.item_id')
    .select(['ranked.item_id', 'items.name as item', 'ranked.quantity', 'ranked.amount'])
    .orderBy('ranked.amount', 'desc')
    .orderBy('ranked.item_id')
    .execute();
  return {
    data: rows.map((row) => ({
      item_id: Number(row.item_id),
      item: String(row.item),
      quantity: quantity(row.quantity),
      amount: pesos(row.amount),
    })),
  };
}
