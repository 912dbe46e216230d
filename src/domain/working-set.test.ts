import { describe, expect, it } from 'vitest';
import { getResource } from './resources/registry';
import { belongsToWorkingSet, recentlyClosed, RETURN_DAYS } from './working-set';

describe('the working set', () => {
  const today = '2026-11-28';

  it('keeps an invoice or a bill paid in the last week, which goods may come back from, and no older one', () => {
    expect(recentlyClosed(getResource('invoices'), today)).toEqual({ statuses: ['paid'], since: '2026-11-21' });
    expect(RETURN_DAYS).toBe(7);
    // A bill too: goods go back to the supplier from it.
    expect(recentlyClosed(getResource('bills'), today)).toEqual({ statuses: ['paid'], since: '2026-11-21' });
    const paid = (date: string) => ({ id: 1, status: 'paid', date, deleted_at: null });
    expect(belongsToWorkingSet('invoices', paid('2026-11-27'), today)).toBe(true);
    expect(belongsToWorkingSet('invoices', paid('2026-11-21'), today)).toBe(true);
    expect(belongsToWorkingSet('invoices', paid('2026-11-20'), today)).toBe(false);
    // Without its date, it is not known to be recent.
    expect(belongsToWorkingSet('invoices', { id: 1, status: 'paid', deleted_at: null }, today)).toBe(false);
    // Voided, nothing comes back from it; trashed, it is gone; open, it is kept whatever its date.
    expect(belongsToWorkingSet('invoices', { ...paid('2026-11-27'), status: 'void' }, today)).toBe(false);
    expect(belongsToWorkingSet('invoices', { ...paid('2026-11-27'), deleted_at: '2026-11-27 10:00:00' }, today)).toBe(false);
    expect(belongsToWorkingSet('invoices', { ...paid('2025-01-01'), status: 'unpaid' }, today)).toBe(true);
  });

  it('keeps of other documents only the open ones', () => {
    expect(recentlyClosed(getResource('quotations'), today)).toBeUndefined();
    expect(recentlyClosed(getResource('stock-transfers'), today)).toBeUndefined();
    expect(belongsToWorkingSet('purchase-orders', { id: 1, status: 'received', date: '2026-11-27', deleted_at: null }, today)).toBe(false);
    expect(belongsToWorkingSet('items', { id: 1, deleted_at: null }, today)).toBe(true);
  });
});
