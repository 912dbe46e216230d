import { documentTotals, type DocumentTotals, type LineFigures } from '../../../domain/documents';
import type { ResourceDefinition } from '../../../domain/resource';
import { returnedFigures, soldFigures, soldLineOf } from '../../../domain/returns';
import { toThousandths } from '../../../domain/quantity';
import type { FormSection } from '../crud/slots';
import type { DocumentLine, LineRow } from './line-rows';
import { emptyTender, tenderRowsOf, tendersBody, type TenderAnswer, type TenderRow } from './tender-rows';

/**
 * A return of goods as its form holds it before its editor has loaded: the lines of the sale they
 * come back from (each blank until someone says how much of it comes back, with why and what becomes
 * of the goods), how the customer gets their money back — credited to the invoice, or refunded in
 * tenders — and whether the sale's prices included VAT, which its lines' shares are figured on.
 */

export type Settlement = 'credit' | 'refund' | 'account';

export interface ReturnRows {
  rows: LineRow[];
  settlement: Settlement;
  /** A refund's tenders: sent only when it is refunded. */
  tenders: TenderRow[];
  pricesIncludeVat: boolean;
}

/** Whether a kind takes goods back from the lines of the sale it is made from. */
export const returnsGoods = (definition: ResourceDefinition | undefined): boolean => definition?.document?.lines === 'returns';

/** A sold line still returnable, as a row: nothing of it coming back yet, its goods to go as usual for its kind (`disposition`) when it does. */
export const returnableRow = (row: LineRow, line: DocumentLine, disposition: string): LineRow => ({
  ...row,
  quantity: '',
  reason: '',
  note: '',
  disposition,
  sold: soldLineOf(line),
});

/** A return's form made from its sale: credited unless said otherwise, with one tender ready for a refund. */
export const returning = (rows: LineRow[], pricesIncludeVat: boolean): ReturnRows => ({
  rows,
  settlement: 'credit',
  tenders: [emptyTender()],
  pricesIncludeVat,
});

/**
 * What each row comes back at, as the server will figure it (domain/returns.ts): null for a row with
 * no quantity yet, or more than may come back; and the totals of those figured.
 */
export function returnFigures(value: ReturnRows): { lines: (LineFigures | null)[]; totals: DocumentTotals } {
  const lines = value.rows.map((row) => {
    const typed = Number(row.quantity);
    if (!row.sold || row.open === undefined || row.quantity.trim() === '' || !Number.isFinite(typed) || typed <= 0 || typed > row.open)
      return null;
    const open = toThousandths(row.open);
    return returnedFigures(
      soldFigures(row.sold, value.pricesIncludeVat),
      row.sold.quantity,
      row.sold.quantity - open,
      toThousandths(typed),
    );
  });
  return { lines, totals: documentTotals(lines.filter((line) => line !== null)) };
}

/**
 * The form section of a kind that takes goods back, from the documents' lines section: its value
 * holds how the customer is paid back beside the lines, sent beside them (`settlement`, `tenders`).
 */
export function returnSection(lines: FormSection, Editor: FormSection['Editor']): FormSection {
  return {
    ...lines,
    start: (definition, record) => ({
      rows: lines.start(definition, record) as LineRow[],
      settlement: record?.settlement === 'refund' || record?.settlement === 'account' ? record.settlement : 'credit',
      tenders: Array.isArray(record?.tenders) ? tenderRowsOf(record.tenders as TenderAnswer[]) : [emptyTender()],
      pricesIncludeVat: Boolean(record?.prices_include_vat),
    }),
    body: (value) => lines.body((value as ReturnRows).rows),
    fields: (value) => {
      const { settlement, tenders } = value as ReturnRows;
      return { settlement, tenders: settlement === 'refund' ? tendersBody(tenders) : null };
    },
    // Offline, a refund's tenders are checked before it is queued, as the server would.
    check: async (_rows, body) =>
      body.settlement === 'refund'
        ? ((await import('../../../domain/tenders-input')).paymentTenders({ tenders: body.tenders }).errors ?? {})
        : {},
    Editor,
  };
}
