import type { InventoryList, StockValueRow } from '../../domain/reports';
import { dayInWords } from '../overview/statement';
import {
  a4Document,
  drawRow,
  layRow,
  letterhead,
  PagedTable,
  PageFlow,
  pageFooter,
  phpAmount,
  rule,
  WIDTH,
  type Column,
  type Doc,
} from '../pdf-pages';

/**
 * The inventory list as a PDF on A4 pages, to print and file with the BIR: the business and the
 * title with the date, then place by place its name, a table of what it held (item code,
 * description, quantity, unit, unit cost, total cost) with the heading again on every page the
 * table runs onto, and the place's total; the whole total last, and every page numbered.
 *
 * A business's list runs to 150,000 rows and thousands of pages, so it is laid out twice: once
 * without drawing, to count the pages, then drawing them, each numbered "of N" as it begins and
 * written out as the next one does: holding every page until the end to number them would take
 * some two gigabytes. Most rows' cells fit their columns a line at a time and are written straight
 * into the page (`PagedTable`'s `direct`), which sets such a list in seconds.
 */

const COLUMNS: readonly Column[] = [
  { heading: 'Item code', width: 72, align: 'left', maxLines: 2 },
  // The item's name, and its description under it: cut at four lines.
  { heading: 'Description', width: 174.28, align: 'left', maxLines: 4 },
  { heading: 'Quantity', width: 66, align: 'right', maxLines: 2 },
  { heading: 'Unit', width: 38, align: 'left', maxLines: 2 },
  // To the centavo, as printed amounts are (the CSV has the four places the cost is kept to).
  { heading: 'Unit cost', width: 72, align: 'right', maxLines: 2 },
  { heading: 'Total cost', width: 93, align: 'right', maxLines: 2 },
];

/** A total's row: what it totals on the left, the amount on the right (under the total cost, and wider: the whole total is set larger). */
const TOTAL_COLUMNS: readonly Column[] = [
  { heading: '', width: WIDTH - 150, align: 'left', maxLines: 3 },
  { heading: '', width: 150, align: 'right', maxLines: 2 },
];

/** A place's name over its table. */
const PLACE_COLUMNS: readonly Column[] = [{ heading: '', width: WIDTH, align: 'left', maxLines: 2 }];

/** The space between a place's table and what follows it: the next place's name, or the whole total. */
const PLACE_GAP = 12;

/** How many rows go between turns given to other requests: a few milliseconds' work. */
const ROWS_PER_TURN = 100;

const quantities = new Intl.NumberFormat('en-US', { minimumFractionDigits: 3, maximumFractionDigits: 3 });

/** A row's cells: the description under the item's name when it has one that says more. */
function cellsOf(row: StockValueRow): string[] {
  const description = row.description?.trim();
  return [
    row.sku,
    description && description !== row.item ? `${row.item}\n${description}` : row.item,
    quantities.format(row.quantity),
    row.unit,
    row.unit_cost === null ? '—' : phpAmount(row.unit_cost),
    phpAmount(row.value),
  ];
}

/** The places, their tables and totals, and the whole total down `flow`, drawn or (a dry run) only laid out. */
async function layOut(doc: Doc, flow: PageFlow, list: InventoryList): Promise<void> {
  const table = new PagedTable(flow, COLUMNS, true);
  const heading = table.headingHeight();
  for (const [at, place] of list.places.entries()) {
    // A place's name, the heading and its first row on one page.
    const name = layRow(doc, PLACE_COLUMNS, [place.name], 'Helvetica-Bold', 10);
    const first = place.rows.length > 0 ? layRow(doc, COLUMNS, cellsOf(place.rows[0]), 'Helvetica').height : 0;
    const gap = at > 0 ? PLACE_GAP : 0;
    if (!flow.room(gap + name.height + heading + first)) flow.y += gap;
    if (flow.drawing) drawRow(doc, PLACE_COLUMNS, name, flow.y);
    flow.y += name.height;
    table.heading();
    // Each row's cells made as it comes: made all at once, a place's would hold the event loop.
    await table.rows(
      (function* () {
        for (const row of place.rows) yield cellsOf(row);
      })(),
      ROWS_PER_TURN,
    );
    table.row([`Total, ${place.name}`, phpAmount(place.value)], 'Helvetica-Bold', TOTAL_COLUMNS, 1);
  }
  if (list.places.length === 0) {
    const nothing = layRow(doc, PLACE_COLUMNS, ['Nothing was on hand.'], 'Helvetica', 10);
    if (flow.drawing) drawRow(doc, PLACE_COLUMNS, nothing, flow.y);
    flow.y += nothing.height;
  }
  // The whole total, under a heavier rule: on a new page if need be, without a heading.
  const total = layRow(doc, TOTAL_COLUMNS, ['Total inventory', phpAmount(list.total)], 'Helvetica-Bold', 10);
  if (!flow.room(PLACE_GAP + total.height)) flow.y += PLACE_GAP;
  if (flow.drawing) {
    rule(doc, flow.y, 1.5);
    drawRow(doc, TOTAL_COLUMNS, total, flow.y);
  }
  flow.y += total.height;
}

/** The inventory list's PDF, whole. */
export async function inventoryListPdf(list: InventoryList): Promise<Buffer> {
  const asOf = dayInWords(list.date);
  const { doc, finish } = a4Document({ title: `Inventory list as of ${asOf}`, author: list.business.name }, false);
  const uncosted = list.places.some((place) => place.rows.some((row) => row.unit_cost === null));
  const top = letterhead(doc, list.business, 'INVENTORY LIST', [
    `As of ${asOf}`,
    'Valued at moving-average cost',
    uncosted ? 'Goods never costed (—) count at nothing' : null,
  ]);
  const footer = (flow: PageFlow) => pageFooter(doc, `Inventory list as of ${asOf}, page ${flow.page} of ${flow.pages}`);
  const flow = new PageFlow(doc, { top: top + 14, dry: true, onPage: footer });
  await layOut(doc, flow, list);
  flow.replay();
  footer(flow);
  await layOut(doc, flow, list);
  return finish();
}
