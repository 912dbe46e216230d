import { sql } from 'kysely';
import { attributeName, type Field } from '../../domain/fields';
import { activeSearches } from '../../domain/list-params';
import type { ListParams } from '../../domain/list-params-schema';
import { placeAtEnd } from '../../domain/places';
import { writableFields, type ResourceDefinition } from '../../domain/resource';
import { getResource, registry } from '../../domain/resources/registry';
import { recentlyClosed, workingStatuses } from '../../domain/working-set';
import { recordActivities, recordActivity } from '../activity/activity-log';
import { changedValues, initialValues, secretsChanged } from '../activity/record-changes';
import {
  changeMark,
  containsIgnoringCase,
  fullTextContains,
  fullTextIndex,
  fullTextQuery,
  isPostgres,
  nowIso,
  readAside,
  type TrigramLookup,
} from '../db/dialect';
import { conflict, HttpError, notFound, validationError } from '../errors';
import { REFERENCE_DISPLAY_SUFFIX, searchValueToStorage, storableInteger, serializeRow, toStorage, type ApiRecord } from './codec';
import { nameReferencesBy, referencesByErrors } from './references-by';
import { assertOperates, confinedToPlaces, seesEveryRecord } from './places';
import { adjustCount, readCount, type TrashFilter } from './resource-counts';
import { keepCount, keptCount } from './search-counts';
import type { Query, ResourceStore, Usage } from './store';
import type { Db, Scope, Trx } from '../db/scope';
import { giveWay } from '../yielding';
import { storeFor } from './stores';

/**
 * The generic engine behind every resource: reads scoped to the business, writes validated,
 * counted and versioned. Routes own the transaction and pass it in; so does the seeder.
 */

/**
 * A searched list counts its matches up to here (or as far as the page asked for reaches); beyond,
 * it answers that there are more (`total_exact: false`) rather than read every match to count it.
 */
export const SEARCH_COUNT_LIMIT = 10_000;

/** The alias of the full-text index a searched list walks in id order (SQLite). */
const WALKED_INDEX = 'walked_index';

/**
 * What a permanent delete does beyond the store's own rows (removing the record's attached files),
 * in the same transaction, after the rows are gone. Registered where the app is composed.
 */
export type ForceDeleteHook = (trx: Trx, scope: Scope, definition: ResourceDefinition, id: number) => Promise<void>;

const forceDeleteHooks = new Set<ForceDeleteHook>();

/** Adds a hook every permanent delete runs; adding the same hook again changes nothing. */
export function onForceDelete(hook: ForceDeleteHook): void {
  forceDeleteHooks.add(hook);
}

export interface ListResult {
  records: ApiRecord[];
  /** Every record the list selects, or, when `exact` is false, how many were counted before counting stopped (there are more). */
  total: number;
  exact: boolean;
}

function trashFilter(params: Pick<ListParams, 'with_trashed' | 'only_trashed'>): TrashFilter {
  if (params.only_trashed) return 'trashed';
  return params.with_trashed ? 'all' : 'active';
}

function whereTrashed(store: ResourceStore, query: Query, filter: TrashFilter): Query {
  if (filter === 'active') return query.where(store.column('deleted_at'), 'is', null);
  if (filter === 'trashed') return query.where(store.column('deleted_at'), 'is not', null);
  return query;
}

/**
 * The records of the business the scope may read: the store's, kept to the places the user holds
 * when the resource's records belong to places. Every read of the engine starts here.
 */
function readable(db: Db, scope: Scope, definition: ResourceDefinition, store: ResourceStore): Query {
  return confinedToPlaces(store.query(db, scope), definition, store.column, scope);
}

/** A field searched by part of its text unless the search is strict. */
function isTextual(field: Field): boolean {
  return field.kind === 'text' || field.kind === 'textarea' || field.kind === 'email';
}

function whereSearch(
  db: Db,
  definition: ResourceDefinition,
  store: ResourceStore,
  query: Query,
  name: string,
  value: string,
  strict: boolean,
  lookup: TrigramLookup | undefined,
): Query {
  const column = store.column(name);
  if (name === 'id') {
    const id = storableInteger(value);
    return id === undefined ? query.where(sql.lit(false)) : query.where(column, '=', id);
  }
  const field = definition.fields[name] as Field;
  const stored = searchValueToStorage(field, value);
  if (stored === undefined) return query.where(sql.lit(false));
  if (!isTextual(field) || strict) return query.where(column, '=', stored);
  if (field.fullText) return query.where(fullTextContains(db, definition.table, name, value, lookup));
  return query.where(containsIgnoringCase(db, column, value));
}

/** Joins each reference's display value onto the row: a primary-key lookup per reference. */
function withReferenceDisplays(definition: ResourceDefinition, store: ResourceStore, query: Query): Query {
  let selected = store.select(query);
  for (const [name, field] of Object.entries(definition.fields)) {
    if (field.kind !== 'reference' || !field.references) continue;
    const target = getResource(field.references);
    if (target.display === 'id') continue;
    const alias = `ref_${name}`;
    selected = selected
      .leftJoin(`${target.table} as ${alias}`, `${alias}.id`, store.column(name))
      .select(`${alias}.${target.display} as ${name}${REFERENCE_DISPLAY_SUFFIX}`);
  }
  return selected;
}

async function decorated(db: Db, scope: Scope, definition: ResourceDefinition, store: ResourceStore, rows: Record<string, unknown>[]) {
  const records = rows.map((row) => serializeRow(definition, row));
  if (records.length > 0) await nameReferencesBy(db, scope, definition, records);
  if (store.decorate && records.length > 0) await store.decorate(db, scope, records);
  return records;
}

/** A contains-search through a full-text index: a text field's, not strict, by its field's name. */
function searchesFullText(definition: ResourceDefinition, name: string, strict: boolean): boolean {
  const field = definition.fields[name];
  return !strict && field?.fullText === true && isTextual(field);
}

interface Matching {
  query: Query;
  /** The column the matches come out of a walked full-text index in, in id order (see `matching`). */
  walkedId?: string;
}

/**
 * The records a list's trash filter and searches select, in no order yet. On SQLite a list in id
 * order with a contains-search on a full-text field walks that field's index (`walk`): the index
 * hands over its matches in id order, so a page of the newest stops after its rows instead of
 * reading and sorting every match.
 */
async function matching(
  db: Db,
  scope: Scope,
  definition: ResourceDefinition,
  store: ResourceStore,
  params: ListParams,
  walk = false,
): Promise<Matching> {
  let query = whereTrashed(store, readable(db, scope, definition, store), trashFilter(params));
  let walkedId: string | undefined;
  for (const [name, value] of activeSearches(definition, params)) {
    const fullText = searchesFullText(definition, name, params.is_strict);
    const lookup = fullText ? await fullTextQuery(db, definition.table, name, value) : undefined;
    if (walk && walkedId === undefined && lookup && 'match' in lookup && params.order_by_field_name === 'id') {
      const index = fullTextIndex(definition.table, name);
      query = query
        .innerJoin(sql.table(index).as(WALKED_INDEX), `${WALKED_INDEX}.rowid`, store.column('id'))
        .where(sql<boolean>`${sql.ref(`${WALKED_INDEX}.${index}`)} match ${lookup.match}`)
        .where(containsIgnoringCase(db, store.column(name), value));
      walkedId = `${WALKED_INDEX}.rowid`;
    } else query = whereSearch(db, definition, store, query, name, value, params.is_strict, lookup);
  }
  const anyPart = typeof params.q === 'string' ? params.q.trim() : '';
  if (definition.pickerFields && anyPart !== '') {
    // A picker's search: any of its fields holds what was typed, by any part.
    const matches = await Promise.all(
      definition.pickerFields.map(async (name) =>
        definition.fields[name]?.fullText
          ? fullTextContains(db, definition.table, name, anyPart, await fullTextQuery(db, definition.table, name, anyPart))
          : containsIgnoringCase(db, store.column(name), anyPart),
      ),
    );
    query = query.where(sql<boolean>`(${sql.join(matches, sql` or `)})`);
  }
  return { query, walkedId };
}

/** The list's order: its sort field, then id, both in its direction (a walked index's order is the id's). */
function inListOrder(store: ResourceStore, params: ListParams, walkedId?: string) {
  return (query: Query) =>
    walkedId
      ? query.orderBy(walkedId, params.order_by)
      : query.orderBy(store.column(params.order_by_field_name), params.order_by).orderBy(store.column('id'), params.order_by);
}

/**
 * The full records behind `ids`, with their references, in the order of `ids`. Sorted here, not
 * in SQL: asked to order by the list's sort field, SQLite walks that field's whole index looking
 * for the ids rather than picking them out by primary key.
 */
async function recordsWithIds(db: Db, scope: Scope, definition: ResourceDefinition, store: ResourceStore, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await withReferenceDisplays(
    definition,
    store,
    readable(db, scope, definition, store).where(store.column('id'), 'in', ids),
  ).execute();
  const position = new Map(ids.map((id, index) => [id, index]));
  rows.sort((a, b) => (position.get(Number(a.id)) ?? 0) - (position.get(Number(b.id)) ?? 0));
  return decorated(db, scope, definition, store, rows);
}

/**
 * A page of a list and its total. `markBefore`: the database's change mark (`changeMark`) as the
 * caller read it just before, so it is not read twice (a round trip on PostgreSQL); read here when not given.
 */
export async function listRecords(
  db: Db,
  scope: Scope,
  definition: ResourceDefinition,
  params: ListParams,
  markBefore?: string,
): Promise<ListResult> {
  const store = storeFor(definition);
  const filter = trashFilter(params);
  const searched = activeSearches(definition, params).length > 0 || (typeof params.q === 'string' && params.q.trim() !== '');
  const { query, walkedId } = await matching(db, scope, definition, store, params, true);

  const perPage = params.limit ?? params.per_page;
  const page = params.limit ? 1 : params.page;
  const order = inListOrder(store, params, walkedId);

  if (!searched && store.countsMaintained && seesEveryRecord(definition, scope)) {
    const rows = await order(withReferenceDisplays(definition, store, query))
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    return {
      records: await decorated(db, scope, definition, store, rows),
      total: await readCount(db, scope.businessId, definition.name, filter),
      exact: true,
    };
  }

  // A searched list (or one kept to the user's places, which the kept totals do not count) reads
  // its matching ids once, in the list's order, for both its page and its count: up to
  // SEARCH_COUNT_LIMIT, or to just past the page asked for, whichever is further (one more tells
  // "more than"); then its page's rows with their references. A count kept from an earlier read
  // while the database has not changed (search-counts.ts) leaves only the page to read.
  const countTo = Math.max(SEARCH_COUNT_LIMIT, page * perPage);
  const countKey = JSON.stringify([definition.name, scope.businessId, scope.userId, countedParams(params)]);
  const mark = markBefore ?? (await changeMark(db));
  const known = mark === undefined ? undefined : keptCount(db, countKey, mark, countTo);
  const matchingIds = order(query.select(`${store.column('id')} as matched_id`))
    .limit(known ? perPage : countTo + 1)
    .offset(known ? (page - 1) * perPage : 0);
  // A search may read a million names: off the event loop. A list kept to the user's places reads an index.
  const matched = await (searched ? readAside(matchingIds) : matchingIds).execute();
  const onPage = known ? matched : matched.slice((page - 1) * perPage, page * perPage);
  const records = await recordsWithIds(
    db,
    scope,
    definition,
    store,
    onPage.map((row) => Number(row.matched_id)),
  );
  const counted = known ?? { mark: mark ?? '', countTo, matched: matched.length };
  if (mark !== undefined && !known) keepCount(db, countKey, counted);
  return counted.matched > counted.countTo
    ? { records, total: counted.countTo, exact: false }
    : { records, total: counted.matched, exact: true };
}

/** What decides which records a list matches: its parameters but the page and the order. */
function countedParams(params: ListParams): Partial<ListParams> {
  const { page: _page, per_page: _perPage, limit: _limit, order_by: _order, order_by_field_name: _field, ...matching } = params;
  return matching;
}

/**
 * Every record a list selects, in the list's order, a batch at a time: each batch continues
 * after the last row of the one before, so the walk never re-reads what it passed and holds one
 * batch in memory. Rows with a sort value are walked by the row value (value, id), which both
 * databases answer from the sort field's index; rows without one are walked by id, before or
 * after the others as each database sorts NULLs (first ascending on SQLite, last on PostgreSQL).
 */
export async function* allRecordsInListOrder(
  db: Db,
  scope: Scope,
  definition: ResourceDefinition,
  params: ListParams,
  batchSize = 500,
): AsyncGenerator<ApiRecord[]> {
  const store = storeFor(definition);
  const sortColumn = store.column(params.order_by_field_name);
  const idColumn = store.column('id');
  const forward = sql.raw(params.order_by === 'asc' ? '>' : '<');
  const nullsFirst = (params.order_by === 'asc') === !isPostgres(db);
  const { query: selected } = await matching(db, scope, definition, store, params);
  const walks =
    params.order_by_field_name === 'id'
      ? (['values'] as const)
      : nullsFirst
        ? (['nulls', 'values'] as const)
        : (['values', 'nulls'] as const);
  for (const walk of walks) {
    let last: { value: unknown; id: number } | undefined;
    for (;;) {
      let query = selected.where(sortColumn, walk === 'nulls' ? 'is' : 'is not', null);
      if (last && walk === 'nulls') query = query.where(sql<boolean>`${sql.ref(idColumn)} ${forward} ${last.id}`);
      if (last && walk === 'values') {
        query = query.where(sql<boolean>`(${sql.ref(sortColumn)}, ${sql.ref(idColumn)}) ${forward} (${last.value}, ${last.id})`);
      }
      const keyed = query.select([`${idColumn} as key_id`, `${sortColumn} as key_value`]);
      const keys = await inListOrder(store, params)(keyed).limit(batchSize).execute();
      const ids = keys.map((row) => Number(row.key_id));
      if (ids.length > 0) yield await recordsWithIds(db, scope, definition, store, ids);
      if (keys.length < batchSize) break;
      const final = keys[keys.length - 1];
      last = { value: final.key_value, id: Number(final.key_id) };
    }
  }
}

/**
 * A device's working set of one resource (`domain/working-set.ts`), as the list would answer it:
 * the records the scope reads, not in the trash and, of documents, the open ones (and an invoice
 * paid in the last days, which goods may come back from). `after`: a
 * page of `limit` in id order after that id, for a first download; `ids`: those of these ids
 * that still belong to it, for a delta (an id left out has left the device's working set).
 */
export async function workingSetRecords(
  db: Db,
  scope: Scope,
  definition: ResourceDefinition,
  pick: { after: number; limit: number } | { ids: number[] },
): Promise<ApiRecord[]> {
  const store = storeFor(definition);
  let query = inWorkingSet(definition, store, readable(db, scope, definition, store));
  if ('ids' in pick) {
    if (pick.ids.length === 0) return [];
    query = query.where(store.column('id'), 'in', pick.ids);
  } else query = query.where(store.column('id'), '>', pick.after).orderBy(store.column('id')).limit(pick.limit);
  const rows = await withReferenceDisplays(definition, store, query).execute();
  return decorated(db, scope, definition, store, rows);
}

/** How many records of a resource a device's working set holds for the scope: the first download's progress counts to it. */
export async function workingSetCount(db: Db, scope: Scope, definition: ResourceDefinition): Promise<number> {
  const store = storeFor(definition);
  const { counted } = await inWorkingSet(definition, store, readable(db, scope, definition, store))
    .select(sql<number>`count(*)`.as('counted'))
    .executeTakeFirstOrThrow();
  return Number(counted);
}

function inWorkingSet(definition: ResourceDefinition, store: ResourceStore, query: Query): Query {
  const statuses = workingStatuses(definition);
  const live = query.where(store.column('deleted_at'), 'is', null);
  if (statuses === undefined) return live;
  const recent = recentlyClosed(definition);
  if (!recent) return live.where(store.column('status'), 'in', statuses);
  return live.where((eb) =>
    eb.or([
      eb(store.column('status'), 'in', statuses),
      eb.and([eb(store.column('status'), 'in', recent.statuses), eb(store.column('date'), '>=', recent.since)]),
    ]),
  );
}

export async function findRecord(
  db: Db,
  scope: Scope,
  definition: ResourceDefinition,
  id: number,
  filter: TrashFilter = 'all',
): Promise<ApiRecord | undefined> {
  return find(db, scope, definition, storeFor(definition), id, filter);
}

export async function findRecordOrFail(db: Db, scope: Scope, definition: ResourceDefinition, id: number, filter?: TrashFilter) {
  return findOrFail(db, scope, definition, storeFor(definition), id, filter);
}

/**
 * The record as it is now, its row locked until the transaction ends: every change (update,
 * trash, restore, permanent delete, void, cancel) decides on what this returns, so of several
 * racing for one record each decides on what the one before it left, and a change that no
 * longer applies is refused rather than applied twice.
 */
export async function lockedRecord(trx: Trx, scope: Scope, definition: ResourceDefinition, id: number): Promise<ApiRecord> {
  return locked(trx, scope, definition, storeFor(definition), id);
}

async function find(db: Db, scope: Scope, definition: ResourceDefinition, store: ResourceStore, id: number, filter: TrashFilter) {
  const query = whereTrashed(store, readable(db, scope, definition, store), filter).where(store.column('id'), '=', id);
  const row = await withReferenceDisplays(definition, store, query).executeTakeFirst();
  if (!row) return undefined;
  const [record] = await decorated(db, scope, definition, store, [row]);
  return record;
}

async function findOrFail(
  db: Db,
  scope: Scope,
  definition: ResourceDefinition,
  store: ResourceStore,
  id: number,
  filter: TrashFilter = 'all',
) {
  const record = await find(db, scope, definition, store, id, filter);
  if (!record) throw notFound(attributeName(definition.singular));
  return record;
}

/**
 * The record, locked, for a change: one the user cannot see is not found; one at a place where
 * they only view is refused (403).
 */
async function locked(trx: Trx, scope: Scope, definition: ResourceDefinition, store: ResourceStore, id: number): Promise<ApiRecord> {
  await store.lock(trx, scope, id);
  const record = await findOrFail(trx, scope, definition, store, id);
  await assertOperates(trx, scope, definition, record);
  return record;
}

/**
 * Refuses a record as written by someone who does not operate at its place: read as stored, so a
 * place the server fills in (a payment's, from its bill) or an update's new place is what counts.
 */
async function assertWrittenWhereOperating(trx: Trx, scope: Scope, definition: ResourceDefinition, store: ResourceStore, id: number) {
  if (!definition.places) return;
  const row = await store.select(store.query(trx, scope).where(store.column('id'), '=', id)).executeTakeFirst();
  if (row) await assertOperates(trx, scope, definition, serializeRow(definition, row));
}

/**
 * A record a change of something that belongs to it (its lines, entries, files) starts from: not
 * found when the user cannot see it, refused (403) where they only view.
 */
export async function changeableRecord(trx: Trx, scope: Scope, definition: ResourceDefinition, id: number): Promise<ApiRecord> {
  const record = await findRecordOrFail(trx, scope, definition, id);
  await assertOperates(trx, scope, definition, record);
  return record;
}

/**
 * What the checks of a batch of new records (`createRecords`) look up for all of them at once, by
 * field: the referenced ids that are live records the scope reads, and the unique values taken.
 */
interface Lookups {
  found: Map<string, Set<unknown>>;
  taken: Map<string, Set<unknown>>;
}

/**
 * Field messages for references that are not live records of this business, and duplicates.
 * `current`: the record an update changes; `lookups`: a batch's answers, asked once for all.
 */
async function checkValues(
  db: Db,
  scope: Scope,
  definition: ResourceDefinition,
  store: ResourceStore,
  values: Record<string, unknown>,
  current?: ApiRecord,
  lookups?: Lookups,
) {
  const exceptId = current?.id;
  const errors: Record<string, string[]> = await referencesByErrors(db, scope, definition, values, current);
  for (const [name, value] of Object.entries(values)) {
    const field = definition.fields[name];
    if (!field || value === null || value === undefined) continue;
    if (field.kind === 'reference' && field.references) {
      const found = lookups
        ? lookups.found.get(name)!.has(value)
        : (await findRecord(db, scope, getResource(field.references), value as number, 'active')) !== undefined;
      if (!found) errors[name] = [`The selected ${attributeName(field.label)} is invalid.`];
    }
    const stored = field.unique ? toStorage(field, value) : undefined;
    const taken = lookups
      ? lookups.taken.get(name)?.has(stored)
      : field.unique && (await store.findDuplicate(db, scope, name, stored, exceptId)) !== undefined;
    if (taken) errors[name] = [`The ${attributeName(field.label)} has already been taken.`];
  }
  const ruleErrors = store.validate ? await store.validate(db, scope, values, exceptId) : {};
  Object.assign(errors, ruleErrors);
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

function toColumns(definition: ResourceDefinition, values: Record<string, unknown>): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const field = definition.fields[name];
    if (field && value !== undefined) columns[name] = toStorage(field, value);
  }
  return columns;
}

/** A new record's row: every writable field (null when not given), its author, its timestamps and version 1. */
function newRow(definition: ResourceDefinition, scope: Scope, values: Record<string, unknown>, now: string): Record<string, unknown> {
  const complete = Object.fromEntries(writableFields(definition).map(([name]) => [name, values[name] ?? null]));
  const authored = Object.entries(definition.fields).flatMap(([name, field]) => (field.author ? [[name, scope.userId || null]] : []));
  return { ...toColumns(definition, complete), ...Object.fromEntries(authored), created_at: now, updated_at: now, version: 1 };
}

export async function createRecord(
  trx: Trx,
  scope: Scope,
  definition: ResourceDefinition,
  values: Record<string, unknown>,
): Promise<ApiRecord> {
  const store = storeFor(definition);
  // A place named that the user does not operate at is refused before anything else is said about
  // the record; one the server fills in (a receive's, from its transfer) is checked once written.
  const rule = definition.places;
  if (rule && placeAtEnd(rule.ends[rule.operates], values)) await assertOperates(trx, scope, definition, values);
  await checkValues(trx, scope, definition, store, values);
  const id = await store.insert(trx, scope, newRow(definition, scope, values, nowIso()), values);
  await assertWrittenWhereOperating(trx, scope, definition, store, id);
  if (store.countsMaintained) await adjustCount(trx, scope.businessId, definition.name, 1, 0);
  const created = await findOrFail(trx, scope, definition, store, id);
  await recordActivity(trx, scope, {
    resource: definition.name,
    recordId: id,
    action: 'created',
    changes: initialValues(definition, created),
  });
  if (!store.afterCreate) return created;
  await store.afterCreate(trx, scope, created, values, (other, otherValues) => createRecord(trx, scope, other, otherValues));
  return findOrFail(trx, scope, definition, store, id);
}

/**
 * Records refused by `createRecords`, each by its place among the values given, with what
 * `createRecord` would have thrown for it. The caller rolls the whole batch back.
 */
export class RefusedRecords extends Error {
  constructor(readonly refusals: readonly { index: number; error: HttpError }[]) {
    super(`${refusals.length} of the records were refused.`);
  }
}

/** How many records `createRecords` checks, writes and reads back at a time. */
const BATCH_SIZE = 500;

/** The lookups of a batch of new records: each reference's live ids the scope reads, each unique field's values taken. */
async function lookupsOf(
  db: Db,
  scope: Scope,
  definition: ResourceDefinition,
  store: ResourceStore,
  batch: readonly Record<string, unknown>[],
): Promise<Lookups> {
  const lookups: Lookups = { found: new Map(), taken: new Map() };
  const given = (name: string) => [
    ...new Set(batch.map((values) => values[name]).filter((value) => value !== null && value !== undefined)),
  ];
  for (const [name, field] of Object.entries(definition.fields)) {
    if (field.kind === 'reference' && field.references) {
      const ids = given(name);
      const target = getResource(field.references);
      const targetStore = storeFor(target);
      const rows =
        ids.length === 0
          ? []
          : await whereTrashed(targetStore, readable(db, scope, target, targetStore), 'active')
              .where(targetStore.column('id'), 'in', ids)
              .select(`${targetStore.column('id')} as found_id`)
              .execute();
      lookups.found.set(name, new Set(rows.map((row) => Number(row.found_id))));
    }
    if (field.unique) {
      const stored = given(name).map((value) => toStorage(field, value));
      let taken = new Set<unknown>();
      if (store.findDuplicates) taken = await store.findDuplicates(db, scope, name, stored);
      else for (const value of stored) if ((await store.findDuplicate(db, scope, name, value)) !== undefined) taken.add(value);
      lookups.taken.set(name, taken);
    }
  }
  return lookups;
}

/**
 * Creates many records of one resource (an import's) as `createRecord` creates each: the same
 * checks and refusals, the same row, count, history entry and `afterCreate`. A store that inserts
 * many at once (`insertMany`) gets them by hundreds: each batch's references and unique values
 * looked up in one query a field, its records checked one after another (a value taken by one
 * is taken for the next), then written, counted, read back and entered in the history together.
 * Any other store gets them one by one through `createRecord`. Every record is checked even after
 * one is refused (by hundreds, none is written after a refusal); the refusals are thrown together
 * at the end (`RefusedRecords`), for the caller to roll back. Answers the new ids, in the order given.
 */
export async function createRecords(
  trx: Trx,
  scope: Scope,
  definition: ResourceDefinition,
  all: readonly Record<string, unknown>[],
): Promise<number[]> {
  const store = storeFor(definition);
  const ids: number[] = [];
  const refusals: { index: number; error: HttpError }[] = [];
  const refuse = (index: number, error: unknown) => {
    if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
    refusals.push({ index, error });
  };
  for (let start = 0; start < all.length; start += BATCH_SIZE) {
    await giveWay();
    const batch = all.slice(start, start + BATCH_SIZE);
    if (!store.insertMany) {
      for (const [offset, values] of batch.entries()) {
        try {
          ids.push(Number((await createRecord(trx, scope, definition, values)).id));
        } catch (error) {
          refuse(start + offset, error);
        }
      }
      continue;
    }
    const lookups = await lookupsOf(trx, scope, definition, store, batch);
    const now = nowIso();
    const rows: Record<string, unknown>[] = [];
    for (const [offset, values] of batch.entries()) {
      const row = newRow(definition, scope, values, now);
      try {
        // The row as written names its place: a store that inserts many fills none in.
        if (definition.places) await assertOperates(trx, scope, definition, serializeRow(definition, row));
        await checkValues(trx, scope, definition, store, values, undefined, lookups);
      } catch (error) {
        refuse(start + offset, error);
        continue;
      }
      for (const [name, taken] of lookups.taken) if (values[name] !== null && values[name] !== undefined) taken.add(row[name]);
      rows.push(row);
    }
    if (refusals.length > 0) continue;
    // Heavy work gives way between its steps, each a few milliseconds for a batch.
    await giveWay();
    const created = await store.insertMany(trx, scope, rows);
    if (store.countsMaintained) await adjustCount(trx, scope.businessId, definition.name, created.length, 0);
    await giveWay();
    const records = await recordsWithIds(trx, scope, definition, store, created);
    if (records.length !== created.length) throw notFound(attributeName(definition.singular));
    await recordActivities(
      trx,
      scope,
      records.map((record) => ({
        resource: definition.name,
        recordId: record.id,
        action: 'created',
        changes: initialValues(definition, record),
      })),
    );
    if (store.afterCreate) {
      for (const [offset, record] of records.entries()) {
        await store.afterCreate(trx, scope, record, batch[offset], (other, otherValues) => createRecord(trx, scope, other, otherValues));
      }
    }
    ids.push(...created);
  }
  if (refusals.length > 0) throw new RefusedRecords(refusals);
  return ids;
}

/**
 * Whether an update would change the record: a field given a value other than the one it holds,
 * a secret (never read back, so always a change), or anything beyond the fields (a document's
 * lines). An update that changes nothing keeps the version and writes no history.
 */
function changesAnything(definition: ResourceDefinition, current: ApiRecord, values: Record<string, unknown>): boolean {
  return Object.entries(values).some(([name, value]) => {
    if (value === undefined) return false;
    const field = definition.fields[name];
    if (!field || field.writeOnly) return true;
    return JSON.stringify(value) !== JSON.stringify(current[name] ?? null);
  });
}

/**
 * Refuses a change based on another version of the record than it has (If-Match), with 412. The
 * record is locked first (`locked`): no other change can come between the check and the write.
 */
function assertVersion(definition: ResourceDefinition, current: ApiRecord, expectedVersion: number | undefined): void {
  if (expectedVersion === undefined || expectedVersion === current.version) return;
  throw new HttpError(
    412,
    `This ${attributeName(definition.singular)} was changed by someone else (now version ${current.version}); reload it and try again.`,
  );
}

export async function updateRecord(
  trx: Trx,
  scope: Scope,
  definition: ResourceDefinition,
  id: number,
  values: Record<string, unknown>,
  expectedVersion?: number,
): Promise<ApiRecord> {
  const store = storeFor(definition);
  const current = await locked(trx, scope, definition, store, id);
  if (current.deleted_at) throw conflict(`This ${attributeName(definition.singular)} is in the trash; restore it before editing.`);
  assertVersion(definition, current, expectedVersion);
  // Checked even when nothing would change: whether the caller may change the record at all is among them.
  await checkValues(trx, scope, definition, store, values, current);
  if (!changesAnything(definition, current, values)) return current;
  const columns = toColumns(definition, values);
  await store.update(trx, scope, id, { ...columns, updated_at: nowIso() }, values);
  await assertWrittenWhereOperating(trx, scope, definition, store, id);
  const updated = await findOrFail(trx, scope, definition, store, id);
  await recordActivity(trx, scope, {
    resource: definition.name,
    recordId: id,
    action: 'updated',
    changes: changedValues(definition, current, updated),
    summary: secretsChanged(definition, values),
  });
  return updated;
}

export async function trashRecord(
  trx: Trx,
  scope: Scope,
  definition: ResourceDefinition,
  id: number,
  expectedVersion?: number,
): Promise<ApiRecord> {
  const store = storeFor(definition);
  const current = await locked(trx, scope, definition, store, id);
  if (current.deleted_at) throw conflict(`This ${attributeName(definition.singular)} is already in the trash.`);
  assertVersion(definition, current, expectedVersion);
  if (store.beforeTrash) await store.beforeTrash(trx, scope, id);
  await store.setTrashed(trx, scope, id, nowIso());
  if (store.countsMaintained) await adjustCount(trx, scope.businessId, definition.name, -1, 1);
  await recordActivity(trx, scope, { resource: definition.name, recordId: id, action: 'deleted' });
  return findOrFail(trx, scope, definition, store, id);
}

export async function restoreRecord(
  trx: Trx,
  scope: Scope,
  definition: ResourceDefinition,
  id: number,
  expectedVersion?: number,
): Promise<ApiRecord> {
  const store = storeFor(definition);
  const current = await locked(trx, scope, definition, store, id);
  if (!current.deleted_at) throw conflict(`This ${attributeName(definition.singular)} is not in the trash.`);
  assertVersion(definition, current, expectedVersion);
  await store.setTrashed(trx, scope, id, null);
  if (store.countsMaintained) await adjustCount(trx, scope.businessId, definition.name, 1, -1);
  await recordActivity(trx, scope, { resource: definition.name, recordId: id, action: 'restored' });
  return findOrFail(trx, scope, definition, store, id);
}

/** What still points at a record: other resources' reference fields, and the store's own links. */
async function usageOf(db: Db, scope: Scope, definition: ResourceDefinition, store: ResourceStore, id: number): Promise<Usage[]> {
  const usage: Usage[] = [];
  for (const other of registry) {
    const fields = Object.entries(other.fields).filter(([, field]) => field.kind === 'reference' && field.references === definition.name);
    if (fields.length === 0) continue;
    const otherStore = storeFor(other);
    let query = otherStore.query(db, scope);
    query = query.where((eb) => eb.or(fields.map(([name]) => eb(otherStore.column(name), '=', id))));
    const row = await query.select(sql<number>`count(*)`.as('count')).executeTakeFirstOrThrow();
    if (Number(row.count) > 0) usage.push({ label: other.plural.toLowerCase(), count: Number(row.count) });
  }
  if (store.extraUsage) usage.push(...(await store.extraUsage(db, scope, id)));
  return usage.filter((entry) => entry.count > 0);
}

export async function forceDeleteRecord(
  trx: Trx,
  scope: Scope,
  definition: ResourceDefinition,
  id: number,
  expectedVersion?: number,
): Promise<ApiRecord> {
  const store = storeFor(definition);
  const current = await locked(trx, scope, definition, store, id);
  const name = attributeName(definition.singular);
  if (!current.deleted_at) throw conflict(`Move this ${name} to the trash before deleting it permanently.`);
  assertVersion(definition, current, expectedVersion);
  if (store.beforeForceDelete) await store.beforeForceDelete(trx, scope, id);
  const usage = await usageOf(trx, scope, definition, store, id);
  if (usage.length > 0) {
    const uses = usage.map((entry) => `${entry.count} ${entry.label}`).join(', ');
    throw conflict(`This ${name} cannot be deleted permanently: it is still used by ${uses}.`);
  }
  await store.remove(trx, scope, id);
  for (const hook of forceDeleteHooks) await hook(trx, scope, definition, id);
  if (store.countsMaintained) await adjustCount(trx, scope.businessId, definition.name, 0, -1);
  // The record is gone: its name in the entry keeps its history searchable.
  const display = current[definition.display];
  await recordActivity(trx, scope, {
    resource: definition.name,
    recordId: id,
    action: 'force-deleted',
    summary: display === null || display === undefined ? undefined : String(display),
  });
  return current;
}
