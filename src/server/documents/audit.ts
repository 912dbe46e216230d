import { OPENING_AGAIN_NOTE } from '../../domain/imports';
import { sql, type RawBuilder } from 'kysely';
import type { LocationType } from '../../domain/documents';
import { centavosToPesos, formatPesos } from '../../domain/money';
import { fromThousandths } from '../../domain/quantity';
import { registry } from '../../domain/resources/registry';
import { paidInTenders } from '../../domain/tenders';
import { storeFor } from '../resources/stores';
import { untyped, type Db } from '../db/scope';
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
 */

/** The checks, in the order they run and report. */
export const AUDIT_CHECKS = ['movements', 'balances', 'in-transit', 'base-units', 'openings', 'fulfilled', 'settlement', 'counts'] as const;

export type AuditCheck = (typeof AUDIT_CHECKS)[number];

export interface AuditFinding {
  check: AuditCheck;
  /** Names the record to look up (document kind and number, item and place, business, resource) and the figures that disagree. */
  message: string;
}

/** Every disagreement found (none, when the database is sound), in the order of the checks. */
export async function auditDatabase(db: Db): Promise<AuditFinding[]> {
  const run = async (snapshot: Db) => {
    const findings: Pending[] = [];
    for (const check of CHECKS) findings.push(...(await check(snapshot)));
    return resolveNames(snapshot, findings);
  };
  if (db.isTransaction) return run(db);
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
const singular = new Map(registry.filter((definition) => definition.document).map((definition) => [definition.document!.type, definition]));
/** `Receive Order RO-…`, by the document type stored with lines and movements. */
const documentName = (type: unknown, number: unknown) => `${singular.get(String(type))?.singular ?? String(type)} ${String(number)}`;

/** What each kind of document moves, per line: on hand and in transit, at its own place or at one end of a transfer. */
const MOVING: readonly { type: string; table: string; at: 'own' | 'from' | 'to'; onHand: -1 | 0 | 1; inTransit: -1 | 0 | 1 }[] = [
  { type: 'receive-order', table: 'receive_orders', at: 'own', onHand: 1, inTransit: 0 },
  { type: 'invoice', table: 'invoices', at: 'own', onHand: -1, inTransit: 0 },
  { type: 'stock-transfer', table: 'stock_transfers', at: 'from', onHand: -1, inTransit: 0 },
  { type: 'stock-transfer', table: 'stock_transfers', at: 'to', onHand: 0, inTransit: 1 },
  { type: 'stock-receive', table: 'stock_receives', at: 'to', onHand: 1, inTransit: -1 },
  // Its lines' quantities are signed: a negative one took stock away.
  { type: 'stock-adjustment', table: 'stock_adjustments', at: 'own', onHand: 1, inTransit: 0 },
];

const signed = (sign: -1 | 0 | 1): RawBuilder<number> =>
  sign === 0 ? sql<number>`0` : sign === 1 ? sql<number>`lines.base_quantity` : sql<number>`-lines.base_quantity`;

/**
 * The movements a document's lines call for, one row per line and place: none for a line of no
 * quantity; for a void document nothing net, in twice as many movements (each one and its
 * reversal).
 */
function expectedMovements(side: (typeof MOVING)[number]) {
  const [locationType, locationId] =
    side.at === 'own'
      ? [
          sql`case when documents.branch_id is not null then 'branch' else 'warehouse' end`,
          sql`coalesce(documents.branch_id, documents.warehouse_id)`,
        ]
      : [sql.ref(`documents.${side.at}_location_type`), sql.ref(`documents.${side.at}_location_id`)];
  const live = (value: RawBuilder<number>) => sql`case when documents.status = 'void' then 0 else ${value} end`;
  return sql`
    select documents.business_id, lines.document_type, lines.document_id, documents.number, lines.item_id,
      ${locationType} as location_type, ${locationId} as location_id,
      0 as moved, 0 as moved_in_transit, 0 as movements,
      ${live(signed(side.onHand))} as expected, ${live(signed(side.inTransit))} as expected_in_transit,
      case when lines.base_quantity = 0 then 0 when documents.status = 'void' then 2 else 1 end as expected_movements
    from document_lines lines inner join ${sql.table(side.table)} documents on documents.id = lines.document_id
    where lines.document_type = ${side.type}`;
}

/**
 * What a transfer closed short wrote off at its destination, per line: what the line sent less
 * what its receives (not voided) took, out of transit in one movement; nothing for a line that
 * arrived whole.
 */
const writtenOff = sql`
  select documents.business_id, lines.document_type, lines.document_id, documents.number, lines.item_id,
    documents.to_location_type as location_type, documents.to_location_id as location_id,
    0 as moved, 0 as moved_in_transit, 0 as movements,
    0 as expected, coalesce(received.base, 0) - lines.base_quantity as expected_in_transit,
    case when lines.base_quantity = coalesce(received.base, 0) then 0 else 1 end as expected_movements
  from document_lines lines
    inner join stock_transfers documents on documents.id = lines.document_id
    left join (
      select receive_lines.source_line_id, sum(receive_lines.base_quantity) as base
      from document_lines receive_lines inner join stock_receives receives on receives.id = receive_lines.document_id
      where receive_lines.document_type = 'stock-receive' and receives.status <> 'void'
      group by receive_lines.source_line_id
    ) received on received.source_line_id = lines.id
  where lines.document_type = 'stock-transfer' and documents.status = 'closed_short'`;

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
  movements: number;
  expected: number;
  expected_in_transit: number;
  expected_movements: number;
}

/**
 * Each document's movements, per item and place, against what its lines call for; movements of
 * no document, of a document of another business, or counted in another item's or place's balance.
 */
async function movements(db: Db): Promise<Pending[]> {
  const findings: Pending[] = [];
  const misplaced = new Set<string>();
  for (const type of new Set(MOVING.map((side) => side.type))) {
    const table = MOVING.find((side) => side.type === type)!.table;
    const { rows } = await sql<{ document_id: number; number: string; business_id: number; owner: number | null; movements: number }>`
      select movements.document_id, max(movements.document_number) as number, movements.business_id,
        documents.business_id as owner, count(*) as movements
      from stock_movements movements left join ${sql.table(table)} documents on documents.id = movements.document_id
      where movements.document_type = ${type} and (documents.id is null or documents.business_id <> movements.business_id)
      group by movements.document_id, movements.business_id, documents.business_id`.execute(db);
    for (const row of rows) {
      misplaced.add(`${type}:${Number(row.document_id)}`);
      const name = documentName(type, row.number);
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

  const [first, ...rest] = [...MOVING.map(expectedMovements), writtenOff];
  const { rows } = await sql<MovementRow>`
    select max(business_id) as business_id, document_type, document_id, max(number) as number, item_id, location_type, location_id,
      sum(moved) as moved, sum(moved_in_transit) as moved_in_transit, sum(movements) as movements,
      sum(expected) as expected, sum(expected_in_transit) as expected_in_transit, sum(expected_movements) as expected_movements
    from (
      select business_id, document_type, document_id, document_number as number, item_id, location_type, location_id,
        quantity as moved, in_transit as moved_in_transit, 1 as movements, 0 as expected, 0 as expected_in_transit, 0 as expected_movements
      from stock_movements
      union all ${first}
      ${sql.join(
        rest.map((member) => sql`union all ${member}`),
        sql` `,
      )}
    ) as ledger
    group by document_type, document_id, item_id, location_type, location_id
    having sum(moved) <> sum(expected) or sum(moved_in_transit) <> sum(expected_in_transit) or sum(movements) <> sum(expected_movements)
    order by document_type, document_id, item_id, location_type, location_id`.execute(db);
  for (const row of rows) {
    if (misplaced.has(`${row.document_type}:${Number(row.document_id)}`)) continue;
    const place = { type: row.location_type, id: Number(row.location_id) };
    const transit = Number(row.moved_in_transit) !== 0 || Number(row.expected_in_transit) !== 0;
    const figures = (onHand: unknown, inTransit: unknown, count: unknown) =>
      `${quantity(onHand)} on hand${transit ? ` and ${quantity(inTransit)} in transit` : ''} in ${movementCount(count)}`;
    findings.push({
      check: 'movements',
      items: [Number(row.item_id)],
      places: [place],
      message: (names) =>
        `${documentName(row.document_type, row.number)} (business ${Number(row.business_id)}), ` +
        `${names.item(Number(row.item_id))} at ${names.place(place)}: ` +
        `moved ${figures(row.moved, row.moved_in_transit, row.movements)}, ` +
        `but its lines call for ${figures(row.expected, row.expected_in_transit, row.expected_movements)}.`,
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
        `${documentName(row.document_type, row.number)}: ${movementCount(row.movements)} counted in stock balance ${Number(row.stock_id)}, ` +
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
 * For each item and destination, what is in transit against what the open transfers carry: sent
 * less received. A transfer closed short carries nothing: what did not arrive was written off.
 */
async function inTransit(db: Db): Promise<Pending[]> {
  const { rows } = await sql<ItemAtPlace & { in_transit: number; carried: number }>`
    select business_id, item_id, location_type, location_id, sum(in_transit) as in_transit, sum(carried) as carried
    from (
      select business_id, item_id, location_type, location_id, quantity_in_transit as in_transit, 0 as carried
      from stocks
      union all
      select transfers.business_id, lines.item_id, transfers.to_location_type, transfers.to_location_id, 0, lines.base_quantity
      from document_lines lines inner join stock_transfers transfers on transfers.id = lines.document_id
      where lines.document_type = 'stock-transfer' and transfers.status not in ('void', 'closed_short')
      union all
      select transfers.business_id, lines.item_id, transfers.to_location_type, transfers.to_location_id, 0, -lines.base_quantity
      from document_lines lines
        inner join stock_receives receives on receives.id = lines.document_id
        inner join stock_transfers transfers on transfers.id = receives.stock_transfer_id
      where lines.document_type = 'stock-receive' and receives.status <> 'void' and transfers.status not in ('void', 'closed_short')
    ) as transit
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
async function baseUnits(db: Db): Promise<Pending[]> {
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
  const lineName = await lineNames(db, rows);
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
 * it: a purchase order's by receive orders, a stock request's or a stock return's by stock
 * transfers, a stock transfer's by stock receives. A stock return's lines name the transfer's
 * lines too, but only to say what went back: they fulfil nothing of them.
 */
async function fulfilled(db: Db): Promise<Pending[]> {
  const fulfilling = (type: string, table: string) => sql`
    select lines.source_line_id, lines.quantity
    from document_lines lines inner join ${sql.table(table)} documents on documents.id = lines.document_id
    where lines.document_type = ${type} and documents.status <> 'void' and lines.source_line_id is not null`;
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
        from (
          ${fulfilling('receive-order', 'receive_orders')}
          union all ${fulfilling('stock-transfer', 'stock_transfers')}
          union all ${fulfilling('stock-receive', 'stock_receives')}
        ) as fulfilling
        group by source_line_id
      ) as fulfilled on fulfilled.source_line_id = sources.id
    where sources.document_type in ('purchase-order', 'stock-request', 'stock-return', 'stock-transfer')
      and (sources.quantity_done <> coalesce(fulfilled.done, 0) or sources.quantity_done > sources.quantity or sources.quantity_done < 0)
    order by sources.document_type, sources.document_id, sources.position`.execute(db);
  const lineName = await lineNames(db, rows);
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
async function lineNames(db: Db, rows: readonly LineRow[]): Promise<(row: LineRow) => string> {
  const numbers = await documentNumbers(
    db,
    rows.map((row) => ({ type: row.document_type, id: Number(row.document_id) })),
  );
  return (row) => {
    const document = documentName(row.document_type, numbers.get(`${row.document_type}:${Number(row.document_id)}`));
    return `${document} (business ${Number(row.business_id)}) line ${Number(row.position) + 1}`;
  };
}

/** The numbers of documents, by `type:id`, one query per kind of document. */
async function documentNumbers(db: Db, documents: { type: string; id: number }[]): Promise<Map<string, string>> {
  const numbers = new Map<string, string>();
  for (const type of new Set(documents.map((document) => document.type))) {
    const definition = singular.get(type);
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

/** Bills and invoices, and what settles them: payments (`amount_paid`) and memoranda (`amount_adjusted`). */
const SETTLED = [
  { type: 'invoice', table: 'invoices', field: 'invoice_id', payments: 'invoice_payments', memoranda: 'credit_memoranda' },
  { type: 'bill', table: 'bills', field: 'bill_id', payments: 'bill_payments', memoranda: 'debit_memoranda' },
] as const;

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
 * Each bill's and invoice's paid and adjusted amounts against its unvoided payments and
 * memoranda; its balance against total less both (nothing, once void); its status against those
 * figures; and none of them below zero.
 */
async function settlement(db: Db): Promise<Pending[]> {
  const findings: Pending[] = [];
  for (const kind of SETTLED) {
    const settling = (table: string) => sql`
      select ${sql.ref(kind.field)} as id, sum(amount) as amount from ${sql.table(table)} where status <> 'void' group by ${sql.ref(kind.field)}`;
    const { rows } = await sql<SettlementRow>`
      select * from (
        select documents.business_id, documents.number, documents.status, documents.total, documents.amount_paid,
          documents.amount_adjusted, documents.balance,
          coalesce(payments.amount, 0) as paid, coalesce(memoranda.amount, 0) as adjusted,
          case when documents.status = 'void' then 0 else documents.total - documents.amount_paid - documents.amount_adjusted end as owed,
          case when documents.status = 'void' then 'void' else ${settledStatus('documents')} end as settled_status
        from ${sql.table(kind.table)} documents
          left join (${settling(kind.payments)}) as payments on payments.id = documents.id
          left join (${settling(kind.memoranda)}) as memoranda on memoranda.id = documents.id
      ) as settled
      where amount_paid <> paid or amount_adjusted <> adjusted or balance <> owed or status <> settled_status
        or balance < 0 or amount_paid < 0 or amount_adjusted < 0 or (status = 'void' and amount_paid + amount_adjusted <> 0)
      order by business_id, number`.execute(db);
    for (const row of rows) {
      const name = `${documentName(kind.type, row.number)} (business ${Number(row.business_id)})`;
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
async function tendered(db: Db): Promise<Pending[]> {
  const findings: Pending[] = [];
  for (const definition of registry.filter((resource) => paidInTenders(resource))) {
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
      const name = `${documentName(type, row.number)} (business ${Number(row.business_id)})`;
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

/** The kept active and trashed totals of each business and resource against its rows. */
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

const CHECKS: readonly ((db: Db) => Promise<Pending[]>)[] = [
  movements,
  balances,
  inTransit,
  baseUnits,
  openings,
  fulfilled,
  settlement,
  tendered,
  counts,
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

/** How much an audit goes through, for saying what a sound database was checked for. */
export async function auditedRecords(db: Db): Promise<AuditedRecords> {
  const rows = async (table: string) =>
    (
      await untyped(db)
        .selectFrom(table)
        .select(sql<number>`count(*)`.as('count'))
        .executeTakeFirstOrThrow()
    ).count;
  let documents = 0;
  for (const definition of singular.values()) documents += await rows(definition.table);
  return {
    documents,
    lines: await rows('document_lines'),
    movements: await rows('stock_movements'),
    balances: await rows('stocks'),
    counts: await rows('resource_counts'),
  };
}
