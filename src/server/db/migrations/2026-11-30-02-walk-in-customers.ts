import { sql, type Kysely } from 'kysely';

// The rule as it stood when this migration was written (domain/walk-in.ts): a migration does not
// change with the code after it.
const WALK_IN_NAME = 'Walk-in customer';
const isWalkInName = (name: string): boolean => /^walk[\s-]*in\b/i.test(name.trim());

/**
 * A walk-in customer in every business, as a new business is given one (its provisioning): the
 * counter sells to it unless the cashier names a buyer. Each business without a contact, not in
 * the trash, whose name makes it the walk-in customer (`domain/walk-in.ts`: "Walk-in …", in any
 * case) gets one named "Walk-in customer", of its contact type named Customer. A business that
 * has no such type gets none: a contact must have a type, and which of its own it would be is
 * the business's to say. As provisioning's rows, it has no history entry; the business's count of
 * contacts takes it in.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const businesses = (await db.selectFrom('businesses').select('id').orderBy('id').execute()) as { id: number }[];
  for (const { id: businessId } of businesses) {
    const likely = (await db
      .selectFrom('contacts')
      .select('name')
      .where('business_id', '=', businessId)
      .where('deleted_at', 'is', null)
      .where(sql<boolean>`lower(name) like 'walk%'`)
      .execute()) as { name: string }[];
    if (likely.some((contact) => isWalkInName(contact.name))) continue;
    const customer = (await db
      .selectFrom('contact_types')
      .select('id')
      .where('business_id', '=', businessId)
      .where('deleted_at', 'is', null)
      .where(sql<boolean>`lower(name) = 'customer'`)
      .orderBy('id')
      .executeTakeFirst()) as { id: number } | undefined;
    if (!customer) continue;
    const now = new Date().toISOString();
    await db
      .insertInto('contacts')
      .values({
        business_id: businessId,
        contact_type_id: customer.id,
        name: WALK_IN_NAME,
        created_at: now,
        updated_at: now,
        version: 1,
      })
      .execute();
    await sql`
      insert into resource_counts (business_id, resource, active, trashed) values (${businessId}, 'contacts', 1, 0)
      on conflict (business_id, resource) do update set active = resource_counts.active + 1`.execute(db);
  }
}
