import type { Statement } from '../../domain/statement';
import { a4Document, letterhead, lines, MARGIN, numberPages, PagedTable, PageFlow, phpAmount, WIDTH, type Column } from '../pdf-pages';
import { dayInWords } from './statement';

export { phpAmount };

/**
 * A statement of account as a PDF on A4 pages: the business (name, address, TIN) and the title with
 * the period, the customer (name, address, TIN), the balances, then the table of rows with the
 * balance running — its heading again on every page it runs onto — and each page numbered. It is
 * set in the PDF's standard Helvetica, which has no peso sign: amounts read "PHP 1,234.50". A long
 * one takes seconds to lay out, so it gives other requests their turns as it goes.
 */

const COLUMNS: readonly Column[] = [
  { heading: 'Date', width: 54, align: 'left' },
  // A document's number on one line: "IP-20261019-W00001-00000006".
  { heading: 'Document', width: 124, align: 'left' },
  { heading: 'Description', width: 113.28, align: 'left' },
  { heading: 'Debit', width: 74, align: 'right' },
  { heading: 'Credit', width: 74, align: 'right' },
  { heading: 'Balance', width: 76, align: 'right' },
];

/** The statement's PDF, whole. */
export async function statementPdf(statement: Statement): Promise<Buffer> {
  const { business, customer } = statement;
  const { doc, finish } = a4Document({ title: `Statement of account: ${customer.name}`, author: business.name }, true);

  // The business on the left, the title and the period on the right.
  let y = letterhead(doc, business, 'STATEMENT OF ACCOUNT', [
    `Period: ${dayInWords(statement.from)} to ${dayInWords(statement.to)}`,
    statement.places && `Documents of ${statement.places.join(', ') || 'no place'} only`,
  ]);

  // The customer on the left, the balances on the right.
  const right = 200;
  y += 8;
  doc.font('Helvetica-Bold').fontSize(10);
  let left = lines(doc, [`Customer: ${customer.name}`], MARGIN, y, WIDTH - right - 10);
  doc.font('Helvetica').fontSize(9);
  left = lines(
    doc,
    [
      customer.company_name && customer.company_name !== customer.name ? customer.company_name : null,
      customer.address && `Address: ${customer.address}`,
      customer.tin && `TIN: ${customer.tin}`,
    ],
    MARGIN,
    left,
    WIDTH - right - 10,
  );
  let top = y;
  for (const [label, amount, bold] of [
    ['Opening balance', statement.opening_balance, false],
    ['Charges', statement.totals.debit, false],
    ['Credits', statement.totals.credit, false],
    ['Closing balance', statement.closing_balance, true],
  ] as const) {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    doc.text(label, MARGIN + WIDTH - right, top, { width: right / 2 });
    doc.text(phpAmount(amount), MARGIN + WIDTH - right / 2, top, { width: right / 2, align: 'right' });
    top = doc.y + 1;
  }

  // The rows, from the opening balance to the closing one, a new page (and heading) when one would not fit.
  const table = new PagedTable(new PageFlow(doc, { top: Math.max(left, top) + 14 }), COLUMNS);
  table.heading();
  await table.rows([
    [dayInWords(statement.from), '', 'Opening balance', '', '', phpAmount(statement.opening_balance)],
    ...statement.data.map((entry) => [
      dayInWords(entry.date),
      `${entry.kind}\n${entry.number}`,
      entry.description,
      entry.debit ? phpAmount(entry.debit) : '',
      entry.credit ? phpAmount(entry.credit) : '',
      phpAmount(entry.balance),
    ]),
  ]);
  table.row(
    [
      '',
      '',
      'Closing balance',
      phpAmount(statement.totals.debit),
      phpAmount(statement.totals.credit),
      phpAmount(statement.closing_balance),
    ],
    'Helvetica-Bold',
    COLUMNS,
    1,
  );

  numberPages(doc, (page, pages) => `${customer.name}: statement of account, page ${page} of ${pages}`);
  return finish();
}
