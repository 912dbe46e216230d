import { describe, expect, it } from 'vitest';
import {
  followOnsFrom,
  historyAction,
  madeTodayBy,
  manilaDayBounds,
  pastTense,
  statusValues,
  transitionLabel,
  transitionsFrom,
  transitionsOpen,
  trashableIn,
  trashRefusal,
} from './lifecycle';
import { getResource, registry } from './resources/registry';

const documents = registry.filter((definition) => definition.document);

describe('every document kind declares a lifecycle that holds together', () => {
  it.each(documents.map((definition) => [definition.name, definition] as const))('%s', (_name, definition) => {
    const lifecycle = definition.document!.lifecycle;
    const statuses = statusValues(lifecycle);
    // The status field offers exactly the declared statuses.
    expect(definition.fields.status.options?.map((option) => option.value)).toEqual(statuses);
    // A new document starts in one of its statuses; the figures decide only among its statuses.
    expect(statuses).toContain(lifecycle.start);
    for (const status of lifecycle.derived?.statuses ?? []) expect(statuses).toContain(status);
    expect(lifecycle.transitions.length).toBeGreaterThan(0);
    for (const transition of lifecycle.transitions) {
      expect(statuses).toContain(transition.to);
      for (const from of transition.from) expect(statuses).toContain(from);
      expect(transition.from).not.toContain(transition.to);
      // Its confirmation says what it does, or what it reverses.
      expect(transition.direction === 'forward' ? transition.does : transition.reverses).toMatch(/\.$/);
      if (transition.alsoNeeds) expect(getResource(transition.alsoNeeds.resource).name).toBe(transition.alsoNeeds.resource);
    }
    // One name, one route.
    const names = lifecycle.transitions.map((transition) => transition.name);
    expect(new Set(names).size).toBe(names.length);
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

  it('declares a count’s finish and post as steps forward, the post blocked for a blind count until its counting is finished', () => {
    const counts = getResource('stock-counts').document!.lifecycle;
    const open = (count: Record<string, unknown>) => transitionsOpen(counts, count).map((transition) => transition.name);
    expect(open({ status: 'open', blind: false })).toEqual(['finish', 'post', 'cancel']);
    expect(open({ status: 'open', blind: true })).toEqual(['finish', 'cancel']);
    expect(open({ status: 'counted', blind: true })).toEqual(['post', 'cancel']);
    expect(open({ status: 'posted', blind: false })).toEqual([]);
    const post = counts.transitions.find((transition) => transition.name === 'post')!;
    expect(post.blocked?.({ status: 'open', blind: 1 })).toMatch(/^is blind: finish counting it first/);
    expect(counts.transitions.map((transition) => `${transition.name} ${transition.direction}`)).toEqual([
      'finish forward',
      'post forward',
      'cancel undo',
    ]);
  });

  it('names what a transition did, and its button, from its name unless it says otherwise', () => {
    expect(['void', 'cancel', 'close', 'post', 'finish'].map(pastTense)).toEqual(['voided', 'cancelled', 'closed', 'posted', 'finished']);
    const counts = getResource('stock-counts').document!.lifecycle;
    const named = (name: string) => counts.transitions.find((transition) => transition.name === name)!;
    // Its history has always said so.
    expect(historyAction(named('finish'))).toBe('finished-counting');
    expect(historyAction(named('post'))).toBe('posted');
    expect(transitionLabel(named('post'), 'Stock Count')).toBe('Post count');
    expect(transitionLabel(named('cancel'), 'Stock Count')).toBe('Cancel Stock Count');
  });

  it('derives a bill’s status from what was settled of its total', () => {
    const derived = getResource('bills').document!.lifecycle.derived!;
    const of = (total: number, paid: number, adjusted: number) => derived.of({ total, amount_paid: paid, amount_adjusted: adjusted });
    expect([of(10_000, 0, 0), of(10_000, 1, 0), of(10_000, 4_000, 6_000), of(10_000, 0, 10_001), of(0, 0, 0)]).toEqual([
      'unpaid',
      'partially_paid',
      'paid',
      'paid',
      'unpaid',
    ]);
    expect(getResource('bills').document!.lifecycle.start).toBe('unpaid');
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
