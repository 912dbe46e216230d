import { MASTER_PERMISSION } from '../../domain/permissions';
import { WALK_IN_NAME } from '../../domain/walk-in';
import { nowIso } from '../db/dialect';
import { adjustCount } from '../resources/resource-counts';
import type { Trx } from '../db/scope';

export const SEEDED_CONTACT_TYPES = ['Supplier', 'Customer', 'Employee', 'Other'];
export const SEEDED_ITEM_TYPES = ['Inventory', 'Non-inventory', 'Consumable'];
export const ADMINISTRATOR_ROLE = 'Administrator';

/**
 * What every new business starts with: its owner as a member holding an Administrator role
 * (the master permission), the seeded contact types and item types, and the walk-in customer
 * the counter sells to unless the cashier names a buyer (`domain/walk-in.ts`).
 */
export async function provisionBusiness(trx: Trx, businessId: number, ownerId: number): Promise<{ administratorRoleId: number }> {
  const now = nowIso();
  const stamps = { created_at: now, updated_at: now, version: 1 };
  await trx
    .insertInto('memberships')
    .values({ user_id: ownerId, business_id: businessId, userable_type: 'none', userable_id: null, all_places: 'operate', ...stamps })
    .execute();
  const role = await trx
    .insertInto('roles')
    .values({ business_id: businessId, name: ADMINISTRATOR_ROLE, description: 'Full access to everything in this business.', ...stamps })
    .returning('id')
    .executeTakeFirstOrThrow();
  const administratorRoleId = Number(role.id);
  const master = await trx.selectFrom('permissions').select('id').where('name', '=', MASTER_PERMISSION).executeTakeFirstOrThrow();
  await trx.insertInto('role_permissions').values({ role_id: administratorRoleId, permission_id: master.id }).execute();
  await trx.insertInto('user_roles').values({ user_id: ownerId, role_id: administratorRoleId }).execute();
  await adjustCount(trx, businessId, 'roles', 1, 0);

  for (const [table, resource, names] of [
    ['contact_types', 'contact-types', SEEDED_CONTACT_TYPES],
    ['item_types', 'item-types', SEEDED_ITEM_TYPES],
  ] as const) {
    await trx
      .insertInto(table)
      .values(names.map((name) => ({ business_id: businessId, name, description: null, ...stamps })))
      .execute();
    await adjustCount(trx, businessId, resource, names.length, 0);
  }
  const customer = await trx
    .selectFrom('contact_types')
    .select('id')
    .where('business_id', '=', businessId)
    .where('name', '=', 'Customer')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('contacts')
    .values({ business_id: businessId, contact_type_id: customer.id, name: WALK_IN_NAME, ...stamps })
    .execute();
  await adjustCount(trx, businessId, 'contacts', 1, 0);
  return { administratorRoleId };
}
