import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPermissions, MASTER_PERMISSION } from '../../domain/permissions';
import { viewsRecord, type PlaceAccess } from '../../domain/places';
import type { ResourceDefinition } from '../../domain/resource';
import { items } from '../../domain/resources/items';
import { registry } from '../../domain/resources/registry';
import { paidInTenders } from '../../domain/tenders';
import {
  contactOfType,
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

const hasLinesFile = (definition: ResourceDefinition) => definition.document !== undefined && definition.document.lines !== 'none';

/** Every resource but the global permission list, a lines file per kind of document with items, a tenders file per kind of payment. */
const EXPECTED_FILES = [
  'README.txt',
  ...registry
    .filter((definition) => definition.tenancy !== 'global')
    .flatMap((definition) => [
      `${definition.name}.csv`,
      ...(hasLinesFile(definition) ? [`${definition.name}-lines.csv`] : []),
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

/** The cells of each row of a CSV as the export writes it (quoted cells may hold commas, quotes and line breaks). */
function csvCells(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const text = csv.replace(/^\uFEFF/, '');
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (quoted && char === '"' && text[at + 1] === '"') {
      cell += '"';
      at++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      row.push(cell);
      cell = '';
    } else if (!quoted && char === '\r' && text[at + 1] === '\n') {
      rows.push([...row, cell]);
      row = [];
      cell = '';
      at++;
    } else {
      cell += char;
    }
  }
  return rows;
}

/** A file's rows as records by heading. */
function csvRecords(file: Uint8Array): Record<string, string>[] {
  const [headings, ...rows] = csvCells(strFromU8(file));
  return rows.map((cells) => Object.fromEntries(headings.map((heading, index) => [heading, cells[index]])));
}

async function zipFiles(db: Db, scope: Scope, exportedAt: Date): Promise<Record<string, Uint8Array>> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of businessZip(db, scope, 'Confined', exportedAt)) chunks.push(chunk);
  return unzipSync(new Uint8Array(Buffer.concat(chunks)));
}

describe.each(databaseKinds)('the zip of a user who works at some places on %s', (kind) => {
  let test: TestApp;
  let db: Db;
  let businessId: number;
  let access: PlaceAccess;
  let scope: Scope;
  const exportedAt = new Date();
  /** Every permission but the master's, so what keeps a record out is its place. */
  const everythingButMaster = () =>
    new Set(
      allPermissions()
        .map((permission) => permission.name)
        .filter((name) => name !== MASTER_PERMISSION),
    );

  beforeAll(async () => {
    const demo = await startDemo(kind);
    ({ test } = demo);
    db = test.app.db;
    businessId = demo.businesses[0];
    const { admin } = demo;
    const makati = (await admin.send('GET', '/api/branches?name=Makati&is_strict=1')).body.data[0].id;
    const valenzuela = (await admin.send('GET', '/api/warehouses?name=Valenzuela Central&is_strict=1')).body.data[0].id;
    access = {
      all: null,
      grants: [
        { type: 'branch', id: makati, level: 'view' },
        { type: 'warehouse', id: valenzuela, level: 'operate' },
      ],
    };
    // The demo works at Makati and Valenzuela: add documents, lines, tenders and prices at places the user does not view.
    const made = async (resource: string, body: Record<string, unknown>) => {
      const answer = await admin.send('POST', `/api/${resource}`, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body.data;
    };
    const place = async (resource: string, name: string) =>
      (await admin.send('GET', `/api/${resource}?name=${name}&is_strict=1`)).body.data[0].id;
    const [quezon, cebu, mandaue] = [
      await place('branches', 'Quezon City'),
      await place('branches', 'Cebu'),
      await place('warehouses', 'Mandaue'),
    ];
    const item = await made('items', { sku: 'ELSEWHERE-1', name: 'Sold elsewhere', unit_of_measurement_id: 1 });
    const line = (quantity: number) => ({ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity });
    for (const at of [{ branch_id: quezon }, { warehouse_id: mandaue }])
      await made('stock-adjustments', { ...at, date: '2026-11-01', lines: [{ ...line(50), reason: 'opening_balance' }] });
    const sold = await made('invoices', {
      contact_id: await contactOfType(admin, 'Customer'),
      branch_id: quezon,
      date: '2026-11-02',
      lines: [{ ...line(2), unit_price: 40 }],
    });
    await made('invoice-payments', {
      invoice_id: sold.id,
      date: '2026-11-03',
      tenders: [
        { method: 'cash', amount: 30 },
        { method: 'gcash', amount: 50, reference: '9012345678904' },
      ],
    });
    const ends = { from_location_type: 'warehouse', from_location_id: mandaue, to_location_type: 'branch', to_location_id: cebu };
    await made('stock-transfers', { ...ends, date: '2026-11-04', lines: [line(5)] });
    await made('sale-item-prices', {
      item_id: item.id,
      branch_id: cebu,
      unit_of_measurement_id: item.unit_of_measurement_id,
      price: 45,
      effective_date: '2026-11-01',
    });
    const { userId } = await userWithPermissions(test, businessId, [...everythingButMaster()], access);
    scope = { businessId, userId, permissions: everythingButMaster(), places: access };
  });
  afterAll(() => test.close());

  /** The business's rows of a table, every one (trashed too). */
  const rowsOf = (table: string) => untyped(db).selectFrom(table).selectAll().where('business_id', '=', businessId).execute();

  it('holds only the records of the places they view, and only the lines and tenders of the documents they view', async () => {
    const files = await zipFiles(db, scope, exportedAt);
    expect(Object.keys(files)).toEqual(EXPECTED_FILES);
    let leftOut = 0;
    let tendersLeftOut = 0;
    for (const definition of registry.filter((each) => each.places)) {
      const rows = await rowsOf(definition.table);
      const viewed = (row: Record<string, unknown>) => viewsRecord(access, definition.places!, row);
      const shown = rows.filter(viewed);
      const ids = shown.map((row) => String(row.id));
      const exported = csvRecords(files[`${definition.name}.csv`]).map((record) => record.ID);
      expect(exported.sort(), definition.name).toEqual(ids.sort());
      leftOut += rows.length - ids.length;
      /** Matches a file of the documents' lines or tenders, by key, against those of the documents shown; answers how many it left out. */
      const shownIds = new Set(shown.map((row) => Number(row.id)));
      const childrenLeftOut = (file: string, exportedKeys: string[], children: { of: number; key: string }[]) => {
        const kept = children.filter((child) => shownIds.has(child.of)).map((child) => child.key);
        expect(exportedKeys.sort(), `${definition.name} ${file}`).toEqual(kept.sort());
        return children.length - kept.length;
      };

      if (hasLinesFile(definition)) {
        const lines = await db
          .selectFrom('document_lines')
          .select(['id', 'document_id'])
          .where('business_id', '=', businessId)
          .where('document_type', '=', definition.document!.type)
          .execute();
        leftOut += childrenLeftOut(
          'lines',
          csvRecords(files[`${definition.name}-lines.csv`]).map((record) => record['Line ID']),
          lines.map((line) => ({ of: line.document_id, key: String(line.id) })),
        );
      }
      if (paidInTenders(definition)) {
        const tenders = await db
          .selectFrom('payment_tenders')
          .select(['payment_id', 'position'])
          .where('business_id', '=', businessId)
          .where('payment_type', '=', definition.document!.type)
          .execute();
        tendersLeftOut += childrenLeftOut(
          'tenders',
          csvRecords(files[`${definition.name}-tenders.csv`]).map((record) => `${record['Payment ID']}/${Number(record.Tender) - 1}`),
          tenders.map((tender) => ({ of: tender.payment_id, key: `${tender.payment_id}/${tender.position}` })),
        );
      }
    }
    // Records, lines and tenders of other places were left out, and the places files hold only theirs.
    expect(leftOut).toBeGreaterThan(15);
    expect(tendersLeftOut).toBeGreaterThan(0);
    expect(csvRecords(files['branches.csv']).map((record) => record.Name)).toEqual(['Makati']);
    expect(csvRecords(files['warehouses.csv']).map((record) => record.Name)).toEqual(['Valenzuela Central']);
    // What belongs to no place is there whole.
    expect(csvRecords(files['items.csv'])).toHaveLength((await rowsOf('items')).length);
    expect(strFromU8(files['README.txt'])).toContain('it holds only what is at the places you work at.');
  });

  it('holds for someone who views every place what it holds for a master', async () => {
    const master = await zipFiles(db, { businessId, userId: 1, permissions: new Set([MASTER_PERMISSION]) }, exportedAt);
    const everywhere = await zipFiles(db, { ...scope, places: { all: 'view', grants: [] } }, exportedAt);
    expect(Object.keys(everywhere)).toEqual(Object.keys(master));
    for (const name of Object.keys(master)) expect(strFromU8(everywhere[name]), name).toBe(strFromU8(master[name]));
    expect(strFromU8(master['README.txt'])).not.toContain('places you work at');
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
