import { describe, expect, it } from 'vitest';
import { registry } from './resources/registry';

const documents = registry.filter((definition) => definition.document);
const byType = new Map(documents.map((definition) => [definition.document!.type, definition]));

/**
 * The declared effects are what the audit checks every kind by and what a document at one place
 * moves when it is made (`ownMovements`), and `stock` is which way the screens expect its goods
 * to go: the two must say the same.
 */
describe('the declared effects of the document kinds', () => {
  it('move stock on hand where and as each kind moves it when made', () => {
    for (const definition of documents) {
      const { stock, twoLocations, lines, effects } = definition.document!;
      const moving = (effects?.stock ?? []).filter((effect) => effect.onHand !== 0);
      // Lines are told apart only by what they carry: a return's by disposition, an adjustment's by reason.
      expect(
        moving.some((effect) => effect.dispositions),
        definition.name,
      ).toBe(lines === 'returns');
      expect(
        (effects?.stock ?? []).some((effect) => effect.reasons),
        definition.name,
      ).toBe(lines === 'adjustments');
      // Each place and way once, as the spec's `stock` says which way goods go (a return's come back).
      const ways = [...new Set(moving.map((effect) => `${effect.at} ${effect.onHand}`))];
      const at = twoLocations ? (stock === 'out' ? 'from' : 'to') : 'own';
      const way = stock ? `${at} ${stock === 'out' ? -1 : 1}` : lines === 'returns' ? 'own 1' : undefined;
      expect(ways, definition.name).toEqual(way ? [way] : []);
      // Moving both ways is by each line's sign: only adjustments' lines are signed.
      expect(stock === 'both', definition.name).toBe(lines === 'adjustments');
    }
  });

  it('quarantine goods only at a kind’s own place, and only of the lines it names', () => {
    for (const definition of documents) {
      for (const effect of definition.document!.effects?.stock ?? []) {
        if (!effect.quarantined) continue;
        expect(effect.at, definition.name).toBe('own');
        expect(effect.dispositions ?? effect.reasons, definition.name).toBeDefined();
      }
    }
  });

  it('move goods only at places a kind has, and write off only the rest another kind of document takes', () => {
    for (const definition of documents) {
      const { twoLocations, effects, lifecycle } = definition.document!;
      for (const effect of effects?.stock ?? []) {
        expect(effect.at === 'own', definition.name).toBe(!twoLocations);
        if (!effect.rest) continue;
        expect(Object.keys(lifecycle.statuses), definition.name).toContain(effect.rest.status);
        // The taking kind is made from this one: its lines name this kind's lines.
        expect(byType.get(effect.rest.takenBy)?.document?.source?.resource, definition.name).toBe(definition.name);
      }
    }
    expect(byType.get('stock-transfer')!.document!.effects!.stock!.filter((effect) => effect.rest)).toHaveLength(1);
  });

  it('settle only kinds that are owed, by the field naming the settled document, and each owed kind by payments and memoranda', () => {
    const settling = documents.filter((definition) => definition.document!.effects?.settles);
    for (const definition of settling) {
      const settles = definition.document!.effects!.settles!;
      expect(registry.find((owed) => owed.name === settles.resource)?.document?.effects?.owed, definition.name).toBe(true);
      expect(definition.document!.source, definition.name).toEqual({ field: settles.field, resource: settles.resource });
    }
    const owed = documents.filter((definition) => definition.document!.effects?.owed).map((definition) => definition.name);
    expect(owed.sort()).toEqual(['bills', 'invoices']);
    for (const name of owed) {
      const into = settling.filter((definition) => definition.document!.effects!.settles!.resource === name);
      expect([...new Set(into.map((definition) => definition.document!.effects!.settles!.into))].sort(), name).toEqual([
        'amount_adjusted',
        'amount_paid',
      ]);
    }
  });

  it('fulfil lines only of kinds whose lines later documents fulfil', () => {
    for (const definition of documents.filter((kind) => kind.document!.effects?.fulfils)) {
      const source = registry.find((kind) => kind.name === definition.document!.source?.resource);
      expect(source?.document?.lifecycle.linesDone, definition.name).toBeDefined();
    }
  });
});
