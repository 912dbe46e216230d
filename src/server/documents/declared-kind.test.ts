import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startSellingDemo, stockLevel, type SellingDemo } from '../../../tests/support/test-app';
import { giftKind } from '../../../tests/support/gift-kind';
import { MASTER_PERMISSION } from '../../domain/permissions';
import { createSchema } from '../../domain/resource-schemas';
import { registry } from '../../domain/resources/registry';
import { stockAdjustments } from '../../domain/resources/stock-adjustments';
import { composeEngine } from '../composition';
import { untyped, type Scope } from '../db/scope';
import { createRecord } from '../resources/record-service';
import { auditDatabase } from './audit';
import { workOf } from './document-store';

/**
 * A document kind that is only declared — a definition and its table, no server code of its own
 * and named nowhere else — is made, moves stock, is voided and is audited from its declaration:
 * the engine serves it with the document store, its void moves back what it declares it moved,
 * and the audit checks its movements.
 */
/** The kind, one definition for both databases: the engine keeps one store per resource name. */
const gifts = giftKind({
  name: 'declared-gifts',
  table: 'declared_gifts',
  singular: 'Gift',
  plural: 'Gifts',
  type: 'declared-gift',
  prefix: 'GF',
});

describe.each(databaseKinds)('a document kind that is only declared, on %s', (kind) => {
  let demo: SellingDemo;
  let scope: Scope;

  beforeAll(async () => {
    demo = await startSellingDemo(kind, { sku: 'GIFT-1', name: 'Declared Gift Soap 90g' }, 10);
    scope = { businessId: demo.businessId, userId: 1, permissions: new Set([MASTER_PERMISSION]) };
    const db = demo.test.app.db;
    // Its table: a stock adjustment's columns, as its migration would make them.
    if (kind === 'postgres') await sql`create table declared_gifts (like stock_adjustments including all)`.execute(db);
    else {
      const made = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'stock_adjustments'`.execute(
        db,
      );
      await sql.raw(made.rows[0]!.sql.replace(/stock_adjustments/, 'declared_gifts')).execute(db);
    }
    composeEngine([...registry, gifts]);
  });
  afterAll(async () => {
    await sql`drop table declared_gifts`.execute(demo.test.app.db);
    await demo.test.close();
  });

  it('is made and moves stock, its void moves it back once, and the audit finds it sound', async () => {
    const db = demo.test.app.db;
    const branch = { type: 'branch' as const, id: demo.branchId };
    // The body as the create route reads it: the kind's fields, and the lines its store takes.
    const fields = createSchema(gifts).parse({ branch_id: demo.branchId, date: '2026-11-20' }) as Record<string, unknown>;
    const lines = [{ item_id: demo.item.id, unit_of_measurement_id: demo.item.unit_of_measurement_id, quantity: 3 }];
    const values = { ...fields, lines };
    const gift = await db.transaction().execute((trx) => createRecord(trx, scope, gifts, values));
    expect(gift).toMatchObject({ status: stockAdjustments.document!.lifecycle.start });
    expect(String(gift.number)).toMatch(/^GF-/);
    expect(await stockLevel(demo.admin, demo.item.id, branch)).toEqual({ onHand: 7, inTransit: 0 });

    const voidWork = workOf(gifts.name, 'void');
    expect(voidWork).toBeTypeOf('function');
    await db.transaction().execute(async (trx) => {
      const row = await untyped(trx).selectFrom('declared_gifts').selectAll().where('id', '=', gift.id).executeTakeFirstOrThrow();
      await voidWork!(trx, scope, row);
      await untyped(trx).updateTable('declared_gifts').set({ status: 'void' }).where('id', '=', gift.id).execute();
    });
    expect(await stockLevel(demo.admin, demo.item.id, branch)).toEqual({ onHand: 10, inTransit: 0 });
    expect(await auditDatabase(db, [...registry, gifts])).toEqual([]);
  });
});
