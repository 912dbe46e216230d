import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, PHONE, signedIn, startE2E, type E2E } from './browser';
import { png } from '../support/png';

/** Serious or critical axe violations inside `selector`: the parts this suite owns. */
async function seriousViolationsIn(page: Page, selector: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join('; ')})`);
}

/** A scanned receipt on a receive order, from its view screen: attached, shown, opened, downloaded, in its history. */
describe.skipIf(!chromiumAvailable)('attachments in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;
  let receiveOrderId: number;
  const photo = png(160, 120);
  const name = 'resibo ñ.png';
  const photoPath = join(mkdtempSync(join(tmpdir(), 'bodega-files-')), name);

  beforeAll(async () => {
    e2e = await startE2E();
    writeFileSync(photoPath, photo);
    // The admin's first business, where they land after signing in.
    const business = await e2e.app.db.selectFrom('businesses').select('id').orderBy('id').executeTakeFirstOrThrow();
    const order = await e2e.app.db
      .selectFrom('receive_orders')
      .select('id')
      .where('business_id', '=', business.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    receiveOrderId = Number(order.id);
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('attaches a photo to a receive order and shows, opens, downloads and records it', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await page.goto(`/receive-orders/${receiveOrderId}`);
    await page.getByRole('heading', { name: /^Receive Order RO-/ }).waitFor();
    const panel = page.getByRole('region', { name: 'Files' });
    await panel.getByText('No files attached yet.').waitFor();

    await panel.locator('input[type=file][accept="image/*,application/pdf"]').setInputFiles(photoPath);
    await page.getByText(`File ${name} created successfully.`).waitFor();
    const row = panel.getByRole('listitem').filter({ hasText: name });
    // The thumbnail is the photo itself, drawn from the bytes fetched with the app's headers.
    const thumbnail = row.locator('img');
    await thumbnail.waitFor();
    expect(await thumbnail.getAttribute('src')).toMatch(/^blob:/);
    expect(await thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(160);

    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/files-tablet.png' });
    expect(await seriousViolationsIn(page, 'section[aria-labelledby="files-heading"]')).toEqual([]);

    // The same panel on a phone, where a photo can be taken there and then.
    const phone = await e2e.browser.newContext({
      viewport: PHONE,
      baseURL: e2e.baseUrl,
      storageState: await context.storageState(),
      isMobile: true,
      hasTouch: true,
    });
    const phonePage = await phone.newPage();
    await phonePage.goto(`/receive-orders/${receiveOrderId}`);
    const phonePanel = phonePage.getByRole('region', { name: 'Files' });
    await phonePanel.getByRole('listitem').filter({ hasText: name }).locator('img').waitFor();
    await phonePanel.getByRole('button', { name: 'Take Photo' }).waitFor();
    expect(await phonePanel.locator('input[capture="environment"]').getAttribute('accept')).toBe('image/*');
    await phonePanel.scrollIntoViewIfNeeded();
    await phonePage.screenshot({ path: '/tmp/files-phone.png' });
    await phone.close();

    // Its own screen, nested under the record.
    await row.getByRole('link', { name }).click();
    await page.waitForURL(new RegExp(`/receive-orders/${receiveOrderId}/files/\\d+$`));
    await page.getByRole('heading', { name: `File ${name}` }).waitFor();
    await page.locator('dt:has-text("Uploaded by") + dd').getByText('Admin', { exact: false }).waitFor();
    await page.locator('figure img').waitFor();
    await page.screenshot({ path: '/tmp/files-screen.png' });
    expect(await seriousViolationsIn(page, 'main')).toEqual([]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe(name);
    expect(readFileSync(await download.path()).equals(photo)).toBe(true);

    // Back on the record, its history tells of the attachment.
    await page.getByRole('link', { name: /^Receive Order RO-/ }).click();
    const history = page.getByRole('region', { name: 'History' });
    await history.getByText(`Attached ${name}`).waitFor();

    // Deleting asks first, in the spec's words, and the history tells of that too.
    await row.getByRole('button', { name: `Delete ${name}` }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText("You're about to delete this.").waitFor();
    await dialog.getByText(`Are you sure you want to delete File ${name}?`).waitFor();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText(`File ${name} deleted successfully.`).waitFor();
    await panel.getByText('No files attached yet.').waitFor();
    await history.getByText(`Removed ${name}`).waitFor();

    await context.close();
  });
});
