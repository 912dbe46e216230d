import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, PASSWORD, PHONE, seriousViolations, signedIn, startE2E, type E2E } from './browser';

/** The web app in real Chromium, as staff use it: sign-in, sidebar, and the generic screens. */
describe.skipIf(!chromiumAvailable)('screens in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  async function sidebarLinks(page: Page): Promise<string[]> {
    const nav = page.getByRole('navigation', { name: 'Sections' }).first();
    return (await nav.locator('a').allInnerTexts()).map((text) => text.trim());
  }

  async function toast(page: Page, text: string) {
    await page.getByText(text, { exact: true }).first().waitFor();
  }

  it('signs in, and says so when the password is wrong', async () => {
    const context = await e2e.browser.newContext({ baseURL: e2e.baseUrl });
    const page = await context.newPage();
    await page.goto('/brands');
    await page.waitForURL(/\/login/);
    await page.getByLabel('Email').fill('admin@example.com');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('These credentials do not match our records.');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/brands$/);
    await page.getByText('List of Brands - Total 8').waitFor();
    await expect(page.getByRole('button', { name: /Business: Tindahan ni Aling Nena Trading/ }).count()).resolves.toBe(1);
    await context.close();
  });

  it('shows each user only the sidebar links their permissions allow', async () => {
    const admin = await signedIn(e2e, 'admin@example.com');
    const viewer = await signedIn(e2e, 'viewer@example.com');
    const cashier = await signedIn(e2e, 'cashier@example.com');
    const adminLinks = await sidebarLinks(admin.page);
    const viewerLinks = await sidebarLinks(viewer.page);
    const cashierLinks = await sidebarLinks(cashier.page);
    // No link leads to a screen that is not built: services and their prices have none, for anyone.
    for (const links of [adminLinks, viewerLinks, cashierLinks]) {
      expect(links).not.toContain('Services');
      expect(links).not.toContain('Service Prices');
    }
    await expect(cashier.page.getByText('Under Development').count()).resolves.toBe(0);
    expect(adminLinks).toContain('Units of Measurement');
    expect(viewerLinks).toContain('Brands');
    expect(cashierLinks).not.toContain('Brands');
    expect(cashierLinks).toEqual(expect.arrayContaining(['Overview', 'Items', 'Invoices', 'Contacts']));
    expect(cashierLinks.length).toBeLessThan(viewerLinks.length);
    expect(viewerLinks.length).toBeLessThan(adminLinks.length);
    await expect(cashier.page.getByRole('button', { name: 'Purchasing' }).count()).resolves.toBe(0);
    await Promise.all([admin.context.close(), viewer.context.close(), cashier.context.close()]);
  });

  it('creates, lists, searches, sorts, edits, deletes, restores and deletes permanently a brand', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await page.goto('/brands');
    await page.getByRole('link', { name: 'Create New Brand' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Zesto');
    await page.getByLabel('Description').fill('Juice drinks');
    await page.getByRole('button', { name: 'Save Brand' }).click();
    await toast(page, 'Brand created successfully.');
    await page.waitForURL(/\/brands$/);
    await page.getByText('List of Brands - Total 9').waitFor();

    await page.getByLabel('Quick Search by Name').fill('zest');
    await page.waitForURL(/name=zest/);
    await page.getByText('List of Brands - Total 1').waitFor();
    await page.getByRole('button', { name: 'Clear Search' }).click();
    await page.getByText('List of Brands - Total 9').waitFor();
    await expect(page.getByRole('button', { name: 'Clear Search' }).count()).resolves.toBe(0);

    await page.getByRole('button', { name: 'Name' }).click();
    await page.waitForURL(/order_by_field_name=name/);
    await expect(page.getByRole('button', { name: 'Decending' }).getAttribute('aria-pressed')).resolves.toBe('true');
    await page.getByRole('button', { name: 'Name' }).click();
    await page.waitForURL(/order_by=asc/);
    await page.locator('tbody tr').first().getByText('Alaska', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Name' }).click();
    await page.waitForURL((url) => !url.search.includes('order_by'));
    await expect(page.getByRole('button', { name: 'Newest' }).getAttribute('aria-pressed')).resolves.toBe('true');

    const row = page.locator('tbody tr', { hasText: 'Zesto' });
    await row.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Zesto Juice');
    await page.getByRole('button', { name: 'Update Brand' }).click();
    await toast(page, 'Brand updated successfully.');
    await page.getByRole('heading', { name: 'Brand Zesto Juice' }).waitFor();

    await page.getByRole('button', { name: 'Delete Brand' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText("You're about to delete this.").waitFor();
    await dialog.getByText('Are you sure you want to delete Brand Zesto Juice?').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Brand deleted successfully.');
    await page.waitForURL(/\/brands$/);
    await page.getByText('List of Brands - Total 8').waitFor();

    await page.getByRole('button', { name: 'Only Trashed' }).click();
    await page.getByText('List of Brands - Total 1').waitFor();
    await page.locator('tbody tr', { hasText: 'Zesto Juice' }).getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Restore' }).click();
    await toast(page, 'Brand restored successfully.');
    await page.getByText('List of Brands - Total 0').waitFor();

    await page.getByRole('button', { name: 'Only Trashed' }).click();
    await page.locator('tbody tr', { hasText: 'Zesto Juice' }).getByRole('link', { name: 'View' }).click();
    await page.getByRole('button', { name: 'Delete Brand' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/brands$/);
    await page.getByRole('button', { name: 'With Trashed' }).click();
    const trashedRow = page.locator('tbody tr', { hasText: 'Zesto Juice' });
    await trashedRow.getByRole('button', { name: 'Delete Permanently' }).click();
    await page.getByRole('alertdialog').getByText('Are you sure you want to permanently delete Brand Zesto Juice?').waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Permanently' }).click();
    await toast(page, 'Brand deleted permanently successfully.');
    await page.getByText('List of Brands - Total 8').waitFor();
    await context.close();
  });

  it('creates an item with discounts and a brand chosen in the picker, and shows the server’s messages', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await page.goto('/items/create');
    await page.getByRole('button', { name: 'Save Item' }).click();
    await page.getByText('The sku field is required.').waitFor();
    await page.getByText('The unit of measurement field is required.').waitFor();

    await page.getByLabel('SKU').fill('NES-CRM');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Nestlé All Purpose Cream 250ml');
    await page.getByRole('combobox', { name: 'Brand' }).fill('nest');
    await page.getByRole('option', { name: 'Nestlé' }).click();
    await page.getByRole('combobox', { name: 'Unit of measurement' }).click();
    await page.getByRole('combobox', { name: 'Unit of measurement' }).fill('pie');
    await page.waitForFunction(() => document.querySelectorAll('[role=option]').length === 1);
    await page.getByRole('combobox', { name: 'Unit of measurement' }).press('ArrowDown');
    await page.getByRole('combobox', { name: 'Unit of measurement' }).press('Enter');
    // Picked at once from the answer for "pie", or once it comes when Enter was pressed before it.
    await expect.poll(() => page.getByRole('combobox', { name: 'Unit of measurement' }).inputValue()).toBe('Piece');
    await page.getByRole('combobox', { name: 'Measuring mass' }).fill('zzz');
    await page.getByText('No Result').waitFor();
    await page.getByRole('combobox', { name: 'Measuring mass' }).fill('');
    await page.getByRole('group', { name: 'Sale discounts' }).getByRole('button', { name: 'Add a discount' }).click();
    await page.getByRole('group', { name: 'Sale discounts' }).getByRole('button', { name: 'Add a discount' }).click();
    await page.getByLabel('Sale discounts 1: quantity').fill('12');
    await page.getByLabel('Sale discounts 1: discount percent').fill('5');
    await page.getByLabel('Sale discounts 2: quantity').fill('48');
    await page.getByLabel('Sale discounts 2: discount percent').fill('8');
    // VATable unless said otherwise; this one is VAT-exempt and takes the senior citizen / PWD discount.
    await expect(page.getByRole('combobox', { name: 'VAT', exact: true }).textContent()).resolves.toBe('VATable');
    await page.getByRole('combobox', { name: 'VAT', exact: true }).click();
    await page.getByRole('option', { name: 'VAT-exempt' }).click();
    await page.getByRole('checkbox', { name: 'Senior citizen / PWD discount' }).check();
    await page.getByRole('button', { name: 'Save Item' }).click();
    await toast(page, 'Item created successfully.');

    await page.getByLabel('Quick Search by Name').fill('All Purpose Cream');
    await page.getByText('List of Items - Total 1').waitFor();
    await page.locator('tbody tr').first().getByRole('link', { name: 'View' }).click();
    await page.getByText('12:5%, 48:8%', { exact: true }).waitFor();
    await page.locator('dd', { hasText: 'VAT-exempt' }).first().waitFor();
    const brandRow = page.locator('dd', { hasText: 'Nestlé' });
    await expect(brandRow.count()).resolves.toBeGreaterThan(0);
    await context.close();
  });

  it('exports the sorted list as CSV, every page of it, and prints the page without the controls', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await page.goto(`${e2e.baseUrl}/items?order_by=asc&order_by_field_name=name`);
    await page.getByText(/List of Items - Total \d+/).waitFor();
    const total = Number((await page.getByText(/List of Items - Total \d+/).textContent())?.match(/\d+$/)?.[0]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^items-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync(await download.path(), 'utf8');
    const [header, ...rows] = text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(header.startsWith('ID,SKU,Barcode,Name,')).toBe(true);
    expect(total).toBeGreaterThan(15);
    expect(rows).toHaveLength(total);
    const names = rows.map((row) => row.split(',')[3]);
    await expect(page.locator('tbody tr').first().getByText(names[0], { exact: true }).isVisible()).resolves.toBe(true);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('button', { name: 'Export CSV' }).isVisible()).resolves.toBe(false);
    await expect(page.getByRole('link', { name: 'View', exact: true }).first().isVisible()).resolves.toBe(false);
    await expect(page.getByText(/Printed .* · Page 1 of 2$/).isVisible()).resolves.toBe(true);
    await context.close();
  });

  it('collapses the pager with "..." gaps above 10 pages', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    const businessId = await page.evaluate(() => localStorage.getItem('business_id'));
    for (let index = 0; index < 200; index++) {
      const answer = await context.request.post('/api/contact-types', {
        data: { name: `Pager type ${String(index).padStart(3, '0')}` },
        headers: { 'X-Requested-With': 'XMLHttpRequest', 'Business-ID': String(businessId) },
      });
      expect(answer.status()).toBe(201);
    }
    await page.goto('/contact-types');
    await page.getByText('List of Contact Types - Total 204').waitFor();
    const pager = page.getByRole('navigation', { name: 'Pages' });
    const labels = async () =>
      (await pager.locator('button, span').allInnerTexts()).map((text) => text.trim()).filter((text) => /^\d+$|^\.\.\.$/.test(text));
    expect(await labels()).toEqual(['1', '2', '3', '4', '5', '6', '7', '...', '13', '14']);
    await pager.getByRole('button', { name: 'Page 7' }).click();
    await pager.locator('[aria-current=page]', { hasText: '7' }).waitFor();
    expect(await labels()).toEqual(['1', '2', '...', '5', '6', '7', '8', '9', '...', '13', '14']);
    await pager.getByRole('button', { name: 'Last' }).click();
    await pager.locator('[aria-current=page]', { hasText: '14' }).waitFor();
    expect(await labels()).toEqual(['1', '2', '...', '7', '8', '9', '10', '11', '12', '13', '14']);
    await page.getByLabel('Number of Items').selectOption('100');
    await page.waitForURL((url) => url.search.includes('per_page=100') && !url.search.includes('page=14'));
    await pager.getByRole('button', { name: 'Page 3' }).waitFor();
    expect(await labels()).toEqual(['1', '2', '3']);
    await context.close();
  });

  it('sends a user without create permission from /brands/create back to the list', async () => {
    const { context, page } = await signedIn(e2e, 'viewer@example.com');
    await page.goto('/brands/create');
    await page.waitForURL(/\/brands$/);
    await page.getByText(/List of Brands - Total \d+/).waitFor();
    await expect(page.getByRole('link', { name: 'Create New Brand' }).count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'Edit' }).count()).resolves.toBe(0);
    await context.close();
  });

  it('quick-searches the sale item prices by the item, picked by name', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await page.goto('/sale-item-prices');
    await page.getByText(/List of Sale Item Prices - Total \d+/).waitFor();
    await page.getByRole('combobox', { name: 'Quick Search by Item' }).fill('Pancit Canton');
    await page.getByRole('option', { name: 'Lucky Me! Pancit Canton Original' }).click();
    await page.getByText('List of Sale Item Prices - Total 1').waitFor();
    expect(page.url()).toContain('item_id=');
    // The rows follow the caption's answer in the same render, or one frame after it on a busy machine.
    await expect.poll(() => page.locator('tbody tr').first().textContent()).toContain('Lucky Me! Pancit Canton Original');
    await page.reload();
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Quick Search by Item' }).inputValue())
      .toBe('Lucky Me! Pancit Canton Original');
    await page.getByRole('button', { name: 'Clear item' }).click();
    await page.getByText(/List of Sale Item Prices - Total (?!1$)\d+/).waitFor();
    await context.close();
  });

  it('says a record the user may not view is not theirs to see, and one that is gone does not exist', async () => {
    const { context, page } = await signedIn(e2e, 'cashier@example.com');
    await page.goto('/users/1');
    await page.getByRole('heading', { name: 'You do not have permission to view this user.' }).waitFor();
    await page.goto('/items/999999');
    await page.getByRole('heading', { name: 'This item does not exist' }).waitFor();
    await context.close();
  });

  it('shows a business just created in the business switcher, without a reload', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    const fetched: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/businesses/') && request.method() === 'GET') fetched.push(new URL(request.url()).pathname);
    });
    await page.goto('/businesses/create');
    await page.getByLabel(/^Name\s*\*?$/).fill('Sari-Sari ni Mang Tomas');
    await page.getByRole('button', { name: 'Save Business' }).click();
    await toast(page, 'Business created successfully.');
    await page.getByRole('button', { name: /^Business: .*Switch business$/ }).click();
    await page.getByRole('menuitemradio', { name: 'Sari-Sari ni Mang Tomas' }).waitFor();
    expect(fetched).toContain('/api/businesses/retrieve-all-businesses');
    await context.close();
  });

  it('has no serious accessibility violations on the list, form and view screens', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    for (const path of ['/items', '/items/create', '/items/1', '/users/1']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      // Not 'networkidle': the live updates' event stream stays open. Settled once the page is
      // idle and nothing shows it is still loading.
      await page.waitForFunction(() => document.querySelector('[aria-busy="true"], [role="progressbar"]') === null);
      await page.evaluate(() => new Promise((settled) => requestIdleCallback(() => settled(null), { timeout: 2000 })));
      expect(await seriousViolations(page), path).toEqual([]);
    }
    await context.close();
  });

  it('opens the sidebar as a sheet on a phone', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com', PHONE);
    await page.getByRole('button', { name: 'Open the menu' }).click();
    const sheet = page.getByRole('dialog');
    await sheet.getByRole('link', { name: 'Warehouses' }).click();
    await page.waitForURL(/\/warehouses$/);
    await page.getByText('List of Warehouses - Total 2').waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await context.close();
  });
});
