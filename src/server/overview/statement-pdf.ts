import PDFDocument from 'pdfkit';
import { giveWay } from '../yielding';
import type { Statement } from '../../domain/statement';
import { dayInWords } from './statement';

/**
 * A statement of account as a PDF on A4 pages: the business (name, address, TIN) and the title with
 * the period, the customer (name, address, TIN), the balances, then the table of rows with the
 * balance running — its heading again on every page it runs onto — and each page numbered. It is
 * set in the PDF's standard Helvetica, which has no peso sign: amounts read "PHP 1,234.50". A long
 * one takes seconds to lay out, so it gives other requests their turns as it goes (`giveWay`).
 */

const MARGIN = 40;
const A4_WIDTH = 595.28;
const A4_HEIGHT = 841.89;
const WIDTH = A4_WIDTH - 2 * MARGIN;
/** Where the table stops on a page: above the page number. */
const TABLE_BOTTOM = A4_HEIGHT - MARGIN - 18;
const PAD = 3;

const COLUMNS = [
  { heading: 'Date', width: 54, align: 'left' },
  // A document's number on one line: "IP-20261019-W00001-00000006".
  { heading: 'Document', width: 124, align: 'left' },
  { heading: 'Description', width: 113.28, align: 'left' },
  { heading: 'Debit', width: 74, align: 'right' },
  { heading: 'Credit', width: 74, align: 'right' },
  { heading: 'Balance', width: 76, align: 'right' },
] as const;

const figures = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `PHP 1,234.50`; `-PHP 12.00` below nothing. */
export function phpAmount(pesos: number): string {
  const rounded = Math.abs(pesos) < 0.005 ? 0 : pesos;
  return `${rounded < 0 ? '-' : ''}PHP ${figures.format(Math.abs(rounded))}`;
}

/** The characters of Windows-1252 beyond Latin-1, which the standard fonts draw too. */
const WIN_ANSI_EXTRAS = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';

/** Text as the standard fonts can draw it: what they have no glyph for becomes "?". */
function drawable(text: string): string {
  return [...text]
    .map((char) => {
      const code = char.codePointAt(0)!;
      return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.includes(char) || char === '\n'
        ? char
        : '?';
    })
    .join('');
}

type Doc = PDFKit.PDFDocument;

/** Lines of text from `x` down from `y`, `width` wide; answers where they end. */
function lines(
  doc: Doc,
  texts: (string | null | undefined)[],
  x: number,
  y: number,
  width: number,
  align: 'left' | 'right' = 'left',
): number {
  let at = y;
  for (const text of texts) {
    if (!text) continue;
    doc.text(drawable(text), x, at, { width, align });
    at = doc.y;
  }
  return at;
}

/** A row of the table from `y`, in `font`; answers its height. With `draw` false, only measures it. */
function row(doc: Doc, cells: string[], y: number, font: string, draw = true): number {
  doc.font(font).fontSize(8);
  const height = Math.max(...cells.map((text, at) => doc.heightOfString(drawable(text) || ' ', { width: COLUMNS[at].width - 2 * PAD })));
  if (draw) {
    let x = MARGIN;
    cells.forEach((text, at) => {
      const { width, align } = COLUMNS[at];
      doc.text(drawable(text), x + PAD, y + PAD, { width: width - 2 * PAD, align });
      x += width;
    });
  }
  return height + 2 * PAD;
}

function rule(doc: Doc, y: number, weight = 0.5): void {
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + WIDTH, y)
    .lineWidth(weight)
    .stroke();
}

/** The table's heading at `y`; answers where the rows begin. */
function heading(doc: Doc, y: number): number {
  const height = row(
    doc,
    COLUMNS.map((column) => column.heading),
    y,
    'Helvetica-Bold',
  );
  rule(doc, y + height, 1);
  return y + height;
}

/** The statement's PDF, whole. */
export async function statementPdf(statement: Statement): Promise<Buffer> {
  const { business, customer } = statement;
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: drawable(`Statement of account: ${customer.name}`), Author: drawable(business.name) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  // The business on the left, the title and the period on the right.
  const right = 200;
  doc.font('Helvetica-Bold').fontSize(13);
  let left = lines(doc, [business.name], MARGIN, MARGIN, WIDTH - right - 10);
  doc.font('Helvetica').fontSize(9);
  left = lines(
    doc,
    [business.trade_name && `Business name: ${business.trade_name}`, business.address, business.tin && `TIN: ${business.tin}`],
    MARGIN,
    left,
    WIDTH - right - 10,
  );
  doc.font('Helvetica-Bold').fontSize(15);
  let top = lines(doc, ['STATEMENT OF ACCOUNT'], MARGIN + WIDTH - right, MARGIN, right, 'right');
  doc.font('Helvetica').fontSize(9);
  top = lines(
    doc,
    [
      `Period: ${dayInWords(statement.from)} to ${dayInWords(statement.to)}`,
      statement.places && `Documents of ${statement.places.join(', ') || 'no place'} only`,
    ],
    MARGIN + WIDTH - right,
    top + 2,
    right,
    'right',
  );
  let y = Math.max(left, top) + 8;
  rule(doc, y, 1.5);

  // The customer on the left, the balances on the right.
  y += 8;
  doc.font('Helvetica-Bold').fontSize(10);
  left = lines(doc, [`Customer: ${customer.name}`], MARGIN, y, WIDTH - right - 10);
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
  top = y;
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
  y = Math.max(left, top) + 14;

  // The rows, from the opening balance to the closing one, a new page (and heading) when one would not fit.
  y = heading(doc, y);
  const cells = [
    [dayInWords(statement.from), '', 'Opening balance', '', '', phpAmount(statement.opening_balance)],
    ...statement.data.map((entry) => [
      dayInWords(entry.date),
      `${entry.kind}\n${entry.number}`,
      entry.description,
      entry.debit ? phpAmount(entry.debit) : '',
      entry.credit ? phpAmount(entry.credit) : '',
      phpAmount(entry.balance),
    ]),
  ];
  for (const texts of cells) {
    await giveWay();
    if (y + row(doc, texts, y, 'Helvetica', false) > TABLE_BOTTOM) {
      doc.addPage();
      y = heading(doc, MARGIN);
    }
    y += row(doc, texts, y, 'Helvetica');
    doc.strokeColor('#999999');
    rule(doc, y, 0.3);
    doc.strokeColor('black');
  }
  const closing = [
    '',
    '',
    'Closing balance',
    phpAmount(statement.totals.debit),
    phpAmount(statement.totals.credit),
    phpAmount(statement.closing_balance),
  ];
  if (y + row(doc, closing, y, 'Helvetica-Bold', false) > TABLE_BOTTOM) {
    doc.addPage();
    y = heading(doc, MARGIN);
  }
  rule(doc, y, 1);
  row(doc, closing, y, 'Helvetica-Bold');

  // Every page numbered, below the bottom margin (where text would otherwise start a new page).
  const { start, count } = doc.bufferedPageRange();
  for (let page = start; page < start + count; page++) {
    doc.switchToPage(page);
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(8)
      .text(drawable(`${customer.name}: statement of account, page ${page - start + 1} of ${count}`), MARGIN, A4_HEIGHT - MARGIN - 8, {
        width: WIDTH,
        align: 'center',
      });
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
