import type { SelectQueryBuilder } from 'kysely';
import type { z } from 'zod';
import type { ResourceDefinition } from '../../domain/resource';
import { forUpdate } from '../db/dialect';
import { untyped, type Db, type Scope, type Trx } from '../db/scope';
import type { ApiRecord } from './codec';

export type Query = SelectQueryBuilder<any, any, any>;

/**
 * The engine's create, handed to a store's `afterCreate`: makes a record of another resource in
 * the same transaction and scope, checked, numbered, counted and in the history as any create.
 */
export type CreateAnother = (definition: ResourceDefinition, values: Record<string, unknown>) => Promise<ApiRecord>;

/** What a force delete would orphan: `{ label, count }` pairs, empty when nothing uses it. */
export interface Usage {
  label: string;
  count: number;
}

/**
 * Where one resource's records live and how they are scoped. The generic engine reads through
 * `query` / `column` and writes through the rest; `businessTableStore` serves every plain
 * business-scoped table, and businesses, users and permissions bring stores of their own.
 */
export interface ResourceStore {
  /** The scoped FROM (with joins), before any selection. */
  query(db: Db, scope: Scope): Query;
  /** Adds the columns a read returns. */
  select(query: Query): Query;
  /** The qualified column behind a field, `id`, `deleted_at`, `created_at` … */
  column(name: string): string;
  /** Totals kept in resource_counts (business tables) rather than counted per request. */
  countsMaintained: boolean;
  /**
   * Locks the record's row until the transaction ends, before a change reads and decides on it
   * (see `forUpdate`): two changes of one record run one after the other, each on what the one
   * before left.
   */
  lock(trx: Trx, scope: Scope, id: number): Promise<void>;
  /** The id of another record holding `value` in unique `field`, if any. */
  findDuplicate(db: Db, scope: Scope, field: string, value: unknown, exceptId?: number): Promise<number | undefined>;
  /** Which of `values` (as stored) records already hold in unique `field`: `findDuplicate` for many new records at once. */
  findDuplicates?(db: Db, scope: Scope, field: string, values: unknown[]): Promise<Set<unknown>>;
  /**
   * `columns` are the fields as stored (plus timestamps and version); `input` is the validated
   * API body, for stores that take more than columns (a user's password and role_ids).
   */
  insert(trx: Trx, scope: Scope, columns: Record<string, unknown>, input: Record<string, unknown>): Promise<number>;
  /**
   * Inserts many records' columns in one statement, answering their ids in the order given: what
   * `createRecords` writes an import's records by hundreds with. Only for a store whose `insert`
   * writes the columns as given and nothing else (the generic one); a store whose `insert` does
   * more (a document's number, lines and stock) leaves it out, and its records are made one by one.
   */
  insertMany?(trx: Trx, scope: Scope, rows: Record<string, unknown>[]): Promise<number[]>;
  update(trx: Trx, scope: Scope, id: number, columns: Record<string, unknown>, input: Record<string, unknown>): Promise<void>;
  /** Sets or clears the trashed mark (and bumps the version). */
  setTrashed(trx: Trx, scope: Scope, id: number, deletedAt: string | null): Promise<void>;
  remove(trx: Trx, scope: Scope, id: number): Promise<void>;
  /** Body fields a create takes beyond the resource's fields (a new user's role_ids). */
  createFields?: z.ZodRawShape;
  /** Body fields an update takes beyond the resource's fields (a purchase order's lines). */
  updateFields?: z.ZodRawShape;
  /** Rules across fields or tables; returns field messages (empty when all is well). */
  validate?(db: Db, scope: Scope, values: Record<string, unknown>, exceptId?: number): Promise<Record<string, string[]>>;
  /** Refuses (by throwing) a soft delete the resource cannot allow, such as deleting oneself. */
  beforeTrash?(trx: Trx, scope: Scope, id: number): Promise<void>;
  /** Refuses (by throwing) a permanent delete the caller may not make, before anything says what still uses the record. */
  beforeForceDelete?(trx: Trx, scope: Scope, id: number): Promise<void>;
  /** Uses of a record beyond the reference fields of other resources. */
  extraUsage?(db: Db, scope: Scope, id: number): Promise<Usage[]>;
  /**
   * What a create makes with the record, once it and its history entry are written, in the same
   * transaction: other records, made through `create` (the engine's own create, handed in, so
   * the store needs no import of the engine) — an invoice's payment taken at the counter with it. A
   * refusal here undoes the whole create. The record is read again after, as they left it.
   */
  afterCreate?(trx: Trx, scope: Scope, record: ApiRecord, input: Record<string, unknown>, create: CreateAnother): Promise<void>;
  /** Adds derived read-only values (role names, permission ids …) to records being returned. */
  decorate?(db: Db, scope: Scope, records: ApiRecord[]): Promise<void>;
  /** What `decorate` adds to each record, as the API's answers describe it (routes/responses.ts). */
  decorated?: z.ZodRawShape;
}

/** The generic store: a table with `business_id`, one row per record. */
export function businessTableStore(definition: ResourceDefinition): ResourceStore {
  const { table } = definition;
  return {
    countsMaintained: true,
    query: (db, scope) => untyped(db).selectFrom(table).where(`${table}.business_id`, '=', scope.businessId),
    select: (query) => query.selectAll(table),
    column: (name) => `${table}.${name}`,
    async lock(trx, scope, id) {
      await forUpdate(
        trx,
        untyped(trx).selectFrom(table).select('id').where('id', '=', id).where('business_id', '=', scope.businessId),
      ).execute();
    },
    async findDuplicate(db, scope, field, value, exceptId) {
      let query = untyped(db).selectFrom(table).select('id').where('business_id', '=', scope.businessId).where(field, '=', value);
      if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
      const row = await query.executeTakeFirst();
      return row?.id as number | undefined;
    },
    async findDuplicates(db, scope, field, values) {
      if (values.length === 0) return new Set();
      const rows = await untyped(db)
        .selectFrom(table)
        .select(field)
        .where('business_id', '=', scope.businessId)
        .where(field, 'in', values)
        .execute();
      return new Set(rows.map((row) => row[field]));
    },
    async insert(trx, scope, columns) {
      const row = await untyped(trx)
        .insertInto(table)
        .values({ ...columns, business_id: scope.businessId })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },
    async insertMany(trx, scope, rows) {
      const inserted = await untyped(trx)
        .insertInto(table)
        .values(rows.map((columns) => ({ ...columns, business_id: scope.businessId })))
        .returning('id')
        .execute();
      // Ids are handed out in the order the rows are written; RETURNING alone does not promise that order.
      return inserted.map((row) => Number(row.id)).sort((a, b) => a - b);
    },
    async update(trx, scope, id, columns) {
      await untyped(trx)
        .updateTable(table)
        .set((eb) => ({ ...columns, version: eb(`${table}.version`, '+', 1) }))
        .where('id', '=', id)
        .where('business_id', '=', scope.businessId)
        .execute();
    },
    async setTrashed(trx, scope, id, deletedAt) {
      await this.update(trx, scope, id, { deleted_at: deletedAt, updated_at: new Date().toISOString() }, {});
    },
    async remove(trx, scope, id) {
      await untyped(trx).deleteFrom(table).where('id', '=', id).where('business_id', '=', scope.businessId).execute();
    },
  };
}
