import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDiscrepancies } from '../../src/server/documents/ledger';
import type { Db } from '../../src/server/db/scope';
import { chromiumAvailable, PHONE, readyForOffline, signedIn, startE2E, TABLET, type E2E } from './browser';

/** The first line of an invoice, as stored, with its item's name. */
async function firstSoldLine(db: Db, invoiceId: number) {
  return db
    .selectFrom('document_lines')
    .innerJoin('items', 'items.id', 'document_lines.item_id')
    .select(['document_lines.id', 'document_lines.item_id', 'document_lines.quantity', 'document_lines.quantity_done', 'items.name'])
    .where('document_type', '=', 'invoice')
    .where('document_id', '=', invoiceId)
    .orderBy('position')
    .executeTakeFirstOrThrow();
}

/** What is on hand of an item at a place, in thousandths. */
async function onHandAt(db: Db, itemId: number, type: 'branch' | 'warehouse', placeId: number): Promise<number> {
  const stock = await db
    .selectFrom('stocks')
    .select('quantity_on_hand')
    .where('item_id', '=', itemId)
    .where('location_type', '=', type)
    .where('location_id', '=', placeId)
    .executeTakeFirstOrThrow();
  return Number(stock.quantity_on_hand);
}

/**
 * Goods back from a sale, in Chromium on a phone and a tablet: from the invoice's "Return goods",
 * one item comes back damaged and is restocked, the customer refunded part in cash and the rest by
 * GCash; the return is saved, numbered, shows its lines and tenders, and the invoice what came back.
 */
describe.skipIf(!chromiumAvailable).each([
  ['phone', PHONE],
  ['tablet', TABLET],
] as const)('a sales return in Chromium, on a %s', { timeout: 120_000 }, (size, viewport) => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    if (e2e) expect(await ledgerDiscrepancies(e2e.app.db)).toEqual([]);
    await e2e?.close();
  });

  it('takes one item back from a paid invoice, restocks it and refunds it in cash and GCash', async () => {
    // A sale paid in full (the demo's first round of invoices).
    const invoice = await e2e.app.db
      .selectFrom('invoices')
      .select(['id', 'number', 'warehouse_id'])
      .where('status', '=', 'paid')
      .where('warehouse_id', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const sold = await firstSoldLine(e2e.app.db, invoice.id);
    const onHand = () => onHandAt(e2e.app.db, sold.item_id, 'warehouse', invoice.warehouse_id!);
    const before = await onHand();

    const { context, page } = await signedIn(e2e, 'admin@example.com', viewport);
    await page.goto(`/invoices/${invoice.id}`);
    await page.getByRole('link', { name: 'Return goods' }).click();
    await page.getByRole('heading', { name: 'Create Sales Return' }).waitFor();
    await page.getByText('Type how many come back of each line').waitFor();
    await page.locator('#line-0-quantity').fill('1');
    await page.locator('#line-0-reason').selectOption('damaged');
    await page.getByRole('radio', { name: 'Refund' }).check();
    // What one comes back at, with its VAT, as the server will figure it: the refund due.
    const due = (await page.locator('dt:has-text("Refund due") + dd').textContent())!.trim();
    expect(due).toMatch(/^₱[\d,]+\.\d\d$/);
    const pesos = Number(due.replace(/[₱,]/g, ''));
    const cash = Math.floor(pesos / 2);
    await page.locator('#tender-0-amount').fill(String(cash));
    await page.getByRole('button', { name: 'Add tender' }).click();
    await page.locator('#tender-1-method').selectOption('gcash');
    expect(Number(await page.locator('#tender-1-amount').inputValue())).toBeCloseTo(pesos - cash, 2);
    await page.locator('#tender-1-reference').fill('9012345678901');
    if (process.env.SCREENSHOTS)
      await page.screenshot({ path: `${process.env.SCREENSHOTS}/sales-return-form-${size}.png`, fullPage: true });
    await page.getByRole('button', { name: 'Save Sales Return' }).click();

    await page.getByRole('heading', { name: /^Sales Return SRN-/ }).waitFor();
    await page.getByText('Damaged').first().waitFor();
    await page.getByText('Back in stock').first().waitFor();
    // It names the invoice it takes the goods back from, with the invoice's date.
    await page.locator('dt:has-text("Invoice date") + dd').waitFor();
    if (process.env.SCREENSHOTS)
      await page.screenshot({ path: `${process.env.SCREENSHOTS}/sales-return-view-${size}.png`, fullPage: true });
    const made = await e2e.app.db
      .selectFrom('sales_returns')
      .select(['id', 'total', 'refunded', 'amount', 'settlement'])
      .where('invoice_id', '=', invoice.id)
      // The newest: the demo already took goods back from this sale.
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect({ ...made, total: Number(made.total), refunded: Number(made.refunded), amount: Number(made.amount) }).toMatchObject({
      settlement: 'refund',
      total: Math.round(pesos * 100),
      refunded: Math.round(pesos * 100),
      amount: 0,
    });
    const tenders = await e2e.app.db
      .selectFrom('payment_tenders')
      .select(['method', 'amount'])
      .where('payment_type', '=', 'sales-return')
      .where('payment_id', '=', made.id)
      .orderBy('position')
      .execute();
    expect(tenders.map((tender) => tender.method)).toEqual(['cash', 'gcash']);
    expect(await onHand()).toBe(before + 1000);
    await context.close();
  });
});

/**
 * Issue #31's offline return, in Chromium on a phone: a cashier at Makati whose device synced once
 * takes back an item from yesterday's paid sale with the network gone — the invoice is on the
 * device (the working set keeps this week's paid sales), the return is kept to send, and once the
 * network is back it reaches the server once: one return, the item back in stock once. A second
 * return of the same goods made meanwhile is refused in words and stays in Pending changes, where
 * it is corrected against the sale as the device now holds it and sent.
 */
describe.skipIf(!chromiumAvailable)('a sales return made offline, in Chromium on a phone', { timeout: 180_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    if (e2e) expect(await ledgerDiscrepancies(e2e.app.db)).toEqual([]);
    await e2e?.close();
  });

  it('takes an item back from yesterday’s invoice with no network and sends it once; a second return of the same goods is refused, kept and corrected', async () => {
    const makati = await e2e.app.db.selectFrom('branches').select('id').where('name', '=', 'Makati').executeTakeFirstOrThrow();
    const invoice = await e2e.app.db
      .selectFrom('invoices')
      .select(['id', 'number'])
      .where('status', '=', 'paid')
      .where('branch_id', '=', makati.id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    // Sold yesterday, as Manila's calendar has it.
    const yesterday = new Date(Date.now() + 8 * 3600_000 - 86_400_000).toISOString().slice(0, 10);
    await e2e.app.db.updateTable('invoices').set({ date: yesterday }).where('id', '=', invoice.id).execute();
    const sold = await firstSoldLine(e2e.app.db, invoice.id);
    const onHand = () => onHandAt(e2e.app.db, sold.item_id, 'branch', makati.id);
    const returnsOf = () =>
      e2e.app.db.selectFrom('sales_returns').select(['id', 'refunded']).where('invoice_id', '=', invoice.id).execute();
    const [stockBefore, returnsBefore] = [await onHand(), (await returnsOf()).length];

    const { context, page } = await signedIn(e2e, 'cashier@example.com', PHONE);
    await readyForOffline(page);
    // The first download done: the device holds the branch's working set, yesterday's sale in it.
    await page.locator('[data-testid="sync-indicator"][data-tone="live"]').waitFor({ timeout: 90_000 });

    await context.setOffline(true);
    /** A return of `quantity` of the sale's first line, refunded in cash, made from the invoice as a cashier would; answers the refund. */
    const returnOffline = async (quantity: string, reason: string) => {
      await page.goto(`/invoices/${invoice.id}`);
      await page.getByRole('heading', { name: `Invoice ${invoice.number}` }).waitFor();
      await page.getByRole('link', { name: 'Return goods' }).click();
      await page.getByRole('heading', { name: 'Create Sales Return' }).waitFor();
      await page.locator('#line-0-quantity').fill(quantity);
      await page.locator('#line-0-reason').selectOption(reason);
      await page.getByRole('radio', { name: 'Refund' }).check();
      const due = (await page.locator('dt:has-text("Refund due") + dd').textContent())!.trim();
      await page.locator('#tender-0-amount').fill(due.replace(/[₱,]/g, ''));
      await page.getByRole('button', { name: 'Save Sales Return' }).click();
      await page.getByText('Created on this device').waitFor();
      return due;
    };
    const due = await returnOffline('1', 'changed_mind');
    const pesos = Number(due.replace(/[₱,]/g, ''));
    expect(pesos).toBeGreaterThan(0);
    // It reads as the server will save it, from the sale on the device: the item, why it came back, what it refunds.
    await page.getByText('Changed mind').first().waitFor();
    expect((await page.getByTestId('document-total').textContent())!.trim()).toBe(due);
    if (process.env.SCREENSHOTS)
      await page.screenshot({ path: `${process.env.SCREENSHOTS}/sales-return-offline-phone.png`, fullPage: true });
    // A second return of what the device still believes may come back of the line: all of it, the first one's unit too.
    await returnOffline(String((Number(sold.quantity) - Number(sold.quantity_done)) / 1000), 'damaged');

    await page.goto('/pending-changes');
    const cards = page.getByRole('article', { name: /Create Sales Return/ });
    await cards
      .first()
      .getByText(new RegExp(`· Makati · 1 line · ${due.replace(/[.$]/g, '\\$&')}$`))
      .waitFor();
    expect(await cards.count()).toBe(2);
    expect(await returnsOf()).toHaveLength(returnsBefore);

    // Back online, the first reaches the server once; the second, more than is left to return, is refused in words and kept.
    await context.setOffline(false);
    const refused = page.getByRole('article', { name: /Create Sales Return/ });
    await refused.getByText('Needs attention').waitFor({ timeout: 30_000 });
    await refused
      .getByText(/returned already|remain to be returned/)
      .first()
      .waitFor();
    expect(await refused.count()).toBe(1);
    if (process.env.SCREENSHOTS)
      await page.screenshot({ path: `${process.env.SCREENSHOTS}/sales-return-refused-phone.png`, fullPage: true });
    const after = await returnsOf();
    expect(after).toHaveLength(returnsBefore + 1);
    expect(Number(after.at(-1)!.refunded)).toBe(Math.round(pesos * 100));
    expect(await onHand()).toBe(stockBefore + 1000);
    const line = await e2e.app.db.selectFrom('document_lines').select('quantity_done').where('id', '=', sold.id).executeTakeFirstOrThrow();
    expect(Number(line.quantity_done)).toBe(Number(sold.quantity_done) + 1000);

    // Corrected from its card: the sale's line as the device now holds it, one more back, refunded again.
    await refused.getByRole('button', { name: 'Edit and retry' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit and retry' });
    await dialog.getByText(sold.name).first().waitFor();
    // What is left of the line now that the first return took one: the sale read again, not as it was queued.
    await dialog.getByText(`${(Number(sold.quantity) - Number(sold.quantity_done)) / 1000 - 1} may come back`).waitFor();
    if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/sales-return-retry-phone.png`, fullPage: true });
    await dialog.locator('#line-0-quantity').fill('1');
    // What one more unit of the line comes to, as the device now figures it: within a centavo of the first one's share.
    const dueNow = dialog.locator('dt:has-text("Refund due") + dd');
    await expect.poll(async () => Number((await dueNow.textContent())!.replace(/[₱,]/g, ''))).toBeCloseTo(pesos, 1);
    await dialog.locator('#tender-0-amount').fill((await dueNow.textContent())!.trim().replace(/[₱,]/g, ''));
    await dialog.getByRole('button', { name: 'Save and retry' }).click();
    await page.getByText('Nothing is waiting').waitFor({ timeout: 30_000 });
    expect(await returnsOf()).toHaveLength(returnsBefore + 2);
    expect(await onHand()).toBe(stockBefore + 2000);
    await context.close();
  });
});
