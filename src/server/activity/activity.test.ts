import { describe, expect, it } from 'vitest';
import { startedOnce } from '../../../tests/support/started';
import { contactOfType, databaseKinds, rowCount, startDemo, userWithPermissions } from '../../../tests/support/test-app';
import type { ActivityEntry } from '../../domain/activity';
import { todayInManila } from '../../domain/documents';

/**
 * The activity log through the API, on each database: one entry per change, in the change's
 * transaction, with who and when (and the device's time for outbox replays), never a secret,
 * and never another business's.
 */

describe.each(databaseKinds)('activity log on %s', (kind) => {
  /** The admin's first business, `main`, and their `second`. */
  const world = startedOnce(async () => {
    const demo = await startDemo(kind);
    return { ...demo, db: demo.test.app.db, main: demo.businesses[0], second: demo.businesses[1] };
  }, false);

  const historyOf = async (resource: string, id: number, session = world.admin): Promise<ActivityEntry[]> => {
    const answer = await session.send('GET', `/api/${resource}/${id}/activity?per_page=100`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data;
  };
  const entryCount = () => rowCount(world.db, 'activity_log');

  it('writes one entry per create, update, delete, restore and force delete, with who and when', async () => {
    const started = new Date().toISOString();
    const created = await world.admin.send('POST', '/api/brands', { name: 'Activity Brand', description: 'First words' });
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;
    expect((await world.admin.send('PATCH', `/api/brands/${id}`, { description: 'Second words' })).status).toBe(200);
    expect((await world.admin.send('DELETE', `/api/brands/${id}`)).status).toBe(200);
    expect((await world.admin.send('PATCH', `/api/brands/${id}/restore`)).status).toBe(200);

    const history = await historyOf('brands', id);
    expect(history.map((entry) => entry.action)).toEqual(['restored', 'deleted', 'updated', 'created']);
    expect(history[3].changes).toEqual({ name: { from: null, to: 'Activity Brand' }, description: { from: null, to: 'First words' } });
    // Only what changed: not the version, not updated_at, not the name.
    expect(history[2].changes).toEqual({ description: { from: 'First words', to: 'Second words' } });
    for (const entry of history) {
      expect(entry).toMatchObject({ resource: 'brands', record_id: id, user_id: world.adminId, user_name: 'Administrator' });
      expect(entry.happened_at >= started && entry.happened_at <= new Date().toISOString()).toBe(true);
      expect(entry).toMatchObject({ made_at: null, made_offline: false });
    }

    expect((await world.admin.send('DELETE', `/api/brands/${id}`)).status).toBe(200);
    expect((await world.admin.send('DELETE', `/api/brands/${id}/force-delete`)).status).toBe(204);
    // The record is gone, so is its own history route; the search still tells it, by name.
    expect((await world.admin.send('GET', `/api/brands/${id}/activity`)).status).toBe(404);
    const search = await world.admin.send('GET', `/api/activity?resource=brands&record_id=${id}`);
    expect(search.body.data.map((entry: ActivityEntry) => entry.action)).toEqual([
      'force-deleted',
      'deleted',
      'restored',
      'deleted',
      'updated',
      'created',
    ]);
    expect(search.body.data[0].summary).toBe('Activity Brand');
    expect(search.body.meta).toMatchObject({ total: 6, current_page: 1 });
  });

  it('tells changes in decimals and references by name, pages newest first', async () => {
    const [itemId, unitId] = [1, 1];
    const price = await world.admin.send('POST', '/api/sale-item-prices', {
      item_id: itemId,
      unit_of_measurement_id: unitId,
      price: 12.5,
      effective_date: '2026-11-01',
    });
    expect(price.status, JSON.stringify(price.body)).toBe(201);
    const id = price.body.data.id as number;
    expect((await world.admin.send('PATCH', `/api/sale-item-prices/${id}`, { price: 13.75 })).status).toBe(200);
    const [updated, created] = await historyOf('sale-item-prices', id);
    // Stored as 1250 and 1375 centavos; told as pesos.
    expect(updated.changes).toEqual({ price: { from: 12.5, to: 13.75 } });
    const item = (await world.admin.send('GET', `/api/items/${itemId}`)).body.data;
    expect(created.changes?.item_id).toEqual({ from: null, to: { id: itemId, display: item.name } });
    expect(created.changes?.price).toEqual({ from: null, to: 12.5 });
    expect(created.changes).not.toHaveProperty('branch_id');

    const secondPage = await world.admin.send('GET', `/api/sale-item-prices/${id}/activity?page=2&per_page=1`);
    expect(secondPage.body.data.map((entry: ActivityEntry) => entry.action)).toEqual(['created']);
    expect(secondPage.body.meta).toMatchObject({ total: 2, per_page: 1, current_page: 2, last_page: 2, from: 2, to: 2 });
  });

  it('logs document lines as counts, cancels and voids', async () => {
    const supplier = await contactOfType(world.admin, 'Supplier');
    const warehouse = (await world.admin.send('GET', '/api/warehouses?limit=1&order_by=asc')).body.data[0].id;
    const line = (quantity: number) => ({ item_id: 1, unit_of_measurement_id: 1, quantity, unit_price: 10 });
    const order = await world.admin.send('POST', '/api/purchase-orders', {
      contact_id: supplier,
      warehouse_id: warehouse,
      date: '2026-11-03',
      lines: [line(1), line(2)],
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const orderId = order.body.data.id as number;
    expect((await world.admin.send('PATCH', `/api/purchase-orders/${orderId}`, { lines: [line(1), line(2), line(3)] })).status).toBe(200);
    expect((await world.admin.send('PATCH', `/api/purchase-orders/${orderId}/cancel`)).status).toBe(200);
    const [cancelled, relined, created] = await historyOf('purchase-orders', orderId);
    expect(cancelled).toMatchObject({ action: 'cancelled', changes: { status: { from: 'open', to: 'cancelled' } } });
    // 1×10 + 2×10 = 30 pesos, then + 3×10 = 60.
    expect(relined.changes).toMatchObject({ lines: { from: '2 lines', to: '3 lines' }, subtotal: { from: 30, to: 60 } });
    expect(created.changes).toMatchObject({ lines: { from: null, to: '2 lines' }, number: { from: null, to: order.body.data.number } });

    const receipt = await world.admin.send('POST', '/api/receive-orders', {
      contact_id: supplier,
      warehouse_id: warehouse,
      date: '2026-11-04',
      lines: [line(4)],
    });
    expect(receipt.status, JSON.stringify(receipt.body)).toBe(201);
    expect((await world.admin.send('PATCH', `/api/receive-orders/${receipt.body.data.id}/void`)).status).toBe(200);
    const [voided] = await historyOf('receive-orders', receipt.body.data.id);
    expect(voided).toMatchObject({ action: 'voided', changes: { status: { from: receipt.body.data.status, to: 'void' } } });
  });

  it('logs resets and assignments, and never a password or pin', async () => {
    const lastBefore = Number(
      (
        await world.db
          .selectFrom('activity_log')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow()
      ).id,
    );
    const user = await world.admin.send('POST', '/api/users', {
      name: 'Logged User',
      email: 'logged@example.com',
      password: 'Initial-Secret-1',
      security_pin: '4826',
    });
    expect(user.status, JSON.stringify(user.body)).toBe(201);
    const id = user.body.data.id as number;
    expect((await world.admin.send('PATCH', `/api/users/${id}`, { password: 'Changed-Secret-2' })).status).toBe(200);
    const password = await world.admin.send('POST', '/api/users/reset-password', { id });
    const pin = await world.admin.send('POST', '/api/users/reset-security-pin', { id });
    expect([password.status, pin.status]).toEqual([200, 200]);
    const roles = (await world.admin.send('GET', '/api/roles?per_page=100')).body.data as { id: number; name: string }[];
    const viewer = roles.find((role) => role.name === 'Viewer')!;
    const cashier = roles.find((role) => role.name === 'Branch Cashier')!;
    expect((await world.admin.send('PUT', `/api/users/${id}/roles`, { role_ids: [viewer.id] })).status).toBe(200);
    expect((await world.admin.send('PUT', `/api/users/${id}/roles`, { role_ids: [cashier.id] })).status).toBe(200);

    const history = await historyOf('users', id);
    expect(history.map((entry) => [entry.action, entry.summary])).toEqual([
      ['assigned-roles', 'Added: Branch Cashier. Removed: Viewer.'],
      ['assigned-roles', 'Added: Viewer.'],
      ['reset-security-pin', null],
      ['reset-password', null],
      ['updated', 'Changed the password'],
      ['created', null],
      // Made with every place to operate (its creator said nothing of places), written as it was made.
      ['places-changed', null],
    ]);
    expect(history[6].changes).toEqual({ places: { from: 'No places', to: 'All places: operate' } });
    expect(history[5].changes).toEqual({
      name: { from: null, to: 'Logged User' },
      email: { from: null, to: 'logged@example.com' },
      userable_type: { from: null, to: 'none' },
    });

    const role = await world.admin.send('POST', '/api/roles', { name: 'Logged Role' });
    const permissions = (await world.admin.send('GET', '/api/permissions?name=view-brands&is_strict=1')).body.data;
    const assigned = await world.admin.send('PUT', `/api/roles/${role.body.data.id}/permissions`, { permission_ids: [permissions[0].id] });
    expect(assigned.status).toBe(200);
    const [permissionsEntry] = await historyOf('roles', role.body.data.id);
    expect(permissionsEntry).toMatchObject({ action: 'assigned-permissions', summary: 'Added: view-brands.' });

    const written = JSON.stringify(await world.db.selectFrom('activity_log').selectAll().where('id', '>', lastBefore).execute());
    expect(written).toContain('Logged User');
    const secrets = ['Initial-Secret-1', '4826', 'Changed-Secret-2', password.body.temporary_password, pin.body.temporary_security_pin];
    for (const secret of secrets) expect(written.includes(secret), `an entry holds ${secret}`).toBe(false);
    expect(written).not.toMatch(/password_hash|security_pin_hash|"password"|"security_pin"/);
  });

  it('keeps the device time of outbox replays, and ignores a junk or future one', async () => {
    const brand = (await world.admin.send('POST', '/api/brands', { name: 'Offline Brand' })).body.data;
    const madeAt = new Date(Date.now() - 3 * 60 * 60 * 1000).toISOString();
    const offline = { 'x-made-at': madeAt, 'x-made-offline': 'true' };
    expect((await world.admin.send('PATCH', `/api/brands/${brand.id}`, { description: 'typed offline' }, offline)).status).toBe(200);
    const future = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    expect((await world.admin.send('PATCH', `/api/brands/${brand.id}`, { description: 'future' }, { 'x-made-at': future })).status).toBe(
      200,
    );
    expect(
      (await world.admin.send('PATCH', `/api/brands/${brand.id}`, { description: 'junk' }, { 'x-made-at': 'yesterday-ish' })).status,
    ).toBe(200);
    // Sent online from the outbox: a device time without the offline mark, in another zone.
    const online = { 'x-made-at': '2026-11-20T09:15:00+08:00' };
    expect((await world.admin.send('PATCH', `/api/brands/${brand.id}`, { description: 'online' }, online)).status).toBe(200);

    const [onlineEntry, junk, ahead, replayed] = await historyOf('brands', brand.id);
    expect(replayed).toMatchObject({ made_at: madeAt, made_offline: true, changes: { description: { from: null, to: 'typed offline' } } });
    expect(ahead).toMatchObject({ made_at: null, made_offline: false });
    expect(junk).toMatchObject({ made_at: null, made_offline: false });
    expect(onlineEntry).toMatchObject({ made_at: '2026-11-20T01:15:00.000Z', made_offline: false });
  });

  it('writes one entry for an idempotent replay and none for a refused write', async () => {
    const brand = (await world.admin.send('POST', '/api/brands', { name: 'Replayed Brand' })).body.data;
    const key = { 'idempotency-key': 'activity-replay-1' };
    expect((await world.admin.send('PATCH', `/api/brands/${brand.id}`, { description: 'once' }, key)).status).toBe(200);
    const replay = await world.admin.send('PATCH', `/api/brands/${brand.id}`, { description: 'once' }, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await historyOf('brands', brand.id)).map((entry) => entry.action)).toEqual(['updated', 'created']);

    const before = await entryCount();
    expect((await world.admin.send('POST', '/api/brands', { name: '' })).status).toBe(422);
    expect((await world.admin.send('POST', '/api/brands', { name: 'Replayed Brand' })).status).toBe(422);
    expect((await world.admin.send('PATCH', `/api/brands/${brand.id}/restore`)).status).toBe(409);
    expect((await world.admin.send('DELETE', `/api/brands/${brand.id}/force-delete`)).status).toBe(409);
    expect((await world.admin.send('PATCH', `/api/brands/${brand.id}`, { name: 'Stale' }, { 'if-match': '1' })).status).toBe(412);
    expect(await entryCount()).toBe(before);
  });

  it("guards a record's history with its view permission and its business", async () => {
    const brand = (await world.admin.send('POST', '/api/brands', { name: 'Guarded Brand' })).body.data;
    const { session: viewer, grant } = await userWithPermissions(world.test, world.main, ['view-items']);
    expect((await viewer.send('GET', `/api/brands/${brand.id}/activity`)).status).toBe(403);
    await grant(['view-brands']);
    expect((await viewer.send('GET', `/api/brands/${brand.id}/activity`)).status).toBe(200);

    const elsewhere = world.admin.inBusiness(world.second);
    expect((await elsewhere.send('GET', `/api/brands/${brand.id}/activity`)).status).toBe(404);
    expect((await world.admin.send('GET', '/api/brands/999999/activity')).status).toBe(404);
    expect((await world.admin.send('GET', `/api/brands/${brand.id}/activity?per_page=500`)).status).toBe(422);
  });

  it('searches the log by resource, record, user, action and Manila day, for view-activity holders only', async () => {
    const {
      session: auditor,
      userId: auditorId,
      grant,
    } = await userWithPermissions(world.test, world.main, ['view-brands', 'create-brands']);
    expect((await auditor.send('GET', '/api/activity')).status).toBe(403);
    await grant(['view-brands', 'create-brands', 'view-activity']);
    const made = await auditor.send('POST', '/api/brands', { name: 'Audited Brand' });
    expect(made.status).toBe(201);

    const byUser = await auditor.send('GET', `/api/activity?user_id=${auditorId}`);
    expect(byUser.status).toBe(200);
    expect(byUser.body.data).toHaveLength(1);
    expect(byUser.body.data[0]).toMatchObject({
      resource: 'brands',
      record_id: made.body.data.id,
      action: 'created',
      user_name: expect.stringMatching(/^Limited /),
    });

    const brands = await auditor.send('GET', '/api/activity?resource=brands&action=created&per_page=100');
    expect(brands.body.data.length).toBeGreaterThan(1);
    expect(brands.body.data.every((entry: ActivityEntry) => entry.resource === 'brands' && entry.action === 'created')).toBe(true);
    const ids = brands.body.data.map((entry: ActivityEntry) => entry.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const today = todayInManila();
    expect((await auditor.send('GET', `/api/activity?user_id=${auditorId}&from=${today}&to=${today}`)).body.data).toHaveLength(1);
    expect((await auditor.send('GET', `/api/activity?user_id=${auditorId}&to=2020-01-01`)).body.data).toHaveLength(0);

    // Manila is UTC+8: 15:59:59Z is the 20th's last second there, 16:00:00Z the 21st's first.
    const boundary = (happenedAt: string, recordId: number) => ({
      business_id: world.main,
      user_id: world.adminId,
      resource: 'warehouses',
      record_id: recordId,
      action: 'updated',
      changes: null,
      summary: null,
      happened_at: happenedAt,
      made_at: null,
      made_offline: 0,
    });
    await world.db
      .insertInto('activity_log')
      .values([boundary('2025-11-20T15:59:59.000Z', 900_001), boundary('2025-11-20T16:00:00.000Z', 900_002)])
      .execute();
    const onThe21st = await auditor.send('GET', '/api/activity?resource=warehouses&from=2025-11-21&to=2025-11-21');
    expect(onThe21st.body.data.map((entry: ActivityEntry) => entry.record_id)).toEqual([900_002]);
    const onThe20th = await auditor.send('GET', '/api/activity?resource=warehouses&from=2025-11-20&to=2025-11-20');
    expect(onThe20th.body.data.map((entry: ActivityEntry) => entry.record_id)).toEqual([900_001]);
    const byRecord = await auditor.send('GET', '/api/activity?resource=warehouses&record_id=900002');
    expect(byRecord.body.meta.total).toBe(1);

    const bad = await auditor.send('GET', '/api/activity?resource=nothing&from=2026-02-30&to=soon&record_id=abc&page=0');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['from', 'page', 'record_id', 'resource', 'to']);
    const backwards = await auditor.send('GET', '/api/activity?from=2026-11-02&to=2026-11-01');
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors.to).toEqual(['The to field must be a date after or equal to from.']);
  });

  it("keeps a business's own history in that business, whichever one changed it", async () => {
    const renamed = await world.admin.send('PATCH', `/api/businesses/${world.second}`, { phone: '+63 32 000 0000' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    for (const session of [world.admin, world.admin.inBusiness(world.second)]) {
      const [latest] = await historyOf('businesses', world.second, session);
      expect(latest).toMatchObject({ action: 'updated', changes: { phone: { from: '+63 32 234 5678', to: '+63 32 000 0000' } } });
    }
    const here = await world.admin.send('GET', `/api/activity?resource=businesses&record_id=${world.second}`);
    expect(here.body.data).toEqual([]);
  });

  it("never shows another business's entries", async () => {
    const elsewhere = world.admin.inBusiness(world.second);
    const brand = (await elsewhere.send('POST', '/api/brands', { name: 'Second Business Brand' })).body.data;
    const there = await elsewhere.send('GET', '/api/activity?per_page=100');
    expect(there.body.data.map((entry: ActivityEntry) => entry.record_id)).toContain(brand.id);
    const here = await world.admin.send('GET', `/api/activity?resource=brands&record_id=${brand.id}`);
    expect(here.body.data).toEqual([]);
    const stored = await world.db
      .selectFrom('activity_log')
      .select('business_id')
      .where('resource', '=', 'brands')
      .where('record_id', '=', brand.id)
      .execute();
    expect(stored.map((row) => Number(row.business_id))).toEqual([world.second]);
    const shownIds = there.body.data.map((entry: ActivityEntry) => entry.id);
    const owners = await world.db.selectFrom('activity_log').select('business_id').distinct().where('id', 'in', shownIds).execute();
    expect(owners.map((row) => Number(row.business_id))).toEqual([world.second]);
  });
});
