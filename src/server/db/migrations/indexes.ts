import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * The indexes a resource definition's fields promise, for any migration to build (the foundation
 * builds its own through these, with the SQL it always ran): a `unique` field's unique index, and
 * a `fullText` field's trigram index that `fullTextContains` (../dialect.ts) searches through.
 */

/** `{table}_{column}_unique` over (business_id, column): no two records of a business share the value. */
export async function uniquePerBusiness(db: Kysely<any>, table: string, column: string): Promise<void> {
  await db.schema.createIndex(`${table}_${column}_unique`).on(table).columns(['business_id', column]).unique().execute();
}

/**
 * `{table}_{column}_fts`: on PostgreSQL a pg_trgm GIN index on the column; on SQLite an FTS5
 * trigram table over it (external content: the rows themselves), kept in step by three triggers
 * named `{table}_{column}_fts_insert`, `_delete` and `_update`.
 */
export async function trigramIndex(db: Kysely<any>, table: string, column: string): Promise<void> {
  const index = `${table}_${column}_fts`;
  if (isPostgres(db)) {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    await sql`create index ${sql.id(index)} on ${sql.table(table)} using gin (${sql.ref(column)} public.gin_trgm_ops)`.execute(db);
    return;
  }
  const fts = sql.table(index);
  const col = sql.ref(column);
  await sql`create virtual table ${fts} using fts5(${col}, content=${sql.lit(table)}, content_rowid='id', tokenize='trigram')`.execute(db);
  await sql`create trigger ${sql.id(`${index}_insert`)} after insert on ${sql.table(table)} begin
    insert into ${fts}(rowid, ${col}) values (new.id, new.${col}); end`.execute(db);
  await sql`create trigger ${sql.id(`${index}_delete`)} after delete on ${sql.table(table)} begin
    insert into ${fts}(${fts}, rowid, ${col}) values ('delete', old.id, old.${col}); end`.execute(db);
  await sql`create trigger ${sql.id(`${index}_update`)} after update of ${col} on ${sql.table(table)} begin
    insert into ${fts}(${fts}, rowid, ${col}) values ('delete', old.id, old.${col});
    insert into ${fts}(rowid, ${col}) values (new.id, new.${col}); end`.execute(db);
}
