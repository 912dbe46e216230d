import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, signedIn, startE2E, type E2E } from './browser';

/** Leaving with one's data: a master downloads the business's zip from the account menu. */
describe.skipIf(!chromiumAvailable)('all data as a zip in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('downloads the business’s zip from the account menu, with every item in its items CSV', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    const db = e2e.app.db;
    const businessId = Number(await page.evaluate(() => localStorage.getItem('business_id')));
    const business = await db.selectFrom('businesses').where('id', '=', businessId).select('name').executeTakeFirstOrThrow();

    await page.getByRole('button', { name: /^Account of/ }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Download all data (zip)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${business.name}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));

    const files = unzipSync(new Uint8Array(readFileSync(await download.path())));
    expect(Object.keys(files)).toEqual(expect.arrayContaining(['README.txt', 'items.csv', 'purchase-orders-lines.csv', 'users.csv']));
    const [header, ...rows] = strFromU8(files['items.csv']).trimEnd().split('\r\n');
    expect(header.startsWith('ID,SKU,Barcode,Name,')).toBe(true);
    expect(header.endsWith(',Created,Updated,Deleted')).toBe(true);
    const count = await db
      .selectFrom('items')
      .where('business_id', '=', businessId)
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    expect(rows).toHaveLength(Number(count.count));
    await context.close();
  });

  it('is not offered to someone without the master permission', async () => {
    const { context, page } = await signedIn(e2e, 'viewer@example.com');
    await page.getByRole('button', { name: /^Account of/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
    await expect(page.getByRole('menuitem', { name: 'Download all data (zip)' }).count()).resolves.toBe(0);
    await context.close();
  });
});
