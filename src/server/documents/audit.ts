import { OPENING_AGAIN_NOTE } from '../../domain/imports';
import { sql, type RawBuilder } from 'kysely';
import type { LocationType } from '../../domain/documents';
import type { Sign, StockEffect } from '../../domain/effects';
import { centavosToPesos, formatPesos } from '../../domain/money';
import { fromThousandths } from '../../domain/quantity';
import type { ResourceDefinition } from '../../domain/resource';
import { registry } from '../../domain/resources/registry';
import { ACCOUNT_CREDIT, paidInTenders } from '../../domain/tenders';
import { storeFor } from '../resources/stores';
import { untyped, type Db } from '../db/scope';
import { NO_COST } from '../../domain/costing';
import { settleCosts } from './cost-follow-up';
import {
  basisOf,
  billedFor,
  byDocument,
  entryLines,
  planCosts,
  sourcesOf,
  vatRegistered,
  type CostEntry,
  type CostedLine,
} from './costing';
import { ledgerDiscrepancies } from './ledger';
import { settledStatus } from './payments';

/**
 * An audit of the whole database: what the documents say against what was written for them —
 * each document's stock movements against its lines, each balance against its movements, goods
 * in transit against the open transfers, what was fulfilled of a line against the lines that
 * name it, paid amounts against the payments and memoranda, each payment against its tenders,
 * kept totals against the rows; each line's base quantity against its item's base unit and
 * conversions as they are now, and one opening balance per item and place. Every check is a few
 * grouped queries over the whole database, read in one snapshot.
 *
 * What each kind of document moves, fulfils and settles is read from its declared effects
 * (`domain/effects.ts`), never named here: a kind that declares them is audited by them. One rule
 * stays here as one kind's own: an item opens at a place once (`openings`, the opening balance
 * lines of stock adjustments).
 */

/** The checks, in the order they run and report. */
export const AUDIT_CHECKS = [
  'movements',
  'balances',
  'in-transit',
  'base-units',
  'openings',
  'fulfilled',
  'settlement',
  'credit',
  'counts',
  'costs',
] as const;

export type AuditCheck = (typeof AUDIT_CHECKS)[number];

export interface AuditFinding {
  check: AuditCheck;
  /** Names the record to look up (document kind and number, item and place, business, resource) and the figures that disagree. */
  message: string;
}

/**
 * Every disagreement found (none, when the database is sound), in the order of the checks: the
 * documents of `definitions` (the registry's) by what each kind declares.
 */
export async function auditDatabase(db: Db, definitions: readonly ResourceDefinition[] = registry): Promise<AuditFinding[]> {
  const kinds = declaredKinds(definitions);
  const run = async (snapshot: Db) => {
    const findings: Pending[] = [];
    for (const check of CHECKS) findings.push(...(await check(snapshot, kinds)));
    return resolveNames(snapshot, findings);
  };
  if (db.isTransaction) return run(db);
  // What waits to be costed is costed first: the follow-ups are the ledger's own (cost-follow-up.ts).
  await settleCosts(db);
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(run);
}

/** A finding whose message waits for the names of the items and places it mentions. */
interface Pending {
  check: AuditCheck;
  items: number[];
  places: Place[];
  message(names: Names): string;
}

interface Place {
  type: LocationType;
  id: number;
}

interface Names {
  item(id: number): string;
  place(place: Place): string;
}

const movementCount = (count: unknown) => (Number(count) === 1 ? '1 movement' : `${Number(count)} movements`);
const quantity = (thousandths: unknown) => String(fromThousandths(Number(thousandths)));
const pesos = (centavos: unknown) => formatPesos(centavosToPesos(Number(centavos)));
/** A kind of document, by the type stored with its lines and movements, and its table. */
interface Kind {
  type: string;
  table: string;
}

/** The kinds of documents an audit goes through, and what each declares it does (`document.effects`). */
interface Kinds {
  /** Every kind, by its document type. */
  byType: ReadonlyMap<string, ResourceDefinition>;
  /** Each place and way a kind moves goods at, in the order of the definitions. */
  moving: readonly (Kind & { effect: StockEffect })[];
  /** The kinds whose lines fulfil the lines they name. */
  fulfilling: readonly Kind[];
  /** The kinds whose lines later documents fulfil (their lifecycle's `linesDone`). */
  fulfilled: readonly string[];
  /** The kinds that are owed, each with the kinds settling it into what was paid and what was adjusted. */
  owed: readonly (Kind & { paid: Settling[]; adjusted: Settling[] })[];
  /** `Receive Order RO-…`, by the document type stored with lines and movements. */
  documentName(type: unknown, number: unknown): string;
  /** Whether a kind's lines keep what the goods they carry between places were worth (`effects.carries`). */
  carries(type: unknown): boolean;
}

/** A kind settling another, and its field naming the settled document. */
interface Settling {
  table: string;
  field: string;
}

/** The kinds of documents among `definitions` and their declared effects, each reference to another kind checked. */
function declaredKinds(definitions: readonly ResourceDefinition[]): Kinds {
  const documents = definitions.filter((definition) => definition.document);
  const byType = new Map(documents.map((definition) => [definition.document!.type, definition]));
  const kindOf = (definition: ResourceDefinition): Kind => ({ type: definition.document!.type, table: definition.table });
  const effects = (definition: ResourceDefinition) => definition.document!.effects ?? {};
  for (const definition of documents) {
    for (const effect of effects(definition).stock ?? []) {
      if (effect.rest && !byType.has(effect.rest.takenBy))
        throw new Error(`${definition.name} writes off what ${effect.rest.takenBy} did not take, but there is no such kind of document.`);
    }
    const billedBy = effects(definition).cost?.billedBy;
    if (billedBy && !byType.has(billedBy))
      throw new Error(`${definition.name} costs its goods as ${billedBy} bills them, but there is no such kind of document.`);
    const settles = effects(definition).settles;
    if (settles && !documents.some((owed) => owed.name === settles.resource && effects(owed).owed))
      throw new Error(`${definition.name} settles ${settles.resource}, which is not a kind of document that is owed.`);
  }
  const settling = (owed: ResourceDefinition, into: 'amount_paid' | 'amount_adjusted'): Settling[] =>
    documents.flatMap((definition) => {
      const settles = effects(definition).settles;
      return settles && settles.resource === owed.name && settles.into === into ? [{ table: definition.table, field: settles.field }] : [];
    });
  return {
    byType,
    moving: documents.flatMap((definition) => (effects(definition).stock ?? []).map((effect) => ({ ...kindOf(definition), effect }))),
    fulfilling: documents.filter((definition) => effects(definition).fulfils).map(kindOf),
    fulfilled: documents
      .filter((definition) => definition.document!.lifecycle.linesDone !== undefined)
      .map((definition) => definition.document!.type),
    owed: documents
      .filter((definition) => effects(definition).owed)
      .map((definition) => ({
        ...kindOf(definition),
        paid: settling(definition, 'amount_paid'),
        adjusted: settling(definition, 'amount_adjusted'),
      })),
    documentName: (type, number) => `${byType.get(String(type))?.singular ?? String(type)} ${String(number)}`,
    carries: (type) => Boolean(byType.get(String(type))?.document?.effects?.carries),
  };
}

/** The rows of every member, or of `empty` with no rows when there is no member (a query of no kind). */
const unionAll = (members: readonly RawBuilder<unknown>[], empty: RawBuilder<unknown>): RawBuilder<unknown> =>
  members.length === 0 ? sql`${empty} where 1 = 0` : sql.join(members, sql` union all `);

/** A quantity moved by a sign: itself, its negative, or nothing. */
const signed = (sign: Sign, quantity: RawBuilder<number>): RawBuilder<number> =>
  sign === 0 ? sql<number>`0` : sign === 1 ? quantity : sql<number>`-(${quantity})`;

/** A condition on a line's column, where an effect names the values it moves (none where it names none). */
const oneOf = (column: 'disposition' | 'reason', values: readonly string[] | undefined): RawBuilder<unknown> =>
  values ? sql` and ${sql.ref(`lines.${column}`)} in (${sql.join(values.map((each) => sql.lit(each)))})` : sql``;

/**
 * The movements a kind's lines call for at one of its places, one row per line: none for a line
 * of no quantity; for a void document nothing net, in twice as many movements (each one and its
 * reversal). A kind that moves the rest of its lines once closed (a transfer closed short writing
 * off what did not arrive) calls for that rest — each line less what the unvoided lines taking it
 * hold — in one movement, and for nothing of a line taken whole. A kind moving only lines of some
 * dispositions or reasons (a return's restocked ones, an adjustment's releases from quarantine) calls for nothing of its other lines.
 */
function expectedMovements(side: Kinds['moving'][number], kinds: Kinds): RawBuilder<unknown> {
  const { effect } = side;
  const [locationType, locationId] =
    effect.at === 'own'
      ? [
          sql`case when documents.branch_id is not null then 'branch' else 'warehouse' end`,
          sql`coalesce(documents.branch_id, documents.warehouse_id)`,
        ]
      : [sql.ref(`documents.${effect.at}_location_type`), sql.ref(`documents.${effect.at}_location_id`)];
  const head = sql`
    select documents.business_id, lines.document_type, lines.document_id, documents.number, lines.item_id,
      ${locationType} as location_type, ${locationId} as location_id,
      0 as moved, 0 as moved_in_transit, 0 as moved_quarantined, 0 as movements`;
  if (effect.rest) {
    const rest = sql<number>`lines.base_quantity - coalesce(taken.base, 0)`;
    return sql`${head},
      ${signed(effect.onHand, rest)} as expected, ${signed(effect.inTransit, rest)} as expected_in_transit,
      ${signed(effect.quarantined ?? 0, rest)} as expected_quarantined,
      case when lines.base_quantity = coalesce(taken.base, 0) then 0 else 1 end as expected_movements
    from document_lines lines
      inner join ${sql.table(side.table)} documents on documents.id = lines.document_id
      left join (
        select taking.source_line_id, sum(taking.base_quantity) as base
        from document_lines taking inner join ${sql.table(kinds.byType.get(effect.rest.takenBy)!.table)} takers on takers.id = taking.document_id
        where taking.document_type = ${effect.rest.takenBy} and takers.status <> 'void'
        group by taking.source_line_id
      ) taken on taken.source_line_id = lines.id
    where lines.document_type = ${side.type} and documents.status = ${effect.rest.status}`;
  }
  const whole = sql<number>`lines.base_quantity`;
  const live = (value: RawBuilder<number>) => sql`case when documents.status = 'void' then 0 else ${value} end`;
  return sql`${head},
      ${live(signed(effect.onHand, whole))} as expected, ${live(signed(effect.inTransit, whole))} as expected_in_transit,
      ${live(signed(effect.quarantined ?? 0, whole))} as expected_quarantined,
      case when lines.base_quantity = 0 then 0 when documents.status = 'void' then 2 else 1 end as expected_movements
    from document_lines lines inner join ${sql.table(side.table)} documents on documents.id = lines.document_id
    where lines.document_type = ${side.type}${oneOf('disposition', effect.dispositions)}${oneOf('reason', effect.reasons)}`;
}

interface MovementRow {
  business_id: number;
  document_type: string;
  document_id: number;
  number: string;
  item_id: number;
  location_type: LocationType;
  location_id: number;
  moved: number;
  moved_in_transit: number;
  moved_quarantined: number;
  movements: number;
  expected: number;
  expected_in_transit: number;
  expected_quarantined: number;
  expected_movements: number;
}

/**
 * Each document's movements, per item and place, against what its lines call for; movements of
 * no document, of a document of another business, or counted in another item's or place's balance.
 */
async function movements(db: Db, kinds: Kinds): Promise<Pending[]> {
  const findings: Pending[] = [];
  const misplaced = new Set<string>();
  const moving = new Map(kinds.moving.map((side) => [side.type, side.table]));
  for (const [type, table] of moving) {
    const { rows } = await sql<{ document_id: number; number: string; business_id: number; owner: number | null; movements: number }>`
      select movements.document_id, max(movements.document_number) as number, movements.business_id,
        documents.business_id as owner, count(*) as movements
      from stock_movements movements left join ${sql.table(table)} documents on documents.id = movements.document_id
      where movements.document_type = ${type} and (documents.id is null or documents.business_id <> movements.business_id)
      group by movements.document_id, movements.business_id, documents.business_id`.execute(db);
    for (const row of rows) {
      misplaced.add(`${type}:${Number(row.document_id)}`);
      const name = kinds.documentName(type, row.number);
      findings.push({
        check: 'movements',
        items: [],
        places: [],
        message: () =>
          row.owner === null
            ? `${name} (business ${Number(row.business_id)}, id ${Number(row.document_id)}): ${movementCount(row.movements)}, but no such document exists.`
            : `${name} (id ${Number(row.document_id)}): ${movementCount(row.movements)} in business ${Number(row.business_id)}, but the document is business ${Number(row.owner)}’s.`,
      });
    }
  }

  const moved = sql`
    select business_id, document_type, document_id, document_number as number, item_id, location_type, location_id,
      quantity as moved, in_transit as moved_in_transit, quarantined as moved_quarantined, 1 as movements,
      0 as expected, 0 as expected_in_transit, 0 as expected_quarantined, 0 as expected_movements
    from stock_movements`;
  const { rows } = await sql<MovementRow>`
    select max(business_id) as business_id, document_type, document_id, max(number) as number, item_id, location_type, location_id,
      sum(moved) as moved, sum(moved_in_transit) as moved_in_transit, sum(moved_quarantined) as moved_quarantined,
      sum(movements) as movements, sum(expected) as expected, sum(expected_in_transit) as expected_in_transit,
      sum(expected_quarantined) as expected_quarantined, sum(expected_movements) as expected_movements
    from (${sql.join([moved, ...kinds.moving.map((side) => expectedMovements(side, kinds))], sql` union all `)}) as ledger
    group by document_type, document_id, item_id, location_type, location_id
    having sum(moved) <> sum(expected) or sum(moved_in_transit) <> sum(expected_in_transit)
      or sum(moved_quarantined) <> sum(expected_quarantined) or sum(movements) <> sum(expected_movements)
    order by document_type, document_id, item_id, location_type, location_id`.execute(db);
  for (const row of rows) {
    if (misplaced.has(`${row.document_type}:${Number(row.document_id)}`)) continue;
    const place = { type: row.location_type, id: Number(row.location_id) };
    const transit = Number(row.moved_in_transit) !== 0 || Number(row.expected_in_transit) !== 0;
    const quarantine = Number(row.moved_quarantined) !== 0 || Number(row.expected_quarantined) !== 0;
    const figures = (onHand: unknown, inTransit: unknown, quarantined: unknown, count: unknown) =>
      `${quantity(onHand)} on hand${transit ? ` and ${quantity(inTransit)} in transit` : ''}` +
      `${quarantine ? ` (${quantity(quarantined)} into quarantine)` : ''} in ${movementCount(count)}`;
    findings.push({
      check: 'movements',
      items: [Number(row.item_id)],
      places: [place],
      message: (names) =>
        `${kinds.documentName(row.document_type, row.number)} (business ${Number(row.business_id)}), ` +
        `${names.item(Number(row.item_id))} at ${names.place(place)}: ` +
        `moved ${figures(row.moved, row.moved_in_transit, row.moved_quarantined, row.movements)}, ` +
        `but its lines call for ${figures(row.expected, row.expected_in_transit, row.expected_quarantined, row.expected_movements)}.`,
    });
  }

  const { rows: strays } = await sql<{ stock_id: number; document_type: string; number: string; movements: number }>`
    select movements.stock_id, movements.document_type, max(movements.document_number) as number, count(*) as movements
    from stock_movements movements left join stocks on stocks.id = movements.stock_id
    where stocks.id is null or stocks.business_id <> movements.business_id or stocks.item_id <> movements.item_id
      or stocks.location_type <> movements.location_type or stocks.location_id <> movements.location_id
    group by movements.stock_id, movements.document_type, movements.document_id`.execute(db);
  for (const row of strays) {
    findings.push({
      check: 'movements',
      items: [],
      places: [],
      message: () =>
        `${kinds.documentName(row.document_type, row.number)}: ${movementCount(row.movements)} counted in stock balance ${Number(row.stock_id)}, ` +
        `which is not the balance of their business, item and place.`,
    });
  }
  return findings;
}

/** Each stock balance, on hand and in transit, against the sum of its movements. */
async function balances(db: Db): Promise<Pending[]> {
  const wrong = await ledgerDiscrepancies(db);
  if (wrong.length === 0) return [];
  const stocks = new Map(
    (
      await db
        .selectFrom('stocks')
        .select(['id', 'business_id', 'item_id', 'location_type', 'location_id'])
        .where(
          'id',
          'in',
          wrong.map((row) => row.stockId),
        )
        .execute()
    ).map((row) => [row.id, row]),
  );
  return wrong.map((row) => {
    const stock = stocks.get(row.stockId)!;
    const place = { type: stock.location_type as LocationType, id: stock.location_id };
    const differences = [
      row.onHand === row.movementsOnHand
        ? ''
        : `${quantity(row.onHand)} on hand, but its movements sum to ${quantity(row.movementsOnHand)}`,
      row.inTransit === row.movementsInTransit
        ? ''
        : `${quantity(row.inTransit)} in transit, but its movements sum to ${quantity(row.movementsInTransit)}`,
      row.quarantined === row.movementsQuarantined
        ? ''
        : `${quantity(row.quarantined)} quarantined, but its movements sum to ${quantity(row.movementsQuarantined)}`,
    ].filter(Boolean);
    return {
      check: 'balances',
      items: [row.itemId],
      places: [place],
      message: (names) =>
        `Stock of ${names.item(row.itemId)} at ${names.place(place)} (business ${stock.business_id}): ${differences.join('; ')}.`,
    };
  });
}

/** A row about an item's stock at a place. */
interface ItemAtPlace {
  business_id: number;
  item_id: number;
  location_type: LocationType;
  location_id: number;
}

/** A finding about an item's stock at a place: `{item} at {place} (business {id}): {what}`. */
function itemAtPlaceFinding(check: AuditCheck, row: ItemAtPlace, what: string): Pending {
  const place = { type: row.location_type, id: Number(row.location_id) };
  return {
    check,
    items: [Number(row.item_id)],
    places: [place],
    message: (names) => `${names.item(Number(row.item_id))} at ${names.place(place)} (business ${Number(row.business_id)}): ${what}`,
  };
}

/**
 * For each item and destination, what is in transit against what the documents moving goods in
 * transit call for there (the open transfers: sent less received). A transfer closed short
 * carries nothing: what did not arrive was written off. Read from the documents' lines, not from
 * the movements: a balance the movements agree with is still found when no document carries it.
 */
async function inTransit(db: Db, kinds: Kinds): Promise<Pending[]> {
  const carrying = kinds.moving
    .filter((side) => side.effect.inTransit !== 0)
    .map(
      (side) => sql`
      select business_id, item_id, location_type, location_id, 0 as in_transit, expected_in_transit as carried
      from (${expectedMovements(side, kinds)}) as expected`,
    );
  const { rows } = await sql<ItemAtPlace & { in_transit: number; carried: number }>`
    select business_id, item_id, location_type, location_id, sum(in_transit) as in_transit, sum(carried) as carried
    from (${sql.join(
      [
        sql`select business_id, item_id, location_type, location_id, quantity_in_transit as in_transit, 0 as carried from stocks`,
        ...carrying,
      ],
      sql` union all `,
    )}) as transit
    group by business_id, item_id, location_type, location_id
    having sum(in_transit) <> sum(carried)
    order by business_id, item_id, location_type, location_id`.execute(db);
  return rows.map((row) =>
    itemAtPlaceFinding(
      'in-transit',
      row,
      `${quantity(row.in_transit)} in transit, but the open stock transfers there carry ${quantity(row.carried)}.`,
    ),
  );
}

/**
 * Each document line's base quantity against what its unit is in its item's base unit now: itself
 * in the base unit, else by the item's own conversion before the general one. A line the two no
 * longer agree on had its item's base unit or a conversion changed under it ("10 pc" kept, the
 * item now counted in cases): the stock it moved is counted in a unit it was not.
 */
async function baseUnits(db: Db, kinds: Kinds): Promise<Pending[]> {
  const conversion = (own: boolean) => sql`
    select min(conversions.factor) from conversions
    where conversions.business_id = lines.business_id and conversions.deleted_at is null
      and conversions.from_unit_id = lines.unit_of_measurement_id and conversions.to_unit_id = items.unit_of_measurement_id
      and ${own ? sql`conversions.item_id = lines.item_id` : sql`conversions.item_id is null`}`;
  const { rows } = await sql<
    LineRow & {
      item_id: number;
      unit_id: number;
      base_unit_id: number;
      quantity: number;
      base_quantity: number;
      factor: number | null;
    }
  >`
    select * from (
      select lines.business_id, lines.document_type, lines.document_id, lines.position, lines.item_id,
        lines.unit_of_measurement_id as unit_id, items.unit_of_measurement_id as base_unit_id, lines.quantity, lines.base_quantity,
        case when lines.unit_of_measurement_id = items.unit_of_measurement_id then 1000000
          else coalesce((${conversion(true)}), (${conversion(false)})) end as factor
      from document_lines lines inner join items on items.id = lines.item_id
    ) as counted
    -- Priced as round(quantity × factor): a thousandth either way is the floating point's, not a change.
    where factor is null
      or abs(abs(base_quantity) - round(abs(quantity) * cast(factor as double precision) / 1000000)) > 1
    order by business_id, document_type, document_id, position`.execute(db);
  if (rows.length === 0) return [];
  const lineName = await lineNames(db, kinds, rows);
  const units = new Map(
    (
      await db
        .selectFrom('unit_of_measurements')
        .select(['id', 'abbreviation'])
        .where('id', 'in', [...new Set(rows.flatMap((row) => [Number(row.unit_id), Number(row.base_unit_id)]))])
        .execute()
    ).map((row) => [row.id, row.abbreviation]),
  );
  const unit = (id: unknown) => units.get(Number(id)) ?? `unit ${Number(id)}`;
  return rows.map((row) => {
    const line = lineName(row);
    const kept = `${quantity(row.quantity)} ${unit(row.unit_id)} kept as ${quantity(row.base_quantity)} in its base unit`;
    const now =
      row.factor === null
        ? `it counts in ${unit(row.base_unit_id)} now, and no conversion takes ${unit(row.unit_id)} to it`
        : `by its base unit and conversions now that is ${quantity(Math.round(Math.abs(Number(row.quantity)) * (Number(row.factor) / 1_000_000)) * Math.sign(Number(row.quantity)))} ${unit(row.base_unit_id)}`;
    return {
      check: 'base-units',
      items: [Number(row.item_id)],
      places: [],
      message: (names) =>
        `${line} (${names.item(Number(row.item_id))}): ${kept}, but ${now}; its base unit or a conversion was changed under the line.`,
    };
  });
}

/**
 * One opening balance per item and place: the opening balance lines of the unvoided stock
 * adjustments, in more than one adjustment for the same item and place, are a second opening
 * (the stock counted in twice). A line noted as the opening stock imported again
 * (`OPENING_AGAIN_NOTE`) is the difference to the opening before it, a correction, and not counted.
 */
async function openings(db: Db): Promise<Pending[]> {
  const { rows } = await sql<ItemAtPlace & { number: string }>`
    select distinct adjustments.business_id, lines.item_id,
      case when adjustments.branch_id is not null then 'branch' else 'warehouse' end as location_type,
      coalesce(adjustments.branch_id, adjustments.warehouse_id) as location_id, adjustments.number
    from document_lines lines inner join stock_adjustments adjustments on adjustments.id = lines.document_id
    where lines.document_type = 'stock-adjustment' and lines.reason = 'opening_balance' and adjustments.status <> 'void'
      and (lines.note is null or lines.note <> ${OPENING_AGAIN_NOTE})
    order by adjustments.business_id, lines.item_id, location_type, location_id, adjustments.number`.execute(db);
  const opened = new Map<string, { row: (typeof rows)[number]; numbers: string[] }>();
  for (const row of rows) {
    const key = `${Number(row.business_id)}|${Number(row.item_id)}|${row.location_type}|${Number(row.location_id)}`;
    const entry = opened.get(key) ?? { row, numbers: [] };
    entry.numbers.push(String(row.number));
    opened.set(key, entry);
  }
  return [...opened.values()]
    .filter((entry) => entry.numbers.length > 1)
    .map(({ row, numbers }) => {
      const listed = `${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
      return itemAtPlaceFinding(
        'openings',
        row,
        `${numbers.length} opening balances, in Stock Adjustments ${listed}; an item opens at a place once, and is corrected after.`,
      );
    });
}

/**
 * What later documents fulfilled of a line (`quantity_done`) against the unvoided lines naming
 * it, of the kinds declared to fulfil (`effects.fulfils`): a purchase order's by receive orders, a
 * stock request's or a stock return's by stock transfers, a stock transfer's by stock receives. A
 * stock return's lines name the transfer's lines too, but only to say what went back: they fulfil
 * nothing of them.
 */
async function fulfilled(db: Db, kinds: Kinds): Promise<Pending[]> {
  if (kinds.fulfilled.length === 0) return [];
  const fulfilling = kinds.fulfilling.map(
    ({ type, table }) => sql`
    select lines.source_line_id, lines.quantity
    from document_lines lines inner join ${sql.table(table)} documents on documents.id = lines.document_id
    where lines.document_type = ${type} and documents.status <> 'void' and lines.source_line_id is not null`,
  );
  const { rows } = await sql<
    LineRow & {
      item_id: number;
      quantity: number;
      quantity_done: number;
      done: number;
    }
  >`
    select sources.business_id, sources.document_type, sources.document_id, sources.position, sources.item_id, sources.quantity, sources.quantity_done,
      coalesce(fulfilled.done, 0) as done
    from document_lines sources
      left join (
        select source_line_id, sum(quantity) as done
        from (${unionAll(fulfilling, sql`select cast(null as integer) as source_line_id, 0 as quantity`)}) as fulfilling
        group by source_line_id
      ) as fulfilled on fulfilled.source_line_id = sources.id
    where sources.document_type in (${sql.join(kinds.fulfilled)})
      and (sources.quantity_done <> coalesce(fulfilled.done, 0) or sources.quantity_done > sources.quantity or sources.quantity_done < 0)
    order by sources.document_type, sources.document_id, sources.position`.execute(db);
  const lineName = await lineNames(db, kinds, rows);
  return rows.map((row) => {
    const done = Number(row.quantity_done);
    const line = lineName(row);
    return {
      check: 'fulfilled',
      items: [Number(row.item_id)],
      places: [],
      message: (names) =>
        done === Number(row.done)
          ? `${line} (${names.item(Number(row.item_id))}): ${quantity(done)} fulfilled of ${quantity(row.quantity)}.`
          : `${line} (${names.item(Number(row.item_id))}): ${quantity(done)} fulfilled, ` +
            `but the unvoided lines naming it hold ${quantity(row.done)}.`,
    };
  });
}

interface LineRow {
  business_id: number;
  document_type: string;
  document_id: number;
  position: number;
}

/** How a finding names a document's line (`Receive Order RO-… (business 1) line 2`), the documents' numbers read first. */
async function lineNames(db: Db, kinds: Kinds, rows: readonly LineRow[]): Promise<(row: LineRow) => string> {
  const numbers = await documentNumbers(
    db,
    kinds,
    rows.map((row) => ({ type: row.document_type, id: Number(row.document_id) })),
  );
  return (row) => {
    const document = kinds.documentName(row.document_type, numbers.get(`${row.document_type}:${Number(row.document_id)}`));
    return `${document} (business ${Number(row.business_id)}) line ${Number(row.position) + 1}`;
  };
}

/** The numbers of documents, by `type:id`, one query per kind of document. */
async function documentNumbers(db: Db, kinds: Kinds, documents: { type: string; id: number }[]): Promise<Map<string, string>> {
  const numbers = new Map<string, string>();
  for (const type of new Set(documents.map((document) => document.type))) {
    const definition = kinds.byType.get(type);
    if (!definition) continue;
    const ids = [...new Set(documents.filter((document) => document.type === type).map((document) => document.id))];
    for (let start = 0; start < ids.length; start += 500) {
      for (const row of await untyped(db)
        .selectFrom(definition.table)
        .select(['id', 'number'])
        .where('id', 'in', ids.slice(start, start + 500))
        .execute()) {
        numbers.set(`${type}:${Number(row.id)}`, String(row.number));
      }
    }
  }
  return numbers;
}

/** A settlement finding for each of a document's figures that disagrees (`false` for one that agrees). */
const settlementFindings = (name: string, figures: readonly (string | false)[]): Pending[] =>
  figures
    .filter((text): text is string => text !== false)
    .map((text) => ({ check: 'settlement', items: [], places: [], message: () => `${name}: ${text}.` }));

interface SettlementRow {
  business_id: number;
  number: string;
  status: string;
  total: number;
  amount_paid: number;
  amount_adjusted: number;
  balance: number;
  paid: number;
  adjusted: number;
  owed: number;
  settled_status: string;
}

/**
 * Each owed document's (a bill's, an invoice's) paid and adjusted amounts against the unvoided
 * documents declared to settle it: payments (`amount_paid`) and memoranda (`amount_adjusted`);
 * its balance against total less both (nothing, once void); its status against those figures; and
 * none of them below zero.
 */
async function settlement(db: Db, kinds: Kinds): Promise<Pending[]> {
  const findings: Pending[] = [];
  for (const kind of kinds.owed) {
    const settling = (by: readonly Settling[]) => sql`
      select id, sum(amount) as amount
      from (${unionAll(
        by.map(({ table, field }) => sql`select ${sql.ref(field)} as id, amount from ${sql.table(table)} where status <> 'void'`),
        sql`select cast(null as integer) as id, 0 as amount`,
      )}) as settling
      group by id`;
    const { rows } = await sql<SettlementRow>`
      select * from (
        select documents.business_id, documents.number, documents.status, documents.total, documents.amount_paid,
          documents.amount_adjusted, documents.balance,
          coalesce(payments.amount, 0) as paid, coalesce(memoranda.amount, 0) as adjusted,
          case when documents.status = 'void' then 0 else documents.total - documents.amount_paid - documents.amount_adjusted end as owed,
          case when documents.status = 'void' then 'void' else ${settledStatus('documents')} end as settled_status
        from ${sql.table(kind.table)} documents
          left join (${settling(kind.paid)}) as payments on payments.id = documents.id
          left join (${settling(kind.adjusted)}) as memoranda on memoranda.id = documents.id
      ) as settled
      where amount_paid <> paid or amount_adjusted <> adjusted or balance <> owed or status <> settled_status
        or balance < 0 or amount_paid < 0 or amount_adjusted < 0 or (status = 'void' and amount_paid + amount_adjusted <> 0)
      order by business_id, number`.execute(db);
    for (const row of rows) {
      const name = `${kinds.documentName(kind.type, row.number)} (business ${Number(row.business_id)})`;
      findings.push(
        ...settlementFindings(name, [
          Number(row.amount_paid) !== Number(row.paid) &&
            `${pesos(row.amount_paid)} paid, but its unvoided payments sum to ${pesos(row.paid)}`,
          Number(row.amount_adjusted) !== Number(row.adjusted) &&
            `${pesos(row.amount_adjusted)} adjusted, but its unvoided memoranda sum to ${pesos(row.adjusted)}`,
          Number(row.balance) !== Number(row.owed) &&
            (row.status === 'void'
              ? `a balance of ${pesos(row.balance)}, but it is void`
              : `a balance of ${pesos(row.balance)}, but ${pesos(row.total)} total less ${pesos(row.amount_paid)} paid and ` +
                `${pesos(row.amount_adjusted)} adjusted leaves ${pesos(row.owed)}`),
          row.status !== row.settled_status && `status ${row.status}, but its figures make it ${row.settled_status}`,
          row.status === 'void' &&
            Number(row.amount_paid) + Number(row.amount_adjusted) !== 0 &&
            `void, but still ${pesos(row.amount_paid)} paid and ${pesos(row.amount_adjusted)} adjusted`,
          Number(row.balance) < 0 && `a balance below zero (${pesos(row.balance)})`,
          (Number(row.amount_paid) < 0 || Number(row.amount_adjusted) < 0) &&
            `paid or adjusted below zero (${pesos(row.amount_paid)} paid, ${pesos(row.amount_adjusted)} adjusted)`,
        ]),
      );
    }
  }
  return findings;
}

/**
 * Each payment's amount against what its tenders come to, and its method against theirs (the one
 * tender's, or split): a payment is what its tenders say it was, void or not.
 */
async function tendered(db: Db, kinds: Kinds): Promise<Pending[]> {
  const findings: Pending[] = [];
  for (const definition of [...kinds.byType.values()].filter((resource) => paidInTenders(resource))) {
    const type = definition.document!.type;
    const { rows } = await sql<{
      business_id: number;
      number: string;
      amount: number;
      payment_method: string;
      tendered: number;
      method: string;
    }>`
      select * from (
        select payments.business_id, payments.number, payments.amount, payments.payment_method,
          coalesce(tenders.amount, 0) as tendered,
          case when tenders.count = 1 then tenders.method else 'split' end as method
        from ${sql.table(definition.table)} payments
          left join (
            select payment_id, sum(amount) as amount, count(*) as count, min(method) as method
            from payment_tenders where payment_type = ${type} group by payment_id
          ) as tenders on tenders.payment_id = payments.id
      ) as paid
      where amount <> tendered or payment_method <> method
      order by business_id, number`.execute(db);
    for (const row of rows) {
      const name = `${kinds.documentName(type, row.number)} (business ${Number(row.business_id)})`;
      findings.push(
        ...settlementFindings(name, [
          Number(row.amount) !== Number(row.tendered) && `${pesos(row.amount)}, but its tenders come to ${pesos(row.tendered)}`,
          row.payment_method !== row.method && `paid by ${row.payment_method}, but its tenders make it ${row.method}`,
        ]),
      );
    }
  }
  return findings;
}

/**
 * Each contact's credit on account against what made it: the totals of the unvoided returns
 * settled to the account (of every kind taking goods back), less the "Account credit" tenders of
 * the unvoided payments (of every kind paid in tenders) of that contact; and never below zero.
 */
async function accountCredit(db: Db, kinds: Kinds): Promise<Pending[]> {
  const documents = [...kinds.byType.values()];
  const credited = documents
    .filter((definition) => definition.document!.lines === 'returns')
    .map(
      (definition) =>
        sql`select contact_id, total as amount from ${sql.table(definition.table)} where status <> 'void' and settlement = 'account'`,
    );
  const used = documents.filter(paidInTenders).map(
    (definition) => sql`
      select payments.contact_id, -tenders.amount as amount
      from ${sql.table(definition.table)} payments
        join payment_tenders tenders on tenders.payment_type = ${definition.document!.type} and tenders.payment_id = payments.id
      where payments.status <> 'void' and tenders.method = ${ACCOUNT_CREDIT}`,
  );
  const { rows } = await sql<{ business_id: number; name: string; credit_balance: number; made: number }>`
    select contacts.business_id, contacts.name, contacts.credit_balance, coalesce(moved.amount, 0) as made
    from contacts
      left join (
        select contact_id, sum(amount) as amount
        from (${unionAll([...credited, ...used], sql`select cast(null as integer) as contact_id, 0 as amount`)}) as moves
        group by contact_id
      ) as moved on moved.contact_id = contacts.id
    where contacts.credit_balance <> coalesce(moved.amount, 0) or contacts.credit_balance < 0
    order by contacts.business_id, contacts.id`.execute(db);
  return rows.map((row) => ({
    check: 'credit',
    items: [],
    places: [],
    message: () =>
      `Contact ${row.name} (business ${Number(row.business_id)}): ${pesos(row.credit_balance)} of credit on account, but the returns ` +
      `credited to it less the account-credit tenders of its payments come to ${pesos(row.made)}.`,
  }));
}

/**
 * The kept active and trashed totals of each business and resource against its rows: of every
 * resource of the registry, whatever kinds of documents are audited, as the engine's stores keep them.
 */
async function counts(db: Db): Promise<Pending[]> {
  const findings: Pending[] = [];
  const kept = new Map<string, { active: number; trashed: number }>();
  for (const row of await db.selectFrom('resource_counts').select(['business_id', 'resource', 'active', 'trashed']).execute()) {
    kept.set(`${row.resource}:${row.business_id}`, { active: row.active, trashed: row.trashed });
  }
  // Resources whose active and trashed totals are kept in resource_counts rather than counted.
  for (const definition of registry.filter((resource) => storeFor(resource).countsMaintained)) {
    const real = new Map<number, { active: number; trashed: number }>();
    for (const row of await untyped(db)
      .selectFrom(definition.table)
      .select(['business_id', sql<number>`count(*) - count(deleted_at)`.as('active'), sql<number>`count(deleted_at)`.as('trashed')])
      .groupBy('business_id')
      .execute()) {
      real.set(Number(row.business_id), { active: row.active, trashed: row.trashed });
    }
    const businesses = new Set([
      ...real.keys(),
      ...[...kept.keys()].filter((key) => key.startsWith(`${definition.name}:`)).map((key) => Number(key.split(':')[1])),
    ]);
    for (const businessId of [...businesses].sort((a, b) => a - b)) {
      const counted = real.get(businessId) ?? { active: 0, trashed: 0 };
      const held = kept.get(`${definition.name}:${businessId}`) ?? { active: 0, trashed: 0 };
      if (counted.active === held.active && counted.trashed === held.trashed) continue;
      findings.push({
        check: 'counts',
        items: [],
        places: [],
        message: () =>
          `${definition.name} of business ${businessId}: counted ${held.active} active and ${held.trashed} trashed, ` +
          `but the table holds ${counted.active} active and ${counted.trashed} trashed.`,
      });
    }
  }
  return findings;
}

/** Rows by a key, each group in the rows' order. */
function groupedBy<Row>(rows: readonly Row[], key: (row: Row) => number): Map<number, Row[]> {
  const groups = new Map<number, Row[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/**
 * What goods cost (docs/costing.md) against the ledger: each document's change of each item's
 * quantity has its cost entry of that quantity and no entry stands for none; every entry, costed
 * again from the first in order, has the worth and the state after it that were kept; each line
 * has the cost that gives it (none on a line whose document moves nothing now); and each item's
 * kept state is its last entry's, so what the stock is worth is the sum of its entries' worth.
 * Movements still waiting for their follow-up (cost-follow-up.ts) are left out; one that has
 * waited over `FOLLOW_UP_MS` is a follow-up that never ran.
 */
/** An entry's worth in words: pesos given, or how it is found. */
const worthText = (basis: string, given: number | null) =>
  given !== null ? pesos(given) : basis === 'source' ? 'what its sources cost' : 'the average';

/** How long a movement may wait for its costing: its follow-up runs as soon as its document's answer has gone out. */
const FOLLOW_UP_MS = 60_000;

async function costs(db: Db, kinds: Kinds): Promise<Pending[]> {
  const findings: Pending[] = [];
  const finding = (itemId: number, text: string): Pending => ({
    check: 'costs',
    items: [itemId],
    places: [],
    message: (names) => `${names.item(itemId)}: ${text}.`,
  });
  const moved = new Map<string, { quantity: number; name: string }>();
  for (const row of await db
    .selectFrom('stock_movements')
    .select([
      'business_id',
      'document_type',
      'document_id',
      'item_id',
      sql<number>`sum(quantity + in_transit)`.as('quantity'),
      sql<number>`sum(quantity)`.as('on_hand'),
      sql<string>`max(document_number)`.as('number'),
    ])
    .where('costed', '=', 1)
    .groupBy(['business_id', 'document_type', 'document_id', 'item_id'])
    .execute()) {
    // A transfer moves nothing in all, but has its entry while it carries goods.
    if (Number(row.quantity) === 0 && !(kinds.carries(row.document_type) && Number(row.on_hand) !== 0)) continue;
    moved.set(`${row.business_id} ${row.document_type} ${row.document_id} ${row.item_id}`, {
      quantity: Number(row.quantity),
      name: `${kinds.documentName(row.document_type, row.number)} (business ${row.business_id})`,
    });
  }
  const entries = (await db
    .selectFrom('cost_entries')
    .selectAll()
    .orderBy('business_id')
    .orderBy('item_id')
    .orderBy('date')
    .orderBy('sequence')
    .execute()) as CostEntry[];
  const documents = await documentNumbers(
    db,
    kinds,
    entries.map((entry) => ({ type: entry.document_type, id: entry.document_id })),
  );
  const named = (entry: CostEntry) =>
    `${kinds.documentName(entry.document_type, documents.get(`${entry.document_type}:${entry.document_id}`) ?? `#${entry.document_id}`)} (business ${entry.business_id})`;
  for (const entry of entries) {
    const key = `${entry.business_id} ${entry.document_type} ${entry.document_id} ${entry.item_id}`;
    const movedQuantity = moved.get(key)?.quantity ?? 0;
    const movedAny = moved.delete(key);
    if (!movedAny || movedQuantity !== Number(entry.quantity)) {
      findings.push(
        finding(
          entry.item_id,
          `${named(entry)} is costed for ${quantity(entry.quantity)}, but its movements come to ${quantity(movedQuantity)}`,
        ),
      );
    }
  }
  for (const [key, { quantity: movedQuantity, name }] of moved) {
    findings.push(finding(Number(key.split(' ')[3]), `${name} moved ${quantity(movedQuantity)} with no cost entry`));
  }
  const waited = new Date(Date.now() - FOLLOW_UP_MS).toISOString();
  for (const row of await db
    .selectFrom('stock_movements')
    .select(['item_id', sql<number>`count(*)`.as('movements')])
    .where('costed', '=', 0)
    .where('moved_at', '<', waited)
    .groupBy('item_id')
    .execute()) {
    findings.push(finding(row.item_id, `${Number(row.movements)} movements have waited over a minute to be costed`));
  }
  const states = new Map(
    (await db.selectFrom('item_costs').selectAll().execute()).map((row) => [`${row.business_id} ${row.item_id}`, row]),
  );
  for (const businessId of [...new Set(entries.map((entry) => entry.business_id))]) {
    const lines = (await entryLines(db, businessId).execute()) as CostedLine[];
    const sources = await sourcesOf(db, lines);
    const registered = await vatRegistered(db, businessId);
    // Each item's entries (in their order) and lines, grouped once: a business may hold many items.
    const entriesOf = groupedBy(
      entries.filter((entry) => entry.business_id === businessId),
      (entry) => entry.item_id,
    );
    const linesOf = groupedBy(lines, (line) => line.item_id);
    const lineCosts = new Map<number, number | null>();
    // Each entry's worth as its lines, and the bills of what they received, give it now: the
    // entries are costed again at that worth, not at the one they keep.
    const billed = await billedFor(db, businessId, lines, registered);
    const linesByDocument = byDocument(lines);
    const worthOf = (entry: CostEntry): CostEntry => {
      const own = (linesByDocument.get(`${entry.document_type} ${entry.document_id}`) ?? []).filter(
        (line) => line.item_id === entry.item_id,
      );
      const worth = basisOf(entry.document_type, own, Number(entry.quantity), registered, billed);
      const kept = entry.given_value === null ? null : Number(entry.given_value);
      if (worth.basis !== entry.basis || worth.given !== kept) {
        findings.push(
          finding(
            entry.item_id,
            `${named(entry)} is worth ${worthText(entry.basis, kept)} in its cost entry, but its lines give ${worthText(worth.basis, worth.given)}`,
          ),
        );
      }
      return { ...entry, basis: worth.basis, given_value: worth.given };
    };
    for (const [itemId, own] of entriesOf) {
      const plan = await planCosts(NO_COST, own.map(worthOf), byDocument(linesOf.get(itemId) ?? []), sources, registered);
      for (const [lineId, cost] of plan.lineCosts) lineCosts.set(lineId, cost);
      for (const { entry, value, after } of plan.entries) {
        if (Number(entry.value) !== value || Number(entry.value_after) !== after.value || Number(entry.quantity_after) !== after.quantity) {
          findings.push(
            finding(
              itemId,
              `${named(entry)} is costed at ${pesos(entry.value)} leaving ${quantity(entry.quantity_after)} worth ${pesos(entry.value_after)}, ` +
                `but costing the item again gives ${pesos(value)} leaving ${quantity(after.quantity)} worth ${pesos(after.value)}`,
            ),
          );
        }
      }
      const state = states.get(`${businessId} ${itemId}`);
      if (!state || Number(state.value) !== plan.state.value || Number(state.quantity) !== plan.state.quantity) {
        findings.push(
          finding(
            itemId,
            `is kept as ${quantity(state?.quantity ?? 0)} worth ${pesos(state?.value ?? 0)}, but its cost entries come to ` +
              `${quantity(plan.state.quantity)} worth ${pesos(plan.state.value)}`,
          ),
        );
      }
    }
    for (const line of lines) {
      const expected = lineCosts.get(line.id) ?? null;
      const kept = line.cost === null ? null : Number(line.cost);
      if (kept !== expected) {
        findings.push(
          finding(
            line.item_id,
            `a line of ${kinds.documentName(line.document_type, documents.get(`${line.document_type}:${line.document_id}`) ?? `#${line.document_id}`)} is stamped at ${kept === null ? 'no cost' : pesos(kept)}, but its entry gives ${expected === null ? 'no cost' : pesos(expected)}`,
          ),
        );
      }
    }
  }
  // A line costed though its document no longer moves the item (voided) keeps no cost.
  for (const line of await db
    .selectFrom('document_lines')
    .select(['document_lines.id', 'document_lines.item_id', 'document_lines.document_type', 'document_lines.document_id'])
    .where('document_lines.cost', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('cost_entries as entry')
            .select('entry.id')
            .whereRef('entry.business_id', '=', 'document_lines.business_id')
            .whereRef('entry.document_type', '=', 'document_lines.document_type')
            .whereRef('entry.document_id', '=', 'document_lines.document_id')
            .whereRef('entry.item_id', '=', 'document_lines.item_id'),
        ),
      ),
    )
    .execute()) {
    findings.push(
      finding(
        line.item_id,
        `a line of ${kinds.documentName(line.document_type, `#${line.document_id}`)} keeps a cost though its document moves none of it`,
      ),
    );
  }
  return findings;
}

const CHECKS: readonly ((db: Db, kinds: Kinds) => Promise<Pending[]>)[] = [
  movements,
  balances,
  inTransit,
  baseUnits,
  openings,
  fulfilled,
  settlement,
  tendered,
  accountCredit,
  counts,
  costs,
];

/** Finds the names of the items and places the findings mention, in one query per table. */
async function resolveNames(db: Db, pending: Pending[]): Promise<AuditFinding[]> {
  const items = new Map<number, string>();
  const places = new Map<string, string>();
  const itemIds = [...new Set(pending.flatMap((finding) => finding.items))];
  for (let start = 0; start < itemIds.length; start += 500) {
    const rows = await db
      .selectFrom('items')
      .select(['id', 'name', 'sku'])
      .where('id', 'in', itemIds.slice(start, start + 500))
      .execute();
    for (const row of rows) items.set(row.id, `${row.name} (${row.sku})`);
  }
  for (const [type, table] of [
    ['branch', 'branches'],
    ['warehouse', 'warehouses'],
  ] as const) {
    const ids = [...new Set(pending.flatMap((finding) => finding.places.filter((place) => place.type === type).map((place) => place.id)))];
    for (let start = 0; start < ids.length; start += 500) {
      const rows = await db
        .selectFrom(table)
        .select(['id', 'name'])
        .where('id', 'in', ids.slice(start, start + 500))
        .execute();
      for (const row of rows) places.set(`${type}:${row.id}`, `${type} ${row.name}`);
    }
  }
  const names: Names = {
    item: (id) => items.get(id) ?? `item ${id}`,
    place: (place) => places.get(`${place.type}:${place.id}`) ?? `${place.type} ${place.id}`,
  };
  return pending.map((finding) => ({ check: finding.check, message: finding.message(names) }));
}

export interface AuditedRecords {
  documents: number;
  lines: number;
  movements: number;
  balances: number;
  /** Kept totals (resource_counts rows). */
  counts: number;
}

/** How much an audit goes through, for saying what a sound database was checked for: the documents of `definitions`. */
export async function auditedRecords(db: Db, definitions: readonly ResourceDefinition[] = registry): Promise<AuditedRecords> {
  const rows = async (table: string) =>
    (
      await untyped(db)
        .selectFrom(table)
        .select(sql<number>`count(*)`.as('count'))
        .executeTakeFirstOrThrow()
    ).count;
  let documents = 0;
  for (const definition of declaredKinds(definitions).byType.values()) documents += await rows(definition.table);
  return {
    documents,
    lines: await rows('document_lines'),
    movements: await rows('stock_movements'),
    balances: await rows('stocks'),
    counts: await rows('resource_counts'),
  };
}
