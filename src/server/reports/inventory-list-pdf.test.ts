import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { InventoryList, StockValueRow } from '../../domain/reports';
import { a4Document, drawRow, layRow, type Column } from '../pdf-pages';
import { inventoryListPdf } from './inventory-list-pdf';

/**
 * The inventory list's PDF read back: its pages in order, and on each the texts it shows — every
 * line of every cell is one TJ operator, after the Tm that puts it — with where they stand (the
 * PDF's coordinates, from the bottom of the page).
 */

type Shown = { x: number; y: number; text: string; tj: string };

/** Windows-1252 beyond Latin-1, of what these PDFs hold. */
const HIGH: Record<number, string> = { 0x85: '…', 0x97: '—' };

function readPages(pdf: Buffer): Shown[][] {
  const file = pdf.toString('latin1');
  const objects = new Map<number, { dictionary: string; stream: Buffer | null }>();
  for (const match of file.matchAll(/(\d+) 0 obj\n(<<[\s\S]*?>>)\n(stream\n)?/g)) {
    const [, id, dictionary, stream] = match;
    let content: Buffer | null = null;
    if (stream) {
      const start = match.index + match[0].length;
      const length = Number(/\/Length (\d+)/.exec(dictionary)![1]);
      const bytes = pdf.subarray(start, start + length);
      content = dictionary.includes('/FlateDecode') ? inflateSync(bytes) : bytes;
    }
    objects.set(Number(id), { dictionary, stream: content });
  }
  const pages = [...objects.values()].find((object) => /\/Type \/Pages\b/.test(object.dictionary))!;
  const kids = [.../\/Kids \[([^\]]*)\]/.exec(pages.dictionary)![1].matchAll(/(\d+) 0 R/g)].map((kid) => Number(kid[1]));
  return kids.map((kid) => {
    const contents = Number(/\/Contents (\d+) 0 R/.exec(objects.get(kid)!.dictionary)![1]);
    const shown: Shown[] = [];
    let at = { x: 0, y: 0 };
    for (const [, tm, tj] of objects
      .get(contents)!
      .stream!.toString('latin1')
      .matchAll(/1 0 0 1 (\S+ \S+) Tm|(\[[^\]]*\]) TJ/g)) {
      if (tm) {
        const [x, y] = tm.split(' ').map(Number);
        at = { x, y };
        continue;
      }
      const text = [...tj.matchAll(/<([0-9a-f]*)>/g)]
        .map(([, hex]) => [...Buffer.from(hex, 'hex')].map((byte) => HIGH[byte] ?? String.fromCharCode(byte)).join(''))
        .join('');
      shown.push({ ...at, text, tj });
    }
    return shown;
  });
}

const texts = (page: Shown[]) => page.map((shown) => shown.text);

let nextId = 1;
function row(sku: string, item: string, quantity: number, unitCost: number | null, description: string | null = null): StockValueRow {
  return {
    item_id: nextId++,
    sku,
    item,
    description,
    location_type: 'branch',
    location_id: 1,
    location: '',
    quantity,
    unit: 'pc',
    unit_cost: unitCost,
    value: unitCost === null ? 0 : Math.round(quantity * unitCost * 100) / 100,
  };
}

function list(places: { name: string; rows: StockValueRow[] }[]): InventoryList {
  const withTotals = places.map((place, at) => ({
    location_type: 'branch' as const,
    location_id: at + 1,
    name: place.name,
    items: place.rows.length,
    value: Math.round(place.rows.reduce((total, line) => total + line.value * 100, 0)) / 100,
    rows: place.rows,
  }));
  return {
    date: '2026-12-31',
    business: {
      name: 'Aling Nena Trading Corporation',
      trade_name: 'Tindahan ni Aling Nena',
      address: 'Osmeña Boulevard, Cebu City',
      tin: '123-456-789-000',
    },
    places: withTotals,
    total: Math.round(withTotals.reduce((total, place) => total + place.value * 100, 0)) / 100,
  };
}

const LONG =
  'Twenty-four cans to a case, packed in shrink film on a slip sheet; keep dry, stack no more than six cases high, ' +
  'rotate first in first out, and check every can for dents and swelling before it goes to the shelf or out to a customer.';

/** Below this stands the page's number, the only text there; a table's lowest line stands well above it. */
const FOOTER_Y = 50;
const TABLE_LOWEST = 60;
const footerOf = (page: Shown[]) => page.filter((shown) => shown.y < FOOTER_Y).map((shown) => shown.text);
const bodyOf = (page: Shown[]) => page.filter((shown) => shown.y >= FOOTER_Y);

describe('the inventory list as a PDF', () => {
  it('sets the business, the title, each place’s rows and total, and the whole total', async () => {
    const pdf = await inventoryListPdf(
      list([
        {
          name: 'Makati',
          rows: [
            row('CB-150', 'Corned Beef 150g', 1250.5, 41.1235, 'Case of 24'),
            row('SRD-155', 'Sardines 155g ₱', 12, null),
            row('MLK-370', 'Evaporated Milk 370ml', 3, 10, LONG),
          ],
        },
        { name: 'Valenzuela Warehouse', rows: [row('RICE-25', 'Rice 25kg Sack', 2.5, 493.8)] },
      ]),
    );
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toMatch(/%%EOF\s*$/);
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);
    const pages = readPages(pdf);
    expect(pages).toHaveLength(1);
    const shown = texts(pages[0]);

    // The letterhead.
    for (const text of [
      'Aling Nena Trading Corporation',
      'Business name: Tindahan ni Aling Nena',
      'Osmeña Boulevard, Cebu City',
      'TIN: 123-456-789-000',
      'INVENTORY LIST',
      'As of Dec 31, 2026',
      'Valued at moving-average cost',
      'Goods never costed (—) count at nothing',
    ])
      expect(shown, text).toContain(text);

    // Each place: its name, the heading, its rows cell by cell (a description under the item's name), its total.
    const heading = ['Item code', 'Description', 'Quantity', 'Unit', 'Unit cost', 'Total cost'];
    const makati = shown.indexOf('Makati');
    expect(shown.slice(makati + 1, makati + 7)).toEqual(heading);
    expect(shown.slice(makati + 7, makati + 14)).toEqual([
      'CB-150',
      'Corned Beef 150g',
      'Case of 24',
      '1,250.500',
      'pc',
      'PHP 41.12',
      'PHP 51,424.94',
    ]);
    // Goods never costed: no unit cost, counted at nothing; what the fonts cannot draw is "?".
    expect(shown.slice(makati + 14, makati + 20)).toEqual(['SRD-155', 'Sardines 155g ?', '12.000', 'pc', '—', 'PHP 0.00']);
    expect(shown).toContain('Total, Makati');
    expect(shown[shown.indexOf('Total, Makati') + 1]).toBe('PHP 51,454.94');
    const valenzuela = shown.indexOf('Valenzuela Warehouse');
    expect(valenzuela).toBeGreaterThan(shown.indexOf('Total, Makati'));
    expect(shown.slice(valenzuela + 1, valenzuela + 7)).toEqual(heading);
    expect(shown.slice(valenzuela + 7, valenzuela + 13)).toEqual([
      'RICE-25',
      'Rice 25kg Sack',
      '2.500',
      'pc',
      'PHP 493.80',
      'PHP 1,234.50',
    ]);
    expect(shown[shown.indexOf('Total, Valenzuela Warehouse') + 1]).toBe('PHP 1,234.50');
    expect(shown[shown.indexOf('Total inventory') + 1]).toBe('PHP 52,689.44');
    expect(footerOf(pages[0])).toEqual(['Inventory list as of Dec 31, 2026, page 1 of 1']);

    // The long description: the item's name, then what fits of it in four lines, the last ending in "…".
    const milk = shown.indexOf('Evaporated Milk 370ml');
    const cut = shown.slice(milk + 1, milk + 4).join('');
    expect(cut).toMatch(/^Twenty-four cans to a case, packed in shrink film .{60,}…$/);
    expect(LONG.startsWith(cut.slice(0, -1))).toBe(true);
    expect(shown[milk + 4]).toBe('MLK-370');
  });

  it('runs a long list onto more pages, the heading again at the top of each, every page numbered of all', async () => {
    const rows = (place: string, count: number) =>
      Array.from({ length: count }, (_, at) =>
        row(`${place}-${String(at + 1).padStart(5, '0')}`, `Item ${at + 1}`, at + 1, at % 10 ? 12.5 : null, at % 7 ? null : 'Case of 12'),
      );
    const long = list([
      { name: 'Makati', rows: rows('MKT', 1800) },
      { name: 'Valenzuela Warehouse', rows: rows('VAL', 1200) },
    ]);
    const pdf = await inventoryListPdf(long);
    const pages = readPages(pdf);
    expect((pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length).toBe(pages.length);
    expect(pages.length).toBeGreaterThan(40);

    pages.forEach((page, at) => {
      // The page's number at its bottom, and nothing else run down to it.
      expect(footerOf(page)).toEqual([`Inventory list as of Dec 31, 2026, page ${at + 1} of ${pages.length}`]);
      const body = bodyOf(page);
      expect(Math.min(...body.map((shown) => shown.y)), `page ${at + 1}`).toBeGreaterThan(TABLE_LOWEST);
      // Rows on every page, under the heading (which comes before them).
      const shown = texts(body);
      const first = shown.findIndex((text) => /^(MKT|VAL)-\d{5}$/.test(text));
      if (at < pages.length - 1) expect(first, `page ${at + 1}`).toBeGreaterThan(0);
      if (first > 0)
        expect(shown.slice(first - 6, first), `page ${at + 1}`).toEqual([
          'Item code',
          'Description',
          'Quantity',
          'Unit',
          'Unit cost',
          'Total cost',
        ]);
    });

    // Every row once, in order, and each place's total after its last row.
    const all = pages.flatMap((page) => texts(bodyOf(page)));
    const skus = all.filter((text) => /^(MKT|VAL)-\d{5}$/.test(text));
    expect(skus).toEqual([...long.places[0].rows, ...long.places[1].rows].map((line) => line.sku));
    expect(all.indexOf('Total, Makati')).toBeGreaterThan(all.indexOf('MKT-01800'));
    expect(all.indexOf('Total, Makati')).toBeLessThan(all.indexOf('Valenzuela Warehouse'));
    expect(all[all.indexOf('Total, Makati') + 1]).toBe(`PHP ${long.places[0].value.toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
    expect(all[all.indexOf('Total inventory') + 1]).toBe(`PHP ${long.total.toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
    expect(all.filter((text) => text === 'Item code')).toHaveLength(pages.length + 1);
  });

  it('says when nothing was on hand', async () => {
    const shown = texts(readPages(await inventoryListPdf(list([])))[0]);
    expect(shown).toContain('Nothing was on hand.');
    expect(shown[shown.indexOf('Total inventory') + 1]).toBe('PHP 0.00');
    expect(shown).not.toContain('Item code');
  });

  it('writes the lines it sets directly where pdfkit’s own text would set them, kerned alike', async () => {
    const columns: Column[] = [
      { heading: 'Code', width: 90, align: 'left', maxLines: 2 },
      { heading: 'Text', width: 250, align: 'left', maxLines: 3 },
      { heading: 'Amount', width: 175.28, align: 'right', maxLines: 2 },
    ];
    const cells = [
      ['AV-To', 'Tony’s “Wayfarer” — Yves’ café…\nLAVA • Tŷ', 'PHP 1,234.50'],
      ['', 'A rather long text that will not fit on one line of this column and so is wrapped by pdfkit', '-PHP 7.77'],
      ['Ÿ€', 'P.F. Yarn, r. Tow', ''],
    ];
    const drawn = async (direct: boolean) => {
      const { doc, finish } = a4Document({ title: 'Rows', author: 'Test' }, false);
      let y = 100;
      for (const texts of cells) {
        const laid = layRow(doc, columns, texts, 'Helvetica');
        drawRow(doc, columns, laid, y, direct);
        y += laid.height;
      }
      const bold = layRow(doc, columns, ['Total', 'All of it', 'PHP 9,999.99'], 'Helvetica-Bold');
      drawRow(doc, columns, bold, y, direct);
      // The kerning in a TJ, less pdfkit's closing adjustment of nothing.
      const key = (shown: Shown) => `${shown.x} ${shown.y} ${shown.tj.replace(/ 0\]$/, ']')}`;
      return readPages(await finish())[0]
        .map(key)
        .sort();
    };
    const direct = await drawn(true);
    expect(direct).toEqual(await drawn(false));
    expect(direct.some((shown) => /> -?\d+ </.test(shown))).toBe(true);
    expect(direct.length).toBeGreaterThanOrEqual(10);
  });
});
