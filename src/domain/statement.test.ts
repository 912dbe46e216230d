import { describe, expect, it } from 'vitest';
import { MASTER_PERMISSION } from './permissions';
import { registry } from './resources/registry';
import { defaultStatementPeriod, readsStatements, STATEMENT_PERMISSIONS, STATEMENT_SOURCES } from './statement';

describe('statements of account', () => {
  it('are made of every kind that charges a customer and every kind that credits what one owes, no other', () => {
    const charges = registry
      .filter((definition) => definition.document?.effects?.owed && definition.document.contact === 'Customer')
      .map((definition) => definition.name);
    const credits = registry
      .filter((definition) => charges.includes(definition.document?.effects?.settles?.resource ?? ''))
      .map((definition) => definition.name);
    expect(STATEMENT_SOURCES.map((source) => source.resource).sort()).toEqual([...charges, ...credits].sort());
  });

  it('describe each row by fields its kind has', () => {
    for (const { resource, details } of STATEMENT_SOURCES) {
      const fields = registry.find((definition) => definition.name === resource)!.fields;
      expect(
        details.filter((name) => !fields[name]),
        resource,
      ).toEqual([]);
    }
  });

  it('are read by whoever views the customer and every kind of their rows, or a master', () => {
    expect(STATEMENT_PERMISSIONS).toContain('view-contacts');
    expect(readsStatements(STATEMENT_PERMISSIONS)).toBe(true);
    for (const missing of STATEMENT_PERMISSIONS)
      expect(readsStatements(STATEMENT_PERMISSIONS.filter((name) => name !== missing))).toBe(false);
    expect(readsStatements([MASTER_PERMISSION])).toBe(true);
  });

  it('cover from the first of the month three months back to the day, unless asked', () => {
    expect(defaultStatementPeriod('2026-11-28')).toEqual({ from: '2026-08-01', to: '2026-11-28' });
    expect(defaultStatementPeriod('2026-01-31')).toEqual({ from: '2025-10-01', to: '2026-01-31' });
    expect(defaultStatementPeriod('2024-05-01')).toEqual({ from: '2024-02-01', to: '2024-05-01' });
    expect(defaultStatementPeriod('0050-02-10')).toEqual({ from: '0049-11-01', to: '0050-02-10' });
  });
});
