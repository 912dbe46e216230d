import { documentNumber, todayInManila, type Location, type LocationType } from '../../domain/documents';
import type { ResourceDefinition } from '../../domain/resource';
import { z } from 'zod';
import { forUpdate } from '../db/dialect';
import type { Db, Scope, Trx } from '../db/scope';
import { conflict, notFound, validationError } from '../errors';
import { bump, numberSeries } from './numbering';

/**
 * Blocks of document numbers for a device to number offline. A cashier's phone that sells with
 * no network must print the invoice's final number, so while online it reserves a block of its
 * series (a document kind at a place): the series' counter moves past the whole block at once, in
 * the same single upsert that numbers one document, so no other device or instance gives those
 * numbers. A document sent with `numbered: { block_id, sequence }` takes that number if the block
 * is the sender's, of its series, not handed back there and not yet used (each use is a row, so
 * one number is never given twice, whatever the outbox or a hand-made request sends). What the
 * device does not use it hands back (sign-out, a block it no longer needs): the block keeps where
 * the unused rest begins, so every gap in a series is explained.
 */

/** What a new document may send to take a number of the sender's block instead of the series' next. */
export const numberedInput = z
  .strictObject({ block_id: z.number().int().positive(), sequence: z.number().int().positive() })
  .optional()
  .describe('A number of one of your number blocks (POST /api/number-blocks), taken offline: the document gets that number');

/** What a block holds. */
export type NumberBlock = {
  id: number;
  resource: string;
  location: { type: LocationType; id: number };
  first: number;
  last: number;
  /** The first and last numbers as printed, on the day it was reserved. */
  numbers: { first: string; last: string };
  reserved_at: string;
  expires_on: string;
  returned_from: number | null;
};

/** A block is sized to a day's work: the most the user made of the series in a day lately, half again, within these. */
export const BLOCK_SIZE = { least: 20, most: 500, first: 50 };
/** Days a block serves: a document dated later than this after its reservation takes a number of a newer block. */
export const BLOCK_DAYS = 2;

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** A date column as `YYYY-MM-DD`, however the driver reads it. */
const dateOf = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value)).slice(0, 10);

type BlockRow = Awaited<ReturnType<typeof blockRow>>;

function blockRow(db: Db | Trx, scope: Scope, id: number) {
  // Held until the transaction ends: a use and a return of one block never pass each other.
  return forUpdate(
    db as Trx,
    db.selectFrom('number_blocks').selectAll().where('id', '=', id).where('business_id', '=', scope.businessId),
  ).executeTakeFirst();
}

function locationOfSeries(series: string): Location {
  const place = series.slice(series.indexOf('|') + 1);
  return { type: place.startsWith('B') ? 'branch' : 'warehouse', id: Number(place.slice(1)) };
}

export function blockAnswer(row: NonNullable<BlockRow>, definition: ResourceDefinition): NumberBlock {
  const location = locationOfSeries(row.series);
  const prefix = definition.document!.prefix;
  const day = todayInManila(new Date(row.reserved_at));
  return {
    id: Number(row.id),
    resource: row.resource,
    location,
    first: Number(row.first),
    last: Number(row.last),
    numbers: {
      first: documentNumber(prefix, day, location, Number(row.first)),
      last: documentNumber(prefix, day, location, Number(row.last)),
    },
    reserved_at: new Date(row.reserved_at).toISOString(),
    expires_on: dateOf(row.expires_on),
    returned_from: row.returned_from === null ? null : Number(row.returned_from),
  };
}

/** The most documents of a series the user made in one day over the last week, or none. */
async function busiestDay(db: Db | Trx, scope: Scope, definition: ResourceDefinition, location: Location): Promise<number> {
  const column = location.type === 'branch' ? 'branch_id' : 'warehouse_id';
  const since = addDays(todayInManila(), -7);
  const rows = await (db as Db)
    .selectFrom(definition.table as 'invoices')
    .select((eb) => ['date', eb.fn.countAll().as('count')])
    .where('business_id', '=', scope.businessId)
    .where('created_by', '=', scope.userId)
    .where(column as 'branch_id', '=', location.id)
    .where('date', '>=', since)
    .groupBy('date')
    .execute();
  return Math.max(0, ...rows.map((row) => Number(row.count)));
}

/** Reserves a block of a series for the user: `size` numbers, or a day's work. The caller checked the user may make the kind there. */
export async function reserveBlock(
  trx: Trx,
  scope: Scope,
  definition: ResourceDefinition,
  location: Location,
  size?: number,
): Promise<NumberBlock> {
  const spec = definition.document!;
  const count =
    size ??
    Math.min(
      BLOCK_SIZE.most,
      Math.max(BLOCK_SIZE.least, Math.ceil((await busiestDay(trx, scope, definition, location)) * 1.5) || BLOCK_SIZE.first),
    );
  const series = numberSeries(spec.type, location);
  const last = await bump(trx, scope.businessId, series, count);
  const today = todayInManila();
  const { id } = await trx
    .insertInto('number_blocks')
    .values({
      business_id: scope.businessId,
      user_id: scope.userId,
      resource: definition.name,
      series,
      first: last - count + 1,
      last,
      reserved_at: new Date().toISOString(),
      expires_on: addDays(today, BLOCK_DAYS),
      returned_at: null,
      returned_from: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return blockAnswer((await blockRow(trx, scope, Number(id)))!, definition);
}

/** The user's blocks still serving (not handed back, not expired), oldest first. */
export async function openBlocks(db: Db, scope: Scope): Promise<NonNullable<BlockRow>[]> {
  return db
    .selectFrom('number_blocks')
    .selectAll()
    .where('business_id', '=', scope.businessId)
    .where('user_id', '=', scope.userId)
    .where('returned_at', 'is', null)
    .where('expires_on', '>=', todayInManila())
    .orderBy('id')
    .execute();
}

/**
 * Hands back the numbers of a block from `firstUnused` on (through its last; `last + 1`: none).
 * Only its holder may, once; a number from there already given to a document refuses it.
 */
export async function returnBlock(trx: Trx, scope: Scope, id: number, firstUnused: number): Promise<NonNullable<BlockRow>> {
  const row = await blockRow(trx, scope, id);
  if (!row || Number(row.user_id) !== scope.userId) throw notFound('number block');
  if (row.returned_at !== null) throw conflict(`This block’s unused numbers were already handed back, from ${String(row.returned_from)}.`);
  if (firstUnused < Number(row.first) || firstUnused > Number(row.last) + 1)
    throw validationError({ first_unused: [`Must be between ${Number(row.first)} and ${Number(row.last) + 1}.`] });
  const used = await trx
    .selectFrom('number_block_uses')
    .select('sequence')
    .where('block_id', '=', id)
    .where('sequence', '>=', firstUnused)
    .orderBy('sequence')
    .executeTakeFirst();
  if (used) throw conflict(`Number ${used.sequence} of this block was already given to a document: hand back the numbers after it.`);
  const { numUpdatedRows } = await trx
    .updateTable('number_blocks')
    .set({ returned_at: new Date().toISOString(), returned_from: firstUnused })
    .where('id', '=', id)
    .where('returned_at', 'is', null)
    .executeTakeFirst();
  if (Number(numUpdatedRows) !== 1) throw conflict('This block’s unused numbers were already handed back.');
  return (await blockRow(trx, scope, id))!;
}

/**
 * The sequence a new document takes from the sender's block: the block theirs, of the document's
 * series, the number inside it and not handed back, the document dated by the block's last day,
 * and the number not given before. Each refusal says which, on `numbered`.
 */
export async function sequenceFromBlock(
  trx: Trx,
  scope: Scope,
  type: string,
  location: Location,
  date: string,
  numbered: { block_id: number; sequence: number },
): Promise<number> {
  const refuse = (message: string) => validationError({ numbered: [message] });
  const row = await blockRow(trx, scope, numbered.block_id);
  if (!row || Number(row.user_id) !== scope.userId) throw refuse('No such number block of yours.');
  if (row.series !== numberSeries(type, location)) throw refuse('That number block is of another kind of document or another place.');
  const last = row.returned_from === null ? Number(row.last) : Number(row.returned_from) - 1;
  if (numbered.sequence < Number(row.first) || numbered.sequence > last)
    throw refuse(`The number must be one of the block’s, ${Number(row.first)} to ${last}.`);
  if (date > dateOf(row.expires_on)) throw refuse(`That number block served documents dated up to ${dateOf(row.expires_on)}.`);
  const inserted = await trx
    .insertInto('number_block_uses')
    .values({ block_id: numbered.block_id, sequence: numbered.sequence })
    .onConflict((conflicting) => conflicting.columns(['block_id', 'sequence']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1)
    throw conflict(`Number ${numbered.sequence} of that block was already given to another document.`);
  return numbered.sequence;
}
