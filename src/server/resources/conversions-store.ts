import { sql } from 'kysely';
import { conversions } from '../../domain/resources/conversions';
import { fromMillionths, toMillionths } from '../../domain/quantity';
import { forUpdate } from '../db/dialect';
import type { Db, Scope } from '../db/scope';
import { conflict } from '../errors';
import { businessTableStore, type ResourceStore } from './store';

/**
 * Conversions: a unit converts to another unit, never to itself. A document's line keeps its
 * quantity in its unit and in its item's base unit, by the conversion it was priced with; a change
 * of that conversion would make the two disagree, and the line's goods read as a different amount
 * wherever it is priced again (an order received, a return). So a conversion that lines count by
 * is fixed: its units, item and factor are kept, it stays out of the trash, and no new one takes
 * its place for the lines' items. A new unit with a conversion of its own can always be added.
 */

interface Meaning {
  item_id: number | null;
  from_unit_id: number;
  to_unit_id: number;
  /** Millionths, as stored. */
  factor: number;
}

/** The fields that make what a conversion means. */
const MEANING = ['item_id', 'from_unit_id', 'to_unit_id', 'factor'] as const;

/**
 * How many documents have lines counted by `conversion`: lines in its from unit, of an item whose
 * base unit is its to unit — its own item's, or for a conversion of every item, those of the items
 * without a conversion of their own between the two units (which goes before it).
 */
async function documentsCountingBy(db: Db, scope: Scope, conversion: Meaning): Promise<number> {
  const whose =
    conversion.item_id === null
      ? sql`not exists (
          select 1 from conversions own
          where own.business_id = ${scope.businessId} and own.item_id = lines.item_id and own.deleted_at is null
            and own.from_unit_id = ${conversion.from_unit_id} and own.to_unit_id = ${conversion.to_unit_id})`
      : sql`lines.item_id = ${conversion.item_id}`;
  const { rows } = await sql<{ documents: number }>`
    select count(*) as documents from (
      select distinct lines.document_type, lines.document_id
      from document_lines lines inner join items on items.id = lines.item_id
      where lines.business_id = ${scope.businessId} and lines.unit_of_measurement_id = ${conversion.from_unit_id}
        and items.unit_of_measurement_id = ${conversion.to_unit_id} and ${whose}
    ) as counted`.execute(db);
  return Number(rows[0]?.documents ?? 0);
}

/** "1 case as 12 pc", by the units' abbreviations. */
async function asWords(db: Db, conversion: Meaning): Promise<string> {
  const units = new Map(
    (
      await db
        .selectFrom('unit_of_measurements')
        .select(['id', 'abbreviation'])
        .where('id', 'in', [conversion.from_unit_id, conversion.to_unit_id])
        .execute()
    ).map((row) => [row.id, row.abbreviation]),
  );
  return `1 ${units.get(conversion.from_unit_id) ?? 'unit'} as ${fromMillionths(Number(conversion.factor))} ${units.get(conversion.to_unit_id) ?? 'units'}`;
}

const documentsCount = (count: number) => (count === 1 ? '1 document counts' : `${count} documents count`);

/** What lines count by `conversion` ("3 documents count 1 case as 12 pc by it"), or undefined when none do. */
async function countedBy(db: Db, scope: Scope, conversion: Meaning): Promise<string | undefined> {
  const count = await documentsCountingBy(db, scope, conversion);
  return count === 0 ? undefined : `${documentsCount(count)} ${await asWords(db, conversion)} by it`;
}

async function storedConversion(db: Db, scope: Scope, id: number): Promise<(Meaning & { id: number }) | undefined> {
  const row = await db
    .selectFrom('conversions')
    .select(['id', ...MEANING])
    .where('id', '=', id)
    .where('business_id', '=', scope.businessId)
    .executeTakeFirst();
  return row && { ...row, factor: Number(row.factor) };
}

/**
 * Why `wanted` (a new conversion, or one changed to it) cannot be had, or undefined: another live
 * conversion of the same item and units (which of the two holds would be anyone's guess), or one
 * for every item that the item's lines count by with another factor (this one would go before it).
 * The conversion it would take the place of is locked, so a line priced by it meanwhile is seen.
 */
async function placeTaken(db: Db, scope: Scope, wanted: Meaning, exceptId?: number): Promise<Record<string, string[]>> {
  let query = db
    .selectFrom('conversions')
    .select(['id', ...MEANING])
    .where('business_id', '=', scope.businessId)
    .where('deleted_at', 'is', null)
    .where('from_unit_id', '=', wanted.from_unit_id)
    .where('to_unit_id', '=', wanted.to_unit_id)
    .where((eb) =>
      wanted.item_id === null ? eb('item_id', 'is', null) : eb.or([eb('item_id', '=', wanted.item_id), eb('item_id', 'is', null)]),
    );
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const rows = await forUpdate(db, query).execute();
  const same = rows.find((row) => row.item_id === wanted.item_id);
  if (same) {
    const whose = wanted.item_id === null ? 'every item' : 'this item';
    return {
      from_unit_id: [
        `There is already a conversion of these units for ${whose} (${await asWords(db, { ...same, factor: Number(same.factor) })}): change that one.`,
      ],
    };
  }
  const general = rows.find((row) => row.item_id === null);
  if (wanted.item_id === null || !general || Number(general.factor) === wanted.factor) return {};
  const count = await documentsCountingBy(db, scope, { ...wanted, item_id: wanted.item_id });
  if (count === 0) return {};
  const used = await asWords(db, { ...general, factor: Number(general.factor) });
  return {
    factor: [
      `${documentsCount(count)} ${used} for this item, by the conversion for every item: this one would change what they say. Add a new unit with a conversion of its own instead.`,
    ],
  };
}

export const conversionsStore: ResourceStore = {
  ...businessTableStore(conversions),
  async validate(db, scope, input, exceptId): Promise<Record<string, string[]>> {
    const current = exceptId === undefined ? undefined : await storedConversion(db, scope, exceptId);
    const given = (name: (typeof MEANING)[number]) => input[name] !== undefined;
    const wanted: Meaning = {
      item_id: given('item_id') ? ((input.item_id as number | null) ?? null) : (current?.item_id ?? null),
      from_unit_id: given('from_unit_id') ? Number(input.from_unit_id) : Number(current?.from_unit_id),
      to_unit_id: given('to_unit_id') ? Number(input.to_unit_id) : Number(current?.to_unit_id),
      factor: given('factor') ? toMillionths(Number(input.factor)) : Number(current?.factor),
    };
    if (wanted.from_unit_id === wanted.to_unit_id) return { to_unit_id: ['The to unit must be different from the from unit.'] };
    const changed = current ? MEANING.filter((name) => wanted[name] !== current[name]) : [...MEANING];
    if (changed.length === 0) return {};
    if (current) {
      const counted = await countedBy(db, scope, current);
      const fixed = `This conversion is fixed: ${counted}. Add a new unit with a conversion of its own instead.`;
      if (counted) return Object.fromEntries(changed.map((name) => [name, [fixed]]));
    }
    return placeTaken(db, scope, wanted, exceptId);
  },
  async beforeTrash(trx, scope, id) {
    const current = await storedConversion(trx, scope, id);
    const counted = current && (await countedBy(trx, scope, current));
    if (counted) throw conflict(`This conversion cannot go to the trash: ${counted}.`);
  },
};
