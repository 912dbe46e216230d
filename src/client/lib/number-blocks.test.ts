import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { documentNumber, todayInManila } from '../../domain/documents';
import { getResource } from '../../domain/resources/registry';
import { keepNumberBlocks, numbered, returnNumberBlocks } from './number-blocks';
import { numberOfQueued } from './queued-number';
import { offlineDatabase, openOfflineStore, type OfflineDatabase } from './offline-store';
import { enqueue, foldIntoCreate, type Change } from './outbox-queue';

/**
 * The device's blocks of document numbers (number-blocks.ts) against an in-memory IndexedDB and a
 * stand-in for `/api/number-blocks`: reserved for the series the user sells in, given one by one
 * to new invoices, topped up when low, and handed back on signing out.
 */

const BUSINESS = 1;
const MAKATI = { type: 'branch', id: 3 } as const;
const today = todayInManila();
const cashier = { business_id: BUSINESS, permission_names: ['create-invoices'], userable_type: 'branch', userable_id: MAKATI.id };

let db: OfflineDatabase;
let nextUser = 7000;
let nextSequence: number;
let requests: { path: string; body: Record<string, unknown> }[];

const sale = (branch: number = MAKATI.id, extra: Record<string, unknown> = {}): Change => ({
  businessId: BUSINESS,
  resource: 'invoices',
  action: 'create',
  recordId: 'b1f5f3c2-5d6e-4f70-8a9b-0c1d2e3f4a5b',
  method: 'POST',
  path: '/api/invoices',
  body: { contact_id: 4, branch_id: branch, date: today, lines: [], ...extra },
  label: 'Create Invoice',
});

beforeEach(async () => {
  vi.stubGlobal('navigator', { onLine: true });
  nextSequence = 101;
  requests = [];
  let nextId = 1;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>;
      requests.push({ path: url, body });
      if (url === '/api/number-blocks') {
        const block = {
          id: nextId++,
          resource: body.resource,
          location: body.place,
          first: nextSequence,
          last: nextSequence + 11,
          expires_on: '2999-12-31',
        };
        nextSequence += 12;
        return new Response(JSON.stringify({ data: block }), { status: 201, headers: { 'Content-Type': 'application/json' } });
      }
      return new Response(JSON.stringify({ data: {} }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  openOfflineStore(nextUser++);
  db = (await offlineDatabase())!;
});

afterEach(() => vi.unstubAllGlobals());

const reservations = () => requests.filter((request) => request.path === '/api/number-blocks');
const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('number blocks on the device', () => {
  it('reserves a block where the cashier works, and gives its numbers to new invoices one by one', async () => {
    await keepNumberBlocks(db, cashier);
    expect(reservations()).toEqual([{ path: '/api/number-blocks', body: { resource: 'invoices', place: MAKATI } }]);

    const first = await numbered(db, sale());
    const second = await numbered(db, sale());
    expect((first.body as Record<string, unknown>).numbered).toEqual({ block_id: 1, sequence: 101 });
    expect((second.body as Record<string, unknown>).numbered).toEqual({ block_id: 1, sequence: 102 });
    expect(numberOfQueued('invoices', second.body)).toBe(documentNumber(getResource('invoices').document!.prefix, today, MAKATI, 102));

    // Another branch, another kind, a document dated past the block: numbered on sync.
    expect(await numbered(db, sale(9))).toEqual(sale(9));
    expect(await numbered(db, { ...sale(), resource: 'quotations' })).toEqual({ ...sale(), resource: 'quotations' });
    await db.numberBlocks.update(1, { expiresOn: today });
    const later = sale(MAKATI.id, { date: '2999-01-01' });
    expect(await numbered(db, later)).toEqual(later);
  });

  it('reserves nothing for a user who may not sell, and nothing more while enough numbers are left', async () => {
    await keepNumberBlocks(db, { ...cashier, permission_names: ['view-invoices'] });
    expect(reservations()).toEqual([]);
    await keepNumberBlocks(db, cashier);
    await keepNumberBlocks(db, cashier);
    expect(reservations()).toHaveLength(1);
  });

  it('tops a series up once fewer than ten numbers are left, and goes on into the new block', async () => {
    await keepNumberBlocks(db, cashier);
    const sequences: number[] = [];
    for (let made = 0; made < 14; made += 1) {
      sequences.push(((await numbered(db, sale())).body as { numbered: { sequence: number } }).numbered.sequence);
      await settled();
    }
    expect(reservations()).toHaveLength(2);
    expect(sequences).toEqual([...Array.from({ length: 12 }, (_, at) => 101 + at), 113, 114]);
  });

  it('hands back what was not used on signing out', async () => {
    await keepNumberBlocks(db, cashier);
    await numbered(db, sale());
    await numbered(db, sale());
    await returnNumberBlocks();
    expect(requests.at(-1)).toEqual({ path: '/api/number-blocks/1/return', body: { first_unused: 103 } });
    expect(await db.numberBlocks.count()).toBe(0);
  });

  it('keeps a queued invoice’s number when it is edited before it is sent', async () => {
    await keepNumberBlocks(db, cashier);
    const change = await numbered(db, sale());
    await enqueue(db, change, 'b1f5f3c2-5d6e-4f70-8a9b-0c1d2e3f4a5b', true);
    expect(await foldIntoCreate(db, 'b1f5f3c2-5d6e-4f70-8a9b-0c1d2e3f4a5b', { ...(sale().body as object), notes: 'Edited' })).toBe(true);
    const entry = await db.outbox.where('key').equals('b1f5f3c2-5d6e-4f70-8a9b-0c1d2e3f4a5b').first();
    expect(entry?.body).toMatchObject({ notes: 'Edited', numbered: { block_id: 1, sequence: 101 } });
  });
});
