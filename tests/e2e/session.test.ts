import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answersTo, chromiumAvailable, type E2E, PASSWORD, readyForOffline, signedIn, startE2E } from './browser';

/** Resource tables are typed by their definitions, not in the schema: read them untyped. */
const records = (e2e: E2E) => e2e.app.db;

/** What this page keeps of anyone: localStorage, and the names and contents of its IndexedDB databases. */
async function keptOnDevice(page: Page): Promise<{ localStorage: Record<string, string>; databases: Record<string, unknown[]> }> {
  return page.evaluate(async () => {
    const kept: Record<string, unknown[]> = {};
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const database = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const stores = [...database.objectStoreNames];
      kept[name] = [];
      for (const store of stores) {
        const rows = await new Promise<unknown[]>((resolve) => {
          const request = database.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
        });
        kept[name].push(...rows);
      }
      database.close();
    }
    return { localStorage: { ...localStorage }, databases: kept };
  });
}

/**
 * The session as the browser holds it: the server ending it leads to the sign-in screen once and
 * back to where the user was, with the changes waiting on the device sent after; a network that
 * is merely missing ends nothing; logging out leaves nothing of the user on the device.
 */
describe.skipIf(!chromiumAvailable)('the session in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  const brand = (name: string) =>
    records(e2e)
      .selectFrom('brands')
      .select(['id', 'name', 'version'])
      .where('name', '=', name)
      .where('business_id', '=', 1)
      .executeTakeFirstOrThrow();
  // Past the server, which forgets the callers it kept, as it would after a sign-out through it.
  const endSessions = async () => {
    await e2e.app.db.deleteFrom('sessions').execute();
    e2e.app.forgetCallers();
  };

  async function signInAgain(page: Page, email = 'admin@example.com'): Promise<void> {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('shows the sign-in to a signed-out navigation without asking to be refused: no 401, no console error', async () => {
    // Navigations the server answers, as on a first visit: the service worker's copy of the page says
    // nothing of anyone (it is the same for everyone), and from it the app asks who is signed in.
    const context = await e2e.browser.newContext({ baseURL: e2e.baseUrl, serviceWorkers: 'block' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/user') asked.push(request.url());
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.waitForTimeout(500);
    expect(asked).toEqual([]);
    expect(errors).toEqual([]);
    // Signing in from there works as ever.
    await signInAgain(page);
    await page.getByRole('button', { name: /^Account of/ }).waitFor();
    await context.close();
  });

  it('goes to sign-in once when the server ended the session, and back to the list after', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await page.goto('/items');
    await page.getByText(/^List of Items - Total \d+/).waitFor();
    // The kept user is fresh: nothing asks the server for it again on its own.
    await page.waitForFunction(() => localStorage.getItem('bodega-session')?.includes('permission_names'));
    await endSessions();

    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });
    await page.getByRole('link', { name: 'Brands' }).first().click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.waitForTimeout(4000);
    // The list's address, then the sign-in screen's.
    expect(navigations).toBeLessThanOrEqual(2);
    const url = new URL(page.url());
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('redirect')).toBe('/brands');
    expect(await page.evaluate(() => localStorage.getItem('bodega-session'))).toBeNull();

    await signInAgain(page);
    await page.getByText(/^List of Brands - Total \d+/).waitFor();
    expect(new URL(page.url()).pathname).toBe('/brands');
    await context.close();
  });

  it('comes back to the same address, its search included', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await page.goto('/brands');
    await page.getByText(/^List of Brands - Total \d+/).waitFor();
    await endSessions();
    await page.goto('/items?per_page=5&page=2');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await signInAgain(page);
    await page.getByText(/^List of Items - Total \d+/).waitFor();
    const url = new URL(page.url());
    expect(`${url.pathname}${url.search}`).toBe('/items?per_page=5&page=2');
    await context.close();
  });

  it('keeps a change made offline through the lost session and sends it once after signing in', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await readyForOffline(page);
    const before = await brand('Datu Puti');
    const patches = answersTo(page, 'PATCH', `/api/brands/${before.id}`);

    await page.goto(`/brands/${before.id}/edit`);
    await page.getByLabel('Name').waitFor();
    await context.setOffline(true);
    await page.getByLabel('Name').fill('Datu Puti Vinegar');
    await page.getByRole('button', { name: 'Update Brand' }).click();
    await page.getByRole('heading', { name: 'Brand Datu Puti Vinegar' }).waitFor();
    await page.getByRole('link', { name: 'Pending changes: 1' }).waitFor();
    await endSessions();
    await context.setOffline(false);

    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expect.poll(() => patches).toEqual([401]);
    expect(await brand('Datu Puti')).toMatchObject({ version: before.version });
    await signInAgain(page);
    await page.getByRole('link', { name: 'Pending changes: 0' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/brands/${before.id}`);
    expect(await brand('Datu Puti Vinegar')).toMatchObject({ id: before.id, version: before.version + 1 });
    await expect.poll(() => patches).toEqual([401, 200]);
    await context.close();
  });

  it('never sends the changes one user left waiting as another who signs in on the device', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await readyForOffline(page);
    const before = await brand('Silver Swan');
    const patches = answersTo(page, 'PATCH', `/api/brands/${before.id}`);
    await page.goto(`/brands/${before.id}/edit`);
    await page.getByLabel('Name').waitFor();
    await context.setOffline(true);
    await page.getByLabel('Name').fill('Silver Swan Foods');
    await page.getByRole('button', { name: 'Update Brand' }).click();
    await page.getByRole('link', { name: 'Pending changes: 1' }).waitFor();
    await endSessions();
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();

    // Someone else signs in on this device: the administrator's change waits, unsent.
    await signInAgain(page, 'viewer@example.com');
    await page.getByRole('button', { name: /^Account of Viewer/ }).waitFor();
    await page.waitForTimeout(2000);
    await expect.poll(() => patches).toEqual([401]);
    await page.getByRole('button', { name: /^Account of/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();

    // The administrator again: their change goes, once, as them.
    await signInAgain(page);
    await page.getByRole('link', { name: 'Pending changes: 0' }).waitFor();
    await expect.poll(() => patches).toEqual([401, 200]);
    expect(await brand('Silver Swan Foods')).toMatchObject({ id: before.id, version: before.version + 1 });
    await context.close();
  });

  it('opens signed in without a network: only the server ends a session', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await readyForOffline(page);
    await page.goto('/brands');
    await page.getByText(/^List of Brands - Total \d+/).waitFor();
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('button', { name: /^Account of Administrator/ }).waitFor();
    await page.getByText(/^List of Brands - Total \d+/).waitFor();
    await page.waitForTimeout(1500);
    expect(new URL(page.url()).pathname).toBe('/brands');
    expect(await page.evaluate(() => localStorage.getItem('bodega-session'))).toContain('permission_names');
    await context.close();
  });

  it('leaves nothing of the user on the device after logout', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await page.waitForFunction(() => localStorage.getItem('bodega-session')?.includes('permission_names'));
    // Logging out within the second after a list changed the query cache: its write is still due.
    await page.getByRole('link', { name: 'Brands' }).first().click();
    await page.getByText(/^List of Brands - Total \d+/).waitFor();
    expect(Object.keys((await keptOnDevice(page)).databases)).toContain('bodega-user-1');
    await page.getByRole('button', { name: /^Account of/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // Past the second within which the kept session is written after a change.
    await page.waitForTimeout(3000);
    expect(await keptOnDevice(page)).toEqual({ localStorage: {}, databases: {} });
    await context.close();
  });
});
