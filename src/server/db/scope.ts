import type { Kysely, Transaction } from 'kysely';

/**
 * What every server module shares about a request's work on the database: who asks, in which
 * business, and the connection or transaction it runs on.
 */

/** Who is asking, in which business: every query of a store is scoped by it. */
export interface Scope {
  businessId: number;
  userId: number;
  permissions: ReadonlySet<string>;
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

export type Db = Kysely<any>;
export type Trx = Transaction<any>;
