import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordBackup } from '../../src/server/operations/backup';
import { chromiumAvailable, PASSWORD, PHONE, seriousViolations, signedIn, startE2E, type E2E } from './browser';

/** The overview's backup line in Chromium: what the master who runs the server sees of the backups, and that no one else does. */
describe.skipIf(!chromiumAvailable)('backup status in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  /** The paths of every API request the page makes. */
  function apiRequests(page: Page): string[] {
    const paths: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api/')) paths.push(path);
    });
    return paths;
  }

  it('tells a master that backups are not scheduled, then when the last one was and that the newest failed', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await page.goto('/overview');
    await page.getByText('No backup has been taken yet. Backups are not scheduled: run npm run backup, or set BACKUP_EVERY.').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);

    await recordBackup(e2e.app.db, {
      kind: 'manual',
      startedAt: new Date('2026-11-22T23:00:00.000Z'),
      seconds: 1.2,
      path: 'data/backups/bodega-2026-11-22T23-00-00Z.sqlite',
      bytes: 1_048_576,
    });
    await recordBackup(e2e.app.db, {
      kind: 'scheduled',
      startedAt: new Date('2026-11-23T05:00:00.000Z'),
      seconds: 0.1,
      error: 'pg_dump was not found on the PATH: install the PostgreSQL client tools (apt-get install postgresql-client)',
    });
    await page.reload();
    // 23:00 UTC is 7:00 the next morning in Manila, whatever zone the device is in.
    await page.getByText(/^Last backup: .*23.*2026.*7:00.*\(Manila\)\./).waitFor();
    const alert = page.getByRole('alert').filter({ hasText: 'The last backup failed' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^The last backup failed at .*23.*2026.*1:00.*\(Manila\): pg_dump was not found on the PATH/);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('shows nothing of the backups to a master who does not run the server', async () => {
    const admin = await signedIn(e2e, 'admin@example.com');
    const businessId = await admin.page.evaluate(() => localStorage.getItem('business_id'));
    const headers = { 'X-Requested-With': 'XMLHttpRequest', 'Business-ID': String(businessId) };
    const roles = await admin.context.request.get('/api/roles?name=Administrator&is_strict=1', { headers });
    const roleId = ((await roles.json()) as { data: { id: number }[] }).data[0].id;
    const user = await admin.context.request.post('/api/users', {
      data: { name: 'Second Owner', email: 'second-owner@example.com', password: PASSWORD, role_ids: [roleId] },
      headers,
    });
    expect(user.status()).toBe(201);
    await admin.context.close();

    const { context, page } = await signedIn(e2e, 'second-owner@example.com', PHONE);
    // The server refuses them the backups (they are the whole server's), and the overview shows none.
    const refused = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/operations/backups');
    await page.goto('/overview');
    await page.getByRole('heading', { name: /^Magandang araw/ }).waitFor();
    await page.getByRole('region', { name: 'Receivables', exact: true }).waitFor();
    expect((await refused).status()).toBe(403);
    expect(await page.getByText(/backup/i).count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    await context.close();
  });

  it('shows nothing of the backups to others, and never asks the server', async () => {
    const { context, page } = await signedIn(e2e, 'cashier@example.com', PHONE);
    const requests = apiRequests(page);
    await page.goto('/overview');
    await page.getByRole('heading', { name: /^Magandang araw/ }).waitFor();
    await page.getByRole('region', { name: 'Receivables', exact: true }).waitFor();
    expect(await page.getByText(/backup/i).count()).toBe(0);
    expect(requests.filter((path) => path.startsWith('/api/operations/'))).toEqual([]);
    await context.close();
  });
});
