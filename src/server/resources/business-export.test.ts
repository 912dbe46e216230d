import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPermissions, MASTER_PERMISSION } from '../../domain/permissions';
import { items } from '../../domain/resources/items';
import { registry } from '../../domain/resources/registry';
import { paidInTenders } from '../../domain/tenders';
import {
  databaseKinds,
  demoBusinessIds,
  startDemo,
  startTestApp,
  userWithPermissions,
  type Session,
  type TestApp,
} from '../../../tests/support/test-app';
import { businessZip } from './business-export';
import { recount } from './resource-counts';
import { untyped, type Db, type Scope } from '../db/scope';

/** Every resource but the global permission list, a lines file per kind of document with items, a tenders file per kind of payment. */
const EXPECTED_FILES = [
  'README.txt',
  ...registry
    .filter((definition) => definition.tenancy !== 'global')
    .flatMap((definition) => [
      `${definition.name}.csv`,
      ...(definition.document && definition.document.lines !== 'none' ? [`${definition.name}-lines.csv`] : []),
      ...(paidInTenders(definition) ? [`${definition.name}-tenders.csv`] : []),
    ]),
];

const rowsOf = (csv: string) =>
  csv
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');

async function exportZip(test: TestApp, session: Session) {
  const answer = await test.app.inject({
    method: 'GET',
    url: '/api/businesses/export.zip',
    headers: { cookie: session.cookie, 'business-id': String(session.businessId) },
  });
  return { answer, files: answer.statusCode === 200 ? unzipSync(new Uint8Array(answer.rawPayload)) : {} };
}

describe.each(databaseKinds)('a business’s data as a zip on %s', (kind) => {
  let test: TestApp;
  let db: Db;
  let admin: Session;
  let businesses: [number, number];
  let trashedBrand: number;
  let foreignBrand: string;

  beforeAll(async () => {
    ({ test, admin, businesses } = await startDemo(kind));
    db = test.app.db;
    const brand = await admin.send('POST', '/api/brands', { name: 'Trashed before the export' });
    trashedBrand = brand.body.data.id;
    expect((await admin.send('DELETE', `/api/brands/${trashedBrand}`)).status).toBe(200);
    foreignBrand = `Only in the other business ${kind}`;
    expect((await admin.inBusiness(businesses[1]).send('POST', '/api/brands', { name: foreignBrand })).status).toBe(201);
  });
  afterAll(() => test.close());

  it('streams a zip named for the business, with a README and a CSV per resource as its list exports it, trashed records included', async () => {
    const { answer, files } = await exportZip(test, admin);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/zip');
    expect(answer.headers['cache-control']).toBe('private, no-store');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="Tindahan ni Aling Nena Trading-\d{4}-\d{2}-\d{2}\.zip"/);
    expect(Object.keys(files)).toEqual(EXPECTED_FILES);

    const readme = strFromU8(files['README.txt']);
    expect(readme).toMatch(/^All data of Tindahan ni Aling Nena Trading, exported from Bodega on \d{4}-\d{2}-\d{2} \(\d{4}-\d{2}-\d{2}T/);
    for (const name of EXPECTED_FILES.slice(1)) expect(readme).toContain(`\r\n${name} `);

    for (const definition of registry.filter((each) => each.tenancy !== 'global')) {
      const csv = strFromU8(files[`${definition.name}.csv`]);
      const only = definition.name === 'businesses' ? `&id=${businesses[0]}` : '';
      const listed = await admin.send('GET', `/api/${definition.name}/export.csv?with_trashed=1&order_by=asc${only}`);
      expect(Array.from(files[`${definition.name}.csv`].subarray(0, 3)), `${definition.name} starts with a byte-order mark`).toEqual([
        0xef, 0xbb, 0xbf,
      ]);
      // The list's own export, byte-order mark aside (the decoder reading the zip drops it).
      expect(csv, definition.name).toBe(listed.body.replace(/^\uFEFF/, ''));
      expect(rowsOf(csv)[0].endsWith(',Created,Updated,Deleted'), definition.name).toBe(true);

      let count: number;
      if (definition.name === 'businesses') count = 1;
      else if (definition.name === 'users') {
        const row = await db
          .selectFrom('memberships')
          .select((eb) => eb.fn.countAll().as('count'))
          .where('business_id', '=', businesses[0])
          .executeTakeFirstOrThrow();
        count = Number(row.count);
      } else {
        const row = await untyped(db)
          .selectFrom(definition.table)
          .select((eb) => eb.fn.countAll().as('count'))
          .where('business_id', '=', businesses[0])
          .executeTakeFirstOrThrow();
        count = Number(row.count);
      }
      expect(rowsOf(csv).length - 1, definition.name).toBe(count);
    }
    const trashed = rowsOf(strFromU8(files['brands.csv'])).find((row) => row.startsWith(`${trashedBrand},`));
    expect(trashed).toMatch(/^\d+,Trashed before the export,.*,\d{4}-\d\d-\d\dT[^,]+$/);
  });

  it('holds every line of every document, with its item, unit, figures and the line it fulfils', async () => {
    const { files } = await exportZip(test, admin);
    let checked = 0;
    for (const definition of registry.filter((each) => each.document && each.document.lines !== 'none')) {
      const [header, ...rows] = rowsOf(strFromU8(files[`${definition.name}-lines.csv`]));
      const row = await db
        .selectFrom('document_lines')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('business_id', '=', businesses[0])
        .where('document_type', '=', definition.document!.type)
        .executeTakeFirstOrThrow();
      expect(rows, definition.name).toHaveLength(Number(row.count));
      expect(header.startsWith('Document ID,Document number,Line,Line ID,Item,SKU,Unit,Quantity'), definition.name).toBe(true);
      if (rows.length === 0) continue;

      // The first document's lines, as its own page shows them.
      const headings = header.split(',');
      const cells = rows.map((each) => Object.fromEntries(each.split(',').map((cell, index) => [headings[index], cell])));
      const documentId = cells[0]['Document ID'];
      const { data } = (await admin.send('GET', `/api/${definition.name}/${documentId}`)).body;
      const own = cells.filter((cell) => cell['Document ID'] === documentId);
      expect(own.map((cell) => cell['Document number'])).toEqual(data.lines.map(() => data.number));
      expect(own.map((cell) => [cell.Item, cell.SKU, cell.Unit, Number(cell.Quantity)])).toEqual(
        data.lines.map((line: any) => [line.item.display, line.item.sku, line.unit, line.quantity]),
      );
      if (definition.document!.lines === 'priced') {
        const figures = (cell: Record<string, string>) => [
          Number(cell['Unit price']),
          Number(cell['Discount %']),
          cell['VAT category'],
          cell['SC/PWD'],
          Number(cell['Amount (net of VAT)']),
          Number(cell.VAT),
        ];
        const category = { vatable: 'VATable', exempt: 'VAT-exempt', zero_rated: 'Zero-rated' } as Record<string, string>;
        expect(own.map(figures)).toEqual(
          data.lines.map((line: any) => [
            line.unit_price,
            line.discount_percent,
            category[line.vat_category],
            line.sc_pwd ? 'yes' : 'no',
            line.amount,
            line.vat,
          ]),
        );
      }
      if (headings.includes('Source line ID')) {
        expect(own.map((cell) => cell['Source line ID'])).toEqual(data.lines.map((line: any) => String(line.source_line_id ?? '')));
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(6);
    const received = rowsOf(strFromU8(files['receive-orders-lines.csv']));
    expect(received[1]).toMatch(/,PO-\d{8}-[BW]\d{5}-\d{8},\d+$/);
  });

  it('never holds another business’s records', async () => {
    const { files } = await exportZip(test, admin);
    const everything = Object.values(files)
      .map((file) => strFromU8(file))
      .join('\n');
    expect(everything).not.toContain(foreignBrand);
    const ownItems = new Set(
      (await db.selectFrom('items').select('id').where('business_id', '=', businesses[0]).execute()).map((row) => String(row.id)),
    );
    const exported = rowsOf(strFromU8(files['items.csv']))
      .slice(1)
      .map((row) => row.split(',')[0]);
    expect(exported.length).toBeGreaterThan(10);
    expect(exported.filter((id) => !ownItems.has(id))).toEqual([]);

    const other = await exportZip(test, admin.inBusiness(businesses[1]));
    const elsewhere = Object.values(other.files)
      .map((file) => strFromU8(file))
      .join('\n');
    expect(elsewhere).toContain(foreignBrand);
    expect(elsewhere).not.toContain('Trashed before the export');
  });

  it('is for masters only: every other permission is not enough', async () => {
    const everythingButMaster = allPermissions()
      .map((permission) => permission.name)
      .filter((name) => name !== MASTER_PERMISSION);
    const clerk = await userWithPermissions(test, businesses[0], everythingButMaster);
    const refused = await clerk.session.send('GET', '/api/businesses/export.zip');
    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);

    await clerk.grant([MASTER_PERMISSION]);
    const { answer, files } = await exportZip(test, clerk.session);
    expect(answer.statusCode).toBe(200);
    expect(Object.keys(files)).toEqual(EXPECTED_FILES);
    expect((await test.app.inject({ method: 'GET', url: '/api/businesses/export.zip' })).statusCode).toBe(401);
    expect(test.errorLines).toEqual([]);
  });
});

/** V8's collector, to read what the heap holds rather than what it has not collected yet. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const ITEM_COUNT = 20_000;

describe.each(databaseKinds)('the zip of a business with 20,000 items on %s', (kind) => {
  let test: TestApp;
  let db: Db;
  let businessId: number;
  let otherBusinessId: number;
  let directory: string;

  beforeAll(async () => {
    test = await startTestApp(kind);
    db = test.app.db;
    [businessId, otherBusinessId] = await demoBusinessIds(test);
    directory = mkdtempSync(join(tmpdir(), 'bodega-export-'));
    const unit = await db.selectFrom('unit_of_measurements').select('id').where('business_id', '=', businessId).executeTakeFirstOrThrow();
    const brand = await db.selectFrom('brands').select('id').where('business_id', '=', businessId).executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await db.transaction().execute(async (trx) => {
      for (let from = 0; from < ITEM_COUNT; from += 500) {
        const rows = Array.from({ length: 500 }, (_, offset) => ({
          business_id: businessId,
          sku: `MANY-${String(from + offset).padStart(6, '0')}`,
          name: `Exported item number ${from + offset} with a name as long as a real one`,
          description: `Item ${from + offset}: bought by the case from the distributor in Valenzuela, sold by the piece at the counter, kept on the second shelf of the back room, counted every Saturday before closing.`,
          brand_id: brand.id,
          unit_of_measurement_id: unit.id,
          reorder_level: 12_000,
          vat_category: 'vatable',
          created_at: now,
          updated_at: now,
          deleted_at: (from + offset) % 100 === 0 ? now : null,
          version: 1,
        }));
        await trx.insertInto('items').values(rows).execute();
      }
    });
    await recount(db, items, businessId);
  }, 120_000);
  afterAll(async () => {
    await test.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('makes it while the heap stays small', { timeout: 120_000 }, async () => {
    const scope: Scope = { businessId, userId: 1, permissions: new Set([MASTER_PERMISSION]) };
    /** Writes the zip to `path` chunk by chunk, calling `made` after each while the export waits. */
    const write = async (business: number, path: string, made = () => {}) => {
      const file = openSync(path, 'w');
      try {
        for await (const chunk of businessZip(db, { ...scope, businessId: business }, 'Many Items')) {
          writeSync(file, chunk);
          made();
        }
      } finally {
        closeSync(file);
      }
    };
    // Another business's zip first, so the code the export runs is compiled before the baseline.
    await write(otherBusinessId, join(directory, 'warm-up.zip'));

    // Sampled at the chunks the export hands on (over HTTP the socket's buffers take a zip this
    // size whole, so the reader never makes it wait): whatever it holds, it holds there. At most
    // one collection per 100 ms keeps the sampling from slowing it down.
    const gc = collector();
    gc();
    const baseline = process.memoryUsage();
    let heapPeak = baseline.heapUsed;
    let buffersPeak = baseline.arrayBuffers;
    let sampledAt = performance.now();
    const path = join(directory, 'export.zip');
    await write(businessId, path, () => {
      if (performance.now() - sampledAt < 100) return;
      gc();
      const { heapUsed, arrayBuffers } = process.memoryUsage();
      heapPeak = Math.max(heapPeak, heapUsed);
      buffersPeak = Math.max(buffersPeak, arrayBuffers);
      sampledAt = performance.now();
    });
    const heapGrowth = heapPeak - baseline.heapUsed;
    const zipped = readFileSync(path);
    const files = unzipSync(new Uint8Array(zipped));
    const unpacked = Object.values(files).reduce((total, file) => total + file.byteLength, 0);
    const rows = rowsOf(strFromU8(files['items.csv']));
    expect(rows.length - 1).toBeGreaterThan(ITEM_COUNT);
    expect(rows.filter((row) => /,\d{4}-\d\d-\d\dT[^,]+$/.test(row)).length).toBe(ITEM_COUNT / 100);
    const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
    console.log(
      `Export of ${rows.length - 1} items on ${kind}: ${megabytes(zipped.byteLength)} zipped, ${megabytes(unpacked)} of CSV; ` +
        `while it was made the heap grew by at most ${megabytes(heapGrowth)}, buffers by ${megabytes(buffersPeak - baseline.arrayBuffers)}.`,
    );
    // Holding the export would take at least its text; the walk holds a batch, the zip a window.
    expect(heapGrowth).toBeLessThan(unpacked / 4);
  });
});
