import type { Kysely } from 'kysely';
import { allPermissions } from '../../domain/permissions';
import { nowIso } from '../db/dialect';
import type { Database } from '../db/schema';

/**
 * Adds any permission of the domain's list that the database lacks; safe to run on every start.
 * The app runs it after migrating, so a resource added to the registry has its permissions (and
 * a new business's Administrator role its master permission) before the first request.
 */
export async function ensurePermissions(db: Kysely<Database>): Promise<void> {
  const existing = new Set((await db.selectFrom('permissions').select('name').execute()).map((row) => row.name));
  const missing = allPermissions().filter((permission) => !existing.has(permission.name));
  if (missing.length === 0) return;
  const now = nowIso();
  await db
    .insertInto('permissions')
    .values(missing.map((permission) => ({ name: permission.name, group: permission.group, created_at: now, updated_at: now, version: 1 })))
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
}
