import { todayInManila, type Location } from '../../domain/documents';
import { registry } from '../../domain/resources/registry';
import { holdsAny, permissionName } from '../../domain/permissions';
import { api } from './api';
import { offlineDatabase, type KeptNumberBlock, type OfflineDatabase } from './offline-store';
import type { Change } from './outbox-queue';
import { locationIn } from './queued-number';

/**
 * The device's blocks of document numbers (the server's documents/number-blocks.ts), so that what
 * it makes — online or not — has its final number from the moment it is saved: a cashier's
 * invoice prints with it, and keeps it when it reaches the server. While online the device
 * reserves a block of each series it makes documents in (a kind at a place: the place the user
 * works at, and every place it made one at) once fewer than LOW numbers are left; a create of
 * that series takes the next number of its oldest block still serving; signing out hands back
 * what was not used. A series with no block left numbers on sync, as before.
 */

/** The document kinds numbered from blocks, as each declares (`document.numberBlocks`): a sale at the counter. */
const BLOCK_KINDS = registry.filter((definition) => definition.document?.numberBlocks);
/** A new block is reserved when a series has fewer numbers left than this. */
const LOW = 10;

type Body = Record<string, unknown>;

const sameLocation = (a: Location, b: Location) => a.type === b.type && a.id === b.id;

/**
 * `change` with a number of the device's blocks when it creates a document of a series the
 * device holds a block of (the number is the device's from then on, used or handed back), else
 * as it is. The series' blocks are topped up afterwards while online.
 */
export async function numbered(db: OfflineDatabase, change: Change): Promise<Change> {
  const body = change.body as Body | undefined;
  if (
    change.action !== 'create' ||
    change.businessId === null ||
    !BLOCK_KINDS.some((definition) => definition.name === change.resource) ||
    !body
  )
    return change;
  const location = locationIn(body);
  if (!location || typeof body.date !== 'string' || body.numbered) return change;
  const { businessId, resource } = change;
  const date = body.date;
  const taken = await db.transaction('rw', db.numberBlocks, async () => {
    const blocks = await db.numberBlocks.where('businessId').equals(businessId).sortBy('id');
    const block = blocks.find(
      (held) => held.resource === resource && sameLocation(held.location, location) && held.next <= held.last && held.expiresOn >= date,
    );
    if (!block) return null;
    await db.numberBlocks.update(block.id, { next: block.next + 1 });
    return { block_id: block.id, sequence: block.next };
  });
  void topUp(db, businessId, resource, location).catch(() => undefined);
  return taken ? { ...change, body: { ...body, numbered: taken } } : change;
}

/** Numbers of a series still to give on this device (blocks serving today or later). */
function left(blocks: readonly KeptNumberBlock[], resource: string, location: Location, today: string): number {
  return blocks
    .filter((block) => block.resource === resource && sameLocation(block.location, location) && block.expiresOn >= today)
    .reduce((sum, block) => sum + Math.max(0, block.last - block.next + 1), 0);
}

const reserving = new Map<string, Promise<void>>();

/** Reserves a block of a series when its numbers run low, online; one reservation per series at a time. */
async function topUp(db: OfflineDatabase, businessId: number, resource: string, location: Location): Promise<void> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return;
  const key = `${businessId}|${resource}|${location.type}:${location.id}`;
  if (reserving.has(key)) return reserving.get(key);
  const work = (async () => {
    const today = todayInManila();
    const blocks = await db.numberBlocks.where('businessId').equals(businessId).toArray();
    // Blocks no longer serving are forgotten: the server holds them, with what they gave.
    await db.numberBlocks.bulkDelete(blocks.filter((block) => block.expiresOn < today || block.next > block.last).map((block) => block.id));
    if (left(blocks, resource, location, today) >= LOW) return;
    const answer = await api<{ data: ServerBlock }>('POST', '/api/number-blocks', { body: { resource, place: location }, businessId });
    await db.numberBlocks.put(keptBlock(businessId, answer.data));
  })().finally(() => reserving.delete(key));
  reserving.set(key, work);
  return work;
}

interface ServerBlock {
  id: number;
  resource: string;
  location: Location;
  first: number;
  last: number;
  expires_on: string;
}

const keptBlock = (businessId: number, block: ServerBlock): KeptNumberBlock => ({
  id: block.id,
  businessId,
  resource: block.resource,
  location: block.location,
  first: block.first,
  last: block.last,
  next: block.first,
  expiresOn: block.expires_on,
});

/** The user as the session fetches them: who may make what, where they work, in which business. */
interface FetchedUser {
  business_id?: unknown;
  permission_names?: unknown;
  userable_type?: unknown;
  userable_id?: unknown;
}

/**
 * Each time the session fetches the user (lib/session.ts), online: every series this device makes documents in
 * gets a block when it runs low — the kinds the user may make, at the place they work and at the
 * places of the blocks the device holds.
 */
export async function keepNumberBlocks(db: OfflineDatabase, user: FetchedUser): Promise<void> {
  if (typeof user.business_id !== 'number' || !Array.isArray(user.permission_names)) return;
  const businessId = user.business_id;
  const held = new Set(user.permission_names as string[]);
  const blocks = await db.numberBlocks.where('businessId').equals(businessId).toArray();
  for (const definition of BLOCK_KINDS) {
    if (!holdsAny(held, [permissionName('create', definition.permission)])) continue;
    const resource = definition.name;
    const places: Location[] = blocks.filter((block) => block.resource === resource).map((block) => block.location);
    if ((user.userable_type === 'branch' || user.userable_type === 'warehouse') && typeof user.userable_id === 'number')
      places.push({ type: user.userable_type, id: user.userable_id });
    const unique = places.filter((place, at) => places.findIndex((other) => sameLocation(other, place)) === at);
    for (const place of unique) await topUp(db, businessId, resource, place).catch(() => undefined);
  }
}

/**
 * Hands back what the device did not use of its blocks (signing out), each from its next number:
 * the numbers it gave are below it, sent or still queued. Offline it hands back nothing; the
 * blocks expire on the server, which keeps what they gave.
 */
export async function returnNumberBlocks(): Promise<void> {
  const db = await offlineDatabase();
  if (!db || (typeof navigator !== 'undefined' && navigator.onLine === false)) return;
  for (const block of await db.numberBlocks.toArray()) {
    if (block.next > block.last) continue;
    try {
      await api('POST', `/api/number-blocks/${block.id}/return`, { body: { first_unused: block.next }, businessId: block.businessId });
      await db.numberBlocks.delete(block.id);
    } catch {
      // Kept: it expires on the server.
    }
  }
}
