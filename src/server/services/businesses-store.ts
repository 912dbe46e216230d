import { sql, type Insertable } from 'kysely';
import { registry } from '../../domain/resources/registry';
import { WALK_IN_NAME } from '../../domain/walk-in';
import { forUpdate } from '../db/dialect';
import { conflict } from '../errors';
import type { ResourceStore } from '../resources/store';
import { assertHoldsIn, memberBusinessIds } from './access.service';
import { provisionBusiness } from './business-provisioning.service';
import { untyped } from '../db/scope';
import type { BusinessesTable } from '../db/schema';

/** Tables a new business is provisioned with (see business-provisioning.service.ts); of its contacts, the walk-in customer. */
const PROVISIONED = ['roles', 'contact_types', 'item_types'] as const;

/**
 * Businesses: global rows, each seen by its members only; a new one is provisioned for its creator.
 * One is changed, trashed, restored or deleted only by a user holding that permission in it,
 * whichever business the request works in; the one it works in is never trashed from itself.
 */
export const businessesStore: ResourceStore = {
  countsMaintained: false,
  query: (db, scope) => db.selectFrom('businesses').where('businesses.id', 'in', memberBusinessIds(db, scope.userId)),
  select: (query) => query.selectAll('businesses'),
  column: (name) => `businesses.${name}`,
  async lock(trx, _scope, id) {
    await forUpdate(trx, trx.selectFrom('businesses').select('id').where('id', '=', id)).execute();
  },
  findDuplicate: async () => undefined,
  async insert(trx, scope, columns) {
    const row = await trx
      .insertInto('businesses')
      .values(columns as Insertable<BusinessesTable>)
      .returning('id')
      .executeTakeFirstOrThrow();
    await provisionBusiness(trx, Number(row.id), scope.userId);
    return Number(row.id);
  },
  async validate(db, scope, _input, exceptId) {
    if (exceptId !== undefined) await assertHoldsIn(db, scope.userId, exceptId, 'update-businesses');
    return {};
  },
  async update(trx, _scope, id, columns) {
    await trx
      .updateTable('businesses')
      .set((eb) => ({ ...columns, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .execute();
  },
  async beforeTrash(trx, scope, id) {
    await assertHoldsIn(trx, scope.userId, id, 'delete-businesses');
    if (id === scope.businessId) throw conflict('You are working in this business; switch to another business before deleting it.');
  },
  async setTrashed(trx, scope, id, deletedAt) {
    if (deletedAt === null) await assertHoldsIn(trx, scope.userId, id, 'restore-businesses');
    await this.update(trx, scope, id, { deleted_at: deletedAt, updated_at: new Date().toISOString() }, {});
  },
  /** The business's own records block its permanent delete; what it was provisioned with goes with it. */
  async extraUsage(db, _scope, id) {
    const usage = [];
    for (const definition of registry) {
      if (definition.tenancy !== 'business' || (PROVISIONED as readonly string[]).includes(definition.table)) continue;
      let query = untyped(db)
        .selectFrom(definition.table)
        .select(sql<number>`count(*)`.as('count'))
        .where('business_id', '=', id);
      if (definition.table === 'contacts') query = query.where('name', '<>', WALK_IN_NAME);
      const row = await query.executeTakeFirstOrThrow();
      usage.push({ label: definition.plural.toLowerCase(), count: Number(row.count) });
    }
    return usage;
  },
  async beforeForceDelete(trx, scope, id) {
    await assertHoldsIn(trx, scope.userId, id, 'force-delete-businesses');
  },
  async remove(trx, _scope, id) {
    const roles = trx.selectFrom('roles').select('id').where('business_id', '=', id);
    await trx.deleteFrom('user_roles').where('role_id', 'in', roles).execute();
    await trx.deleteFrom('role_permissions').where('role_id', 'in', roles).execute();
    // Before the contact types it is of.
    await trx.deleteFrom('contacts').where('business_id', '=', id).where('name', '=', WALK_IN_NAME).execute();
    for (const table of PROVISIONED) await trx.deleteFrom(table).where('business_id', '=', id).execute();
    for (const table of ['memberships', 'resource_counts', 'idempotency_keys', 'activity_log'] as const)
      await trx.deleteFrom(table).where('business_id', '=', id).execute();
    await trx.deleteFrom('businesses').where('id', '=', id).execute();
  },
};
