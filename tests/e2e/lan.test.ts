import { createHash, X509Certificate } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate, type Certificate } from '../support/certificate';
import { chromiumAvailable, PASSWORD, readyForOffline, startE2E, type E2E } from './browser';

const NOTICE = 'Working offline needs a secure connection (https).';
const LAN_NAME = '--host-resolver-rules=MAP bodega.test 127.0.0.1';

async function signIn(e2e: E2E, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await e2e.browser.newContext({ viewport: { width: 1024, height: 768 }, baseURL });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
  await page.goto('/login');
  await page.getByLabel('Email').fill('admin@example.com');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: /^Account of/ }).waitFor();
  return { context, page };
}

/**
 * The app on a shop's network over plain http: a tablet opens it by a name other than
 * localhost (here bodega.test, resolved to this machine), which is no secure context.
 */
describe.skipIf(!chromiumAvailable)('plain http under a network name in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;
  let lanUrl: string;

  beforeAll(async () => {
    e2e = await startE2E({ browserArgs: [LAN_NAME] });
    lanUrl = e2e.baseUrl.replace('127.0.0.1', 'bodega.test');
  });
  afterAll(() => e2e?.close());

  it('renders, signs in, says once that offline work needs https, and still keeps an offline change in an open tab', async () => {
    const { context, page } = await signIn(e2e, lanUrl);
    expect(await page.evaluate(() => ({ secure: window.isSecureContext, worker: 'serviceWorker' in navigator }))).toEqual({
      secure: false,
      worker: false,
    });
    const notice = page.getByRole('status').filter({ hasText: NOTICE });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('Ask whoever runs Bodega to serve it over https.');

    // IndexedDB needs no secure context: an edit made while the network is down waits on the
    // device. Without a service worker only screens this tab has loaded open offline.
    await page.goto('/brands/1');
    await page.getByRole('heading', { name: /^Brand / }).waitFor();
    await page.goto('/brands/1/edit');
    await page.getByLabel('Name').waitFor();
    await context.setOffline(true);
    await page.getByLabel('Name').fill('Alaska on the LAN');
    await page.getByRole('button', { name: 'Update Brand' }).click();
    await page.getByText('Saved on this device. It will be sent when the connection returns.').first().waitFor();
    await page.getByRole('heading', { name: 'Brand Alaska on the LAN' }).waitFor();
    // What needs the service worker: without a network the app cannot be reloaded.
    await expect(page.reload()).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
    await context.setOffline(false);
    await page.reload();
    await page.getByRole('link', { name: 'Pending changes: 0' }).waitFor();
    const brand = await e2e.app.db.selectFrom('brands').select('name').where('id', '=', 1).executeTakeFirstOrThrow();
    expect(brand.name).toBe('Alaska on the LAN');

    // Dismissed, it stays away for the rest of this tab's session.
    await notice.waitFor();
    await page.getByRole('button', { name: 'Dismiss the https notice' }).click();
    await notice.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('button', { name: /^Account of/ }).waitFor();
    expect(await page.getByText(NOTICE).count()).toBe(0);
    await context.close();
  });

  it('says nothing about https in a secure context (http://127.0.0.1)', async () => {
    const { context, page } = await signIn(e2e, e2e.baseUrl);
    expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
    await page.goto('/brands');
    await page.getByText(/^List of Brands - Total \d+/).waitFor();
    expect(await page.getByText(NOTICE).count()).toBe(0);
    await context.close();
  });
});

/** The same name over the server's own https, its self-signed certificate trusted as a tablet would after installing it. */
describe.skipIf(!chromiumAvailable)('https of its own under a network name in Chromium', { timeout: 120_000 }, () => {
  let certificate: Certificate;
  let e2e: E2E;

  beforeAll(async () => {
    certificate = selfSignedCertificate('bodega.test');
    const publicKey = new X509Certificate(certificate.cert).publicKey.export({ type: 'spki', format: 'der' });
    const trusted = `--ignore-certificate-errors-spki-list=${createHash('sha256').update(publicKey).digest('base64')}`;
    e2e = await startE2E({ https: { key: certificate.key, cert: certificate.cert }, browserArgs: [LAN_NAME, trusted] });
  });
  afterAll(async () => {
    await e2e?.close();
    if (certificate) rmSync(certificate.dir, { recursive: true, force: true });
  });

  it('is a secure context: the service worker takes control, the app opens without a network, and no notice shows', async () => {
    const { context, page } = await signIn(e2e, e2e.baseUrl.replace('127.0.0.1', 'bodega.test'));
    expect(page.url()).toMatch(/^https:\/\/bodega\.test:\d+\//);
    expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
    await readyForOffline(page);

    await context.setOffline(true);
    await page.reload();
    await page.getByRole('button', { name: /^Account of Administrator/ }).waitFor();
    expect(await page.getByText(NOTICE).count()).toBe(0);
    await context.close();
  });
});
