import { sql } from 'kysely';
import type { ResourceDefinition } from '../../domain/resource';
import { conversions } from '../../domain/resources/conversions';
import { stockReceivesStore, stockRequestsStore, stockReturnsStore, stockTransfersStore } from '../documents/logistics';
import { creditMemorandaStore, debitMemorandaStore } from '../documents/memoranda';
import { invoicePaymentsStore, invoicesStore, quotationsStore } from '../documents/sales';
import { stocksStore } from '../documents/stocks-store';
import { billPaymentsStore, billsStore, purchaseOrdersStore, receiveOrdersStore } from '../documents/purchasing';
import { registry } from '../../domain/resources/registry';
import { roles as roleDefinition } from '../../domain/resources/roles';
import { forUpdate } from '../db/dialect';
import { assertHoldsIn, assertManagesRole, keepingAMaster } from '../services/access.service';
import { provisionBusiness } from '../services/business-provisioning.service';
import { conflict } from '../errors';
import { businessTableStore, type ResourceStore } from './store';
import { usersStore } from './users-store';

/** Tables a new business is provisioned with (see business-provisioning.service.ts). */
const PROVISIONED = ['roles', 'contact_types', 'item_types'];

/**
 * Businesses: global rows, each seen by its members only; a new one is provisioned for its creator.
 * One is changed, trashed, restored or deleted only by a user holding that permission in it,
 * whichever business the request works in; the one it works in is never trashed from itself.
 */
const businessesStore: ResourceStore = {
  countsMaintained: false,
  query: (db, scope) =>
    db
      .selectFrom('businesses')
      .where(
        'businesses.id',
        'in',
        db
          .selectFrom('memberships')
          .select('memberships.business_id')
          .where('memberships.user_id', '=', scope.userId)
          .where('memberships.deleted_at', 'is', null),
      ),
  select: (query) => query.selectAll('businesses'),
  column: (name) => `businesses.${name}`,
  async lock(trx, _scope, id) {
    await forUpdate(trx, trx.selectFrom('businesses').select('id').where('id', '=', id)).execute();
  },
  findDuplicate: async () => undefined,
  async insert(trx, scope, columns) {
    const row = await trx.insertInto('businesses').values(columns).returning('id').executeTakeFirstOrThrow();
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
      if (definition.tenancy !== 'business' || PROVISIONED.includes(definition.table)) continue;
      const row = await db
        .selectFrom(definition.table)
        .select(sql<number>`count(*)`.as('count'))
        .where('business_id', '=', id)
        .executeTakeFirstOrThrow();
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
    for (const table of PROVISIONED) await trx.deleteFrom(table).where('business_id', '=', id).execute();
    for (const table of ['memberships', 'resource_counts', 'idempotency_keys', 'activity_log'])
      await trx.deleteFrom(table).where('business_id', '=', id).execute();
    await trx.deleteFrom('businesses').where('id', '=', id).execute();
  },
};

function readOnly(): never {
  throw new Error('Permissions are a seeded, read-only list');
}

/** The global permission list. */
const permissionsStore: ResourceStore = {
  countsMaintained: false,
  query: (db) => db.selectFrom('permissions'),
  select: (query) => query.selectAll('permissions'),
  column: (name) => `permissions.${name}`,
  lock: readOnly,
  findDuplicate: async () => undefined,
  insert: readOnly,
  update: readOnly,
  setTrashed: readOnly,
  remove: readOnly,
};

/**
 * Roles: changed, trashed, restored or deleted only by someone holding every permission the role
 * holds; trashing one may not take the business's last master away.
 */
const roles = businessTableStore(roleDefinition);
const rolesStore: ResourceStore = {
  ...roles,
  async validate(db, scope, _input, exceptId) {
    if (exceptId !== undefined) await assertManagesRole(db, scope, exceptId);
    return {};
  },
  async beforeTrash(trx, scope, id) {
    await assertManagesRole(trx, scope, id);
  },
  async setTrashed(trx, scope, id, deletedAt) {
    if (deletedAt === null) await assertManagesRole(trx, scope, id);
    await keepingAMaster(trx, scope, () => roles.setTrashed(trx, scope, id, deletedAt));
  },
  async extraUsage(db, _scope, id) {
    const row = await db
      .selectFrom('user_roles')
      .select(sql<number>`count(*)`.as('count'))
      .where('role_id', '=', id)
      .executeTakeFirstOrThrow();
    return [{ label: 'users', count: Number(row.count) }];
  },
  async beforeForceDelete(trx, scope, id) {
    await assertManagesRole(trx, scope, id);
  },
  async remove(trx, scope, id) {
    await trx.deleteFrom('role_permissions').where('role_id', '=', id).execute();
    await roles.remove(trx, scope, id);
  },
  async decorate(db, _scope, records) {
    const rows = await db
      .selectFrom('role_permissions')
      .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
      .select(['role_permissions.role_id', 'permissions.id', 'permissions.name'])
      .where(
        'role_permissions.role_id',
        'in',
        records.map((record) => record.id),
      )
      .orderBy('permissions.name')
      .execute();
    for (const record of records) {
      const own = rows.filter((row) => Number(row.role_id) === record.id);
      record.permission_ids = own.map((row) => Number(row.id));
      record.permission_names = own.map((row) => row.name as string);
    }
  },
};

const conversionsStore: ResourceStore = {
  ...businessTableStore(conversions),
  async validate(_db, _scope, input): Promise<Record<string, string[]>> {
    return input.from_unit_id !== undefined && input.from_unit_id === input.to_unit_id
      ? { to_unit_id: ['The to unit must be different from the from unit.'] }
      : {};
  },
};

const special: Record<string, ResourceStore> = {
  businesses: businessesStore,
  users: usersStore,
  permissions: permissionsStore,
  roles: rolesStore,
  conversions: conversionsStore,
  stocks: stocksStore,
  'purchase-orders': purchaseOrdersStore,
  'receive-orders': receiveOrdersStore,
  bills: billsStore,
  'bill-payments': billPaymentsStore,
  quotations: quotationsStore,
  invoices: invoicesStore,
  'invoice-payments': invoicePaymentsStore,
  'credit-memoranda': creditMemorandaStore,
  'debit-memoranda': debitMemorandaStore,
  'stock-requests': stockRequestsStore,
  'stock-transfers': stockTransfersStore,
  'stock-receives': stockReceivesStore,
  'stock-returns': stockReturnsStore,
};

const stores = new Map<string, ResourceStore>(
  registry.map((definition) => [definition.name, special[definition.name] ?? businessTableStore(definition)]),
);

export function storeFor(definition: ResourceDefinition): ResourceStore {
  const store = stores.get(definition.name);
  if (!store) throw new Error(`No store for resource "${definition.name}"`);
  return store;
}
