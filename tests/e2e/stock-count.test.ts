import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, PHONE, readyForOffline, signedIn, startE2E, TABLET, type E2E } from './browser';

/**
 * Warehouse staff count their warehouse on a phone far from the Wi-Fi: entries typed and scanned
 * offline are kept on the device, sent once when the network is back, and the count is posted into
 * a stock adjustment that leaves each balance at what was counted. A keyboard-wedge scanner (digits
 * and Enter, a scan every 50 ms) is counted in full, on a phone and a tablet, online and offline.
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
    await expect.poll(() => page.getByLabel(/^Warehouse/).textContent()).toContain('Valenzuela Central');
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
  /** Items of the warehouse staff's business with a barcode, the first `count` of them. */
  const barcoded = (count: number) =>
    e2e.app.db
      .selectFrom('items')
      .select(['items.id', 'items.name', 'items.barcode', 'items.brand_id'])
      .where('items.barcode', 'like', '48001%')
      .orderBy('items.id')
      .limit(count)
      .execute();
  /** What the count's entries add up to, by item. */
  const countedOn = async (countId: number) => {
    const rows = await e2e.app.db
      .selectFrom('stock_count_entries')
      .select(['item_id', 'quantity'])
      .where('stock_count_id', '=', countId)
      .execute();
    const byItem = new Map<number, number>();
    for (const row of rows) byItem.set(row.item_id, (byItem.get(row.item_id) ?? 0) + row.quantity / 1000);
    return { entries: rows.length, byItem };
  };
  /** Every beep the page makes (the scanner's tone is an oscillator), counted in `window.beeps`. */
  const countBeeps = (context: BrowserContext) =>
    context.addInitScript(() => {
      const counted = window as unknown as { beeps: number };
      counted.beeps = 0;
      const tone = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function (this: AudioContext) {
        counted.beeps += 1;
        return tone.call(this);
      };
    });
  /** A count started through the API, opened on the page. */
  async function openCount(page: Page, body: Record<string, unknown>): Promise<number> {
    const headers = {
      'Business-ID': String(await page.evaluate(() => localStorage.getItem('business_id'))),
      'X-Requested-With': 'XMLHttpRequest',
    };
    const warehouse = (await (await page.request.get('/api/warehouses?limit=1&order_by=asc', { headers })).json()).data[0];
    const started = await page.request.post('/api/stock-counts', {
      headers,
      data: { warehouse_id: warehouse.id, date: '2026-11-26', ...body },
    });
    expect(started.status()).toBe(201);
    const countId = (await started.json()).data.id;
    await page.goto(`/stock-counts/${countId}`);
    await page.getByText(/^0 of \d+ items? counted/).waitFor();
    return countId;
  }
  /** A keyboard-wedge scanner: each code typed as keys and Enter, a scan every 50 ms, into whatever has the focus. */
  async function scan(page: Page, codes: readonly string[]) {
    for (const code of codes) {
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');
      await page.waitForTimeout(50);
    }
  }

  for (const [device, viewport] of [
    ['phone', PHONE],
    ['tablet', TABLET],
  ] as const) {
    for (const offline of [false, true]) {
      it(`counts every scan of a 30-scan burst at 50 ms on a ${device}, ${offline ? 'offline' : 'online'}, with a beep and a line per read`, async () => {
        const scanned = await barcoded(3);
        const codes = Array.from({ length: 30 }, (_, at) => scanned[at % 3].barcode!);
        const { context, page } = await signedIn(e2e, 'warehouse@example.com', viewport);
        await countBeeps(context);
        if (offline) await readyForOffline(page);
        const countId = await openCount(page, { scope: 'all' });
        const box = page.locator('#count-item');
        if (offline) {
          // The items are looked up once while online, and so kept on the device.
          for (const item of scanned) {
            await box.fill(item.barcode!);
            await page.getByRole('option', { name: new RegExp(item.name) }).waitFor();
          }
          await box.fill('');
          await context.setOffline(true);
        }
        await box.focus();
        // Offline, a code that names nothing comes in the middle: said in words, and the box is empty for the next.
        await scan(page, offline ? [...codes.slice(0, 15), '4800100099999', ...codes.slice(15)] : codes);
        await expect.poll(() => box.inputValue()).toBe('');
        const lookingUp = page.locator('[aria-label="Reads"] li[data-state="looking"]');
        await expect.poll(() => lookingUp.count(), { timeout: 30_000 }).toBe(0);
        if (offline) {
          // Every scan is kept on the device, and counted on the sheet.
          await page.getByText('30 changes on this device not sent yet', { exact: false }).waitFor({ timeout: 10_000 });
          for (const item of scanned)
            await page
              .getByRole('row', { name: new RegExp(item.name) })
              .getByText('+10 not sent')
              .waitFor();
          await context.setOffline(false);
        }
        // All thirty reach the server, once each.
        await expect.poll(async () => (await countedOn(countId)).entries, { timeout: 30_000 }).toBe(30);
        const { byItem } = await countedOn(countId);
        expect(scanned.map((item) => byItem.get(item.id))).toEqual([10, 10, 10]);
        await page.getByText(/^3 of \d+ items counted/).waitFor();
        // Each read beeped and has its line: the one that named nothing says so, without a beep.
        const reads = page.getByRole('list', { name: 'Reads' }).getByRole('listitem');
        expect(await reads.count()).toBe(offline ? 31 : 30);
        expect(await page.evaluate(() => (window as unknown as { beeps: number }).beeps)).toBe(30);
        if (offline) {
          expect(await page.locator('[aria-label="Reads"] li[data-state="kept"]').count()).toBe(30);
          await page
            .getByRole('list', { name: 'Reads' })
            .getByText('No item has the barcode or SKU 4800100099999: nothing was counted.')
            .waitFor();
        }
        await context.close();
      });
    }
  }

  it('takes scans typed while nothing has the focus into the item box', async () => {
    const [item] = await barcoded(1);
    const { context, page } = await signedIn(e2e, 'warehouse@example.com', PHONE);
    const countId = await openCount(page, { scope: 'all' });
    await page.locator('#count-item').focus();
    await scan(page, [item.barcode!]);
    // The focus goes astray (a tap on the page): the next scans still reach the box.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await scan(page, [item.barcode!, item.barcode!]);
    await expect.poll(async () => (await countedOn(countId)).entries, { timeout: 30_000 }).toBe(3);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('count-item');
    await context.close();
  });

  it('refuses an item of another brand in words, takes a stray line off, lists the changes before posting, and counts nothing once its post is queued', async () => {
    const items = await barcoded(21);
    const counted = items.find((item) => item.brand_id !== null)!;
    const stray = items.find((item) => item.brand_id !== counted.brand_id)!;
    const brand = await e2e.app.db.selectFrom('brands').select('name').where('id', '=', counted.brand_id!).executeTakeFirstOrThrow();
    const { context, page } = await signedIn(e2e, 'warehouse@example.com', TABLET);
    await countBeeps(context);
    await readyForOffline(page);
    const countId = await openCount(page, { scope: 'brand', brand_id: counted.brand_id });
    await page.locator('#count-item').focus();
    await scan(page, [counted.barcode!, stray.barcode!]);
    const refusal = `${stray.name} is not of the brand this count covers (${brand.name}): count it on a count of its own.`;
    await page.getByRole('alert').getByText(refusal).waitFor();
    await page.getByRole('list', { name: 'Reads' }).getByText(refusal).waitFor();
    await expect.poll(async () => (await countedOn(countId)).entries, { timeout: 30_000 }).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { beeps: number }).beeps)).toBe(1);

    // A stray count taken off: back to not counted, on the server too.
    await scan(page, [counted.barcode!]);
    await expect.poll(async () => (await countedOn(countId)).entries, { timeout: 30_000 }).toBe(2);
    const row = page.getByRole('row', { name: new RegExp(counted.name) });
    await row.getByRole('button', { name: `Take ${counted.name} off the count` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Take Off' }).click();
    await row.getByText('Not counted').waitFor();
    await expect.poll(async () => (await countedOn(countId)).entries).toBe(0);

    // Counted again: the post's confirmation lists the item and its change.
    await scan(page, [counted.barcode!]);
    await expect.poll(async () => (await countedOn(countId)).entries, { timeout: 30_000 }).toBe(1);
    const { quantity: onHandNow } = await onHand(countId, counted.id);
    await page.getByText(/^1 of \d+ items? counted/).waitFor();
    await page.getByRole('button', { name: 'Post count' }).click();
    const dialog = page.getByRole('alertdialog');
    const change = dialog.getByRole('list', { name: 'Stock it changes' }).getByRole('listitem');
    await expect.poll(() => change.count()).toBe(1);
    // Until the outbox has let go of the entry the server already holds, the device may show it twice for a moment.
    await expect.poll(() => change.textContent(), { timeout: 30_000 }).toContain(`${counted.name}${onHandNow} → 1`);
    expect(await change.textContent()).toContain(`(${1 - onHandNow > 0 ? '+' : ''}${1 - onHandNow}`);

    // Posted offline: queued; the sheet takes no more entries until it is sent.
    await context.setOffline(true);
    await dialog.getByRole('button', { name: 'Post Stock Count' }).click();
    await page.getByRole('button', { name: 'Posting when sent' }).waitFor();
    await page.locator('#count-item').focus();
    await scan(page, [counted.barcode!]);
    await page.getByRole('list', { name: 'Reads' }).getByText('Posting this count is queued: nothing more can be counted on it.').waitFor();
    expect(await page.evaluate(() => (window as unknown as { beeps: number }).beeps)).toBe(3);
    await context.setOffline(false);
    await expect
      .poll(
        async () =>
          (await e2e.app.db.selectFrom('stock_counts').select('status').where('id', '=', countId).executeTakeFirstOrThrow()).status,
        {
          timeout: 30_000,
        },
      )
      .toBe('posted');
    expect((await countedOn(countId)).entries).toBe(1);
    expect((await onHand(countId, counted.id)).quantity).toBe(1);
    await context.close();
  });
});
