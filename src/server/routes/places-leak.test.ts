import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayInManila, type Location } from '../../domain/documents';
import { allPermissions } from '../../domain/permissions';
import { viewsRecord } from '../../domain/places';
import { updatableFields, type ResourceDefinition } from '../../domain/resource';
import { DOCUMENT_RESOURCES } from '../../domain/resources/document-memoranda';
import { findResource, getResource, registry } from '../../domain/resources/registry';
import { belongsToWorkingSet, WORKING_SET } from '../../domain/working-set';
import { listening, openEventStream, sessionHeaders } from '../../../tests/support/event-stream';
import { buildPlacesWorld, csvRecords, photo, sampleBodyAt, type PlacesWorld } from '../../../tests/support/places-fixture';
import { sendFile, uploadOf } from '../../../tests/support/upload';
import { betweenPlaces, created, databaseKinds, startDemo, userWithPermissions } from '../../../tests/support/test-app';
import type { Session, TestApp } from '../../../tests/support/test-app';
import { addDays } from '../overview/calendar';
import { businessZip } from '../resources/business-export';
import type { Scope } from '../db/scope';

/**
 * No route answers another place's records. Built from the routes the app registers: a user who
 * views one branch (Makati) and operates at one warehouse (Valenzuela Central), holding every
 * permission but the master's, finds in no list, search, picker, export, report, history, zip or
 * page or delta of their device's working set a record of the places they do not work at (Quezon City, Cebu, Mandaue); every route naming such a
 * record in its path answers 404 and changes nothing; every change at Makati, which they only view,
 * is refused 403; nothing is made at a place they do not operate at; and at Valenzuela every kind
 * of document is made and changed. A record is of another place when its definition has `places`
 * and it is at none the user views (`viewsRecord`); a memo, when its document is.
 *
 * A GET route this suite does not know how to read fails it by name: a new route must be taught
 * here (or, carrying nothing of a place, added to the short list below with the reason).
 */

/** GET routes that carry nothing of a place. */
const WITHOUT_PLACES = [
  // The server's health, and the signed-in user with their businesses.
  'GET /api/health',
  'GET /api/auth/user',
  'GET /api/businesses/get-all-businesses',
  'GET /api/businesses/retrieve-all-businesses',
  // Names every place of the business with the caller's level there, by design (places.test.ts).
  'GET /api/places',
  // The server's backup files by name and size, for masters only.
  'GET /api/operations/backups',
  // The caller's own number blocks (a series' range, by place id): reserved only where they operated (number-blocks.test.ts).
  'GET /api/number-blocks',
];

/** The overview's cards this suite reads: by the records each names, and by figures that must not move with what happens elsewhere. */
const OVERVIEW_CARDS = [
  'sales-purchases',
  'receivables',
  'payables',
  'receivables/ageing',
  'payables/ageing',
  'receivables/ageing.csv',
  'payables/ageing.csv',
  'stock-value',
  'low-stock',
  'top-items',
  'margins',
  'returns',
  'recent-documents',
];

/** The reports on what goods cost, read as the overview's cards are (at their defaults: today, the last 30 days, by place). */
const REPORTS = ['stock-value', 'stock-value.csv', 'margins', 'margins.csv'];

type ReadKind =
  | 'list'
  | 'export'
  | 'record'
  | 'history'
  | 'files'
  | 'file'
  | 'movements'
  | 'count-lines'
  | 'tenders'
  | 'overview'
  | 'statement'
  | 'report-pdf'
  | 'activity'
  | 'zip'
  | 'sync'
  | 'sync-records'
  | 'sync-changes'
  | 'sync-events';

/** The device's working set (`/api/sync`): its manifest, pages, deltas and live events. */
const SYNC_ROUTES: Record<string, ReadKind> = {
  '/api/sync': 'sync',
  '/api/sync/records/:resource': 'sync-records',
  '/api/sync/changes': 'sync-changes',
  '/api/sync/events': 'sync-events',
};

/** How this suite reads a GET route, from its path; undefined for one it does not know. */
function readKind(url: string): ReadKind | undefined {
  if (url === '/api/activity') return 'activity';
  if (url === '/api/businesses/export.zip') return 'zip';
  if (url === '/api/stocks/:id/movements') return 'movements';
  if (url === '/api/contacts/:id/statement' || url === '/api/contacts/:id/statement.pdf') return 'statement';
  if (url === '/api/stock-counts/:id/lines') return 'count-lines';
  if (SYNC_ROUTES[url]) return SYNC_ROUTES[url];
  const [, , name, ...rest] = url.split('/');
  const path = rest.join('/');
  if (name === 'overview') return OVERVIEW_CARDS.includes(path) ? 'overview' : undefined;
  if (url === '/api/reports/stock-value.pdf') return 'report-pdf';
  if (name === 'reports') return REPORTS.includes(path) ? 'overview' : undefined;
  if (!findResource(name)) return undefined;
  const kinds: Record<string, ReadKind> = {
    '': 'list',
    'export.csv': 'export',
    ':id': 'record',
    ':id/activity': 'history',
    ':recordId/files': 'files',
    ':recordId/files/:fileId': 'file',
    'tenders.csv': 'tenders',
    'tenders-by-day.csv': 'tenders',
  };
  return kinds[path];
}

/** Every view, create, update, delete, restore and force-delete permission, and view-activity: all but the master's. */
const PERMISSIONS = allPermissions()
  .map((permission) => permission.name)
  .filter((name) => /^(view|create|update|delete|restore|force-delete)-/.test(name));

/** A resource whose records belong to places: by its own `places`, or a memo by its document's. */
const confined = (definition: ResourceDefinition) => definition.places !== undefined || definition.name === 'document-memoranda';

const key = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

describe.each(databaseKinds)('no route answers another place’s records on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let user: Session;
  let scope: Scope;
  let businessId: number;
  let world: PlacesWorld;
  const today = todayInManila();
  /** Per confined resource, every record (trashed too) as the admin reads them. */
  const everything = new Map<string, Record<string, any>[]>();
  /** Per confined resource, the ids of its records at places the user does not view. */
  const foreignIds = new Map<string, Set<number>>();
  /** The user's device's cursor before anything of this suite happened: its deltas cover all the suite does. */
  let syncCursor: string;

  const routes = () => test.app.routeAccess.filter((route) => route.method !== 'HEAD');

  /** Every record of a list, page after page (a picker's `limit` is one page). */
  async function walk(session: Session, url: string): Promise<{ status: number; records: Record<string, any>[]; body: unknown }> {
    const records: Record<string, any>[] = [];
    for (let page = 1; ; page++) {
      const answer = await session.send('GET', `${url}${url.includes('?') ? '&' : '?'}page=${page}`);
      if (answer.status !== 200) return { status: answer.status, records, body: answer.body };
      records.push(...answer.body.data);
      if (url.includes('limit=') || answer.body.meta.current_page >= answer.body.meta.last_page)
        return { status: 200, records, body: null };
    }
  }

  /** Whether a record of `resource` is at places the user does not view. */
  function isForeign(resource: string, record: Record<string, any>): boolean {
    const definition = getResource(resource);
    if (definition.places) return !viewsRecord(world.access, definition.places, record);
    if (resource === 'document-memoranda')
      return foreignIds.get(DOCUMENT_RESOURCES[record.document_type])?.has(record.document_id) ?? false;
    return false;
  }

  /** Ids of the records among `records` that are of another place, by what they say and by what the admin knows of them. */
  const leaked = (resource: string, records: Record<string, any>[]) =>
    records.filter((record) => isForeign(resource, record) || foreignIds.get(resource)?.has(Number(record.id))).map((record) => record.id);

  /** Of the ids of records of `resource` (a file's rows), those of records at another place. */
  const leakedIds = (resource: string, ids: number[]) => [...new Set(ids.filter((id) => foreignIds.get(resource)?.has(id)))];

  beforeAll(async () => {
    ({
      test,
      admin,
      businesses: [businessId],
    } = await startDemo(kind));
    world = await buildPlacesWorld(admin);
    const limited = await userWithPermissions(test, businessId, PERMISSIONS, world.access);
    user = limited.session;
    scope = { businessId, userId: limited.userId, permissions: new Set(PERMISSIONS), places: world.access };
    syncCursor = (await user.send('GET', '/api/sync')).body.data.cursor;
    // Memos last: whether one is elsewhere is whether its document is.
    const ordered = registry
      .filter(confined)
      .sort((a, b) => Number(a.name === 'document-memoranda') - Number(b.name === 'document-memoranda'));
    for (const definition of ordered) {
      const { status, records } = await walk(admin, `/api/${definition.name}?per_page=100&with_trashed=1`);
      expect(status).toBe(200);
      everything.set(definition.name, records);
      foreignIds.set(definition.name, new Set(records.filter((record) => isForeign(definition.name, record)).map((record) => record.id)));
    }
  }, 120_000);
  afterAll(() => test.close());

  it('knows how to read every GET route but a few that carry nothing of a place, and has records elsewhere of every kind', () => {
    const gets = routes().filter((route) => route.method === 'GET');
    const unknown = gets.filter((route) => !WITHOUT_PLACES.includes(key(route)) && !readKind(route.url)).map(key);
    expect(unknown, 'GET routes this suite does not know how to read: teach it, or list them as carrying nothing of a place').toEqual([]);
    expect(WITHOUT_PLACES.filter((name) => !gets.some((route) => key(route) === name))).toEqual([]);
    // Each resource with places has records the user must not see, and one the suite names.
    for (const definition of registry.filter(confined)) {
      expect(foreignIds.get(definition.name)?.size, `records of ${definition.name} elsewhere`).toBeGreaterThan(0);
      expect(foreignIds.get(definition.name)?.has(world.foreign[definition.name]), `${definition.name} elsewhere in the fixture`).toBe(
        true,
      );
    }
  });

  it('lists, searches and pickers answer only records of the places the user views, and every one of them', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const route of routes().filter((each) => each.method === 'GET' && readKind(each.url) === 'list')) {
      const definition = getResource(route.url.split('/')[2]);
      const name = definition.name;
      const queries = ['per_page=100', 'per_page=100&with_trashed=1', 'per_page=100&only_trashed=1', 'limit=100'];
      if (definition.pickerFields) queries.push('limit=100&q=a');
      if (confined(definition)) {
        // Searched by each of its search fields, for what a record elsewhere holds: by that value, and by part of a text.
        const sample = everything.get(name)!.find((record) => record.id === (world.foreignTrashed[name] ?? world.foreign[name]))!;
        for (const field of definition.search) {
          const value = sample[field];
          if (value === null || value === undefined) continue;
          queries.push(`per_page=100&with_trashed=1&is_strict=1&${field}=${encodeURIComponent(String(value))}`);
          if (
            typeof value === 'string' &&
            value.length > 3 &&
            definition.fields[field]?.kind !== 'select' &&
            definition.fields[field]?.kind !== 'date'
          )
            queries.push(`limit=100&with_trashed=1&is_strict=0&${field}=${encodeURIComponent(value.slice(1, -1))}`);
        }
      }
      for (const query of queries) {
        const answer = await walk(user, `/api/${name}?${query}`);
        if (answer.status !== 200) {
          problems.push(`${name}?${query} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
          continue;
        }
        const ids = leaked(name, answer.records);
        if (ids.length > 0) problems.push(`${name}?${query} answered records elsewhere: ${ids.join(', ')}`);
        checked++;
      }
      if (confined(definition)) {
        // Not by refusing everything: the user's list is every record they view, trashed ones too.
        const viewed = everything.get(name)!.filter((record) => !foreignIds.get(name)!.has(record.id));
        const theirs = await walk(user, `/api/${name}?per_page=100&with_trashed=1`);
        const ids = (records: Record<string, any>[]) => records.map((record) => Number(record.id)).sort((a, b) => a - b);
        if (JSON.stringify(ids(theirs.records)) !== JSON.stringify(ids(viewed))) {
          problems.push(`${name}: the user lists ${ids(theirs.records).length} records, of the ${viewed.length} at places they view`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(200);
  }, 120_000);

  it('CSV exports hold only records of the places the user views', async () => {
    const problems: string[] = [];
    for (const route of routes().filter((each) => each.method === 'GET' && readKind(each.url) === 'export')) {
      const name = route.url.split('/')[2];
      for (const query of ['', '?with_trashed=1', '?only_trashed=1']) {
        // A stream that fails part way is destroyed: a refusal like any other.
        const answer = await user
          .send('GET', `/api/${name}/export.csv${query}`)
          .catch((error: Error) => ({ status: error.message, body: '' }));
        if (answer.status !== 200) {
          problems.push(`${name}/export.csv${query} answered ${answer.status}`);
          continue;
        }
        const ids = leakedIds(
          name,
          csvRecords(String(answer.body)).map((row) => Number(row.ID)),
        );
        if (ids.length > 0) problems.push(`${name}/export.csv${query} holds records elsewhere: ${ids.join(', ')}`);
        if (query === '?with_trashed=1' && confined(getResource(name))) {
          const viewed = everything.get(name)!.filter((record) => !foreignIds.get(name)!.has(record.id)).length;
          const rows = csvRecords(String(answer.body)).length;
          if (rows !== viewed) problems.push(`${name}/export.csv holds ${rows} records, of the ${viewed} at places the user views`);
        }
      }
    }
    // The tenders taken away for reconciliation: no payment elsewhere, and the totals by day count what the rows hold.
    const period = `?from=${addDays(today, -365)}&to=${today}`;
    for (const route of routes().filter((each) => each.method === 'GET' && readKind(each.url) === 'tenders')) {
      const name = route.url.split('/')[2];
      const elsewhere = new Set(
        everything
          .get(name)!
          .filter((record) => foreignIds.get(name)!.has(record.id))
          .map((record) => record.number),
      );
      const rows = csvRecords(String((await user.send('GET', `/api/${name}/tenders.csv${period}`)).body));
      const numbers = rows.map((row) => row['Payment number']).filter((number) => elsewhere.has(number));
      if (numbers.length > 0) problems.push(`${route.url} holds tenders of payments elsewhere: ${numbers.join(', ')}`);
      if (route.url.endsWith('tenders-by-day.csv')) {
        const answer = await user.send('GET', `${route.url}${period}`);
        const counted = csvRecords(String(answer.body)).reduce((sum, row) => sum + Number(row.Count), 0);
        if (counted !== rows.length) problems.push(`${route.url} counts ${counted} tenders where tenders.csv holds ${rows.length}`);
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);

  /** What the admin reads of a record: itself, its files and a count's lines; to see that a refused change changed nothing. */
  async function snapshot(resource: string, id: number) {
    const definition = getResource(resource);
    const parts = [(await admin.send('GET', `/api/${resource}/${id}`)).body];
    if (definition.attachments) parts.push((await admin.send('GET', `/api/${resource}/${id}/files?with_trashed=1`)).body);
    if (resource === 'stock-counts') parts.push((await admin.send('GET', `/api/stock-counts/${id}/lines`)).body);
    // How many times it was printed is counted by whoever views it: no change of the record.
    return JSON.stringify(parts, (key, value: unknown) => (key === 'prints' ? undefined : value));
  }

  /** A body a route naming a record would take, were the record the user's to change. */
  function requestFor(
    route: { method: string; url: string },
    definition: ResourceDefinition,
  ): { body: unknown; headers?: Record<string, string> } {
    if (route.method === 'POST' && route.url.endsWith('/files')) return uploadOf('elsewhere.png', photo);
    if (route.url === '/api/stock-counts/:id/entries') return { body: { item_id: world.item.id, quantity: 1 } };
    if (route.url === '/api/stock-counts/:id/uncount') return { body: { item_id: world.item.id } };
    if (route.method === 'PATCH' && route.url === `/api/${definition.name}/:id`) {
      const fields = updatableFields(definition);
      const text = fields.find(([, field]) => field.kind === 'text' || field.kind === 'textarea');
      const money = fields.find(([, field]) => field.kind === 'money');
      return { body: text ? { [text[0]]: 'Changed by someone elsewhere' } : { [money![0]]: 1 } };
    }
    return { body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {} };
  }

  /** Whether a route restores or deletes for good a record (not one of its files). */
  const undoes = (route: { url: string }) => /\/(restore|force-delete)$/.test(route.url) && !route.url.includes('/files/');

  /** The path of a route for a record (and its file). */
  const pathFor = (url: string, id: number, fileId: number | undefined) =>
    url
      .replace(/:id|:recordId/, String(id))
      .replace(':fileId', String(fileId ?? 999_999_999))
      .replace(/:[A-Za-z]+/g, '1');

  it('answers 404 on every route naming a record of another place, and changes nothing', async () => {
    const problems: string[] = [];
    let checked = 0;
    const named = routes().filter((route) => /:id|:recordId/.test(route.url) && findResource(route.url.split('/')[2]));
    for (const definition of registry.filter(confined)) {
      const name = definition.name;
      const live = world.foreign[name];
      const trashed = world.foreignTrashed[name];
      const before = new Map([[live, await snapshot(name, live)]]);
      if (trashed) before.set(trashed, await snapshot(name, trashed));
      for (const route of named.filter((each) => each.url.split('/')[2] === name)) {
        const targets = route.method === 'GET' || !undoes(route) ? [live, ...(trashed ? [trashed] : [])] : [trashed ?? live];
        for (const id of targets) {
          const { body, headers } = requestFor(route, definition);
          const path = pathFor(route.url, id, world.files[`${name}:${id}`] ?? world.files[`${name}:${live}`]);
          const answer = await user.send(route.method as 'GET', path, body, headers);
          if (answer.status !== 404)
            problems.push(`${route.method} ${path} (${name} elsewhere) answered ${answer.status}: ${JSON.stringify(answer.body)}`);
          checked++;
        }
      }
      for (const [id, was] of before) if ((await snapshot(name, id)) !== was) problems.push(`${name} ${id} elsewhere was changed`);
    }
    // A file elsewhere is not reached through a record the user views either.
    const foreignFile = world.files[`invoices:${world.foreign.invoices}`];
    const through = await user.send('GET', `/api/invoices/${world.viewOnly.invoices}/files/${foreignFile}`);
    if (through.status !== 404) problems.push(`a file elsewhere through a viewed invoice answered ${through.status}`);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(150);
  }, 120_000);

  it('reads at the branch the user views, and refuses (403) every change there, changing nothing', async () => {
    const problems: string[] = [];
    let refused = 0;
    const named = routes().filter((route) => /:id|:recordId/.test(route.url) && findResource(route.url.split('/')[2]));
    for (const [name, live] of Object.entries(world.viewOnly)) {
      const definition = getResource(name);
      const trashed = world.viewOnlyTrashed[name];
      const before = new Map([[live, await snapshot(name, live)]]);
      if (trashed) before.set(trashed, await snapshot(name, trashed));
      for (const route of named.filter((each) => each.url.split('/')[2] === name)) {
        // Restored or deleted for good is a record in the trash, where there is one.
        const id = undoes(route) ? (trashed ?? live) : live;
        const { body, headers } = requestFor(route, definition);
        const path = pathFor(route.url, id, world.files[`${name}:${live}`]);
        const answer = await user.send(route.method as 'GET', path, body, headers);
        // A print is a read, counted: whoever views a document may print it (document-prints.routes.ts).
        const reads = route.method === 'GET' || route.url.endsWith('/prints');
        const expected = reads ? 200 : 403;
        if (answer.status !== expected)
          problems.push(`${route.method} ${path} (${name} at Makati) answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        if (!reads) refused++;
      }
      for (const [id, was] of before) if ((await snapshot(name, id)) !== was) problems.push(`${name} ${id} at Makati was changed`);
    }
    expect(problems).toEqual([]);
    expect(refused).toBeGreaterThan(100);
  }, 120_000);

  /**
   * Bodies making a record of each kind at a place of `side`: one the user does not work at, or Makati, which they view.
   * Those below by hand; any other document of one place from the samples, at the side's place of its type.
   */
  async function bodiesAt(side: 'foreign' | 'viewOnly'): Promise<Record<string, Record<string, unknown>[]>> {
    const { place, item, customer, supplier } = world;
    const sources = world.sources[side];
    const at = side === 'foreign' ? { warehouse_id: place.mandaue } : { branch_id: place.makati };
    const branch = side === 'foreign' ? place.cebu : place.makati;
    const line = { item_id: item.id, unit_of_measurement_id: item.unit, quantity: 1 };
    const date = today;
    const firstLine = async (transfer: number) => (await admin.send('GET', `/api/stock-transfers/${transfer}`)).body.data.lines[0].id;
    const invoiceLine = (await admin.send('GET', `/api/invoices/${sources.invoice}`)).body.data.lines[0].id;
    const billLine = (await admin.send('GET', `/api/bills/${sources.bill}`)).body.data.lines[0].id;
    const elsewhere = side === 'foreign' ? { type: 'warehouse', id: place.mandaue } : { type: 'branch', id: place.makati };
    const valenzuela = { type: 'warehouse', id: place.valenzuela };
    const service = (await admin.send('GET', '/api/services?order_by=asc&limit=1')).body.data[0].id;
    const bodies: Record<string, Record<string, unknown>[]> = {
      'purchase-orders': [{ ...at, contact_id: supplier, date, lines: [{ ...line, unit_price: 10 }] }],
      'receive-orders': [{ ...at, contact_id: supplier, date, lines: [{ ...line, unit_price: 10 }] }],
      bills: [{ ...at, contact_id: supplier, date, lines: [{ ...line, unit_price: 10 }] }],
      'bill-payments': [{ bill_id: sources.bill, date, tenders: [{ method: 'cash', amount: 1 }] }],
      'debit-memoranda': [{ bill_id: sources.bill, date, amount: 1, reason: 'Refused' }],
      'purchase-returns': [
        {
          bill_id: sources.bill,
          date,
          settlement: 'credit',
          lines: [{ source_line_id: billLine, quantity: 1, reason: 'damaged', disposition: 'from_stock' }],
        },
      ],
      quotations: [{ ...at, contact_id: customer, date, lines: [{ ...line, unit_price: 10 }] }],
      invoices: [{ ...at, contact_id: customer, date, lines: [{ ...line, unit_price: 10 }] }],
      'invoice-payments': [{ invoice_id: sources.invoice, date, tenders: [{ method: 'cash', amount: 1 }] }],
      'credit-memoranda': [{ invoice_id: sources.invoice, date, amount: 1, reason: 'Refused' }],
      'sales-returns': [
        {
          invoice_id: sources.invoice,
          date,
          settlement: 'credit',
          lines: [{ source_line_id: invoiceLine, quantity: 1, reason: 'damaged', disposition: 'restock' }],
        },
      ],
      'document-memoranda': [{ document_type: 'invoice', document_id: sources.invoice, date, subject: 'Refused', body: 'Refused' }],
      // Asked for by the place itself; goods leaving it; a transfer arriving there; goods sent back from it.
      'stock-requests': [{ ...betweenPlaces(valenzuela, elsewhere), date, lines: [line] }],
      'stock-transfers': [{ ...betweenPlaces(elsewhere, valenzuela), date, lines: [line] }],
      'stock-receives': [
        {
          stock_transfer_id: sources.transferInTransit,
          date,
          lines: [{ source_line_id: await firstLine(sources.transferInTransit), quantity: 1 }],
        },
      ],
      'stock-returns': [
        {
          stock_transfer_id: sources.transferReceived,
          reason: 'Refused',
          date,
          lines: [{ source_line_id: await firstLine(sources.transferReceived), quantity: 1 }],
        },
      ],
      'stock-adjustments': [{ ...at, date, lines: [{ ...line, reason: 'found' }] }],
      'stock-counts': [{ ...at, date, scope: 'picked' }],
      // A price for the branch, and one for every branch (which only someone operating everywhere sets).
      'sale-item-prices': [
        { item_id: item.id, branch_id: branch, unit_of_measurement_id: item.unit, price: 1, effective_date: date },
        { item_id: item.id, unit_of_measurement_id: item.unit, price: 1, effective_date: date },
      ],
      'service-prices': [
        { service_id: service, branch_id: branch, price: 1, effective_date: date },
        { service_id: service, price: 1, effective_date: date },
      ],
    };
    const places: Location[] =
      side === 'foreign'
        ? [
            { type: 'warehouse', id: place.mandaue },
            { type: 'branch', id: place.cebu },
          ]
        : [{ type: 'branch', id: place.makati }];
    for (const definition of registry.filter((each) => !bodies[each.name])) {
      const body = await sampleBodyAt(admin, definition, places, item);
      if (body) bodies[definition.name] = [body];
    }
    return bodies;
  }

  it('refuses to make a record of any kind at a place the user does not operate at, and makes none', async () => {
    const problems: string[] = [];
    const kinds = registry.filter(
      (definition) => (definition.document || confined(definition)) && !['stocks', 'branches', 'warehouses'].includes(definition.name),
    );
    const totals = async () =>
      Object.fromEntries(
        await Promise.all(
          kinds.map(async (definition) => [
            definition.name,
            (await admin.send('GET', `/api/${definition.name}?with_trashed=1&limit=1`)).body.meta.total,
          ]),
        ),
      );
    const before = await totals();
    for (const side of ['foreign', 'viewOnly'] as const) {
      const bodies = await bodiesAt(side);
      for (const definition of kinds) {
        if (!bodies[definition.name]) {
          problems.push(`no body to make ${definition.name} with: teach the suite`);
          continue;
        }
        for (const body of bodies[definition.name]) {
          const answer = await user.send('POST', `/api/${definition.name}`, body);
          if (![403, 404, 422].includes(answer.status))
            problems.push(`${definition.name} (${side}) answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        }
      }
    }
    expect(await totals()).toEqual(before);
    // How many numbers a place has given is told only for a place the user works at.
    const numbers = (at: Record<string, number>) =>
      user.send('POST', '/api/documents/get-number-total-count/', { document_name: 'invoice', ...at });
    expect((await numbers({ branch_id: world.place.quezon })).status).toBe(403);
    expect((await numbers({ warehouse_id: world.place.mandaue })).status).toBe(403);
    expect((await numbers({ branch_id: world.place.makati })).status).toBe(200);
    expect(problems).toEqual([]);
  }, 120_000);

  it('the activity log and a stock’s movements name nothing of another place', async () => {
    const problems: string[] = [];
    // The activity log: no entry of a record elsewhere, nor a record's history asked by its id.
    const log = await walk(user, '/api/activity?per_page=100');
    if (log.status !== 200) problems.push(`/api/activity answered ${log.status}`);
    const entries = log.records.filter((entry) => foreignIds.get(entry.resource)?.has(entry.record_id));
    if (entries.length > 0)
      problems.push(`the activity log shows ${entries.length} entries of records elsewhere, as ${JSON.stringify(entries[0])}`);
    for (const [name, id] of Object.entries(world.foreign)) {
      const asked = await user.send('GET', `/api/activity?resource=${name}&record_id=${id}`);
      if (asked.status !== 200 || asked.body.data.length > 0)
        problems.push(`/api/activity of ${name} ${id} answered ${asked.status}, ${asked.body.data?.length} entries`);
    }
    const mine = await user.send('GET', `/api/activity?resource=invoices&record_id=${world.viewOnly.invoices}`);
    if (!(mine.body.data?.length > 0)) problems.push(`the history of an invoice at Makati answered ${mine.status} without entries`);

    // A stock's movements name only documents the user views (goods arriving from elsewhere come by a document that names both places).
    for (const stock of everything.get('stocks')!.filter((record) => !foreignIds.get('stocks')!.has(record.id))) {
      const movements = await walk(user, `/api/stocks/${stock.id}/movements?per_page=100`);
      if (movements.status !== 200) problems.push(`/api/stocks/${stock.id}/movements answered ${movements.status}`);
      for (const movement of movements.records.filter((each) => foreignIds.get(each.document_resource)?.has(each.document_id)))
        problems.push(`/api/stocks/${stock.id}/movements names ${movement.document_resource} ${movement.document_id}`);
    }

    expect(problems).toEqual([]);
  }, 120_000);

  it('the whole-business zip holds nothing of another place', async () => {
    const problems: string[] = [];
    // The route is for masters, who hold every place; for anyone else the zip their scope makes is what they would get.
    const route = await test.app.inject({
      method: 'GET',
      url: '/api/businesses/export.zip',
      headers: { cookie: user.cookie, 'business-id': String(businessId) },
    });
    const chunks: Uint8Array[] = [];
    if (route.statusCode === 200) chunks.push(new Uint8Array(route.rawPayload));
    else {
      expect(route.statusCode).toBe(403);
      try {
        for await (const chunk of businessZip(test.app.db, scope, 'Confined')) chunks.push(chunk);
      } catch (error) {
        problems.push(`the zip of the user's places failed: ${String(error)}`);
      }
    }
    const files = chunks.length > 0 ? unzipSync(new Uint8Array(Buffer.concat(chunks))) : {};
    for (const [file, content] of Object.entries(files)) {
      const name = file.replace(/(-lines|-tenders)?\.csv$/, '');
      if (!foreignIds.has(name)) continue;
      const rows = csvRecords(strFromU8(content));
      const column = file.endsWith('-lines.csv') ? 'Document ID' : file.endsWith('-tenders.csv') ? 'Payment ID' : 'ID';
      const ids = leakedIds(
        name,
        rows.map((row) => Number(row[column])),
      );
      if (ids.length > 0) problems.push(`${file} in the zip holds records elsewhere: ${ids.join(', ')}`);
      // Not by leaving everything out: the records file holds every record the user views, trashed ones too.
      const viewed = everything.get(name)!.filter((record) => !foreignIds.get(name)!.has(record.id)).length;
      if (file === `${name}.csv` && rows.length !== viewed)
        problems.push(`${file} in the zip holds ${rows.length} records, of the ${viewed} viewed`);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  // Last of the reads: it makes documents elsewhere, which the sets of records elsewhere above do not hold.
  it('the overview’s cards, the reports and a customer’s statement show nothing of another place, and do not move with what happens there', async () => {
    const problems: string[] = [];
    const cards = routes().filter((route) => route.method === 'GET' && readKind(route.url) === 'overview');
    const read = async (session: Session) =>
      Object.fromEntries(await Promise.all(cards.map(async (route) => [route.url, await session.send('GET', route.url)])));
    const viewed = (type: string, id: number) =>
      viewsRecord(world.access, getResource('stocks').places!, { location_type: type, location_id: id });
    const theirs = await read(user);
    for (const route of cards) {
      const answer = theirs[route.url];
      if (answer.status !== 200) {
        problems.push(`${route.url} answered ${answer.status}`);
        continue;
      }
      const card = route.url.split('/')[3];
      // A CSV names no record: what it holds is checked by its figures below.
      // A report's places' totals too.
      const rows: Record<string, any>[] =
        typeof answer.body === 'string'
          ? []
          : [...(Array.isArray(answer.body.data) ? answer.body.data : (answer.body.data.oldest ?? [])), ...(answer.body.places ?? [])];
      for (const row of rows) {
        const [groupType, groupId] = typeof row.key === 'string' ? row.key.split(':') : [];
        const elsewhere =
          (row.location_type !== undefined && !viewed(row.location_type, row.location_id)) ||
          ((groupType === 'branch' || groupType === 'warehouse') && !viewed(groupType, Number(groupId))) ||
          (card === 'recent-documents' && foreignIds.get(row.resource)?.has(row.id)) ||
          (card === 'receivables' && foreignIds.get('invoices')!.has(row.id)) ||
          (card === 'payables' && foreignIds.get('bills')!.has(row.id));
        if (elsewhere) problems.push(`${route.url} shows ${JSON.stringify(row)}`);
      }
    }

    // A customer's statement names no document elsewhere, but those of the places the user views; its PDF is made of the same.
    const statementRoutes = routes().filter((route) => route.method === 'GET' && readKind(route.url) === 'statement');
    expect(statementRoutes.map((route) => route.url).sort()).toEqual(['/api/contacts/:id/statement', '/api/contacts/:id/statement.pdf']);
    const statementOf = (session: Session, pdf = false) =>
      session.send('GET', `/api/contacts/${world.customer}/statement${pdf ? '.pdf' : ''}?from=${addDays(today, -400)}&to=${today}`);
    const statement = await statementOf(user);
    const named: { resource: string; id: number }[] = statement.body.data ?? [];
    for (const row of named.filter((each) => foreignIds.get(each.resource)?.has(each.id)))
      problems.push(`the customer's statement shows ${row.resource} ${row.id}, elsewhere`);
    if (statement.status !== 200 || named.length === 0) problems.push(`the customer's statement answered ${statement.status} with no rows`);
    const pdf = await statementOf(user, true);
    if (pdf.status !== 200 || pdf.headers['content-type'] !== 'application/pdf')
      problems.push(`the customer's statement as PDF answered ${pdf.status} ${String(pdf.headers['content-type'])}`);
    const adminsStatement = await statementOf(admin);

    // The inventory list as a PDF is made of the stock value report's rows, read above: it answers the user.
    const pdfRoutes = routes().filter((route) => route.method === 'GET' && readKind(route.url) === 'report-pdf');
    expect(pdfRoutes.map((route) => route.url)).toEqual(['/api/reports/stock-value.pdf']);
    const list = await user.send('GET', '/api/reports/stock-value.pdf');
    if (list.status !== 200 || list.headers['content-type'] !== 'application/pdf')
      problems.push(`the inventory list as PDF answered ${list.status} ${String(list.headers['content-type'])}`);

    // Figures: what happens elsewhere moves the admin's cards, and none of the user's.
    const admins = await read(admin);
    const made = (resource: string, body: Record<string, unknown>) => created(admin, `/api/${resource}`, body);
    const unit = world.item.unit;
    const scarce = await made('items', {
      sku: 'PLACES-SCARCE',
      name: 'Scarce elsewhere',
      unit_of_measurement_id: unit,
      reorder_level: 1000,
    });
    const line = (quantity: number) => ({ item_id: scarce.id, unit_of_measurement_id: unit, quantity });
    await made('stock-adjustments', { branch_id: world.place.quezon, date: today, lines: [{ ...line(900), reason: 'opening_balance' }] });
    await made('stock-adjustments', { warehouse_id: world.place.mandaue, date: today, lines: [{ ...line(1), reason: 'opening_balance' }] });
    const sale = await made('invoices', {
      branch_id: world.place.quezon,
      contact_id: world.customer,
      date: today,
      lines: [{ ...line(800), unit_price: 5000 }],
    });
    await made('sales-returns', {
      invoice_id: sale.id,
      date: today,
      settlement: 'credit',
      lines: [{ source_line_id: sale.lines[0].id, quantity: 1, reason: 'damaged', disposition: 'write_off' }],
    });
    await made('bills', {
      warehouse_id: world.place.mandaue,
      contact_id: world.supplier,
      date: today,
      lines: [{ ...line(5), unit_price: 70 }],
    });
    const after = await read(user);
    const adminsAfter = await read(admin);
    for (const route of cards) {
      if (JSON.stringify(after[route.url].body) !== JSON.stringify(theirs[route.url].body))
        problems.push(`${route.url} moved with what happened elsewhere`);
      if (JSON.stringify(adminsAfter[route.url].body) === JSON.stringify(admins[route.url].body))
        problems.push(`${route.url} did not move for the admin`);
    }
    // The customer's statement, made before the sale above: the same for the user after it, not for the admin.
    const statementAfter = await statementOf(user);
    if (JSON.stringify(statementAfter.body) !== JSON.stringify(statement.body))
      problems.push(`the customer's statement moved with what happened elsewhere`);
    if (JSON.stringify((await statementOf(admin)).body) === JSON.stringify(adminsStatement.body))
      problems.push(`the customer's statement did not move for the admin`);

    expect(problems).toEqual([]);
  }, 120_000);

  it('makes and changes every kind of document at the warehouse the user operates at', async () => {
    const { place, item, customer, supplier } = world;
    const date = today;
    const line = { item_id: item.id, unit_of_measurement_id: item.unit, quantity: 2 };
    const priced = { ...line, unit_price: 10 };
    const at = { warehouse_id: place.valenzuela };
    const valenzuela = { type: 'warehouse', id: place.valenzuela };
    const made: Record<string, Record<string, any>> = {};
    const make = async (resource: string, body: Record<string, unknown>) => {
      const answer = await user.send('POST', `/api/${resource}`, body);
      expect(answer.status, `${resource}: ${JSON.stringify(answer.body)}`).toBe(201);
      made[resource] = answer.body.data;
      return answer.body.data;
    };
    const changed = async (method: 'PATCH' | 'DELETE', path: string, body?: unknown) => {
      const answer = await user.send(method, path, body);
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(200);
      return answer.body.data;
    };

    const order = await make('purchase-orders', { ...at, contact_id: supplier, date, lines: [priced] });
    await changed('PATCH', `/api/purchase-orders/${order.id}`, { notes: 'Ordered at Valenzuela' });
    await make('receive-orders', {
      ...at,
      contact_id: supplier,
      purchase_order_id: order.id,
      date,
      lines: [{ source_line_id: order.lines[0].id, quantity: 1 }],
    });
    const bill = await make('bills', { ...at, contact_id: supplier, date, lines: [priced] });
    await make('bill-payments', { bill_id: bill.id, date, tenders: [{ method: 'cash', amount: 5 }] });
    await make('debit-memoranda', { bill_id: bill.id, date, amount: 1, reason: 'Short' });
    // Goods sent back from a bill of two, taken off what it owes.
    const billed = (await user.send('POST', '/api/bills', { ...at, contact_id: supplier, date, lines: [{ ...priced, quantity: 2 }] })).body
      .data;
    await make('purchase-returns', {
      bill_id: billed.id,
      date,
      settlement: 'credit',
      lines: [{ source_line_id: billed.lines[0].id, quantity: 1, reason: 'over_delivered', disposition: 'from_stock' }],
    });
    const quotation = await make('quotations', { ...at, contact_id: customer, date, lines: [priced] });
    await changed('PATCH', `/api/quotations/${quotation.id}/cancel`);
    await changed('DELETE', `/api/quotations/${quotation.id}`);
    await changed('PATCH', `/api/quotations/${quotation.id}/restore`);
    const invoice = await make('invoices', { ...at, contact_id: customer, date, lines: [priced] });
    await make('invoice-payments', { invoice_id: invoice.id, date, tenders: [{ method: 'cash', amount: 5 }] });
    await make('credit-memoranda', { invoice_id: invoice.id, date, amount: 1, reason: 'Dented' });
    // Goods back from a sale of two, credited to what it owes.
    const sold = (await user.send('POST', '/api/invoices', { ...at, contact_id: customer, date, lines: [{ ...priced, quantity: 2 }] })).body
      .data;
    await make('sales-returns', {
      invoice_id: sold.id,
      date,
      settlement: 'credit',
      lines: [{ source_line_id: sold.lines[0].id, quantity: 1, reason: 'wrong_item', disposition: 'write_off' }],
    });
    const request = await make('stock-requests', {
      ...betweenPlaces({ type: 'warehouse', id: place.mandaue }, valenzuela),
      date,
      lines: [line],
    });
    await changed('PATCH', `/api/stock-requests/${request.id}`, { notes: 'Needed for the weekend' });
    await changed('PATCH', `/api/stock-requests/${request.id}/cancel`);
    const transfer = await make('stock-transfers', {
      ...betweenPlaces(valenzuela, { type: 'branch', id: place.makati }),
      date,
      lines: [line],
    });
    await changed('PATCH', `/api/stock-transfers/${transfer.id}/void`);
    const arriving = (await user.send('GET', `/api/stock-transfers/${world.sources.toValenzuela}`)).body.data;
    await make('stock-receives', {
      stock_transfer_id: arriving.id,
      date,
      lines: [{ source_line_id: arriving.lines[0].id, quantity: arriving.lines[0].quantity }],
    });
    await make('stock-returns', {
      stock_transfer_id: arriving.id,
      reason: 'One too many',
      date,
      lines: [{ source_line_id: arriving.lines[0].id, quantity: 1 }],
    });
    await make('stock-adjustments', { ...at, date, lines: [{ ...line, reason: 'found' }] });
    const count = await make('stock-counts', { ...at, date, scope: 'picked' });
    expect((await user.send('POST', `/api/stock-counts/${count.id}/entries`, { item_id: item.id, quantity: 3 })).status).toBe(201);
    await changed('PATCH', `/api/stock-counts/${count.id}/post`);
    expect((await sendFile(user, `/api/invoices/${invoice.id}/files`, 'ours.png', photo)).status).toBe(201);
    await changed('PATCH', `/api/warehouses/${place.valenzuela}`, { address: 'MacArthur Highway, Valenzuela City (north gate)' });
    const memo = await make('document-memoranda', {
      document_type: 'invoice',
      document_id: invoice.id,
      date,
      subject: 'Ours',
      body: 'At Valenzuela',
    });
    await changed('PATCH', `/api/document-memoranda/${memo.id}`, { subject: 'Still ours' });
    // Any other document of one place, from the samples.
    for (const definition of registry.filter((each) => each.document && !made[each.name])) {
      const body = await sampleBodyAt(admin, definition, [{ type: 'warehouse', id: place.valenzuela }], item);
      if (body) await make(definition.name, body);
    }

    // Every kind of document, made here and read back.
    const missing = registry.filter((definition) => definition.document && !made[definition.name]).map((definition) => definition.name);
    expect(missing).toEqual([]);
    for (const [resource, record] of Object.entries(made))
      expect((await user.send('GET', `/api/${resource}/${record.id}`)).status).toBe(200);
  }, 120_000);

  // After the changes above, at the user's warehouse and at places they do not work at: the deltas hold both kinds.
  it('the working set’s pages and deltas hold only records of the places the user views, and its live events only names', async () => {
    const problems: string[] = [];
    const kinds = routes()
      .filter((route) => route.method === 'GET')
      .map((route) => readKind(route.url));
    expect(Object.values(SYNC_ROUTES).filter((kind) => !kinds.includes(kind))).toEqual([]);

    // The manifest and every page, against what the user's lists hold now.
    const manifest = await user.send('GET', '/api/sync');
    expect(manifest.status).toBe(200);
    for (const { name, total } of manifest.body.data.resources as { name: string; total: number }[]) {
      const pages: Record<string, any>[] = [];
      for (let after = 0; ;) {
        const page = await user.send('GET', `/api/sync/records/${name}?after=${after}&limit=1000`);
        if (page.status !== 200) {
          problems.push(`/api/sync/records/${name} answered ${page.status}`);
          break;
        }
        pages.push(...page.body.data);
        if (page.body.next === null) break;
        after = page.body.next;
      }
      const ids = leaked(name, pages);
      if (ids.length > 0) problems.push(`/api/sync/records/${name} holds records elsewhere: ${ids.join(', ')}`);
      if (pages.length !== total) problems.push(`/api/sync counts ${total} ${name} where its pages hold ${pages.length}`);
      const definition = getResource(name);
      if (confined(definition)) {
        // Not by leaving everything out: every live record of the working set at the places the user views.
        const live = (await walk(admin, `/api/${name}?per_page=100`)).records;
        const viewed = live
          .filter((record) => !isForeign(name, record) && belongsToWorkingSet(name, record))
          .map((record) => Number(record.id));
        const sorted = (values: number[]) => JSON.stringify([...values].sort((a, b) => a - b));
        if (sorted(pages.map((record) => Number(record.id))) !== sorted(viewed))
          problems.push(
            `/api/sync/records/${name} holds ${pages.length} records, of the ${viewed.length} of the working set the user views`,
          );
      }
    }

    // The deltas since before this suite began, as the user and as the admin (who views every place) read them.
    async function deltas(session: Session): Promise<Map<string, Record<string, any>[]>> {
      const changed = new Map<string, Record<string, any>[]>();
      let cursor = syncCursor;
      for (let page = 0; page < 100; page++) {
        const answer = await session.send('GET', `/api/sync/changes?cursor=${encodeURIComponent(cursor)}`);
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(answer.body.data.reset).toBe(false);
        for (const [name, records] of Object.entries(answer.body.data.changed as Record<string, Record<string, any>[]>))
          changed.set(name, [...(changed.get(name) ?? []), ...records]);
        cursor = answer.body.data.cursor;
        if (!answer.body.data.more) break;
      }
      return changed;
    }
    const theirs = await deltas(user);
    for (const [name, records] of theirs) {
      const ids = leaked(name, records);
      if (ids.length > 0) problems.push(`/api/sync/changes holds ${name} elsewhere: ${ids.join(', ')}`);
    }
    // Not by sending nothing: the user's own stock at Valenzuela moved, and the admin's deltas hold stock elsewhere.
    const atValenzuela = (record: Record<string, any>) =>
      record.location_type === 'warehouse' && record.location_id === world.place.valenzuela;
    if (!theirs.get('stocks')?.some(atValenzuela))
      problems.push('/api/sync/changes holds no stock of Valenzuela, where the user moved goods');
    const admins = await deltas(admin);
    if (!admins.get('stocks')?.some((record) => isForeign('stocks', record)))
      problems.push('the deltas cover no change elsewhere: nothing was checked');

    // Live events: while a change is made elsewhere, the stream names resources, and nothing of a record.
    const stream = await openEventStream(await listening(test.app), '/api/sync/events', sessionHeaders(user));
    try {
      expect(stream.status).toBe(200);
      await stream.next((event) => event.event === 'ready');
      const price = await admin.send('POST', '/api/sale-item-prices', {
        item_id: world.item.id,
        branch_id: world.place.cebu,
        unit_of_measurement_id: world.item.unit,
        price: 3,
        effective_date: today,
      });
      expect(price.status, JSON.stringify(price.body)).toBe(201);
      await stream.next((event) => event.event === 'changed' && event.data.includes('sale-item-prices'));
      for (const event of stream.events.filter((each) => each.event === 'changed')) {
        const data = JSON.parse(event.data);
        const names = Object.keys(data).length === 1 && Array.isArray(data.resources) ? (data.resources as unknown[]) : [];
        if (names.length === 0 || names.some((name) => typeof name !== 'string' || !WORKING_SET.includes(name)))
          problems.push(`/api/sync/events said more than names of resources: ${event.data}`);
      }
    } finally {
      stream.close();
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('made the server log no error for anything it was asked', () => {
    expect(test.errorLines).toEqual([]);
  });
});
