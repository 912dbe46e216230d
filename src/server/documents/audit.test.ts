import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Insertable } from 'kysely';
import { buildApp } from '../app';
import { ADMIN_EMAIL, contactOfType, databaseKinds, startDemo, type Session, type TestApp } from '../../../tests/support/test-app';
import { giftKind } from '../../../tests/support/gift-kind';
import { centavosToPesos, formatPesos } from '../../domain/money';
import { nowIso, openDatabase } from '../db/dialect';
import { seed } from '../seed';
import type { Db } from '../db/scope';
import type { StockMovementsTable } from '../db/schema';
import { OPENING_AGAIN_NOTE } from '../../domain/imports';
import { registry } from '../../domain/resources/registry';
import { untyped } from '../db/scope';
import { auditDatabase, type AuditFinding } from './audit';

/**
 * The audit on each database: the demo data, with voided documents added through the API, is
 * sound; then each test damages it one way inside a transaction that is rolled back, and the
 * audit must name the damage under the right check, and nothing else.
 */
describe.each(databaseKinds)('the database audit on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let db: Db;
  let main: number;
  let warehouse: { id: number; name: string };
  let branch: { id: number; name: string };
  const item = { id: 0, sku: 'AUDIT-1', name: 'Audit Anchovies 155g', unit_of_measurement_id: 1 };
  /** Kept in pieces, bought in boxes of 12: its opening at the branch, a correction of it, and a box found. */
  const sardines = { id: 0, sku: 'AUDIT-2', name: 'Audit Sardines 155g', unit_of_measurement_id: 1 };
  let box: { id: number; abbreviation: string };
  let pieces: string;
  let boxes: { id: number };
  let opening: { number: string };
  let openingAgain: { id: number; number: string };
  let boxFound: { number: string };
  let voidedReceipt: { id: number; number: string };
  let transfer: { id: number; number: string; lines: { id: number }[] };

  const created = async (url: string, body: Record<string, unknown>) => {
    const answer = await admin.send('POST', url, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.data;
  };
  const voided = async (resource: string, id: number) => {
    const answer = await admin.send('PATCH', `/api/${resource}/${id}/void`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  };
  const line = (quantity: number, price = 20) => ({
    item_id: item.id,
    unit_of_measurement_id: item.unit_of_measurement_id,
    quantity,
    unit_price: price,
  });

  beforeAll(async () => {
    ({
      test,
      admin,
      businesses: [main],
    } = await startDemo(kind));
    db = test.app.db;
    warehouse = (await admin.send('GET', '/api/warehouses?limit=1&order_by=asc')).body.data[0];
    branch = (await admin.send('GET', '/api/branches?limit=1&order_by=asc')).body.data[0];
    const supplierId = await contactOfType(admin, 'Supplier');
    // The first customer (the walk-in), whom no credit limit stops: the demo's newest sits at its limit.
    const customerId = await contactOfType(admin, 'Customer');
    item.id = (await created('/api/items', { sku: item.sku, name: item.name, unit_of_measurement_id: 1, vat_category: 'vatable' })).id;

    // Goods in (one receipt voided and trashed), sold (the invoice, its payment and memorandum voided) …
    const at = { contact_id: supplierId, warehouse_id: warehouse.id, date: '2026-11-01' };
    await created('/api/receive-orders', { ...at, lines: [line(30)] });
    voidedReceipt = await created('/api/receive-orders', { ...at, lines: [line(10)] });
    await voided('receive-orders', voidedReceipt.id);
    expect((await admin.send('DELETE', `/api/receive-orders/${voidedReceipt.id}`)).status).toBe(200);
    const sold = await created('/api/invoices', {
      contact_id: customerId,
      warehouse_id: warehouse.id,
      date: '2026-11-02',
      lines: [line(5, 35)],
    });
    const paid = await created('/api/invoice-payments', { invoice_id: sold.id, date: '2026-11-03', amount: 20, payment_method: 'cash' });
    const credited = await created('/api/credit-memoranda', { invoice_id: sold.id, date: '2026-11-03', amount: 5, reason: 'Dented cans' });
    await voided('invoice-payments', paid.id);
    await voided('credit-memoranda', credited.id);
    await voided('invoices', sold.id);
    // … and sent to a branch: 8, of which 3 arrived (after a receipt of 3 was voided), and 2 more sent and voided.
    const ends = { from_location_type: 'warehouse', from_location_id: warehouse.id, to_location_type: 'branch', to_location_id: branch.id };
    transfer = await created('/api/stock-transfers', { ...ends, date: '2026-11-04', lines: [line(8)] });
    const arrive = () =>
      created('/api/stock-receives', {
        stock_transfer_id: transfer.id,
        date: '2026-11-05',
        lines: [{ source_line_id: transfer.lines[0].id, quantity: 3 }],
      });
    await voided('stock-receives', (await arrive()).id);
    await arrive();
    // One of the 3 going back: the return names the transfer's line, but only the transfer made from it fulfils anything.
    const goingBack = await created('/api/stock-returns', {
      stock_transfer_id: transfer.id,
      reason: 'Dented cans',
      date: '2026-11-06',
      lines: [{ source_line_id: transfer.lines[0].id, quantity: 1 }],
    });
    await created('/api/stock-transfers', {
      from_location_type: 'branch',
      from_location_id: branch.id,
      to_location_type: 'warehouse',
      to_location_id: warehouse.id,
      stock_return_id: goingBack.id,
      date: '2026-11-07',
      lines: [{ source_line_id: goingBack.lines[0].id, quantity: 1 }],
    });
    await voided('stock-transfers', (await created('/api/stock-transfers', { ...ends, date: '2026-11-04', lines: [line(2)] })).id);

    sardines.id = (await created('/api/items', { sku: sardines.sku, name: sardines.name, unit_of_measurement_id: 1 })).id;
    pieces = (await admin.send('GET', '/api/unit-of-measurements/1')).body.data.abbreviation;
    box = await created('/api/unit-of-measurements', { name: 'Audit box', abbreviation: 'abox' });
    boxes = await created('/api/conversions', { item_id: sardines.id, from_unit_id: box.id, to_unit_id: 1, factor: 12 });
    const adjusted = (reason: string, unitId: number, quantity: number, note?: string) =>
      created('/api/stock-adjustments', {
        branch_id: branch.id,
        date: '2026-11-08',
        lines: [{ item_id: sardines.id, unit_of_measurement_id: unitId, quantity, reason, ...(note ? { note } : {}) }],
      });
    opening = await adjusted('opening_balance', 1, 10);
    openingAgain = await adjusted('opening_balance', 1, 2, OPENING_AGAIN_NOTE);
    boxFound = await adjusted('found', box.id, 1);
  });
  afterAll(() => test.close());

  class RolledBack extends Error {}
  /** The audit's findings after `damage`, which is then rolled back. */
  async function auditAfter(damage: (trx: Db) => Promise<void>): Promise<AuditFinding[]> {
    let findings: AuditFinding[] = [];
    try {
      await db.transaction().execute(async (trx) => {
        await damage(trx);
        findings = await auditDatabase(trx);
        throw new RolledBack();
      });
    } catch (error) {
      if (!(error instanceof RolledBack)) throw error;
    }
    return findings;
  }

  /** What `work` finds, in a transaction that is then rolled back. */
  async function rolledBack<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    let found: T | undefined;
    try {
      await db.transaction().execute(async (trx) => {
        found = await work(trx);
        throw new RolledBack();
      });
    } catch (error) {
      if (!(error instanceof RolledBack)) throw error;
    }
    return found!;
  }

  /** Writes one more movement for a document, with its balance following, as `move` would. */
  async function extraMovement(trx: Db, movement: Omit<Insertable<StockMovementsTable>, 'moved_at'>): Promise<void> {
    const { id: _id, ...copy } = movement;
    await trx
      .insertInto('stock_movements')
      .values({ ...copy, moved_at: nowIso() })
      .execute();
    await trx
      .updateTable('stocks')
      .set((eb) => ({
        quantity_on_hand: eb('quantity_on_hand', '+', Number(movement.quantity)),
        quantity_in_transit: eb('quantity_in_transit', '+', Number(movement.in_transit)),
      }))
      .where('id', '=', Number(movement.stock_id))
      .execute();
  }

  const stockOf = (trx: Db, type: 'warehouse' | 'branch', id: number) =>
    trx
      .selectFrom('stocks')
      .selectAll()
      .where('item_id', '=', item.id)
      .where('location_type', '=', type)
      .where('location_id', '=', id)
      .executeTakeFirstOrThrow();

  /** One more movement of the item at the branch, by the document named. */
  async function extraAtBranch(
    trx: Db,
    moved: Pick<
      Insertable<StockMovementsTable>,
      'quantity' | 'in_transit' | 'document_type' | 'document_id' | 'document_number' | 'document_date'
    >,
  ): Promise<void> {
    const stock = await stockOf(trx, 'branch', branch.id);
    await extraMovement(trx, {
      business_id: main,
      stock_id: stock.id,
      item_id: item.id,
      location_type: 'branch',
      location_id: branch.id,
      ...moved,
    });
  }

  it('finds the demo data, with its voids, sound', async () => {
    expect(await auditDatabase(db)).toEqual([]);
  });

  it('finds a receive order whose goods were put in stock twice, though the balance matches its movements', async () => {
    const first = await db
      .selectFrom('stock_movements')
      .innerJoin('items', 'items.id', 'stock_movements.item_id')
      .selectAll('stock_movements')
      .select(['items.name', 'items.sku'])
      .where('stock_movements.document_type', '=', 'receive-order')
      .orderBy('stock_movements.id')
      .executeTakeFirstOrThrow();
    const { name, sku, ...movement } = first;
    const findings = await auditAfter((trx) => extraMovement(trx, movement));
    const received = Number(movement.quantity) / 1000;
    expect(findings).toEqual([
      {
        check: 'movements',
        message:
          `Receive Order ${movement.document_number} (business ${main}), ${name} (${sku}) at warehouse ${warehouse.name}: moved ${2 * received} on hand ` +
          `in 2 movements, but its lines call for ${received} on hand in 1 movement.`,
      },
      {
        check: 'costs',
        message: `${name} (${sku}): Receive Order ${movement.document_number} (business ${main}) is costed for ${received}, but its movements come to ${2 * received}.`,
      },
    ]);
  });

  it('finds a void receive order reversed twice', async () => {
    const reversal = await db
      .selectFrom('stock_movements')
      .selectAll()
      .where('document_type', '=', 'receive-order')
      .where('document_id', '=', voidedReceipt.id)
      .where('quantity', '<', 0)
      .executeTakeFirstOrThrow();
    const findings = await auditAfter((trx) => extraMovement(trx, reversal));
    expect(findings).toEqual([
      {
        check: 'movements',
        message:
          `Receive Order ${voidedReceipt.number} (business ${main}), ${item.name} (${item.sku}) at warehouse ${warehouse.name}: moved -10 on hand ` +
          `in 3 movements, but its lines call for 0 on hand in 2 movements.`,
      },
      {
        check: 'costs',
        message: `${item.name} (${item.sku}): Receive Order ${voidedReceipt.number} (business ${main}) moved -10 with no cost entry.`,
      },
    ]);
  });

  it('finds movements of a document that does not exist', async () => {
    const findings = await auditAfter(async (trx) => {
      await trx
        .updateTable('stock_movements')
        .set({ document_id: 999_999 })
        .where('document_type', '=', 'receive-order')
        .where('document_id', '=', voidedReceipt.id)
        .execute();
    });
    expect(findings).toEqual([
      {
        check: 'movements',
        message: `Receive Order ${voidedReceipt.number} (business ${main}, id 999999): 2 movements, but no such document exists.`,
      },
      {
        check: 'movements',
        message:
          `Receive Order ${voidedReceipt.number} (business ${main}), ${item.name} (${item.sku}) at warehouse ${warehouse.name}: moved 0 on hand ` +
          `in 0 movements, but its lines call for 0 on hand in 2 movements.`,
      },
    ]);
  });

  it('finds a balance that differs from its movements', async () => {
    const findings = await auditAfter(async (trx) => {
      const stock = await stockOf(trx, 'warehouse', warehouse.id);
      await trx
        .updateTable('stocks')
        .set({ quantity_on_hand: Number(stock.quantity_on_hand) + 1000 })
        .where('id', '=', stock.id)
        .execute();
    });
    // 30 in, 5 sold and put back, 8 and 2 sent, the 2 put back: 22.
    expect(findings).toEqual([
      {
        check: 'balances',
        message: `Stock of ${item.name} (${item.sku}) at warehouse ${warehouse.name} (business ${main}): 23 on hand, but its movements sum to 22.`,
      },
    ]);
  });

  it('finds goods in transit that no open transfer carries, though a movement says so', async () => {
    const findings = await auditAfter(async (trx) => {
      await extraAtBranch(trx, {
        quantity: 0,
        in_transit: 1000,
        document_type: 'stock-transfer',
        document_id: transfer.id,
        document_number: transfer.number,
        document_date: '2026-11-04',
      });
    });
    expect(findings).toEqual([
      {
        check: 'movements',
        message:
          `Stock Transfer ${transfer.number} (business ${main}), ${item.name} (${item.sku}) at branch ${branch.name}: moved 0 on hand and 9 in transit ` +
          `in 2 movements, but its lines call for 0 on hand and 8 in transit in 1 movement.`,
      },
      {
        check: 'in-transit',
        message: `${item.name} (${item.sku}) at branch ${branch.name} (business ${main}): 6 in transit, but the open stock transfers there carry 5.`,
      },
      {
        check: 'costs',
        // Its entry (a transfer carries its goods' cost: docs/costing.md) stands for what it moved before.
        message: `${item.name} (${item.sku}): Stock Transfer ${transfer.number} (business ${main}) is costed for 0, but its movements come to 1.`,
      },
    ]);
  });

  it('finds more fulfilled of a line than the lines naming it hold', async () => {
    const findings = await auditAfter(async (trx) => {
      await trx
        .updateTable('document_lines')
        .set((eb) => ({ quantity_done: eb('quantity_done', '+', 1000) }))
        .where('id', '=', transfer.lines[0].id)
        .execute();
    });
    expect(findings).toEqual([
      {
        check: 'fulfilled',
        message: `Stock Transfer ${transfer.number} (business ${main}) line 1 (${item.name} (${item.sku})): 4 fulfilled, but the unvoided lines naming it hold 3.`,
      },
    ]);
  });

  /** A demo invoice paid in part. */
  const partlyPaid = () =>
    db.selectFrom('invoices').selectAll().where('status', '=', 'partially_paid').orderBy('id').executeTakeFirstOrThrow();
  const pesos = (centavos: unknown) => formatPesos(centavosToPesos(Number(centavos)));

  it('finds an invoice whose amount paid went below zero, away from its payments', async () => {
    const invoice = await partlyPaid();
    const paid = Number(invoice.amount_paid);
    const findings = await auditAfter(async (trx) => {
      await trx.updateTable('invoices').set({ amount_paid: -paid }).where('id', '=', invoice.id).execute();
    });
    const name = `Invoice ${invoice.number} (business ${main})`;
    expect(findings).toEqual(
      [
        `${name}: ${pesos(-paid)} paid, but its unvoided payments sum to ${pesos(paid)}.`,
        `${name}: a balance of ${pesos(invoice.balance)}, but ${pesos(invoice.total)} total less ${pesos(-paid)} paid and ₱0.00 adjusted ` +
          `leaves ${pesos(Number(invoice.total) + paid)}.`,
        `${name}: paid or adjusted below zero (${pesos(-paid)} paid, ₱0.00 adjusted).`,
      ].map((message) => ({ check: 'settlement', message })),
    );
  });

  it('finds a balance that is not the total less what was paid and adjusted', async () => {
    const invoice = await partlyPaid();
    const findings = await auditAfter(async (trx) => {
      await trx
        .updateTable('invoices')
        .set({ balance: Number(invoice.balance) - 100 })
        .where('id', '=', invoice.id)
        .execute();
    });
    expect(findings).toEqual([
      {
        check: 'settlement',
        message:
          `Invoice ${invoice.number} (business ${main}): a balance of ${pesos(Number(invoice.balance) - 100)}, but ${pesos(invoice.total)} total ` +
          `less ${pesos(invoice.amount_paid)} paid and ₱0.00 adjusted leaves ${pesos(invoice.balance)}.`,
      },
    ]);
  });

  it('finds an item’s base unit changed under the lines that counted in it', async () => {
    const findings = await auditAfter(async (trx) => {
      await trx.updateTable('items').set({ unit_of_measurement_id: box.id }).where('id', '=', sardines.id).execute();
    });
    const named = `${sardines.name} (${sardines.sku})`;
    const changed = 'its base unit or a conversion was changed under the line.';
    expect(findings).toEqual([
      {
        check: 'base-units',
        message: `Stock Adjustment ${opening.number} (business ${main}) line 1 (${named}): 10 ${pieces} kept as 10 in its base unit, but it counts in abox now, and no conversion takes ${pieces} to it; ${changed}`,
      },
      {
        check: 'base-units',
        message: `Stock Adjustment ${openingAgain.number} (business ${main}) line 1 (${named}): 2 ${pieces} kept as 2 in its base unit, but it counts in abox now, and no conversion takes ${pieces} to it; ${changed}`,
      },
      {
        check: 'base-units',
        message: `Stock Adjustment ${boxFound.number} (business ${main}) line 1 (${named}): 1 abox kept as 12 in its base unit, but by its base unit and conversions now that is 1 abox; ${changed}`,
      },
    ]);
  });

  it('finds a conversion’s factor changed under the lines priced by it', async () => {
    const findings = await auditAfter(async (trx) => {
      await trx.updateTable('conversions').set({ factor: 10_000_000 }).where('id', '=', boxes.id).execute();
    });
    expect(findings).toEqual([
      {
        check: 'base-units',
        message:
          `Stock Adjustment ${boxFound.number} (business ${main}) line 1 (${sardines.name} (${sardines.sku})): 1 abox kept as 12 in its base unit, ` +
          `but by its base unit and conversions now that is 10 ${pieces}; its base unit or a conversion was changed under the line.`,
      },
    ]);
  });

  it('finds two opening balances of one item at one place, and takes one imported again as its correction', async () => {
    // Sound as it is: the second opening balance line is noted as the opening stock imported again.
    expect(await auditDatabase(db)).toEqual([]);
    const findings = await auditAfter(async (trx) => {
      await trx
        .updateTable('document_lines')
        .set({ note: null })
        .where('document_type', '=', 'stock-adjustment')
        .where('document_id', '=', openingAgain.id)
        .execute();
    });
    expect(findings).toEqual([
      {
        check: 'openings',
        message:
          `${sardines.name} (${sardines.sku}) at branch ${branch.name} (business ${main}): 2 opening balances, in Stock Adjustments ` +
          `${opening.number} and ${openingAgain.number}; an item opens at a place once, and is corrected after.`,
      },
    ]);
  });

  it('audits a kind of document it names nowhere by its declared effects: a line of it that moved nothing is found', async () => {
    // A kind made up here, in a table of its own: goods given away at their place, out on hand by each line.
    const gifts = giftKind({ name: 'audit-gifts', table: 'audit_gifts', singular: 'Audit Gift', type: 'audit-gift', prefix: 'AG' });
    const [declared, undeclared] = await rolledBack(async (trx) => {
      await sql`create table audit_gifts (id integer primary key, business_id integer not null, number text not null,
        status text not null, branch_id integer, warehouse_id integer)`.execute(trx);
      // AG-1 gave 2 away and moved them; AG-2 gave 1 away and moved nothing.
      for (const [id, given, moved] of [
        [1, 2, true],
        [2, 1, false],
      ] as const) {
        const number = `AG-${id}`;
        await untyped(trx)
          .insertInto('audit_gifts')
          .values({ id, business_id: main, number, status: 'posted', branch_id: branch.id, warehouse_id: null })
          .execute();
        await trx
          .insertInto('document_lines')
          .values({
            business_id: main,
            document_type: 'audit-gift',
            document_id: id,
            position: 0,
            item_id: item.id,
            unit_of_measurement_id: item.unit_of_measurement_id,
            quantity: given * 1000,
            base_quantity: given * 1000,
            unit_price: 0,
            amount: 0,
            vat: 0,
            source_line_id: null,
            reason: null,
            note: null,
          })
          .execute();
        if (moved) {
          await extraAtBranch(trx, {
            quantity: -given * 1000,
            in_transit: 0,
            document_type: 'audit-gift',
            document_id: id,
            document_number: number,
            document_date: '2026-11-09',
          });
        }
      }
      return [await auditDatabase(trx, [...registry, gifts]), await auditDatabase(trx)];
    });
    const at = `${item.name} (${item.sku}) at branch ${branch.name}`;
    expect(declared).toEqual([
      {
        check: 'movements',
        message: `Audit Gift AG-2 (business ${main}), ${at}: moved 0 on hand in 0 movements, but its lines call for -1 on hand in 1 movement.`,
      },
      // Written here beside the ledger, AG-1's movement was never costed: the cost check finds it either way.
      { check: 'costs', message: `${item.name} (${item.sku}): Audit Gift AG-1 (business ${main}) moved -2 with no cost entry.` },
    ]);
    // Not declared, the kind's movements are called for by nothing.
    expect(undeclared).toEqual([
      {
        check: 'movements',
        message: `audit-gift AG-1 (business ${main}), ${at}: moved -2 on hand in 1 movement, but its lines call for 0 on hand in 0 movements.`,
      },
      { check: 'costs', message: `${item.name} (${item.sku}): audit-gift AG-1 (business ${main}) moved -2 with no cost entry.` },
    ]);
  });

  it('finds a kept count one off the table', async () => {
    const findings = await auditAfter(async (trx) => {
      await trx
        .updateTable('resource_counts')
        .set((eb) => ({ active: eb('active', '+', 1) }))
        .where('business_id', '=', main)
        .where('resource', '=', 'brands')
        .execute();
    });
    const brands = (await db.selectFrom('brands').select('id').where('business_id', '=', main).where('deleted_at', 'is', null).execute())
      .length;
    expect(findings).toEqual([
      {
        check: 'counts',
        message: `brands of business ${main}: counted ${brands + 1} active and 0 trashed, but the table holds ${brands} active and 0 trashed.`,
      },
    ]);
  });
});

/** `npm run check:stock` on a SQLite file: exit 0 and a summary when sound, exit 1 and the findings by check when not. */
describe('the check:stock script', () => {
  const directory = mkdtempSync(join(tmpdir(), 'bodega-audit-'));
  const url = `file:${join(directory, 'bodega.sqlite')}`;
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  const checkStock = async () => {
    try {
      const { stdout, stderr } = await promisify(execFile)('node', ['--import', 'tsx', 'scripts/check-stock.ts'], {
        env: { ...process.env, DATABASE_URL: url },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };

  it('says the seeded demo data is sound, then names a damaged invoice', async () => {
    const app = await buildApp({ database: { url }, loginAttemptsPerMinute: 1000, secureCookies: false, logger: false });
    await seed(app.db, { adminEmail: ADMIN_EMAIL, adminPassword: 'audit-password', demoData: true });
    await app.close();

    const sound = await checkStock();
    expect(sound.code, sound.stderr).toBe(0);
    expect(sound.stdout).toMatch(
      /^Database is sound: \d+ documents \(\d+ lines\), \d+ stock movements, \d+ stock balances and \d+ kept counts agree/,
    );

    const db = openDatabase({ url }).db;
    const invoice = await db.selectFrom('invoices').select(['id', 'number']).where('status', '=', 'unpaid').executeTakeFirstOrThrow();
    await db.updateTable('invoices').set({ amount_paid: 100, balance: 0 }).where('id', '=', invoice.id).execute();
    await db.destroy();

    const damaged = await checkStock();
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain('settlement (');
    expect(damaged.stderr).toContain(`  Invoice ${invoice.number} (business 1): ₱1.00 paid, but its unvoided payments sum to ₱0.00.`);
  });
});
