import type { CreateTableBuilder, Kysely } from 'kysely';
import { isPostgres } from '../dialect';
import { trigramIndex, uniquePerBusiness } from './indexes';

/**
 * Identity, tenancy, permissions, bookkeeping, and the management and inventory tables.
 * Frozen once landed: later changes get a migration of their own.
 */

type Table = CreateTableBuilder<string, string>;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  const timestamp = postgres ? 'timestamptz' : 'text';
  const dateType = postgres ? 'date' : 'text';

  const record = (table: Table): Table => {
    const withId = postgres
      ? table.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
    return withId
      .addColumn('created_at', timestamp, (col) => col.notNull())
      .addColumn('updated_at', timestamp, (col) => col.notNull())
      .addColumn('deleted_at', timestamp)
      .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1));
  };
  const businessRecord = (name: string, columns: (table: Table) => Table) =>
    columns(
      record(db.schema.createTable(name)).addColumn('business_id', 'integer', (col) => col.notNull().references('businesses.id')),
    ).execute();
  const businessIndex = (table: string) =>
    db.schema.createIndex(`${table}_business_id_index`).on(table).columns(['business_id', 'id']).execute();
  const money = 'bigint';
  const thousandths = 'bigint';
  const flag = 'integer';
  const ref = (table: string) => (col: any) => col.references(`${table}.id`);
  const requiredRef = (table: string) => (col: any) => col.notNull().references(`${table}.id`);

  await record(db.schema.createTable('businesses'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('tin', 'text')
    .addColumn('address', 'text')
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('vat_registered', flag, (col) => col.notNull().defaultTo(0))
    .execute();

  await record(db.schema.createTable('users'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('username', 'text', (col) => col.unique())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('security_pin_hash', 'text')
    .execute();

  await record(db.schema.createTable('memberships'))
    .addColumn('user_id', 'integer', requiredRef('users'))
    .addColumn('business_id', 'integer', requiredRef('businesses'))
    .addColumn('userable_type', 'text')
    .addColumn('userable_id', 'integer')
    .addUniqueConstraint('memberships_user_business_unique', ['user_id', 'business_id'])
    .execute();
  await db.schema.createIndex('memberships_business_id_index').on('memberships').columns(['business_id', 'user_id']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'integer', requiredRef('users'))
    .addColumn('created_at', timestamp, (col) => col.notNull())
    .addColumn('expires_at', timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id_index').on('sessions').column('user_id').execute();

  await record(db.schema.createTable('permissions'))
    .addColumn('name', 'text', (col) => col.notNull().unique())
    .addColumn('group', 'text', (col) => col.notNull())
    .execute();

  await businessRecord('roles', (t) => t.addColumn('name', 'text', (col) => col.notNull()).addColumn('description', 'text'));
  await uniquePerBusiness(db, 'roles', 'name');

  await db.schema
    .createTable('role_permissions')
    .addColumn('role_id', 'integer', requiredRef('roles'))
    .addColumn('permission_id', 'integer', requiredRef('permissions'))
    .addPrimaryKeyConstraint('role_permissions_pk', ['role_id', 'permission_id'])
    .execute();

  await db.schema
    .createTable('user_roles')
    .addColumn('user_id', 'integer', requiredRef('users'))
    .addColumn('role_id', 'integer', requiredRef('roles'))
    .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
    .execute();
  await db.schema.createIndex('user_roles_role_id_index').on('user_roles').column('role_id').execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'integer', (col) => col.notNull())
    .addColumn('business_id', 'integer', (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('request_hash', 'text', (col) => col.notNull())
    .addColumn('status_code', 'integer', (col) => col.notNull())
    .addColumn('response_body', 'text', (col) => col.notNull())
    .addColumn('created_at', timestamp, (col) => col.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'business_id', 'key'])
    .execute();

  await db.schema
    .createTable('resource_counts')
    .addColumn('business_id', 'integer', (col) => col.notNull())
    .addColumn('resource', 'text', (col) => col.notNull())
    .addColumn('active', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('trashed', 'bigint', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('resource_counts_pk', ['business_id', 'resource'])
    .execute();

  // Management
  await businessRecord('branches', (t) =>
    t
      .addColumn('code', 'text', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('address', 'text')
      .addColumn('phone', 'text')
      .addColumn('email', 'text'),
  );
  await uniquePerBusiness(db, 'branches', 'code');

  await businessRecord('warehouses', (t) =>
    t
      .addColumn('code', 'text', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('address', 'text')
      .addColumn('phone', 'text'),
  );
  await uniquePerBusiness(db, 'warehouses', 'code');

  await businessRecord('contact_types', (t) => t.addColumn('name', 'text', (col) => col.notNull()).addColumn('description', 'text'));
  await uniquePerBusiness(db, 'contact_types', 'name');

  await businessRecord('contacts', (t) =>
    t
      .addColumn('contact_type_id', 'integer', requiredRef('contact_types'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('company_name', 'text')
      .addColumn('tin', 'text')
      .addColumn('email', 'text')
      .addColumn('phone', 'text')
      .addColumn('mobile', 'text')
      .addColumn('address', 'text')
      .addColumn('payment_terms_days', 'integer')
      .addColumn('credit_limit', money),
  );
  await businessIndex('contacts');

  // Inventory
  for (const table of ['brands', 'item_classifications', 'item_types']) {
    await businessRecord(table, (t) => t.addColumn('name', 'text', (col) => col.notNull()).addColumn('description', 'text'));
    await uniquePerBusiness(db, table, 'name');
  }
  for (const table of ['measuring_masses', 'unit_of_measurements']) {
    await businessRecord(table, (t) =>
      t.addColumn('name', 'text', (col) => col.notNull()).addColumn('abbreviation', 'text', (col) => col.notNull()),
    );
    await uniquePerBusiness(db, table, 'name');
  }

  await businessRecord('items', (t) =>
    t
      .addColumn('sku', 'text', (col) => col.notNull())
      .addColumn('barcode', 'text')
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('description', 'text')
      .addColumn('brand_id', 'integer', ref('brands'))
      .addColumn('item_type_id', 'integer', ref('item_types'))
      .addColumn('item_classification_id', 'integer', ref('item_classifications'))
      .addColumn('unit_of_measurement_id', 'integer', requiredRef('unit_of_measurements'))
      .addColumn('measuring_mass_id', 'integer', ref('measuring_masses'))
      .addColumn('mass_value', thousandths)
      .addColumn('reorder_level', thousandths)
      .addColumn('vatable', flag, (col) => col.notNull().defaultTo(0))
      .addColumn('purchase_discounts', 'text', (col) => col.notNull().defaultTo('[]'))
      .addColumn('sale_discounts', 'text', (col) => col.notNull().defaultTo('[]')),
  );
  await businessIndex('items');
  await uniquePerBusiness(db, 'items', 'sku');
  await uniquePerBusiness(db, 'items', 'barcode');
  await db.schema.createIndex('items_name_index').on('items').columns(['business_id', 'name']).execute();
  for (const column of ['brand_id', 'item_type_id', 'item_classification_id', 'unit_of_measurement_id', 'measuring_mass_id']) {
    await db.schema.createIndex(`items_${column}_index`).on('items').column(column).execute();
  }

  await businessRecord('conversions', (t) =>
    t
      .addColumn('item_id', 'integer', ref('items'))
      .addColumn('from_unit_id', 'integer', requiredRef('unit_of_measurements'))
      .addColumn('to_unit_id', 'integer', requiredRef('unit_of_measurements'))
      .addColumn('factor', 'bigint', (col) => col.notNull()),
  );
  await db.schema.createIndex('conversions_item_id_index').on('conversions').column('item_id').execute();

  await businessRecord('purchase_item_prices', (t) =>
    t
      .addColumn('item_id', 'integer', requiredRef('items'))
      .addColumn('contact_id', 'integer', ref('contacts'))
      .addColumn('unit_of_measurement_id', 'integer', requiredRef('unit_of_measurements'))
      .addColumn('price', money, (col) => col.notNull())
      .addColumn('effective_date', dateType, (col) => col.notNull()),
  );
  await db.schema
    .createIndex('purchase_item_prices_item_id_index')
    .on('purchase_item_prices')
    .columns(['item_id', 'effective_date'])
    .execute();

  await businessRecord('sale_item_prices', (t) =>
    t
      .addColumn('item_id', 'integer', requiredRef('items'))
      .addColumn('branch_id', 'integer', ref('branches'))
      .addColumn('unit_of_measurement_id', 'integer', requiredRef('unit_of_measurements'))
      .addColumn('price', money, (col) => col.notNull())
      .addColumn('effective_date', dateType, (col) => col.notNull()),
  );
  await db.schema.createIndex('sale_item_prices_item_id_index').on('sale_item_prices').columns(['item_id', 'effective_date']).execute();

  await businessRecord('services', (t) =>
    t
      .addColumn('code', 'text', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('description', 'text'),
  );
  await uniquePerBusiness(db, 'services', 'code');

  await businessRecord('service_prices', (t) =>
    t
      .addColumn('service_id', 'integer', requiredRef('services'))
      .addColumn('branch_id', 'integer', ref('branches'))
      .addColumn('price', money, (col) => col.notNull())
      .addColumn('effective_date', dateType, (col) => col.notNull()),
  );
  await db.schema.createIndex('service_prices_service_id_index').on('service_prices').columns(['service_id', 'effective_date']).execute();

  // Quick search by contains over large tables: trigram indexes.
  for (const [table, column] of [
    ['items', 'name'],
    ['contacts', 'name'],
  ]) {
    await trigramIndex(db, table, column);
  }
}

export async function down(): Promise<void> {
  throw new Error('The foundation migration cannot be undone; restore a backup instead.');
}
