import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASTER_PERMISSION } from '../../domain/permissions';
import { createSchema } from '../../domain/resource-schemas';
import { items } from '../../domain/resources/items';
import { databaseKinds, firstOf, startDemo, type TestApp } from '../../../tests/support/test-app';
import type { Scope } from '../db/scope';
import { createRecord, createRecords, RefusedRecords } from './record-service';
import { readCount } from './resource-counts';

/**
 * Many records made at once (an import's) are made as one is: `createRecords` checks each as
 * `createRecord` does, writes the same row, counts it and enters the same history, and refuses
 * the records `createRecord` would refuse, by their place in the batch.
 */
describe.each(databaseKinds)('creating many records at once on %s', (kind) => {
  let test: TestApp;
  let scope: Scope;
  let unitId: number;
  let brandId: number;

  beforeAll(async () => {
    const demo = await startDemo(kind);
    test = demo.test;
    scope = { businessId: demo.businesses[0], userId: 1, permissions: new Set([MASTER_PERMISSION]) };
    unitId = (await firstOf(demo.admin, 'items')).unit_of_measurement_id;
    brandId = (await firstOf(demo.admin, 'brands')).id;
  });
  afterAll(() => test.close());

  /** An item's body as the form's create takes it (its defaults filled in). */
  const item = (sku: string, extra: Record<string, unknown> = {}) =>
    createSchema(items).parse({
      sku,
      name: 'Batch-made coffee 100g',
      unit_of_measurement_id: unitId,
      brand_id: brandId,
      vat_category: 'exempt',
      reorder_level: 6,
      ...extra,
    }) as Record<string, unknown>;
  const history = (ids: number[]) =>
    test.app.db
      .selectFrom('activity_log')
      .select(['record_id', 'action', 'changes', 'summary'])
      .where('resource', '=', 'items')
      .where('record_id', 'in', ids)
      .orderBy('record_id')
      .execute();
  const liveItems = async () =>
    Number(
      (
        await test.app.db
          .selectFrom('items')
          .select((eb) => eb.fn.countAll().as('count'))
          .where('business_id', '=', scope.businessId)
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).count,
    );

  it('makes each of more than one batch as createRecord makes one: its row, its count and its history', async () => {
    const before = await readCount(test.app.db, scope.businessId, 'items', 'active');
    const { single, many } = await test.app.db.transaction().execute(async (trx) => ({
      single: Number((await createRecord(trx, scope, items, item('BAT-ONE'))).id),
      many: await createRecords(
        trx,
        scope,
        items,
        Array.from({ length: 1001 }, (_, index) => item(`BAT-${index}`)),
      ),
    }));
    expect(many).toHaveLength(1001);
    expect(await readCount(test.app.db, scope.businessId, 'items', 'active')).toBe(before + 1002);
    expect(await liveItems()).toBe(before + 1002);

    const [one, twin] = await history([single, many[1000]]);
    const changes = (entry: { changes: string | null }) => ({ ...JSON.parse(entry.changes!), sku: undefined });
    expect(twin).toMatchObject({ action: 'created', summary: one.summary });
    expect(changes(twin)).toEqual(changes(one));
    expect(JSON.parse(one.changes!)).toMatchObject({
      brand_id: { to: { id: brandId, display: expect.any(String) } },
      vat_category: { to: 'exempt' },
    });
    expect(await history(many)).toHaveLength(1001);

    const rows = await test.app.db.selectFrom('items').selectAll().where('id', 'in', [single, many[1000]]).orderBy('id').execute();
    const kept = ({ id: _id, sku: _sku, created_at: _c, updated_at: _u, ...rest }: Record<string, unknown>) => rest;
    expect(kept(rows[1])).toEqual(kept(rows[0]));
  });

  it('refuses by their place what createRecord refuses, within a batch and across batches, and writes none after', async () => {
    const before = await readCount(test.app.db, scope.businessId, 'items', 'active');
    const batch = Array.from({ length: 1200 }, (_, index) => item(`REF-${index}`));
    batch[1100] = item('REF-5');
    batch[1150] = item('REF-1150', { brand_id: 999_999_999 });
    batch[1199] = item('REF-1199', { barcode: '4800000009999' });
    batch[1198] = item('REF-1198', { barcode: '4800000009999' });
    const refused = await test.app.db
      .transaction()
      .execute(async (trx) => createRecords(trx, scope, items, batch))
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RefusedRecords);
    expect((refused as RefusedRecords).refusals.map(({ index, error }) => [index, error.statusCode, error.errors])).toEqual([
      [1100, 422, { sku: ['The sku has already been taken.'] }],
      [1150, 422, { brand_id: ['The selected brand is invalid.'] }],
      [1199, 422, { barcode: ['The barcode has already been taken.'] }],
    ]);
    expect(await readCount(test.app.db, scope.businessId, 'items', 'active')).toBe(before);
    expect(await liveItems()).toBe(before);
  });
});
