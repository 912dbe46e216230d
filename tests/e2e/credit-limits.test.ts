import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { chromiumAvailable, signedIn, startE2E, type E2E } from './browser';

/** A customer at their credit limit, in Chromium: the invoice form says why it is refused, and who may override says why they do. */
describe.skipIf(!chromiumAvailable)('credit limits in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  async function pick(page: Page, label: string | RegExp, typed: string, option: string | RegExp) {
    await page.getByRole('combobox', { name: label }).fill(typed);
    await page.getByRole('option', { name: option }).click();
  }

  async function fillInvoice(page: Page) {
    await page.goto('/invoices/create');
    await page.getByRole('heading', { name: 'Create Invoice' }).waitFor();
    // The demo's Bayanihan Cooperative owes exactly its credit limit.
    await pick(page, /^Customer/, 'Bayanihan', 'Bayanihan Cooperative');
    await pick(page, /^Warehouse/, 'Valenzuela', 'Valenzuela Central');
    await pick(page, 'Item', '4800100000013', 'Alaska Evaporated Milk 370ml');
    await page.getByLabel('Quantity').fill('2');
    await page.getByLabel('Unit price').fill('42');
    await page.getByRole('button', { name: 'Save Invoice' }).click();
  }

  it('refuses an invoice past the limit in words, and takes it with a reason from whoever may override', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await fillInvoice(page);
    await page
      .getByText(/Bayanihan Cooperative's credit limit is ₱[\d,]+\.\d\d: with what they owe already/)
      .first()
      .waitFor();
    await page.getByText("Give the reason for going past the customer's credit limit.").waitFor();
    if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/credit-limit-refused.png`, fullPage: true });
    const reason = 'Cooperative pays at month end; approved by the owner.';
    await page.getByLabel('Credit limit override reason').fill(reason);
    await page.getByRole('button', { name: 'Save Invoice' }).click();
    await page.getByText('Invoice created successfully.').waitFor();
    await page.getByRole('heading', { name: /^Invoice I-/ }).waitFor();
    await page.locator('dt:has-text("Credit limit override reason") + dd').getByText(reason).waitFor();
    await context.close();
  });

  it('never asks a cashier for an override reason', async () => {
    const { context, page } = await signedIn(e2e, 'cashier@example.com');
    await page.goto('/invoices/create');
    await page.getByRole('heading', { name: 'Create Invoice' }).waitFor();
    await page.getByRole('button', { name: 'Save Invoice' }).waitFor();
    if ((await page.getByLabel('Credit limit override reason').count()) !== 0)
      throw new Error('The cashier is asked for an override reason.');
    await context.close();
  });
});
