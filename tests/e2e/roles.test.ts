import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centavosToPesos, formatPesos } from '../../src/domain/money';
import { ledgerDiscrepancies } from '../../src/server/documents/ledger';
import { chromiumAvailable, PHONE, selectOption, signedIn, startE2E, TABLET, type E2E } from './browser';

/**
 * Each demo role signs in and does its day's work start to finish, through the screens alone, on
 * a phone and on a tablet. (Purchasing's day, a five-line order at the keyboard, is
 * keyboard-entry.test.ts.)
 */
describe.skipIf(!chromiumAvailable).each([
  ['phone', PHONE],
  ['tablet', TABLET],
] as const)('each role does its job in Chromium, on a %s', { timeout: 180_000 }, (_size, viewport) => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    if (e2e) expect(await ledgerDiscrepancies(e2e.app.db)).toEqual([]);
    await e2e?.close();
  });

  async function pick(page: Page, label: string | RegExp, typed: string, option: string | RegExp, index = 0) {
    const box = page.getByRole('combobox', { name: label }).nth(index);
    await box.fill(typed);
    await page.getByRole('option', { name: option }).first().click();
    // The box names what was picked: the line goes on with that record, not whatever else was listed.
    await expect.poll(() => box.inputValue()).toMatch(option);
  }
  async function choose(page: Page, label: string, option: string) {
    await page.getByRole('combobox', { name: new RegExp(`^${label}\\s*\\*?$`) }).click();
    await page.getByRole('option', { name: option, exact: true }).press('Enter');
  }
  /** Opens the first record of the list showing `text`: its card on a phone, a tap on its row on a tablet. */
  async function openFirst(page: Page, text?: string | RegExp) {
    if (viewport.width < 768) {
      const cards = page.getByRole('region', { name: /^List of / }).getByRole('listitem');
      await (text ? cards.filter({ hasText: text }) : cards).first().getByRole('link').first().click();
    } else
      await page
        .locator('tbody tr', text ? { hasText: text } : {})
        .first()
        .locator('td')
        .nth(1)
        .click();
  }
  const noPermissionMessage = (page: Page) => page.getByText('You do not have permission to do this.').count();

  it('the branch cashier sells three items, one by the dozen, and takes two payments', async () => {
    const { context, page } = await signedIn(e2e, 'cashier@example.com', viewport);
    await page.goto('/invoices/create');
    // The branch is the one place the cashier works at: shown, never asked.
    await expect.poll(() => page.getByLabel(/^Branch/).textContent()).toContain('Makati');
    await expect(page.getByRole('combobox', { name: /^Branch/ }).count()).resolves.toBe(0);
    await pick(page, /^Customer/, 'Rosa', 'Sari-Sari ni Aling Rosa');
    await pick(page, 'Item', 'Pancit Canton Original', /Pancit Canton Original/);
    // Only the units the item converts from are offered: its piece, and the dozen.
    await selectOption(page, page.getByLabel('Unit').first(), 'Dozen (doz)');
    // No dozen price is listed: the line says so before saving, and the cashier types one.
    await page.getByText(/No sale price is listed for Lucky Me! Pancit Canton Original in this unit/).waitFor();
    await page.getByLabel('Unit price').first().fill('180');
    await page.getByRole('button', { name: 'Add line' }).click();
    await pick(page, 'Item', 'Beef Noodles', /Beef Noodles/, 1);
    await page.getByLabel('Quantity').nth(1).fill('3');
    await page.getByRole('button', { name: 'Add line' }).click();
    await pick(page, 'Item', 'Hot & Spicy', /Hot & Spicy/, 2);
    await page.getByLabel('Quantity').nth(2).fill('2');
    await page.getByText('The total counts the lines priced so far.').waitFor({ state: 'detached' });
    expect(await noPermissionMessage(page)).toBe(0);
    const shown = await page.getByTestId('document-total').textContent();
    await page.getByRole('button', { name: 'Save Invoice' }).click();

    // Saved, the invoice itself opens, with the total it showed while it was built.
    await page.getByRole('heading', { name: /^Invoice I-/ }).waitFor();
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const invoice = await e2e.app.db.selectFrom('invoices').select(['total', 'balance']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(shown).toBe(formatPesos(centavosToPesos(invoice.total)));
    const dozen = await e2e.app.db
      .selectFrom('document_lines')
      .innerJoin('unit_of_measurements', 'unit_of_measurements.id', 'document_lines.unit_of_measurement_id')
      .select(['unit_of_measurements.abbreviation', 'document_lines.base_quantity'])
      .where('document_type', '=', 'invoice')
      .where('document_id', '=', id)
      .orderBy('position')
      .executeTakeFirstOrThrow();
    expect(dozen).toEqual({ abbreviation: 'doz', base_quantity: 12_000 });

    // Two payments: part in cash, the rest by GCash, each returning to the invoice.
    await page.getByRole('link', { name: 'Record payment' }).click();
    await page.getByLabel('Amount').fill('100');
    await page.getByLabel('Method').selectOption('cash');
    await page.getByRole('button', { name: 'Save Invoice Payment' }).click();
    await page.getByRole('heading', { name: /^Invoice I-/ }).waitFor();
    await page.getByText('Partially paid', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'Record payment' }).click();
    await expect.poll(() => page.getByLabel('Amount').inputValue()).toBe(String(centavosToPesos(invoice.total - 100_00)));
    await page.getByLabel('Method').selectOption('gcash');
    await page.getByLabel('Reference no.').fill('9012345678905');
    await page.getByRole('button', { name: 'Save Invoice Payment' }).click();
    await page.getByRole('heading', { name: /^Invoice I-/ }).waitFor();
    await page.getByText('Paid', { exact: true }).first().waitFor();
    // From the list, the invoice's card (phone) or row (tablet) opens it.
    await page.goto('/invoices');
    await openFirst(page, /I-\d{8}-B00001-\d{8}/);
    await page.getByRole('heading', { name: /^Invoice I-/ }).waitFor();
    await context.close();
  });

  it('warehouse staff receive a purchase order and send stock to a branch', async () => {
    const { context, page } = await signedIn(e2e, 'warehouse@example.com', viewport);
    await page.goto('/purchase-orders');
    // A tap anywhere on the row opens the order.
    await openFirst(page, 'Partially received');
    await page.getByRole('heading', { name: /^Purchase Order PO-/ }).waitFor();
    await page.getByRole('link', { name: 'Receive', exact: true }).click();
    await page.getByRole('heading', { name: 'Create Receive Order' }).waitFor();
    expect(await noPermissionMessage(page)).toBe(0);
    await page
      .getByText(/still open/)
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Save Receive Order' }).click();
    await page.getByRole('heading', { name: /^Receive Order RO-/ }).waitFor();

    await page.goto('/stock-transfers/create');
    // From the one place the clerk operates at, shown as it is.
    await expect.poll(() => page.getByLabel(/^From location/).textContent()).toContain('Valenzuela Central');
    await choose(page, 'To', 'Branch');
    // Sent to any branch, though the clerk only views them.
    await page.getByRole('combobox', { name: /^To location/ }).click();
    await expect.poll(async () => (await page.getByRole('option').allTextContents()).sort()).toEqual(['Cebu', 'Makati', 'Quezon City']);
    await pick(page, /^To location/, 'Makati', 'Makati');
    await pick(page, 'Item', 'Tomato Sauce', /Tomato Sauce/);
    await page.getByLabel('Quantity').fill('6');
    await page.getByRole('button', { name: 'Save Stock Transfer' }).click();
    await page.getByRole('heading', { name: /^Stock Transfer ST-/ }).waitFor();
    await page.getByText('In transit', { exact: true }).first().waitFor();
    await context.close();
  });

  it('branch staff request stock and receive a transfer at their branch', async () => {
    const { context, page } = await signedIn(e2e, 'branch@example.com', viewport);
    await page.goto('/stock-requests/create');
    // For their own branch, the one place they operate at; asked of any place.
    await expect.poll(() => page.getByLabel(/^To location/).textContent()).toContain('Makati');
    await choose(page, 'From', 'Warehouse');
    await pick(page, /^From location/, 'Valenzuela', 'Valenzuela Central');
    await pick(page, 'Item', 'Milo', /Milo/);
    await page.getByLabel('Quantity').fill('24');
    await page.getByRole('button', { name: 'Save Stock Request' }).click();
    await page.getByRole('heading', { name: /^Stock Request SR-/ }).waitFor();

    await page.goto('/stock-transfers');
    await openFirst(page, 'In transit');
    await page.getByRole('link', { name: 'Receive transfer' }).click();
    await page.getByRole('heading', { name: 'Create Stock Receive' }).waitFor();
    expect(await noPermissionMessage(page)).toBe(0);
    await page.getByRole('button', { name: 'Receive all', exact: true }).click();
    await page.getByRole('button', { name: 'Save Stock Receive' }).click();
    await page.getByRole('heading', { name: /^Stock Receive SRV-/ }).waitFor();
    await context.close();
  });

  it('the viewer opens lists and records and is offered no change', async () => {
    const { context, page } = await signedIn(e2e, 'viewer@example.com', viewport);
    await page.goto('/invoices');
    await page.getByText(/^List of Invoices - Total \d+/).waitFor();
    expect(await page.getByRole('link', { name: /Create New/ }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
    await openFirst(page);
    await page.getByRole('heading', { name: /^Invoice I-/ }).waitFor();
    for (const name of [/^Void/, /^Delete/, /^Edit/, /^Record payment/])
      expect((await page.getByRole('button', { name }).count()) + (await page.getByRole('link', { name }).count())).toBe(0);
    await context.close();
  });
});
