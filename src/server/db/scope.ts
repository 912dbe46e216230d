import type { Kysely, Transaction } from 'kysely';
import type { PlaceAccess } from '../../domain/places';
import type { Database } from './schema';

/**
 * What every server module shares about a request's work on the database: who asks, in which
 * business, and the connection or transaction it runs on.
 */

/** Who is asking, in which business: every query of a store is scoped by it. */
export interface Scope {
  businessId: number;
  userId: number;
  permissions: ReadonlySet<string>;
  /**
   * The branches and warehouses the user holds here (`domain/places.ts`); every read and change
   * of a place's records is kept to them. Absent only for work no user asked for (the seeder, a
   * migration), which holds every place.
   */
  places?: PlaceAccess;
  /** When a change replayed from a device's outbox was made there, and whether it was offline. */
  origin?: ChangeOrigin;
  /** The token hash of the session making the request: a password change keeps it and ends the others. */
  sessionTokenHash?: string;
}

export interface ChangeOrigin {
  /** ISO 8601, the device's clock. */
  madeAt: string;
  offline: boolean;
}

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;

/**
 * The same connection or transaction with its tables unchecked. Only for the generic engine,
 * which reaches a resource's table and columns by the names its definition holds, known only at
 * run time; every query whose tables are known where it is written goes through `Db` / `Trx`.
 */
export function untyped(db: Trx): Transaction<any>;
export function untyped(db: Db): Kysely<any>;
export function untyped(db: Db): Kysely<any> {
  return db as Kysely<any>;
}
