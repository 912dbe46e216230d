import { describe, expect, it } from 'vitest';
import { followOnsFrom, madeTodayBy, manilaDayBounds, statusValues, transitionsFrom, trashableIn, trashRefusal } from './lifecycle';
import { getResource, registry } from './resources/registry';

const documents = registry.filter((definition) => definition.document);

describe('every document kind declares a lifecycle that holds together', () => {
  it.each(documents.map((definition) => [definition.name, definition] as const))('%s', (_name, definition) => {
    const lifecycle = definition.document!.lifecycle;
    const statuses = statusValues(lifecycle);
    // The status field offers exactly the declared statuses.
    expect(definition.fields.status.options?.map((option) => option.value)).toEqual(statuses);
    expect(lifecycle.transitions.length).toBeGreaterThan(0);
    for (const transition of lifecycle.transitions) {
      expect(statuses).toContain(transition.to);
      for (const from of transition.from) expect(statuses).toContain(from);
      expect(transition.from).not.toContain(transition.to);
    }
    for (const status of lifecycle.trashable ?? []) expect(statuses).toContain(status);
    for (const followOn of lifecycle.followOns ?? []) {
      for (const from of followOn.from) expect(statuses).toContain(from);
      // The document that follows names this one in a reference field.
      const made = getResource(followOn.resource);
      expect(made.document, followOn.resource).toBeDefined();
      expect(made.fields[followOn.field]?.references, `${followOn.resource}.${followOn.field}`).toBe(definition.name);
    }
  });

  it('answers what a document in a status may do', () => {
    const orders = getResource('purchase-orders').document!.lifecycle;
    expect(transitionsFrom(orders, 'open').map((transition) => transition.name)).toEqual(['cancel']);
    expect(transitionsFrom(orders, 'partially_received')).toEqual([]);
    expect(trashableIn(orders, 'cancelled')).toBe(true);
    expect(trashableIn(orders, 'received')).toBe(false);
    expect(followOnsFrom(orders, 'received').map((followOn) => followOn.resource)).toEqual(['bills']);
    expect(trashableIn(getResource('quotations').document!.lifecycle, 'invoiced')).toBe(true);
  });

  it('says why a document cannot be trashed, and what to do when it can be done', () => {
    const bills = getResource('bills').document!.lifecycle;
    expect(trashRefusal(bills, 'Bill', 'B-1', 'unpaid')).toBe('Bill B-1 is unpaid: void it before deleting it.');
    // Paid in part, it cannot be voided until its payments are.
    expect(trashRefusal(bills, 'Bill', 'B-1', 'partially_paid')).toBe('Bill B-1 is partially paid.');
    const orders = getResource('purchase-orders').document!.lifecycle;
    expect(trashRefusal(orders, 'Purchase order', 'PO-1', 'received')).toBe('Purchase order PO-1 is received.');
  });
});

describe('a transition its maker may take on the day they made it', () => {
  it('is the stock adjustment’s void alone', () => {
    const byMaker = documents.flatMap((definition) =>
      definition
        .document!.lifecycle.transitions.filter((transition) => transition.byMakerSameDay)
        .map((transition) => `${definition.name} ${transition.name}`),
    );
    expect(byMaker).toEqual(['stock-adjustments void']);
  });

  it('bounds a Manila day in UTC: it starts at 16:00 the day before', () => {
    expect(manilaDayBounds('2026-11-20')).toEqual({ start: '2026-11-19T16:00:00.000Z', end: '2026-11-20T16:00:00.000Z' });
  });

  it('knows the maker made it today by Manila’s date, not the server’s', () => {
    // 20 November, 07:30 in Manila, is still the 19th in UTC.
    const now = new Date('2026-11-19T23:30:00.000Z');
    const made = (created_at: string, created_by: unknown = 7) => ({ created_at, created_by });
    expect(madeTodayBy(made('2026-11-19T16:00:00.000Z'), 7, now)).toBe(true);
    expect(madeTodayBy(made('2026-11-20T15:59:59.999Z'), 7, now)).toBe(true);
    // 23:59 in Manila on the 19th: the day before.
    expect(madeTodayBy(made('2026-11-19T15:59:59.999Z'), 7, now)).toBe(false);
    expect(madeTodayBy(made('2026-11-19T20:00:00.000Z'), 8, now)).toBe(false);
    expect(madeTodayBy(made('2026-11-19T20:00:00.000Z', null), 7, now)).toBe(false);
    expect(madeTodayBy(made('2026-11-19T20:00:00.000Z'), undefined, now)).toBe(false);
  });
});
