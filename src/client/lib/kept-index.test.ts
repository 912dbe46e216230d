import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResourceDefinition } from '../../domain/resource';
import { getResource } from '../../domain/resources/registry';
import { KeptIndex, keptIndex } from './kept-index';
import { searchKept } from './kept-search';
import { offlineDatabase, offlineDatabaseName, openOfflineStore, recordsChanged, saveAnswer, type RecordsChanged } from './offline-store';
import { randomSequence } from '../../../tests/support/random-sequence';

/**
 * The index of kept records that answers offline searches (kept-index.ts, asked by
 * kept-search.ts): the same answers as reading every record and testing each, a scanned code
 * found by its map, and the index following the records as they change, here or in another tab.
 */

type Row = Record<string, unknown>;
const items = getResource('items');

/** searchKept as it was before the index: every record lowercased and tested on each query. */
function searchEveryRecord(definition: ResourceDefinition, params: Row, kept: readonly Row[]) {
  const TEXTUAL = new Set(['text', 'textarea', 'email']);
  const flag = (value: unknown) => value === 1 || value === '1' || value === true || value === 'true';
  const strict = flag(params.is_strict);
  const searches = definition.search.flatMap((name) => {
    const value = params[name];
    return value === undefined || value === null || String(value).trim() === ''
      ? []
      : [[name, String(value).trim().toLowerCase()] as const];
  });
  const anyPart = typeof params.q === 'string' ? params.q.trim().toLowerCase() : '';
  const pickerMatch = (record: Row) =>
    anyPart === '' ||
    (definition.pickerFields ?? []).some((name) =>
      String(record[name] ?? '')
        .toLowerCase()
        .includes(anyPart),
    );
  const trashed = (record: Row) => Boolean(record.deleted_at);
  const matches = (record: Row) =>
    (flag(params.only_trashed) ? trashed(record) : flag(params.with_trashed) || !trashed(record)) &&
    pickerMatch(record) &&
    searches.every(([name, value]) => {
      const stored = record[name];
      if (stored === null || stored === undefined) return false;
      const text = String(stored).toLowerCase();
      return !strict && TEXTUAL.has(definition.fields[name]?.kind ?? '') ? text.includes(value) : text === value;
    });
  const field = typeof params.order_by_field_name === 'string' ? params.order_by_field_name : 'id';
  const direction = params.order_by === 'asc' ? 1 : -1;
  const ordered = kept.filter(matches).sort((a, b) => {
    const [x, y] = [a[field], b[field]];
    // Records holding the same value (or none) by id, in the list's direction.
    if (x === y) return (Number(a.id) - Number(b.id)) * direction;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    return (x < y ? -1 : 1) * direction;
  });
  const perPage = Number(params.limit ?? params.per_page ?? 15);
  const page = params.limit === undefined ? Math.max(1, Number(params.page ?? 1)) : 1;
  return { rows: ordered.slice((page - 1) * perPage, page * perPage), total: ordered.length, page, perPage };
}

const WORDS = ['Bear Brand', 'Alaska', 'Lucky Me', 'Century Tuna', 'Nescafé', 'Kopiko', 'Datu Puti', 'Silver Swan', 'Rebisco', 'Piattos'];
const SIZES = ['Pancit Canton', 'Evaporada 370ml', 'Sardinas', 'Classic 3in1', 'Suka 1L', 'Toyo 385ml', 'Crackers', 'Cheese 85g'];

/** A catalogue of `count` items, each name, SKU and barcode its own; some without a barcode or reorder level, some in the trash. */
function catalogue(count: number): Row[] {
  return Array.from({ length: count }, (_, at) => {
    const id = at + 1;
    return {
      id,
      sku: `SKU-${String(id).padStart(5, '0')}`,
      barcode: id % 7 === 0 ? null : String(4800000000000 + id * 37),
      name: `${WORDS[id % WORDS.length]} ${SIZES[(id * 3) % SIZES.length]} #${id}`,
      description: id % 3 === 0 ? `Case of ${id % 48}` : null,
      brand_id: (id % 5) + 1,
      vat_category: id % 4 === 0 ? 'exempt' : 'vatable',
      reorder_level: id % 11 === 0 ? null : (id * 13) % 1000,
      deleted_at: id % 17 === 0 ? '2026-11-01T00:00:00Z' : null,
      version: 1,
    };
  });
}

describe('an index of kept records', () => {
  const kept = catalogue(3000);
  const shuffled = [...kept].sort((a, b) => ((Number(a.id) * 7919) % 3001) - ((Number(b.id) * 7919) % 3001));
  const index = new KeptIndex(items, shuffled);
  const inIdOrder = [...kept];

  it('answers every query as reading every record would', () => {
    const queries: Row[] = [];
    for (const q of ['', 'alaska', 'PANCIT', '#12', 'sku-0004', '48000000', 'nothing like it', ' tuna ']) {
      for (const order of [{}, { order_by_field_name: 'name', order_by: 'asc' }, { order_by_field_name: 'sku' }, { order_by: 'asc' }]) {
        queries.push({ q, ...order }, { q, limit: 15, ...order }, { q, per_page: 25, page: 3, ...order });
      }
    }
    queries.push(
      { barcode: String(4800000000000 + 500 * 37), is_strict: 1, limit: 1 },
      { barcode: String(4800000000000 + 500 * 37), is_strict: '1', order_by_field_name: 'name', order_by: 'asc' },
      { sku: 'sku-00500', is_strict: 1 },
      { sku: 'SKU-00500', is_strict: 1, only_trashed: 1 },
      { sku: 'SKU-00510', is_strict: 1, with_trashed: 1 },
      { sku: '0050' },
      { barcode: '48000000185' },
      { name: 'canton', brand_id: 3, per_page: 100 },
      { name: 'canton', brand_id: '3', is_strict: 0, order_by_field_name: 'name', order_by: 'asc' },
      { brand_id: 2, vat_category: 'exempt', per_page: 50, page: 2 },
      { vat_category: 'EXEMPT', order_by_field_name: 'sku', order_by: 'asc' },
      { id: 42 },
      { only_trashed: 1, per_page: 200 },
      { with_trashed: '1', q: 'kopiko', order_by_field_name: 'name' },
      { description: 'case of 1', order_by_field_name: 'name', order_by: 'asc' },
    );
    for (const params of queries) {
      const answer = searchKept(items, params, index);
      expect(answer, JSON.stringify(params)).toEqual(searchEveryRecord(items, params, inIdOrder));
      // The same from the records themselves, in any order.
      expect(searchKept(items, params, shuffled), JSON.stringify(params)).toEqual(answer);
    }
  });

  it('orders records holding the same value by id in the list’s direction, as the server does, and those holding none last', () => {
    const ordered = searchKept(items, { order_by_field_name: 'reorder_level', per_page: 5000, with_trashed: 1 }, index).rows;
    const levels = ordered.map((row) => row.reorder_level);
    const valued = levels.filter((level) => level !== null) as number[];
    expect(valued).toEqual([...valued].sort((a, b) => b - a));
    expect(levels.slice(valued.length).every((level) => level === null)).toBe(true);
    for (let at = 1; at < ordered.length; at += 1) {
      if (ordered[at].reorder_level === ordered[at - 1].reorder_level)
        expect(Number(ordered[at].id)).toBeLessThan(Number(ordered[at - 1].id));
    }
    const ascending = searchKept(
      items,
      { order_by_field_name: 'reorder_level', order_by: 'asc', per_page: 5000, with_trashed: 1 },
      index,
    ).rows;
    expect(ascending.map((row) => row.reorder_level)).toEqual([...[...valued].sort((a, b) => a - b), ...levels.slice(valued.length)]);
  });

  it('finds a scanned barcode or a SKU by its whole value, whatever its case, and nothing by a part of it', () => {
    const item = kept[1233];
    expect(searchKept(items, { barcode: item.barcode, is_strict: 1, limit: 1 }, index).rows).toEqual([item]);
    expect(searchKept(items, { sku: String(item.sku).toLowerCase(), is_strict: 1, limit: 1 }, index).rows).toEqual([item]);
    expect(searchKept(items, { barcode: String(item.barcode).slice(0, 10), is_strict: 1 }, index).total).toBe(0);
    expect(index.equalTo('barcode', String(item.barcode))).toEqual([expect.objectContaining({ record: item })]);
    // A trashed item is found only when the trash is asked.
    const trashed = kept[16];
    expect(searchKept(items, { sku: trashed.sku, is_strict: 1 }, index).total).toBe(0);
    expect(searchKept(items, { sku: trashed.sku, is_strict: 1, with_trashed: 1 }, index).rows).toEqual([trashed]);
  });

  it('follows records put and removed: a changed barcode, a renamed item, a new one, one gone', () => {
    const changing = new KeptIndex(items, catalogue(300));
    const byName = () =>
      searchKept(items, { order_by_field_name: 'name', order_by: 'asc', per_page: 1000 }, changing).rows.map((row) => row.id);
    expect(byName()[0]).not.toBe(41);
    const before = catalogue(300)[40];
    changing.put([{ ...before, barcode: '4899999999999', name: 'AAA First of all', version: 2 }]);
    expect(searchKept(items, { barcode: before.barcode, is_strict: 1 }, changing).total).toBe(0);
    expect(searchKept(items, { barcode: '4899999999999', is_strict: 1 }, changing).rows).toEqual([
      expect.objectContaining({ id: 41, version: 2 }),
    ]);
    expect(byName()[0]).toBe(41);

    changing.put([{ ...before, id: 1000, sku: 'NEW-1', barcode: '4811111111111', name: 'Brand new' }]);
    expect(searchKept(items, { q: 'brand new' }, changing).rows.map((row) => row.id)).toEqual([1000]);
    expect(searchKept(items, {}, changing).rows[0].id).toBe(1000);
    changing.remove([1000, 41]);
    expect(searchKept(items, { barcode: '4811111111111', is_strict: 1 }, changing).total).toBe(0);
    expect(searchKept(items, { q: 'first of all' }, changing).total).toBe(0);
    expect(changing.size).toBe(299);

    // Many at once: the id order is made again whole, with the same answers.
    const renamed = catalogue(300).map((row) => ({ ...row, name: `Z ${String(row.name)}` }));
    changing.put(renamed);
    expect(searchKept(items, { q: 'z ', per_page: 1000 }, changing).total).toBe(
      searchEveryRecord(items, { q: 'z ', per_page: 1000 }, renamed).total,
    );
    expect(searchKept(items, { per_page: 15 }, changing)).toEqual(searchEveryRecord(items, { per_page: 15 }, renamed));
  });
});

const NAME_WORDS = [
  'Niño',
  'Jalapeño',
  'Piña',
  'Café',
  'Silver Swan',
  'Soy Sauce',
  'Tuna',
  'Flakes',
  'Banana',
  'Nana',
  'Hot & Spicy',
  '6 x 55g',
  'Ube',
];

describe('a name typed, found by its trigrams', () => {
  const random = randomSequence(28);
  const draw = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  /** An item of a few words (many sharing a name), some in the trash, some without a barcode or a reorder level. */
  const drawnItem = (id: number, version = 1): Row => ({
    id,
    sku: `SKU-${String(id).padStart(5, '0')}`,
    barcode: random() < 0.1 ? null : String(4800000000000 + id * 37),
    name: Array.from({ length: 1 + Math.floor(random() * 3) }, () => draw(NAME_WORDS)).join(' '),
    reorder_level: random() < 0.2 ? null : Math.floor(random() * 20),
    deleted_at: random() < 0.05 ? '2026-11-01T00:00:00Z' : null,
    version,
  });
  /** Terms a clerk might type: parts of the names, SKUs and barcodes held, of any length and case, and some found nowhere. */
  const termsOf = (held: readonly Row[]): string[] => {
    const drawn = Array.from({ length: 40 }, () => {
      const text = String(draw(held)[draw(['name', 'name', 'name', 'sku', 'barcode'])] ?? 'none');
      const from = Math.floor(random() * text.length);
      const part = text.slice(from, from + 1 + Math.floor(random() * 12));
      return random() < 0.5 ? part.toUpperCase() : part;
    });
    const fixed = [
      'ñ',
      'Ñ',
      'ño',
      'iño',
      'NIÑO',
      'piña c',
      'é',
      'afé',
      ' café ',
      'x',
      'zz',
      'zzz',
      'anana',
      'nana b',
      'sku-0',
      '55g',
      '6 x 5',
    ];
    // A name's end and its SKU's start, which no field holds together.
    return [...drawn, ...fixed, `${String(held[0].name).slice(-3)}sku`];
  };
  const shapes = (q: string): Row[] => [
    { q, limit: 15, order_by_field_name: 'name', order_by: 'asc' },
    { q, per_page: 10, page: 2, order_by_field_name: 'name' },
    { q, per_page: 20 },
    { q, order_by: 'asc', with_trashed: 1, per_page: 30 },
    { q, only_trashed: 1, order_by_field_name: 'reorder_level', order_by: 'asc', per_page: 100 },
    { q, order_by_field_name: 'reorder_level', per_page: 50 },
  ];

  it('answers every term as testing every record would, as the records change', () => {
    const held = new Map<number, Row>();
    const start = Array.from({ length: 2500 }, (_, at) => drawnItem(2 * (at + 1)));
    for (const record of start) held.set(Number(record.id), record);
    const index = new KeptIndex(items, start);
    let [long, byTrigrams] = [0, 0];
    const answersAsEveryRecord = () => {
      const kept = [...held.values()].sort((a, b) => Number(a.id) - Number(b.id));
      // The orders followed the changes to where a sort of every record puts them.
      const made = new KeptIndex(items, kept);
      for (const field of ['name', 'reorder_level']) {
        const [followed, sorted] = [index.sortedBy(field), made.sortedBy(field)];
        expect(followed.entries.map((entry) => entry.id)).toEqual(sorted.entries.map((entry) => entry.id));
        expect(followed.withValue).toBe(sorted.withValue);
      }
      for (const term of termsOf(kept)) {
        const lowered = term.trim().toLowerCase();
        // The trigrams' own answer, where they give one (not under three characters, nor for a term in most records).
        const holding = index.pickerHolding(lowered);
        if (lowered.length < 3) expect(holding).toBeNull();
        else long += 1;
        if (holding) {
          expect(
            holding.map((entry) => entry.id),
            term,
          ).toEqual(index.all().flatMap((entry) => (entry.picker.includes(lowered) ? [entry.id] : [])));
          byTrigrams += 1;
        }
        for (const params of shapes(term)) {
          expect(searchKept(items, params, index), JSON.stringify(params)).toEqual(searchEveryRecord(items, params, kept));
        }
      }
    };
    const put = (records: Row[]) => {
      index.put(records);
      for (const record of records) held.set(Number(record.id), record);
    };
    const remove = (ids: number[]) => {
      index.remove(ids);
      for (const id of ids) held.delete(id);
    };
    const someHeld = (count: number) => Array.from({ length: count }, () => draw([...held.values()]));
    answersAsEveryRecord();

    // A few at a time: renamed, only a new version, into the trash and out, new ones between, some gone.
    put(someHeld(50).map((record) => ({ ...drawnItem(Number(record.id), 2) })));
    put(someHeld(30).map((record) => ({ ...record, version: 3 })));
    put(someHeld(20).map((record) => ({ ...record, deleted_at: record.deleted_at ? null : '2026-12-01T00:00:00Z' })));
    put(Array.from({ length: 40 }, () => drawnItem(2 * Math.floor(random() * 2600) + 1)));
    remove(someHeld(30).map((record) => Number(record.id)));
    // The same record twice in one change: the later stands.
    const twice = someHeld(1)[0];
    put([
      { ...twice, name: 'Ube Halaya', version: 4 },
      { ...twice, name: 'Piña Halaya', version: 5 },
    ]);
    answersAsEveryRecord();
    expect(searchKept(items, { q: 'halaya', with_trashed: 1 }, index).rows).toEqual([expect.objectContaining({ name: 'Piña Halaya' })]);

    // Many at once.
    put(someHeld(250).map((record) => drawnItem(Number(record.id), 6)));
    remove([...new Set(someHeld(300).map((record) => Number(record.id)))]);
    answersAsEveryRecord();

    // So many gone that the records are numbered again, then changed again.
    remove([...held.keys()].filter((id) => id % 3 !== 0));
    expect(Math.max(...index.all().map((entry) => entry.slot))).toBe(index.size - 1);
    answersAsEveryRecord();
    put(someHeld(20).map((record) => drawnItem(Number(record.id), 7)));
    put(Array.from({ length: 10 }, (_, at) => drawnItem(6000 + at)));
    answersAsEveryRecord();
    // Most terms of three characters or more were found by the trigrams.
    expect(byTrigrams).toBeGreaterThan(long / 2);
    // Every SKU holds "sku": every record is tested instead.
    expect(index.pickerHolding('sku')).toBeNull();
  });

  it('tests each candidate: a name holding the trigrams apart, a letter sharing a list, a name changed since', () => {
    const index = new KeptIndex(items, [
      { id: 1, sku: 'A-1', barcode: null, name: 'Nana Chips', deleted_at: null },
      { id: 2, sku: 'A-2', barcode: null, name: 'Banana Chips', deleted_at: null },
      // "ѡ" (U+0461) shares its trigrams' lists with "a" (U+0061).
      { id: 3, sku: 'A-3', barcode: null, name: 'Ѡbc Soap', deleted_at: null },
      { id: 4, sku: 'A-4', barcode: null, name: 'Abc Soap', deleted_at: null },
      // Others, so that no term here is in most records (which every record is tested for).
      { id: 5, sku: 'B-5', barcode: null, name: 'Corned Beef', deleted_at: null },
      { id: 6, sku: 'B-6', barcode: null, name: 'Tuna Flakes', deleted_at: null },
    ]);
    const found = (q: string) => searchKept(items, { q }, index).rows.map((row) => row.id);
    expect(found('anana')).toEqual([2]);
    expect(found('abc soap')).toEqual([4]);
    expect(found('ѡbc')).toEqual([3]);
    index.put([{ id: 4, sku: 'A-4', barcode: null, name: 'Xyz Soap', deleted_at: null }]);
    expect(found('abc soap')).toEqual([]);
    expect(found('xyz soap')).toEqual([4]);
    expect(found('soap')).toEqual([4, 3]);
  });
});

describe('the index of a kept resource', () => {
  let nextUser = 700;
  const BUSINESS = 4;
  const kept = catalogue(5);

  beforeEach(async () => {
    vi.stubGlobal('navigator', { onLine: true });
    openOfflineStore(nextUser++);
    await offlineDatabase();
    await saveAnswer(`${BUSINESS}|items|list|`, BUSINESS, 'items', { data: kept }, kept);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is read from the device once, then follows what is kept after', async () => {
    const index = (await keptIndex(BUSINESS, items))!;
    expect(index.size).toBe(5);
    expect(await keptIndex(BUSINESS, items)).toBe(index);

    // A list answered later puts its records in the same index.
    await saveAnswer(`${BUSINESS}|items|list|?page=2`, BUSINESS, 'items', {}, [{ ...kept[0], id: 6, sku: 'SKU-6', barcode: '123' }]);
    expect(await keptIndex(BUSINESS, items)).toBe(index);
    expect(searchKept(items, { barcode: '123', is_strict: 1 }, index).rows.map((row) => row.id)).toEqual([6]);

    // A record kept newer is not put back as an older list saw it.
    await saveAnswer(`${BUSINESS}|items|list|?new`, BUSINESS, 'items', {}, [{ ...kept[1], name: 'Renamed', version: 3 }]);
    await saveAnswer(`${BUSINESS}|items|list|?old`, BUSINESS, 'items', {}, [{ ...kept[1], version: 2 }]);
    expect(searchKept(items, { id: 2 }, index).rows).toEqual([expect.objectContaining({ name: 'Renamed', version: 3 })]);
    const db = await offlineDatabase()!;
    expect((await db.records.get(`${BUSINESS}|items|2`))?.record).toMatchObject({ name: 'Renamed', version: 3 });

    // Told that more changed than it says (a download's pages): read again on next use.
    await db.records.delete(`${BUSINESS}|items|3`);
    recordsChanged(BUSINESS, 'items', 'all');
    const again = (await keptIndex(BUSINESS, items))!;
    expect(again).not.toBe(index);
    expect(again.size).toBe(5);
  });

  it('hears what another tab changed', async () => {
    const index = (await keptIndex(BUSINESS, items))!;
    const otherTab = new BroadcastChannel(`${offlineDatabaseName()}-records`);
    const heard = new Promise<void>((resolve) => setTimeout(resolve, 50));
    otherTab.postMessage({ businessId: BUSINESS, resource: 'items', change: { removed: [1, 2] } } satisfies RecordsChanged);
    await heard;
    otherTab.close();
    expect(index.size).toBe(3);
    expect(searchKept(items, { id: 1 }, index).total).toBe(0);
  });

  it('takes in what changed while it was being read', async () => {
    const reading = keptIndex(BUSINESS, items);
    recordsChanged(BUSINESS, 'items', { put: [{ ...kept[0], id: 99, sku: 'LATE' }], removed: [5] });
    const index = (await reading)!;
    expect(searchKept(items, { sku: 'late', is_strict: 1 }, index).rows.map((row) => row.id)).toEqual([99]);
    expect(searchKept(items, { id: 5 }, index).total).toBe(0);
  });
});
