import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, PHONE, readyForOffline, signedIn, startE2E, type E2E } from './browser';

/**
 * Warehouse staff count their warehouse on a phone far from the Wi-Fi: entries typed and scanned
 * offline are kept on the device, sent once when the network is back, and the count is posted into
 * a stock adjustment that leaves each balance at what was counted.
 */
describe.skipIf(!chromiumAvailable)('a stock count in Chromium', { timeout: 180_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  const itemNamed = (name: string) =>
    e2e.app.db.selectFrom('items').select(['id', 'name', 'barcode']).where('name', '=', name).orderBy('id').executeTakeFirstOrThrow();
  const onHand = async (countId: number, itemId: number) => {
    const count = await e2e.app.db.selectFrom('stock_counts').select(['warehouse_id']).where('id', '=', countId).executeTakeFirstOrThrow();
    const stock = await e2e.app.db
      .selectFrom('stocks')
      .select(['id', 'quantity_on_hand'])
      .where('item_id', '=', itemId)
      .where('location_type', '=', 'warehouse')
      .where('location_id', '=', Number(count.warehouse_id))
      .executeTakeFirst();
    return { stockId: stock?.id, quantity: Number(stock?.quantity_on_hand ?? 0) / 1000 };
  };

  it('counts offline on a phone, by typing and by scanning, and posts once back online', async () => {
    const typed = await itemNamed('Century Tuna Flakes in Oil 155g');
    const scanned = await itemNamed('Datu Puti Soy Sauce 1L');
    const { context, page } = await signedIn(e2e, 'warehouse@example.com', PHONE);
    await readyForOffline(page);

    // Online: a count of every item at the warehouse where they work.
    await page.goto('/stock-counts/create');
    await expect.poll(() => page.getByRole('combobox', { name: 'Warehouse' }).inputValue()).not.toBe('');
    await page.getByRole('combobox', { name: /^Items counted/ }).click();
    await page.getByRole('option', { name: 'Every item' }).click();
    await page.getByRole('button', { name: 'Save Stock Count' }).click();
    await page.getByRole('heading', { name: /^Stock Count SC-/ }).waitFor();
    const countId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByText(`0 of 21 items counted`).waitFor();
    // The items to count are looked up once while online, and so kept on the phone.
    for (const term of ['Century Tuna', scanned.barcode!]) {
      await page.locator('#count-item').fill(term);
      await page.getByRole('option').first().waitFor();
    }
    await page.locator('#count-item').fill('');

    // Offline: 7 typed, then three cans scanned one by one (a scanner types the barcode and Enter).
    await context.setOffline(true);
    await page.getByLabel('How many').fill('7');
    await page.locator('#count-item').fill('Century Tuna Flakes');
    await page.getByRole('option', { name: /Century Tuna Flakes in Oil 155g/ }).click();
    await page.getByText(`Counted +7 ${typed.name} (kept on this device until it can be sent).`).waitFor();
    for (let can = 0; can < 3; can += 1) {
      await page.locator('#count-item').focus();
      await page.keyboard.type(scanned.barcode!, { delay: 5 });
      await page.keyboard.press('Enter');
      await page.getByText(`Counted +1 ${scanned.name} (kept on this device until it can be sent).`).waitFor();
      await expect.poll(() => page.locator('#count-item').inputValue()).toBe('');
    }
    const scannedRow = page.getByRole('row', { name: new RegExp(scanned.name) });
    await scannedRow.getByText('+3 not sent').waitFor();
    await page.getByText('2 of 21 items counted').waitFor();

    // Back online, the four entries reach the server once each.
    await context.setOffline(false);
    await expect
      .poll(
        async () =>
          (await e2e.app.db.selectFrom('stock_count_entries').select('quantity').where('stock_count_id', '=', countId).execute()).length,
        {
          timeout: 30_000,
        },
      )
      .toBe(4);
    await scannedRow.getByText('+3 not sent').waitFor({ state: 'detached' });

    // Posted: each counted balance is what was counted, and the stock's movements show the adjustment.
    await page.getByRole('button', { name: 'Post count' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Post Stock Count' }).click();
    await page.getByText('Posted', { exact: true }).first().waitFor();
    expect((await onHand(countId, typed.id)).quantity).toBe(7);
    const after = await onHand(countId, scanned.id);
    expect(after.quantity).toBe(3);
    const count = await e2e.app.db
      .selectFrom('stock_counts')
      .select(['status', 'stock_adjustment_id'])
      .where('id', '=', countId)
      .executeTakeFirstOrThrow();
    expect(count.status).toBe('posted');
    const adjustment = await e2e.app.db
      .selectFrom('stock_adjustments')
      .select('number')
      .where('id', '=', Number(count.stock_adjustment_id))
      .executeTakeFirstOrThrow();
    await page.goto(`/stocks/${after.stockId}`);
    await page.getByRole('cell', { name: adjustment.number }).waitFor();
    await context.close();
  });
});
