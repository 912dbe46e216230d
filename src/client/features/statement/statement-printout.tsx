import { formatPesos } from '../../../domain/money';
import { formatDate } from '../../lib/format';
import type { Statement } from '../../../domain/statement';

/**
 * A statement's printed copy, on A4 (`printAs('a4')`, lib/print.ts): hidden on screen and the only
 * thing on paper, as a document's printed copy is (styles.css). The business at the top with the
 * title and the period, the customer, the balances, then every row with the balance after it; a
 * table's heading repeats on each page it runs onto, and no row is split between two.
 */
export function StatementPrintout({ statement }: { statement: Statement }) {
  const { business, customer } = statement;
  return (
    <article data-printout aria-label="Printed copy" className="hidden text-[9.5pt] leading-snug text-black print:block">
      <header className="flex items-start justify-between gap-6 border-b-2 border-black pb-3">
        <div className="min-w-0">
          <p className="text-[12pt] font-bold">{business.name}</p>
          {business.trade_name && <p>Business name: {business.trade_name}</p>}
          {business.address && <p>{business.address}</p>}
          {business.tin && <p>TIN: {business.tin}</p>}
        </div>
        <div className="shrink-0 text-right">
          <h2 className="text-[15pt] font-bold tracking-wide">STATEMENT OF ACCOUNT</h2>
          <p>
            Period: {formatDate(statement.from)} to {formatDate(statement.to)}
          </p>
          {statement.places && <p>Documents of {statement.places.join(', ') || 'no place'} only</p>}
        </div>
      </header>

      <section className="mt-3 flex items-start justify-between gap-8">
        <div className="min-w-0">
          <p>
            Customer: <span className="font-bold">{customer.name}</span>
          </p>
          {customer.company_name && customer.company_name !== customer.name && <p>{customer.company_name}</p>}
          {customer.address && <p>Address: {customer.address}</p>}
          {customer.tin && <p>TIN: {customer.tin}</p>}
        </div>
        <dl className="grid w-[70mm] shrink-0 grid-cols-[1fr_auto] gap-x-4 tabular-nums">
          <dt>Opening balance</dt>
          <dd className="text-right">{formatPesos(statement.opening_balance)}</dd>
          <dt>Charges</dt>
          <dd className="text-right">{formatPesos(statement.totals.debit)}</dd>
          <dt>Credits</dt>
          <dd className="text-right">{formatPesos(statement.totals.credit)}</dd>
          <dt className="font-bold">Closing balance</dt>
          <dd className="text-right font-bold">{formatPesos(statement.closing_balance)}</dd>
        </dl>
      </section>

      <table className="mt-4 w-full border-collapse text-[8.5pt]">
        <thead className="table-header-group">
          <tr className="border-b border-black text-left">
            <th className="py-1 pr-2">Date</th>
            <th className="py-1 pr-2">Document</th>
            <th className="py-1 pr-2">Description</th>
            <th className="py-1 pr-2 text-right">Debit</th>
            <th className="py-1 pr-2 text-right">Credit</th>
            <th className="py-1 text-right">Balance</th>
          </tr>
        </thead>
        <tbody>
          <tr className="border-b border-black/30">
            <td className="py-1 pr-2 whitespace-nowrap">{formatDate(statement.from)}</td>
            <td />
            <td className="py-1 pr-2">Opening balance</td>
            <td />
            <td />
            <td className="py-1 text-right tabular-nums">{formatPesos(statement.opening_balance)}</td>
          </tr>
          {statement.data.map((row) => (
            <tr key={`${row.resource}-${row.id}`} className="border-b border-black/30 align-top">
              <td className="py-1 pr-2 whitespace-nowrap">{formatDate(row.date)}</td>
              <td className="py-1 pr-2">
                {row.kind}
                <br />
                <span className="whitespace-nowrap">{row.number}</span>
              </td>
              <td className="py-1 pr-2">{row.description}</td>
              <td className="py-1 pr-2 text-right whitespace-nowrap tabular-nums">{row.debit ? formatPesos(row.debit) : ''}</td>
              <td className="py-1 pr-2 text-right whitespace-nowrap tabular-nums">{row.credit ? formatPesos(row.credit) : ''}</td>
              <td className="py-1 text-right whitespace-nowrap tabular-nums">{formatPesos(row.balance)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot className="table-row-group">
          <tr className="border-t-2 border-black font-bold">
            <td />
            <td />
            <td className="py-1 pr-2">Closing balance</td>
            <td className="py-1 pr-2 text-right whitespace-nowrap tabular-nums">{formatPesos(statement.totals.debit)}</td>
            <td className="py-1 pr-2 text-right whitespace-nowrap tabular-nums">{formatPesos(statement.totals.credit)}</td>
            <td className="py-1 text-right whitespace-nowrap tabular-nums">{formatPesos(statement.closing_balance)}</td>
          </tr>
        </tfoot>
      </table>
    </article>
  );
}
