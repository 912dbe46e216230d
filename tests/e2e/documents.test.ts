import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDiscrepancies } from '../../src/server/documents/ledger';
import type { Db } from '../../src/server/resources/store';
import { chromiumAvailable, signedIn, startE2E, type E2E } from './browser';

/** Purchasing and sales from the screens alone, and the stock following them. */
describe.skipIf(!chromiumAvailable)('documents in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    if (e2e) expect(await ledgerDiscrepancies(e2e.app.db as unknown as Db)).toEqual([]);
    await e2e?.close();
  });

  async function pick(page: Page, label: string, typed: string, option: string | RegExp) {
    await page.getByRole('combobox', { name: label }).fill(typed);
    await page.getByRole('option', { name: option }).click();
  }

  async function onHand(page: Page, item: string): Promise<string> {
    await page.goto('/stocks');
    await page.getByText(/^List of Stocks - Total \d+/).waitFor();
    await page.locator('tbody tr', { hasText: item }).first().getByRole('link', { name: 'View' }).click();
    await page.getByRole('heading', { name: `Stock of ${item} at Valenzuela Central` }).waitFor();
    return page.locator('dt:has-text("On hand") + dd').innerText();
  }

  it('orders, receives in part, bills and pays, and the stock follows', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    const milo = 'Nestlé Milo 300g';
    const before = Number(await onHand(page, milo));

    await page.goto('/purchase-orders/create');
    await pick(page, 'Supplier', 'Juan', 'Juan dela Cruz');
    await pick(page, 'Warehouse', 'Valenzuela', 'Valenzuela Central');
    await pick(page, 'Item', 'Milo', milo);
    await page.getByLabel('Quantity').fill('10');
    await page.getByLabel('Unit price').fill('96');
    // 10 × ₱96 = ₱960, plus 12 % VAT = ₱1,075.2
    await page.getByText('₱1,075.2').first().waitFor();
    await page.getByRole('button', { name: 'Save Purchase Order' }).click();
    await page.getByText('Purchase Order created successfully.').waitFor();

    await page.locator('tbody tr').first().getByRole('link', { name: 'View' }).click();
    await page.getByRole('heading', { name: /^Purchase Order PO-\d{8}-W00001-\d{8}/ }).waitFor();
    await page.getByText('Open', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'Receive', exact: true }).click();
    await page.getByRole('heading', { name: 'Create Receive Order' }).waitFor();
    await page.getByText('10 still open on the order').waitFor();
    await page.getByLabel('Quantity').fill('4');
    await page.getByRole('button', { name: 'Save Receive Order' }).click();
    await page.getByText('Receive Order created successfully.').waitFor();

    expect(Number(await onHand(page, milo))).toBe(before + 4);
    await page.locator('tbody tr').first().getByRole('link', { name: /^RO-/ }).click();
    await page.getByRole('heading', { name: /^Receive Order RO-/ }).waitFor();

    await page.goto('/purchase-orders');
    await page.locator('tbody tr').first().getByRole('link', { name: 'View' }).click();
    await page.getByText('Partially received').first().waitFor();
    await page.getByRole('link', { name: 'Bill', exact: true }).click();
    await page.getByRole('heading', { name: 'Create Bill' }).waitFor();
    await page.getByRole('button', { name: 'Save Bill' }).click();
    await page.getByText('Bill created successfully.').waitFor();

    await page.locator('tbody tr').first().getByRole('link', { name: 'View' }).click();
    await page.getByText('Unpaid', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'Record payment' }).click();
    await page.getByRole('heading', { name: 'Create Bill Payment' }).waitFor();
    expect(await page.getByLabel('Amount').inputValue()).toBe('1075.2');
    await page.getByLabel('Payment method').click();
    await page.getByRole('option', { name: 'GCash' }).press('Enter');
    await page.getByRole('button', { name: 'Save Bill Payment' }).click();
    await page.getByText('Bill Payment created successfully.').waitFor();

    await page.goto('/bills');
    await page.locator('tbody tr').first().getByRole('link', { name: 'View' }).click();
    await page.getByText('Paid', { exact: true }).first().waitFor();
    await page.getByRole('heading', { name: 'Related documents' }).waitFor();
    await page.getByRole('link', { name: /^BP-/ }).waitFor();
    await context.close();
  });

  it('quotes, invoices the quotation, takes the goods out of stock and a payment in', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    const milk = 'Alaska Evaporated Milk 370ml';
    const before = Number(await onHand(page, milk));

    await page.goto('/quotations/create');
    await pick(page, 'Customer', 'Rosa', 'Sari-Sari ni Aling Rosa');
    await pick(page, 'Warehouse', 'Valenzuela', 'Valenzuela Central');
    await pick(page, 'Item', 'Evaporated', milk);
    await page.getByLabel('Quantity').fill('12');
    await page.getByLabel('Unit price').fill('42');
    await page.getByRole('button', { name: 'Save Quotation' }).click();
    await page.getByText('Quotation created successfully.').waitFor();

    await page.locator('tbody tr').first().getByRole('link', { name: 'View' }).click();
    await page.getByRole('link', { name: 'Invoice', exact: true }).click();
    await page.getByRole('heading', { name: 'Create Invoice' }).waitFor();
    // 12 × ₱42 = ₱504, less the item's 5 % break at 10 = ₱478.8, plus 12 % VAT = ₱536.26
    await page.getByRole('button', { name: 'Save Invoice' }).click();
    await page.getByText('Invoice created successfully.').waitFor();
    expect(Number(await onHand(page, milk))).toBe(before - 12);

    await page.goto('/invoices');
    await page.locator('tbody tr').first().getByRole('link', { name: 'View' }).click();
    await page.getByText('Unpaid', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'Record payment' }).click();
    await page.getByRole('heading', { name: 'Create Invoice Payment' }).waitFor();
    expect(await page.getByLabel('Amount').inputValue()).toBe('536.26');
    await page.getByLabel('Amount').fill('200');
    await page.getByLabel('Payment method').click();
    await page.getByRole('option', { name: 'Cash', exact: true }).press('Enter');
    await page.getByRole('button', { name: 'Save Invoice Payment' }).click();
    await page.getByText('Invoice Payment created successfully.').waitFor();
    await page.goto('/invoices');
    await page.locator('tbody tr').first().getByRole('link', { name: 'View' }).click();
    await page.getByText('Partially paid', { exact: true }).first().waitFor();
    await context.close();
  });
});
