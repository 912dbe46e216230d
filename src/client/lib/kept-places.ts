import {
  levelAt,
  PLACE_RESOURCES,
  PLACE_TYPES,
  placeAtEnd,
  reaches,
  viewsRecord,
  type PlaceAccess,
  type PlaceGrant,
  type PlaceLevel,
  type PlaceRule,
  type PlaceType,
} from '../../domain/places';
import { referenceKey, type ResourceDefinition } from '../../domain/resource';
import { DOCUMENT_RESOURCES, documentMemoranda } from '../../domain/resources/document-memoranda';
import { findResource, registry } from '../../domain/resources/registry';
import { filterPages, keptRecord } from './kept-records';
import type { KeptPlaces, OfflineDatabase, OutboxEntry } from './offline-store';

/**
 * What the device keeps follows where the user works (docs/architecture.md, "Offline"). Each time
 * the session fetches the user, their places in the business are compared with the ones the device
 * last kept; when they differ, what was kept of places the user no longer views goes: every kept
 * list and search of a resource whose records belong to places (they are asked again), every kept
 * record the user may no longer view, the memos of documents no longer kept, the overview's cards
 * and the list of places with the user's level at each. Records of no place (items, contacts …)
 * stay. Changes still in the outbox stay too, even at a place the user no longer operates at: the
 * replay parks them, unsent, with the reason in words, for the user to copy what they need and
 * discard (`lostPlace`, asked by outbox-replay.ts).
 */

type Place = { type: PlaceType; id: number };
type Row = Readonly<Record<string, unknown>>;

/** A user's places as the server tells them: each single place with its name. */
export interface NamedPlaces {
  all: PlaceLevel | null;
  grants: readonly (PlaceGrant & { name?: string })[];
}

/** The tables this module reads and writes. */
type PlacesDatabase = Pick<OfflineDatabase, 'answers' | 'records' | 'pages' | 'pageSummaries' | 'outbox' | 'places' | 'transaction'>;

/**
 * What a change of places removes besides the resources with places: the overview's cards, and
 * the business's places with the user's level at each (lib/places.ts), kept under these names.
 */
const ANSWERS_OF_PLACES = ['overview', 'places'];

const placeKey = (place: Place) => `${place.type}:${place.id}`;

/** The places and levels in a fixed order, names left out: equal for the same access however the server ordered it. */
export function fingerprintOf(access: PlaceAccess): string {
  const grants = access.grants.map((grant) => `${grant.type}:${grant.id}:${grant.level}`).sort();
  return JSON.stringify([access.all, grants]);
}

/** The place named at a rule's operating end; none when the record does not name it (the server fills it in). */
const operatingPlace = (rule: PlaceRule, record: Row | undefined): Place | null =>
  record ? placeAtEnd(rule.ends[rule.operates], record) : null;

/**
 * The rule of places a change is made by: its resource's; for a transition taken as another kind
 * is made (a transfer's rest closed as lost, by its receivers), that kind's, at the record's ends.
 */
const ruleOfChange = (definition: ResourceDefinition, entry: OutboxEntry): PlaceRule | undefined => {
  const asKind = definition.document?.lifecycle.transitions.find((transition) => transition.name === entry.action)?.asKind;
  return asKind ? findResource(asKind)?.places : definition.places;
};

/**
 * Where the device knows a change's record to be made or changed: the kept record it changes, or
 * the queued create that makes it; for a new document made from another (a payment of an invoice,
 * whose place the server copies from it), the kept document it comes from. None when nothing says.
 */
export async function knownPlace(db: Pick<OfflineDatabase, 'records' | 'pages' | 'outbox'>, entry: OutboxEntry): Promise<Place | null> {
  const definition = findResource(entry.resource);
  const rule = definition && ruleOfChange(definition, entry);
  if (!rule || entry.businessId === null) return null;
  if (entry.action === 'create') {
    const source = definition.document?.source;
    const sourceRule = source && findResource(source.resource)?.places;
    const sourceId = (entry.body as Row | undefined)?.[source?.field ?? ''];
    if (!source || !sourceRule || typeof sourceId !== 'number') return null;
    // Only a document at one place takes its source's place as it is (a payment, its invoice's);
    // goods between places take their ends in ways of their own (a receive's place is where its
    // transfer goes): those are left to the server.
    if (!('place' in rule.ends) || !('place' in sourceRule.ends)) return null;
    return operatingPlace(sourceRule, (await keptRecord(db, entry.businessId, source.resource, sourceId))?.record);
  }
  if (entry.recordId === null) return null;
  if (typeof entry.recordId === 'string') {
    const create = await db.outbox.where('key').equals(entry.recordId).first();
    return operatingPlace(rule, create?.body as Row | undefined);
  }
  return operatingPlace(rule, (await keptRecord(db, entry.businessId, entry.resource, entry.recordId))?.record);
}

/**
 * The place a queued change is made at where `access` does not operate; none when it may be sent.
 * It is checked at the record's place (`at`, else `known`: see `knownPlace`) and, for a create or
 * an update naming a place, at that place. A change that names no place, or of a resource
 * without places, is left to the server.
 */
export function lostPlace(entry: OutboxEntry, access: PlaceAccess, known: Place | null): Place | null {
  const rule = findResource(entry.resource)?.places;
  if (!rule) return null;
  const body = entry.action === 'create' || entry.action === 'update' ? (entry.body as Row | undefined) : undefined;
  const places = [entry.at ?? known, operatingPlace(rule, body)];
  return places.find((place) => place !== null && !reaches(levelAt(access, place.type, place.id), 'operate')) ?? null;
}

/** A place's name: as the device learnt it (`names`), or from its kept record; else its type and id. */
export async function placeName(
  db: Pick<OfflineDatabase, 'records' | 'pages'>,
  businessId: number,
  place: Place,
  names: Readonly<Record<string, string>>,
): Promise<string> {
  const kept = await keptRecord(db, businessId, PLACE_RESOURCES[place.type], place.id);
  const name = names[placeKey(place)] ?? kept?.record.name;
  return typeof name === 'string' ? name : `${place.type} #${place.id}`;
}

/** Why a change at a place no longer held stays on the device, in Pending changes. */
export const lostPlaceMessage = (name: string) =>
  `You no longer work at ${name}, so this change cannot be sent. Copy what you need, then discard it.`;

/** What the screen that made such a change is told: its form still holds what it would have sent. */
export const lostPlaceRefusal = (name: string) => `You no longer work at ${name}, so this change cannot be made there.`;

/** The names of places a kept record tells: a place's own name, or the name a reference to it shows. */
function namesIn(definition: ResourceDefinition, rule: PlaceRule, record: Row, names: Record<string, string>): void {
  const own = PLACE_TYPES.find((type) => PLACE_RESOURCES[type] === definition.name);
  if (own && typeof record.id === 'number' && typeof record.name === 'string') names[placeKey({ type: own, id: record.id })] = record.name;
  for (const end of Object.values(rule.ends)) {
    const place = placeAtEnd(end, record);
    const column = !place ? undefined : 'type' in end ? end.id : end[place.type];
    const display =
      column && column !== 'id' ? (record[referenceKey(column)] as { display?: unknown } | null | undefined)?.display : undefined;
    if (place && typeof display === 'string') names[placeKey(place)] = display;
  }
}

/**
 * Makes what the device keeps of one business follow the user's `places` there, and answers
 * whether they had changed (see the module's comment). All in one transaction: nothing of a
 * place no longer held stays half-removed. Before records go, each queued change learns the
 * place of its record (`at`), so the replay still knows where it was made.
 */
export async function followPlaces(db: PlacesDatabase, businessId: number, places: NamedPlaces): Promise<boolean> {
  const access: PlaceAccess = { all: places.all, grants: places.grants.map(({ type, id, level }) => ({ type, id, level })) };
  const fingerprint = fingerprintOf(access);
  const held = Object.fromEntries(places.grants.filter((grant) => grant.name).map((grant) => [placeKey(grant), grant.name!]));
  return db.transaction('rw', [db.places, db.answers, db.records, db.pages, db.pageSummaries, db.outbox], async () => {
    const kept = await db.places.get(businessId);
    const names = { ...kept?.names, ...held };
    if (kept?.fingerprint === fingerprint) {
      if (Object.keys(held).some((key) => kept.names[key] !== held[key])) await db.places.put({ ...kept, names });
      return false;
    }

    for (const entry of await db.outbox.toArray()) {
      if (entry.businessId !== businessId || entry.at) continue;
      const at = await knownPlace(db, entry);
      if (at) await db.outbox.update(entry.seq!, { at });
    }

    const bound = registry.filter((definition) => definition.places);
    await db.answers
      .where('[businessId+resource]')
      .anyOf([...bound.map(({ name }) => name), ...ANSWERS_OF_PLACES, documentMemoranda.name].map((resource) => [businessId, resource]))
      .delete();
    for (const definition of bound) {
      const rule = definition.places!;
      const rows = await db.records.where('[businessId+resource]').equals([businessId, definition.name]).toArray();
      for (const { record } of rows) namesIn(definition, rule, record, names);
      const gone = rows.filter(({ record }) => !viewsRecord(access, rule, record)).map(({ key }) => key);
      await db.records.bulkDelete(gone);
      await filterPages(
        db,
        businessId,
        definition.name,
        (record) => viewsRecord(access, rule, record),
        (record) => namesIn(definition, rule, record, names),
      );
    }
    // A memo follows its document: it stays only beside its document, kept and still viewed.
    const memos = await db.records.where('[businessId+resource]').equals([businessId, documentMemoranda.name]).toArray();
    const documents = await Promise.all(
      memos.map(({ record }) =>
        keptRecord(db, businessId, DOCUMENT_RESOURCES[String(record.document_type)] ?? '', Number(record.document_id)),
      ),
    );
    await db.records.bulkDelete(memos.filter((_, index) => documents[index] === undefined).map(({ key }) => key));

    await db.places.put({ businessId, fingerprint, access, names } satisfies KeptPlaces);
    return true;
  });
}
