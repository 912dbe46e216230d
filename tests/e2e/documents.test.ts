import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDiscrepancies } from '../../src/server/documents/ledger';
import { chromiumAvailable, signedIn, startE2E, type E2E } from './browser';

/** Purchasing and sales from the screens alone, and the stock following them. */
describe.skipIf(!chromiumAvailable)('documents in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    if (e2e) expect(await ledgerDiscrepancies(e2e.app.db)).toEqual([]);
    await e2e?.close();
  });

  async function pick(page: Page, label: string, typed: string, option: string | RegExp) {
    await page.getByRole('combobox', { name: label }).fill(typed);
    await page.getByRole('option', { name: option }).click();
  }

  async function choose(page: Page, label: string, option: string) {
    // The label alone (a required field's name may end in its asterisk), not "From location".
    await page.getByRole('combobox', { name: new RegExp(`^${label}\\s*\\*?$`) }).click();
    await page.getByRole('option', { name: option, exact: true }).press('Enter');
  }

  /** A stock's figure ("On hand", "In transit") from its view; 0 where the item never was. */
  async function stockOf(page: Page, item: string, place = 'Valenzuela Central', figure = 'On hand'): Promise<number> {
    // Every balance of the demo business fits one page of 100.
    await page.goto('/stocks?per_page=100');
    await page.getByText(/^List of Stocks - Total \d+/).waitFor();
    const row = page.locator('tbody tr', { hasText: item }).filter({ hasText: place }).first();
    if ((await row.count()) === 0) return 0;
    await row.getByRole('link', { name: 'View' }).click();
    await page.getByRole('heading', { name: `Stock of ${item} at ${place}` }).waitFor();
    return Number(await page.locator(`dt:has-text("${figure}") + dd`).innerText());
  }

  const onHand = (page: Page, item: string) => stockOf(page, item);

  it('orders, receives in part, bills and pays, and the stock follows', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    const milo = 'Nestlé Milo 300g';
    const before = await onHand(page, milo);

    await page.goto('/purchase-orders/create');
    await pick(page, 'Supplier', 'Juan', 'Juan dela Cruz');
    await pick(page, 'Warehouse', 'Valenzuela', 'Valenzuela Central');
    // Found by its SKU, as a clerk types it.
    await pick(page, 'Item', 'NES-MLO', milo);
    await page.getByLabel('Quantity').fill('10');
    await page.getByLabel('Unit price').fill('96');
    // 10 × ₱96 = ₱960, plus 12 % VAT = ₱1,075.20
    await page.getByText('₱1,075.20').first().waitFor();
    // The numbers it will probably get, marked as such, are the ones it gets when saved.
    const provisional = page.getByRole('region', { name: 'Provisional numbers' });
    await provisional.getByText(/^PO-\d{8}-W00001-\d{8}$/).waitFor();
    await provisional.getByText(/^RN-\d+-\d{8}-\d{4}$/).waitFor();
    await provisional.getByText(/assigned when it is saved/).waitFor();
    const number = await provisional.getByText(/^PO-/).innerText();
    const reference = await provisional.getByText(/^RN-/).innerText();
    await page.getByRole('button', { name: 'Save Purchase Order' }).click();
    await page.getByText('Purchase Order created successfully.').waitFor();

    // Saving opens the saved document.
    await page.getByRole('heading', { name: `Purchase Order ${number}` }).waitFor();
    expect(await page.locator('dt:has-text("Reference number") + dd').innerText()).toBe(reference);
    await page.getByText('Open', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'Receive', exact: true }).click();
    await page.getByRole('heading', { name: 'Create Receive Order' }).waitFor();
    await page.getByText('10 still open').waitFor();
    await page.getByLabel('Quantity').fill('4');
    await page.getByRole('button', { name: 'Save Receive Order' }).click();
    await page.getByText('Receive Order created successfully.').waitFor();

    expect(await onHand(page, milo)).toBe(before + 4);
    await page.locator('tbody tr').first().getByRole('link', { name: /^RO-/ }).click();
    await page.getByRole('heading', { name: /^Receive Order RO-/ }).waitFor();

    await page.goto('/purchase-orders');
    await page.locator('tbody tr').first().getByRole('link', { name: 'View' }).click();
    await page.getByText('Partially received').first().waitFor();
    await page.getByRole('link', { name: 'Bill', exact: true }).click();
    await page.getByRole('heading', { name: 'Create Bill' }).waitFor();
    await page.getByRole('button', { name: 'Save Bill' }).click();
    await page.getByText('Bill created successfully.').waitFor();

    // Saving opens the saved document.
    await page.getByText('Unpaid', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'Record payment' }).click();
    await page.getByRole('heading', { name: 'Create Bill Payment' }).waitFor();
    expect(await page.getByLabel('Amount').inputValue()).toBe('1075.2');
    // A payment is numbered where its bill is.
    await page
      .getByRole('region', { name: 'Provisional numbers' })
      .getByText(/^BP-\d{8}-W00001-\d{8}$/)
      .waitFor();
    await page.getByLabel('Method').selectOption('gcash');
    await page.getByLabel('Reference no.').fill('9012345678906');
    await page.getByRole('button', { name: 'Save Bill Payment' }).click();
    await page.getByText('Bill Payment created successfully.').waitFor();

    await page.goto('/bills');
    await page.locator('tbody tr').first().getByRole('link', { name: 'View' }).click();
    await page.getByText('Paid', { exact: true }).first().waitFor();
    await page.getByRole('heading', { name: 'Related documents' }).waitFor();
    await page.getByRole('link', { name: /^BP-/ }).waitFor();
    // A paid bill is voided only once its payment is: its lifecycle offers no void, nor the trash.
    expect(await page.getByRole('button', { name: 'Void Bill' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);

    // A memo about the bill, written from it: the form names the bill, and saving comes back to it.
    const billHeading = await page.getByRole('heading', { name: /^Bill B-/ }).innerText();
    await page.getByRole('link', { name: 'Add memo' }).click();
    await page.getByRole('heading', { name: 'Create Document Memo' }).waitFor();
    expect(await page.getByRole('combobox', { name: /^Document\s*\*?$/ }).inputValue()).toBe(billHeading.replace(/^Bill /, ''));
    await page.getByLabel('Subject').fill('Supplier promised to replace 3 damaged cartons');
    await page.getByLabel('Body').fill('Replacement comes with the next delivery.');
    await page.getByRole('button', { name: 'Save Document Memo' }).click();
    await page.getByText('Document Memo created successfully.').waitFor();
    await page.getByRole('heading', { name: billHeading }).waitFor();
    await page.getByRole('link', { name: 'Supplier promised to replace 3 damaged cartons' }).waitFor();
    await context.close();
  });

  it('quotes, invoices the quotation, takes the goods out of stock and a payment in', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    const milk = 'Alaska Evaporated Milk 370ml';
    const before = await onHand(page, milk);

    await page.goto('/quotations/create');
    await pick(page, 'Customer', 'Rosa', 'Sari-Sari ni Aling Rosa');
    await pick(page, 'Warehouse', 'Valenzuela', 'Valenzuela Central');
    // Found by its barcode, as a scanner types it.
    await pick(page, 'Item', '4800100000013', milk);
    await page.getByLabel('Quantity').fill('12');
    await page.getByLabel('Unit price').fill('42');
    await page.getByRole('button', { name: 'Save Quotation' }).click();
    await page.getByText('Quotation created successfully.').waitFor();

    // Saving opens the saved document.
    await page.getByRole('link', { name: 'Invoice', exact: true }).click();
    await page.getByRole('heading', { name: 'Create Invoice' }).waitFor();
    // 12 × ₱42 = ₱504, less the item's 5 % break at 10 = ₱478.8, plus 12 % VAT = ₱536.26
    await page.getByRole('button', { name: 'Save Invoice' }).click();
    await page.getByText('Invoice created successfully.').waitFor();
    expect(await onHand(page, milk)).toBe(before - 12);

    await page.goto('/invoices');
    await page.locator('tbody tr').first().getByRole('link', { name: 'View' }).click();
    await page.getByText('Unpaid', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'Record payment' }).click();
    await page.getByRole('heading', { name: 'Create Invoice Payment' }).waitFor();
    expect(await page.getByLabel('Amount').inputValue()).toBe('536.26');
    await page.getByLabel('Amount').fill('200');
    await page.getByLabel('Method').selectOption('cash');
    await page.getByRole('button', { name: 'Save Invoice Payment' }).click();
    await page.getByText('Invoice Payment created successfully.').waitFor();
    // The payment returns to its invoice, with the new balance; the next payment starts from what is still due.
    await page.getByRole('heading', { name: /^Invoice I-/ }).waitFor();
    await page.getByText('Partially paid', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'Record payment' }).click();
    await page.getByRole('heading', { name: 'Create Invoice Payment' }).waitFor();
    await expect.poll(() => page.getByLabel('Amount').inputValue()).toBe('336.26');
    await page.goBack();
    await page.getByRole('heading', { name: /^Invoice I-/ }).waitFor();
    await context.close();
  });

  it('requests stock for a branch, transfers and receives it there, and sends part of it back', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    const sauce = 'Del Monte Tomato Sauce 250g';
    const warehouseBefore = await onHand(page, sauce);
    const branchBefore = await stockOf(page, sauce, 'Makati');

    await page.goto('/stock-requests/create');
    await choose(page, 'From', 'Warehouse');
    await pick(page, 'From location', 'Valenzuela', 'Valenzuela Central');
    await choose(page, 'To', 'Branch');
    await pick(page, 'To location', 'Makati', 'Makati');
    await pick(page, 'Item', 'Tomato', sauce);
    await page.getByLabel('Quantity').fill('12');
    await page.getByRole('button', { name: 'Save Stock Request' }).click();
    await page.getByText('Stock Request created successfully.').waitFor();

    // Saving opens the saved document.
    await page.getByText('Pending', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'Transfer', exact: true }).click();
    await page.waitForURL(/\/stock-transfers\/create\/from-stock-request\/\d+/);
    await page.getByText('12 still open').waitFor();
    await page.getByRole('button', { name: 'Save Stock Transfer' }).click();
    await page.getByText('Stock Transfer created successfully.').waitFor();
    expect(await onHand(page, sauce)).toBe(warehouseBefore - 12);
    expect(await stockOf(page, sauce, 'Makati', 'In transit')).toBe(12);

    await page.goto('/stock-transfers');
    await page.locator('tbody tr').first().getByRole('link', { name: 'View' }).click();
    await page.getByText('In transit', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'Receive transfer' }).click();
    await page.getByRole('heading', { name: 'Create Stock Receive' }).waitFor();
    // The lines start blank, to be counted: all twelve came.
    await page.getByRole('button', { name: 'Receive all', exact: true }).click();
    await page.getByRole('button', { name: 'Save Stock Receive' }).click();
    await page.getByText('Stock Receive created successfully.').waitFor();

    expect(await stockOf(page, sauce, 'Makati')).toBe(branchBefore + 12);
    expect(await stockOf(page, sauce, 'Makati', 'In transit')).toBe(0);
    await page.goto('/stock-requests');
    await page.locator('tbody tr').first().getByRole('link', { name: 'View' }).click();
    await page.getByText('Transferred', { exact: true }).first().waitFor();

    // Two cans came dented: they go back to the warehouse.
    await page.goto('/stock-transfers');
    await page.locator('tbody tr').first().getByRole('link', { name: 'View' }).click();
    await page.getByRole('link', { name: 'Return', exact: true }).click();
    await page.getByRole('heading', { name: 'Create Stock Return' }).waitFor();
    await page.getByLabel('Reason').fill('Dented cans');
    await page.getByLabel('Quantity').fill('2');
    await page.getByRole('button', { name: 'Save Stock Return' }).click();
    await page.getByText('Stock Return created successfully.').waitFor();
    // Saving opens the saved document.
    await page.getByRole('link', { name: 'Transfer back' }).click();
    await page.waitForURL(/\/stock-transfers\/create\/from-stock-return\/\d+/);
    await page.getByRole('button', { name: 'Save Stock Transfer' }).click();
    await page.getByText('Stock Transfer created successfully.').waitFor();
    expect(await stockOf(page, sauce, 'Makati')).toBe(branchBefore + 10);
    expect(await stockOf(page, sauce, 'Valenzuela Central', 'In transit')).toBe(2);
    await context.close();
  });
});
