import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDiscrepancies } from '../../src/server/documents/ledger';
import { chromiumAvailable, PHONE, signedIn, startE2E, type E2E } from './browser';

/**
 * A warehouse clerk on a phone finds goods damaged: the reason gives the quantity its sign (they
 * type 3, the line says −3), the stock goes down by 3, and the clerk, who may not delete
 * adjustments, voids their own the same day, which puts the 3 back.
 */
describe.skipIf(!chromiumAvailable)('stock adjustments in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    if (e2e) expect(await ledgerDiscrepancies(e2e.app.db)).toEqual([]);
    await e2e?.close();
  });

  /** What is on hand of the item at Valenzuela Central, the warehouse clerk's warehouse. */
  async function onHand(itemId: number): Promise<number> {
    const row = await e2e.app.db
      .selectFrom('stocks')
      .innerJoin('warehouses', 'warehouses.id', 'stocks.location_id')
      .select('stocks.quantity_on_hand')
      .where('stocks.item_id', '=', itemId)
      .where('stocks.location_type', '=', 'warehouse')
      .where('warehouses.name', '=', 'Valenzuela Central')
      .executeTakeFirst();
    return Number(row?.quantity_on_hand ?? 0) / 1000;
  }

  it('records 3 damaged on a phone, typed without a sign, and its maker voids it the same day', async () => {
    const milo = await e2e.app.db
      .selectFrom('items')
      .select(['id', 'name'])
      .where('name', '=', 'Nestlé Milo 300g')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const before = await onHand(milo.id);
    expect(before).toBeGreaterThanOrEqual(3);
    const { context, page } = await signedIn(e2e, 'warehouse@example.com', PHONE);

    await page.goto('/stock-adjustments/create');
    await expect.poll(() => page.getByLabel(/^Warehouse/).textContent()).toContain('Valenzuela Central');
    await page.getByRole('combobox', { name: 'Item' }).fill('NES-MLO');
    await page.getByRole('option', { name: new RegExp(milo.name) }).click();
    const change = page.getByRole('textbox', { name: 'Change', exact: true });
    // No reason yet: the sign is the clerk's, by the ± key, and the field opens the numeric keypad.
    expect(await change.getAttribute('inputmode')).toBe('decimal');
    await page.getByRole('button', { name: 'Change sign' }).waitFor();
    await change.fill('3');
    await page.getByLabel('Reason').selectOption('damaged');
    // Damaged takes stock away: the line says −3, and offers no sign to change.
    await expect.poll(() => page.locator('#line-0-quantity-sign > [aria-hidden="true"]').innerText()).toBe('−');
    expect(await change.inputValue()).toBe('3');
    expect(await page.getByRole('button', { name: 'Change sign' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Save Stock Adjustment' }).click();
    await page.getByText('Stock Adjustment created successfully.').waitFor();

    const heading = page.getByRole('heading', { name: /^Stock Adjustment SA-/ });
    await heading.waitFor();
    await page.getByRole('cell', { name: /^-3 / }).waitFor();
    await page.getByRole('cell', { name: 'Damaged' }).waitFor();
    expect(await onHand(milo.id)).toBe(before - 3);

    // Their own, today: Void is offered though they may not delete adjustments.
    await page.getByRole('button', { name: 'Void Stock Adjustment' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Void Stock Adjustment' }).click();
    await page.getByText('Stock Adjustment voided successfully.').waitFor();
    await page.getByText('Void', { exact: true }).first().waitFor();
    await expect.poll(() => onHand(milo.id)).toBe(before);
    expect(await page.getByRole('button', { name: 'Void Stock Adjustment' }).count()).toBe(0);
    await context.close();
  });
});
