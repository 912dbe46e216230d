import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, readyForOffline, signedIn, startE2E, type E2E } from './browser';

/** The installable, offline-tolerant shell: manifest, service worker, and the kept session. */
describe.skipIf(!chromiumAvailable)('installable app in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('serves a web app manifest with icons, and a service worker that is always revalidated', async () => {
    const manifest = await e2e.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.json()).toMatchObject({
      name: 'Bodega — back office',
      short_name: 'Bodega',
      display: 'standalone',
      start_url: '/',
      theme_color: '#0f766e',
    });
    const icons = manifest.json().icons as { src: string; sizes: string; purpose?: string }[];
    expect(icons.map((icon) => `${icon.sizes}${icon.purpose ? ` ${icon.purpose}` : ''}`)).toEqual([
      '192x192',
      '512x512',
      '512x512 maskable',
    ]);
    for (const icon of icons) expect((await e2e.app.inject({ method: 'GET', url: icon.src })).headers['content-type']).toBe('image/png');

    const worker = await e2e.app.inject({ method: 'GET', url: '/sw.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(worker.body).toContain('index.html');
    const index = await e2e.app.inject({ method: 'GET', url: '/brands/12/edit' });
    expect(index.headers['content-type']).toContain('text/html');
    expect(index.body).toContain('<link rel="manifest" href="/manifest.webmanifest">');
  });

  it('opens signed in without a network, and never answers the API with the shell', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.getByRole('button', { name: /^Account of/ }).waitFor();
    // The session is written to localStorage a moment after it changes.
    await page.waitForFunction(() => localStorage.getItem('bodega-session')?.includes('permission_names'));

    await context.setOffline(true);
    await page.reload();
    await page.getByRole('button', { name: /^Account of Administrator/ }).waitFor();
    await page.getByRole('button', { name: /Business: Tindahan ni Aling Nena Trading/ }).waitFor();
    const api = await page.evaluate(() =>
      fetch('/api/health').then(
        (response) => response.headers.get('content-type') ?? 'no content type',
        () => 'network error',
      ),
    );
    expect(api).toBe('network error');

    await context.setOffline(false);
    await page.getByRole('button', { name: /^Account of/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem('bodega-session'))).toBeNull();
    await context.close();
  });

  it('draws a list as last seen before the app starts offline, and gives way to the list drawn with its rows', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await readyForOffline(page);
    await page.goto('/brands');
    await page.getByText('List of Brands - Total 8').waitFor();
    // Kept once the page is idle.
    await page.waitForFunction(() => localStorage.getItem('bodega-kept-look /brands')?.includes('Century Tuna'));

    // What the page shows as it is read, before the app's code runs: recorded by an init script.
    // And the rows the app had drawn when the look went.
    const firstLook = () =>
      document.addEventListener('DOMContentLoaded', () => {
        const look = document.getElementById('first-look');
        const seen: Record<string, unknown> = {
          keptFor: look?.getAttribute('data-kept-for') ?? null,
          rows: [...(look?.querySelectorAll('tbody tr') ?? [])].map((row) => row.querySelector('td:nth-child(2)')?.textContent),
          notice: look?.querySelector('[data-offline-notice]')?.textContent ?? null,
          inert: look?.inert ?? null,
          rootShown: getComputedStyle(document.getElementById('root') as HTMLElement).display !== 'none',
        };
        (window as unknown as { seen: unknown }).seen = seen;
        new MutationObserver((_changes, observer) => {
          if (look?.isConnected) return;
          observer.disconnect();
          seen.rowsWhenGone = document.querySelectorAll('#root tbody tr').length;
        }).observe(document.body, { childList: true });
      });
    await context.addInitScript(firstLook);
    const seen = async (at: string) => {
      const fresh = await context.newPage();
      await fresh.goto(at);
      await fresh.getByText('List of Brands - Total 8').waitFor();
      const what = await fresh.evaluate(() => (window as unknown as { seen: Record<string, unknown> }).seen);
      return { fresh, what };
    };

    // Online, the screen's own answer is on its way: the loading look.
    const online = await seen('/brands');
    expect(online.what).toMatchObject({ keptFor: null, rows: [] });
    await online.fresh.close();

    await context.setOffline(true);
    const offline = await seen('/brands');
    expect(offline.what).toMatchObject({ keptFor: '/brands', inert: true, rootShown: false });
    expect(offline.what.rows).toHaveLength(8);
    expect(offline.what.rows).toContain('Century Tuna');
    expect(offline.what.notice).toMatch(/^Offline — showing data saved at /);
    // Then the list itself, drawn with its rows as the look goes, and nothing of the look.
    await offline.fresh.locator('#first-look').waitFor({ state: 'detached' });
    expect(await offline.fresh.evaluate(() => (window as unknown as { seen: { rowsWhenGone: unknown } }).seen.rowsWhenGone)).toBe(8);
    await offline.fresh
      .locator('#root')
      .getByText(/^Offline — showing data saved at /)
      .waitFor();
    expect(await offline.fresh.locator('tbody tr').count()).toBe(8);

    // Searched, the list is not the one kept.
    const searched = await context.newPage();
    await searched.goto('/brands?page=1');
    await searched.getByText('List of Brands - Total 8').waitFor();
    expect(await searched.evaluate(() => (window as unknown as { seen: { keptFor: unknown } }).seen.keptFor)).toBeNull();

    await context.setOffline(false);
    await page.getByRole('button', { name: /^Account of/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(/\/login/);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('bodega-kept-look')))).toEqual([]);
    await context.close();
  });

  it('reads back what was seen, says when it was saved, and says what was never opened', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.goto('/brands');
    await page.getByText('List of Brands - Total 8').waitFor();
    await page.locator('tbody tr', { hasText: 'Century Tuna' }).getByRole('link', { name: 'View' }).click();
    await page.getByRole('heading', { name: 'Brand Century Tuna' }).waitFor();
    await page.waitForFunction(() => localStorage.getItem('bodega-session')?.includes('permission_names'));
    expect(await page.evaluate(async () => (await indexedDB.databases()).map((database) => database.name))).toContain('bodega-user-1');

    await context.setOffline(true);
    await page.goto('/brands');
    await page.getByText('List of Brands - Total 8').waitFor();
    await page.getByText(/^Offline — showing data saved at /).waitFor();
    await page.locator('tbody tr', { hasText: 'Century Tuna' }).getByRole('link', { name: 'View' }).click();
    await page.getByRole('heading', { name: 'Brand Century Tuna' }).waitFor();
    await page.getByText(/^Offline — showing data saved at /).waitFor();

    // Not of the working set (warehouses now are: the device keeps them whole).
    await page.goto('/stock-adjustments');
    await page.getByText(/has not been opened on this device yet, so it is not available offline/).waitFor();

    await page.goto('/items/create');
    await page.getByRole('combobox', { name: 'Brand' }).fill('tuna');
    await page.getByRole('option', { name: 'Century Tuna' }).waitFor();

    await context.setOffline(false);
    await page.getByRole('button', { name: /^Account of/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(/\/login/);
    expect(await page.evaluate(async () => (await indexedDB.databases()).map((database) => database.name))).not.toContain('bodega-user-1');
    await context.close();
  });
});
