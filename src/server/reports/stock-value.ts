import { sql, type QueryResult, type RawBuilder } from 'kysely';
import type { LocationType } from '../../domain/documents';
import { listMeta } from '../../domain/list-params';
import type { PlaceType } from '../../domain/places';
import type { InventoryList, StockValuePlace, StockValueReport, StockValueRow } from '../../domain/reports';
import { stocks } from '../../domain/resources/stocks';
import type { Db, Scope } from '../db/scope';
import { isPostgres } from '../db/dialect';
import { costOn, itemCosts } from '../documents/item-costs';
import { pesos, quantity, viewedPlaces } from '../overview/live-documents';
import { locationNames } from '../overview/stock-value';
import { csvRow, inert } from '../resources/csv-export';
import { reportBusiness } from '../overview/report-business';
import { giveWay } from '../yielding';

/**
 * Stock value on a date (docs/costing.md): what each place held of each item at the end of the
 * day, at the item's moving-average cost that day. On the last day of a year it is the annual
 * inventory list the BIR asks for, as CSV and as a PDF to print.
 *
 * What a stock held on a day is what it holds now less what moved after that day, so a recent day
 * reads few movements (stock_movements_date_index); each item's cost is one index seek on
 * cost_entries (`itemCosts`). Only what was on hand counts (more than nothing): as the overview's
 * stock value card counts it, to the centavo, row by row.
 *
 * A business's list runs to 150,000 rows, so no answer holds them all. The report totals the
 * places in the database and reads only its page's rows; the CSV and the PDF read the rows in
 * order a run at a time, within one read-only transaction (one moment's figures). PostgreSQL
 * sums the later movements once and joins the costs (hash joins) in one statement, sorted there
 * (the CSV's through a cursor). SQLite, which the app never ANALYZEs and which answers on the one
 * event loop, reads each stock's later movements and its item's cost by index, in statements of
 * ITEMS_PER_STATEMENT items' stocks each, giving other requests their turns between them.
 */

export interface StockValueQuery {
  date: string;
  /** One branch or warehouse, or (none) every place the user views. */
  place?: { type: PlaceType; id: number };
}

/** A place with goods that day, as the report names it. */
interface Place {
  location_type: LocationType;
  location_id: number;
  name: string;
}

/** A row of the report as the database gives it: quantity in thousandths, cost in centavos per thousand, value in centavos. */
interface StockRow {
  item_id: number;
  location_type: LocationType;
  location_id: number;
  sku: string;
  item: string;
  description: string | null;
  unit: string | null;
  quantity: number | string;
  cost: number | string | null;
  value: number | string | null;
}

/** A place's count of items, their worth in centavos, and how many were never costed. */
interface PlaceSums {
  location_type: LocationType;
  location_id: number;
  items: number | string;
  value: number | string | null;
  uncosted: number | string;
}

/**
 * Rows of one place in the list's order, each made into what the reader wants (a row of the
 * report, a line of CSV), with what they are worth in centavos: a place's rows come in one or more
 * runs, one after the other.
 */
interface Run<T> {
  place: Place;
  rows: T[];
  centavos: number;
}

/** Makes a row of the database into what the reader of the runs wants. */
type Make<T> = (row: StockRow, at: Place) => T;

/** How many items' stocks a SQLite statement reads: some milliseconds' work between turns given to other requests. */
const ITEMS_PER_STATEMENT = 2_000;
/** How many rows a run (and a piece of the CSV) holds. */
const ROWS_PER_RUN = 1_000;
/** How many rows PostgreSQL's cursor hands over at a time. */
const ROWS_PER_FETCH = 5_000;

/**
 * PostgreSQL for the report's transaction only: memory enough to hash and sort 150,000 rows
 * without spilling them to disk (the default 4 MB is a tenth of it), and no JIT compiling, which
 * costs more than it saves on statements of a second or less.
 */
async function postgresSettings(trx: Db): Promise<void> {
  await sql`set local work_mem = '64MB'`.execute(trx);
  await sql`set local jit = off`.execute(trx);
}

/** The places in the report's order: by name, then kind and id (one without a name, first). */
const byName = (a: Place, b: Place) =>
  a.name.localeCompare(b.name) || a.location_type.localeCompare(b.location_type) || a.location_id - b.location_id;

/** The business's places: each named as the report names it (`named`), and all of them in its order (`order`). */
async function businessPlaces(db: Db, businessId: number) {
  const names = await locationNames(db, businessId);
  const named = (type: LocationType, id: number | string): Place => ({
    location_type: type,
    location_id: Number(id),
    name: names.get(`${type}:${String(id)}`) ?? '',
  });
  const order = [...names.keys()]
    .map((key) => {
      const [type, id] = key.split(':');
      return named(type as LocationType, id);
    })
    .sort(byName);
  return { named, order };
}

/** The stocks counted: the business's, not trashed, at the places the scope views (and at the one place asked). */
function stocksWhere(scope: Scope, { place }: StockValueQuery): RawBuilder<unknown> {
  const viewed = viewedPlaces(stocks.places!, 'stocks', scope);
  return sql`stocks.business_id = ${scope.businessId} and stocks.deleted_at is null${viewed ? sql` and ${viewed}` : sql``}${
    place ? sql` and stocks.location_type = ${place.type} and stocks.location_id = ${place.id}` : sql``
  }`;
}

const unitName = sql`coalesce(nullif(units.abbreviation, ''), units.name)`;

function rowOf(row: StockRow, at: Place): StockValueRow {
  return {
    item_id: Number(row.item_id),
    sku: row.sku,
    item: row.item,
    description: row.description,
    location_type: at.location_type,
    location_id: at.location_id,
    location: at.name,
    quantity: quantity(row.quantity),
    unit: row.unit ?? '',
    unit_cost: row.cost === null ? null : Math.round(Number(row.cost) * 100) / 10_000,
    value: pesos(row.value),
  };
}

/** Rows of one place, cut into runs. */
function* runsOf<T>(at: Place, rows: readonly StockRow[], make: Make<T>): Generator<Run<T>> {
  for (let start = 0; start < rows.length; start += ROWS_PER_RUN) {
    const run = rows.slice(start, start + ROWS_PER_RUN);
    yield { place: at, rows: run.map((row) => make(row, at)), centavos: run.reduce((sum, row) => sum + Number(row.value ?? 0), 0) };
  }
}

/** Places with goods from their sums, by name; with how many rows were never costed. */
function placesOf(sums: readonly PlaceSums[], named: (type: LocationType, id: number | string) => Place) {
  const places = sums
    .map((at) => ({ ...named(at.location_type, at.location_id), items: Number(at.items), centavos: Number(at.value ?? 0) }))
    .filter((at) => at.items > 0)
    .sort(byName);
  return { places, uncosted: sums.reduce((count, at) => count + Number(at.uncosted), 0) };
}

// ---- SQLite: stock by stock, by index -------------------------------------------------------

/** What a stock held at the end of `date`: what it holds now less what moved after (stock_movements_date_index). */
const heldOn = (date: string) => sql`stocks.quantity_on_hand - coalesce((select sum(moved.quantity) from stock_movements moved
  where moved.stock_id = stocks.id and moved.document_date > ${date}), 0)`;

/**
 * The business's live items as ranges of ids, ITEMS_PER_STATEMENT to a range: `[after, upTo]`,
 * the first from nothing, the last to no end. `ids`: every live item's id, in any order.
 */
function itemRanges(ids: readonly number[]): { after: number | null; upTo: number | null }[] {
  const sorted = [...ids].sort((a, b) => a - b);
  const ranges: { after: number | null; upTo: number | null }[] = [];
  let after: number | null = null;
  for (let at = ITEMS_PER_STATEMENT - 1; at < sorted.length - 1; at += ITEMS_PER_STATEMENT) {
    ranges.push({ after, upTo: sorted[at] });
    after = sorted[at];
  }
  ranges.push({ after, upTo: null });
  return ranges;
}

const inRange = ({ after, upTo }: { after: number | null; upTo: number | null }) =>
  sql`${after === null ? sql`` : sql` and stocks.item_id > ${after}`}${upTo === null ? sql`` : sql` and stocks.item_id <= ${upTo}`}`;

/** The live items' ids, in the order of their names: the order of a place's rows. */
async function itemsByName(db: Db, businessId: number): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    select id from items where business_id = ${businessId} and deleted_at is null order by name, id`.execute(db);
  return rows.map((row) => Number(row.id));
}

/** Each place's sums, a range of items at a time, other requests given their turns between. */
async function sqlitePlaceSums(db: Db, scope: Scope, query: StockValueQuery): Promise<PlaceSums[]> {
  const { rows: ids } = await sql<{ id: number }>`
    select id from items where business_id = ${scope.businessId} and deleted_at is null`.execute(db);
  const sums = new Map<string, PlaceSums & { items: number; value: number; uncosted: number }>();
  for (const range of itemRanges(ids.map((row) => Number(row.id)))) {
    await giveWay();
    // Materialized: each stock's quantity and cost found once, not again for each use.
    const { rows } = await sql<PlaceSums>`
      with held as materialized (
        select stocks.location_type, stocks.location_id, ${heldOn(query.date)} as held,
          ${costOn(scope.businessId, query.date, sql`stocks.item_id`)} as cost
        from stocks join items on items.id = stocks.item_id and items.deleted_at is null
        where ${stocksWhere(scope, query)}${inRange(range)})
      select location_type, location_id, count(*) as items, sum(round(held * cost / 1000)) as value,
        count(*) - count(cost) as uncosted
      from held where held > 0
      group by location_type, location_id`.execute(db);
    for (const row of rows) {
      const key = `${row.location_type}:${String(row.location_id)}`;
      const at = sums.get(key) ?? {
        location_type: row.location_type,
        location_id: Number(row.location_id),
        items: 0,
        value: 0,
        uncosted: 0,
      };
      at.items += Number(row.items);
      at.value += Number(row.value ?? 0);
      at.uncosted += Number(row.uncosted);
      sums.set(key, at);
    }
  }
  return [...sums.values()];
}

/**
 * Rows `offset` to `offset + limit` of one place, by item name: the place's stocks held that day
 * found and sorted by name (SQLite sorts what it is given), then only the page's quantities and
 * costs read.
 */
async function sqlitePlacePage(db: Db, scope: Scope, query: StockValueQuery, at: Place, offset: number, limit: number) {
  const { businessId } = scope;
  const { rows } = await sql<StockRow>`
    with page as (
      select stocks.id from stocks join items on items.id = stocks.item_id and items.deleted_at is null
      where ${stocksWhere(scope, query)} and stocks.location_type = ${at.location_type} and stocks.location_id = ${at.location_id}
        and ${heldOn(query.date)} > 0
      order by items.name, items.id
      limit ${limit} offset ${offset}),
    held as materialized (
      select stocks.item_id, ${heldOn(query.date)} as held, ${costOn(businessId, query.date, sql`stocks.item_id`)} as cost
      from page join stocks on stocks.id = page.id)
    select held.item_id, items.sku, items.name as item, items.description, ${unitName} as unit, held.held as quantity,
      held.cost, round(held.held * held.cost / 1000) as value
    from held join items on items.id = held.item_id
      left join unit_of_measurements units on units.id = items.unit_of_measurement_id
    order by items.name, items.id`.execute(db);
  return rows;
}

/** The page's rows: from the place it begins in, on through the next ones as long as it runs. */
async function sqlitePage(
  db: Db,
  scope: Scope,
  query: StockValueQuery,
  places: readonly Place[],
  counts: readonly number[],
  page: number,
  perPage: number,
) {
  const data: StockValueRow[] = [];
  let skip = (page - 1) * perPage;
  for (const [index, at] of places.entries()) {
    if (data.length === perPage) break;
    if (skip >= counts[index]) {
      skip -= counts[index];
      continue;
    }
    await giveWay();
    for (const row of await sqlitePlacePage(db, scope, query, at, skip, perPage - data.length)) data.push(rowOf(row, at));
    skip = 0;
  }
  return data;
}

/**
 * Every row, place by place: each place's stocks a range of items at a time, in the order of
 * their ids (as stocks_by_location_index holds them), then in the order of the items' names.
 */
async function* sqliteRuns<T>(db: Db, scope: Scope, query: StockValueQuery, make: Make<T>): AsyncGenerator<Run<T>> {
  const { businessId } = scope;
  const { named } = await businessPlaces(db, businessId);
  const { rows: at } = await sql<{ location_type: LocationType; location_id: number }>`
    select distinct stocks.location_type, stocks.location_id from stocks where ${stocksWhere(scope, query)}`.execute(db);
  const ordered = await itemsByName(db, businessId);
  const rank = new Map(ordered.map((id, index) => [id, index]));
  const ranges = itemRanges(ordered);
  for (const place of at.map((row) => named(row.location_type, row.location_id)).sort(byName)) {
    // Each row made as it comes, kept at its item's place in the order of names.
    const made: (T | undefined)[] = new Array(ordered.length);
    const centavos = new Float64Array(ordered.length);
    for (const range of ranges) {
      await giveWay();
      const { rows } = await sql<StockRow>`
        with held as materialized (
          select stocks.item_id, ${heldOn(query.date)} as held, ${costOn(businessId, query.date, sql`stocks.item_id`)} as cost
          from stocks
          where ${stocksWhere(scope, query)} and stocks.location_type = ${place.location_type}
            and stocks.location_id = ${place.location_id}${inRange(range)})
        select held.item_id, items.sku, items.name as item, items.description, ${unitName} as unit, held.held as quantity,
          held.cost, round(held.held * held.cost / 1000) as value
        from held join items on items.id = held.item_id and items.deleted_at is null
          left join unit_of_measurements units on units.id = items.unit_of_measurement_id
        where held.held > 0`.execute(db);
      for (const row of rows) {
        const at = rank.get(Number(row.item_id))!;
        made[at] = make(row, place);
        centavos[at] = Number(row.value ?? 0);
      }
    }
    let run: Run<T> = { place, rows: [], centavos: 0 };
    for (let at = 0; at < made.length; at += 1) {
      const row = made[at];
      if (row === undefined) continue;
      run.rows.push(row);
      run.centavos += centavos[at];
      if (run.rows.length === ROWS_PER_RUN) {
        yield run;
        run = { place, rows: [], centavos: 0 };
      }
    }
    if (run.rows.length > 0) yield run;
  }
}

// ---- PostgreSQL: in one statement, hash joins ------------------------------------------------

/** Each stock's quantity that day and its item's cost: the later movements summed once and the costs joined. Only live items have costs (`itemCosts`). */
const postgresHeld = (scope: Scope, query: StockValueQuery) => sql`
  with costs as materialized (${itemCosts(scope.businessId, query.date)}),
  later as materialized (
    select stock_id, sum(quantity) as quantity from stock_movements
    where business_id = ${scope.businessId} and document_date > ${query.date}
    group by stock_id)
  select stocks.item_id, stocks.location_type, stocks.location_id,
    stocks.quantity_on_hand - coalesce(later.quantity, 0) as held, costs.cost
  from stocks join costs on costs.item_id = stocks.item_id left join later on later.stock_id = stocks.id
  where ${stocksWhere(scope, query)}`;

/** The places' order as a table to join (`rank`), or null for a business without places. */
function placeRanks(order: readonly Place[]): RawBuilder<unknown> | null {
  if (order.length === 0) return null;
  const rows = order.map((at, rank) => sql`(cast(${at.location_type} as text), cast(${at.location_id} as integer), ${sql.lit(rank)})`);
  return sql`(values ${sql.join(rows)}) as places (location_type, location_id, rank)`;
}

/** Joined as `places` on `held`: the order of its places (a place the business has no name for, first, as `byName` puts it). */
function placeOrder(order: readonly Place[]) {
  const ranks = placeRanks(order);
  return {
    join: ranks ? sql`left join ${ranks} on places.location_type = held.location_type and places.location_id = held.location_id` : sql``,
    rank: ranks ? sql`coalesce(places.rank, -1)` : sql`-1`,
  };
}

interface PostgresAnswer extends StockRow {
  part: 'place' | 'row';
  items: number | string | null;
  uncosted: number | string | null;
}

/** The places' sums and the page's rows in one statement: what each stock held that day is found once. */
async function postgresReport(db: Db, scope: Scope, query: StockValueQuery, order: readonly Place[], page: number, perPage: number) {
  const places = placeOrder(order);
  const { rows } = await sql<PostgresAnswer>`
    with held as materialized (
      select held.*, round(held.held * held.cost / 1000) as value from (${postgresHeld(scope, query)}) held
      where held.held > 0)
    select 'place' as part, cast(null as integer) as rank, location_type, location_id, cast(null as integer) as item_id,
      cast(null as text) as sku, cast(null as text) as item, cast(null as text) as description, cast(null as text) as unit,
      cast(null as numeric) as quantity, cast(null as numeric) as cost, sum(value) as value, count(*) as items,
      count(*) - count(cost) as uncosted
    from held group by location_type, location_id
    union all
    select * from (
      select 'row', ${places.rank}, held.location_type, held.location_id, held.item_id, items.sku, items.name,
        items.description, ${unitName}, held.held, held.cost, held.value, cast(null as bigint), cast(null as bigint)
      from held join items on items.id = held.item_id
        left join unit_of_measurements units on units.id = items.unit_of_measurement_id
        ${places.join}
      order by 2, held.location_type, held.location_id, items.name, items.id
      limit ${perPage} offset ${(page - 1) * perPage}) page
    order by part, rank, location_type, location_id, item, item_id`.execute(db);
  return { sums: rows.filter((row) => row.part === 'place') as PlaceSums[], page: rows.filter((row) => row.part === 'row') };
}

/**
 * Every row in order, through a cursor. PostgreSQL sorts them by one number: the place's rank
 * (the places with stocks, by name) and the item's (the items by name, ranked once); sorted by
 * place and item name instead, 150,000 rows compare their names most of a second.
 */
async function* postgresRuns<T>(db: Db, scope: Scope, query: StockValueQuery, make: Make<T>): AsyncGenerator<Run<T>> {
  const { businessId } = scope;
  const { named } = await businessPlaces(db, businessId);
  const { rows: present } = await sql<{ location_type: LocationType; location_id: number }>`
    select distinct stocks.location_type, stocks.location_id from stocks where ${stocksWhere(scope, query)}`.execute(db);
  const order = present.map((row) => named(row.location_type, row.location_id)).sort(byName);
  const ranks = placeRanks(order);
  if (!ranks) return;
  const places = new Map(order.map((at) => [`${at.location_type}:${at.location_id}`, at]));
  // Each item once: its cost that day and its rank by name; the stocks' later movements summed once.
  await sql`
    declare stock_value no scroll cursor for
    with listed as materialized (
      select items.id, items.sku, items.name, items.description, ${unitName} as unit,
        ${costOn(businessId, query.date, sql`items.id`)} as cost, row_number() over (order by items.name, items.id) as rank
      from items left join unit_of_measurements units on units.id = items.unit_of_measurement_id
      where items.business_id = ${businessId} and items.deleted_at is null),
    later as materialized (
      select stock_id, sum(quantity) as quantity from stock_movements
      where business_id = ${businessId} and document_date > ${query.date}
      group by stock_id),
    held as (
      select stocks.item_id, stocks.location_type, stocks.location_id, stocks.quantity_on_hand - coalesce(later.quantity, 0) as held
      from stocks left join later on later.stock_id = stocks.id
      where ${stocksWhere(scope, query)})
    select held.item_id, held.location_type, held.location_id, listed.sku, listed.name as item, listed.description, listed.unit,
      held.held as quantity, listed.cost, round(held.held * listed.cost / 1000) as value
    from held join listed on listed.id = held.item_id
      join ${ranks} on places.location_type = held.location_type and places.location_id = held.location_id
    where held.held > 0
    order by places.rank * 4294967296 + listed.rank`.execute(db);
  const fetch = (): Promise<QueryResult<StockRow>> => sql<StockRow>`fetch forward ${sql.lit(ROWS_PER_FETCH)} from stock_value`.execute(db);
  let at: Place | undefined;
  let next: Promise<QueryResult<StockRow>> | undefined = fetch();
  while (next) {
    const { rows }: QueryResult<StockRow> = await next;
    // The next rows asked for at once: PostgreSQL reads them while these are written.
    next = rows.length < ROWS_PER_FETCH ? undefined : fetch();
    // Its failure is met when it is awaited; a reader that stops first leaves it to the rollback, which waits for it.
    next?.catch(() => undefined);
    let start = 0;
    for (let index = 0; index <= rows.length; index += 1) {
      const row = rows[index] as StockRow | undefined;
      if (row && at && row.location_type === at.location_type && Number(row.location_id) === at.location_id) continue;
      if (at && index > start) yield* runsOf(at, rows.slice(start, index), make);
      if (row) at = places.get(`${row.location_type}:${String(row.location_id)}`)!;
      start = index;
    }
  }
}

// ---- The report, the list ---------------------------------------------------------------------

/** The total of the places' totals, which are the totals of their rows' rounded values: the list adds up to the centavo. */
const totalOf = (places: readonly { value: number }[]) => pesos(places.reduce((total, at) => total + Math.round(at.value * 100), 0));

/** `GET /api/reports/stock-value`: every place's total, and page `page` of the rows. */
export async function stockValueReport(
  db: Db,
  scope: Scope,
  query: StockValueQuery,
  page: number,
  perPage: number,
): Promise<StockValueReport> {
  // One moment's figures: the sums and the page read in one read-only transaction.
  const { places, uncosted, data } = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const { named, order } = await businessPlaces(trx, scope.businessId);
      if (isPostgres(trx)) {
        await postgresSettings(trx);
        const { sums, page: rows } = await postgresReport(trx, scope, query, order, page, perPage);
        return { ...placesOf(sums, named), data: rows.map((row) => rowOf(row, named(row.location_type, row.location_id))) };
      }
      const { places, uncosted } = placesOf(await sqlitePlaceSums(trx, scope, query), named);
      const counts = places.map((at) => at.items);
      return { places, uncosted, data: await sqlitePage(trx, scope, query, places, counts, page, perPage) };
    });
  const totals: StockValuePlace[] = places.map(({ location_type, location_id, name, items, centavos }) => ({
    location_type,
    location_id,
    name,
    items,
    value: pesos(centavos),
  }));
  const rows = places.reduce((count, at) => count + at.items, 0);
  return {
    date: query.date,
    business: await reportBusiness(db, scope.businessId),
    places: totals,
    total: totalOf(totals),
    uncosted,
    data,
    meta: listMeta(rows, page, perPage, data.length),
  };
}

/**
 * Every row of the report in order, a run at a time, read in one read-only transaction that ends
 * when the last run is read or the reader stops.
 */
async function* stockValueRuns<T>(db: Db, scope: Scope, query: StockValueQuery, make: Make<T>): AsyncGenerator<Run<T>> {
  const snapshot = await db.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute();
  try {
    if (isPostgres(snapshot)) {
      await postgresSettings(snapshot);
      yield* postgresRuns(snapshot, scope, query, make);
    } else yield* sqliteRuns(snapshot, scope, query, make);
  } finally {
    // Nothing was written: ending it either way is the same.
    await snapshot.rollback().execute();
  }
}

/** The inventory list: every row, place by place. */
export async function inventoryList(db: Db, scope: Scope, query: StockValueQuery): Promise<InventoryList> {
  let last: (Place & { items: number; value: number; centavos: number; rows: StockValueRow[] }) | undefined;
  const list: (Place & { items: number; value: number; centavos: number; rows: StockValueRow[] })[] = [];
  for await (const run of stockValueRuns(db, scope, query, rowOf)) {
    if (last?.location_type !== run.place.location_type || last.location_id !== run.place.location_id) {
      last = { ...run.place, items: 0, value: 0, centavos: 0, rows: [] };
      list.push(last);
    }
    last.items += run.rows.length;
    last.centavos += run.centavos;
    last.value = pesos(last.centavos);
    for (const row of run.rows) last.rows.push(row);
  }
  const places = list.map(({ centavos: _centavos, ...at }) => at);
  return { date: query.date, business: await reportBusiness(db, scope.businessId), places, total: totalOf(places) };
}

const quantityText = (value: number) => value.toFixed(3);

const totalLine = (label: string, centavos: number) => csvRow([inert(label), '', '', '', '', '', '', pesos(centavos).toFixed(2)]);

/** A row of the database as a line of the CSV, as its row of the report reads (`rowOf`). */
function csvLine(row: StockRow, at: Place): string {
  return csvRow([
    inert(at.name),
    inert(row.sku),
    inert(row.item),
    inert(row.description ?? ''),
    quantityText(quantity(row.quantity)),
    inert(row.unit ?? ''),
    row.cost === null ? '' : (Math.round(Number(row.cost) * 100) / 10_000).toFixed(4),
    pesos(row.value).toFixed(2),
  ]);
}

/**
 * The inventory list as CSV: a row per item and place (Place, Item code, Item, Description,
 * Quantity, Unit, Unit cost, Total cost), each place's total after its rows, the whole total last.
 * Money and quantities as plain decimals; a unit cost of goods never costed is empty. Written as
 * the rows are read, a run of them to a piece (not in 150,000 small ones).
 */
export async function* inventoryListCsv(db: Db, scope: Scope, query: StockValueQuery): AsyncGenerator<string> {
  yield csvRow(['Place', 'Item code', 'Item', 'Description', 'Quantity', 'Unit', 'Unit cost', 'Total cost']);
  let at: Place | undefined;
  let placeCentavos = 0;
  let total = 0;
  for await (const run of stockValueRuns(db, scope, query, csvLine)) {
    let piece = '';
    if (at !== run.place) {
      if (at) piece += totalLine(`Total, ${at.name}`, placeCentavos);
      at = run.place;
      placeCentavos = 0;
    }
    placeCentavos += run.centavos;
    total += run.centavos;
    yield piece + run.rows.join('');
    await giveWay();
  }
  yield (at ? totalLine(`Total, ${at.name}`, placeCentavos) : '') + csvRow(['Total', '', '', '', '', '', '', pesos(total).toFixed(2)]);
}
