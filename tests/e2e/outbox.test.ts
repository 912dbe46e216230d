import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, type E2E, PASSWORD, readyForOffline, signedIn, startE2E } from './browser';

/** Resource tables are typed by their definitions, not in the schema: read them untyped. */
const brands = (e2e: E2E) => e2e.app.db;

/**
 * The outbox in a real browser (docs/architecture.md, "Offline"): changes made without a network
 * survive reloads and reach the server exactly once, in order, however the network misbehaves;
 * refusals wait for the user; two tabs never send a change twice. Counts are read on the server.
 */
interface BatchChange {
  method: string;
  path: string;
  body?: { name?: string };
}

/**
 * Stands between the page's outbox and `POST /api/batch` as a server that stops at a change would:
 * `refuse` sees each change in order, and the first it answers (a 503, say) ends the batch there.
 * The changes before it reach the real server; the ones after it are not tried.
 */
async function answerInBatches(page: Page, refuse: (change: BatchChange) => { status: number; body: unknown } | undefined) {
  await page.route('**/api/batch', async (route) => {
    const changes: BatchChange[] = route.request().postDataJSON().changes;
    let refusal: { status: number; body: unknown } | undefined;
    const before = changes.slice(
      0,
      Math.max(
        0,
        changes.findIndex((change) => (refusal = refuse(change)) !== undefined),
      ),
    );
    const reached = refusal ? before : changes;
    const data = reached.length > 0 ? (await (await route.fetch({ postData: JSON.stringify({ changes: reached }) })).json()).data : [];
    if (refusal && data.length === reached.length) data.push({ ...refusal, replayed: false });
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ data }) });
  });
}

describe.skipIf(!chromiumAvailable)('changes queued on the device', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  const brand = (name: string) =>
    brands(e2e)
      .selectFrom('brands')
      .select(['id', 'name', 'version'])
      .where('name', '=', name)
      .where('business_id', '=', 1)
      .executeTakeFirst();
  const brandById = (id: number) =>
    brands(e2e).selectFrom('brands').select(['id', 'name', 'version']).where('id', '=', id).executeTakeFirstOrThrow();
  const countNamed = async (name: string) =>
    (await brands(e2e).selectFrom('brands').select('id').where('name', '=', name).execute()).length;

  /** Ready to work offline, with the brands list seen once (so it reads back offline). */
  async function readyWithBrandsKept(page: Page): Promise<void> {
    await readyForOffline(page);
    await page.goto('/brands');
    await page.getByText(/^List of Brands - Total \d+/).waitFor();
    await page.waitForFunction(keptOnDevice, '1|brands|list|');
  }

  /** True once this device keeps a list answer (not a picker's) whose key starts with `prefix`; it is written just after the screen shows it. */
  async function keptOnDevice(prefix: string): Promise<boolean> {
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('bodega-user-1');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      if (!database.objectStoreNames.contains('answers')) return false;
      const keys = await new Promise<IDBValidKey[]>((resolve) => {
        const request = database.transaction('answers').objectStore('answers').getAllKeys();
        request.onsuccess = () => resolve(request.result);
      });
      return keys.some((key) => String(key).startsWith(prefix) && !String(key).includes('limit='));
    } finally {
      database.close();
    }
  }

  async function renameBrand(page: Page, id: number | string, name: string): Promise<void> {
    await page.goto(`/brands/${id}/edit`);
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Update Brand' }).click();
    await page.getByRole('heading', { name: `Brand ${name}` }).waitFor();
  }

  const pendingCount = (page: Page, count: number) => page.getByRole('link', { name: `Pending changes: ${count}` }).waitFor();

  it('keeps an offline edit through two reloads and sends it once when the network returns', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await readyWithBrandsKept(page);
    const before = (await brand('Alaska'))!;

    await context.setOffline(true);
    await renameBrand(page, before.id, 'Alaska Milk');
    await page.getByText('Saved on this device. It will be sent when the connection returns.').first().waitFor();
    await page.getByText('Pending edit').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Brand Alaska Milk' }).waitFor();
    await page.reload();
    await pendingCount(page, 1);
    expect(await brandById(before.id)).toMatchObject({ name: 'Alaska', version: before.version });
    // Logging out would delete the unsent change from the device: it asks first.
    await page.getByRole('button', { name: /^Account of/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('alertdialog', { name: '1 change has not reached the server yet.' }).waitFor();
    await page.getByRole('button', { name: 'Stay signed in' }).click();

    await context.setOffline(false);
    await pendingCount(page, 0);
    expect(await brandById(before.id)).toMatchObject({ name: 'Alaska Milk', version: before.version + 1 });

    // Online, the same screen waits for the server and then confirms the change.
    await renameBrand(page, before.id, 'Alaska');
    await page.getByText('Brand updated successfully.').waitFor();
    expect(await brandById(before.id)).toMatchObject({ name: 'Alaska', version: before.version + 2 });

    // A navigation to the API is answered by the server, never by the app's shell.
    const api = await page.goto('/api/health');
    expect(api?.headers()['content-type']).toContain('application/json');
    await context.close();
  });

  it('creates a record once when the first answer was lost on the way back', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    let lost = false;
    const replayed: boolean[] = [];
    page.on('response', async (response) => {
      if (response.url().endsWith('/api/batch') && response.status() === 200) {
        for (const answer of (await response.json()).data) replayed.push(answer.replayed);
      }
    });
    await page.route('**/api/batch', async (route) => {
      if (lost) return route.continue();
      lost = true;
      await route.fetch(); // the server creates it …
      await route.abort('connectionreset'); // … and the answer never arrives
    });

    await page.goto('/brands/create');
    await page.getByLabel('Name').fill('Lost Answer Foods');
    const resent = page.waitForResponse((response) => response.url().endsWith('/api/batch') && response.status() === 200);
    await page.getByRole('button', { name: 'Save Brand' }).click();
    await page.getByText('Saved on this device. It will be sent when the connection returns.').first().waitFor();
    await resent;
    await pendingCount(page, 0);
    expect(await countNamed('Lost Answer Foods')).toBe(1);
    expect(replayed).toEqual([true]);
    await context.close();
  });

  it('edits a record created offline in its queued create, and gives it its server id once synced', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await readyWithBrandsKept(page);

    await context.setOffline(true);
    await page.goto('/brands/create');
    await page.getByLabel('Name').fill('Offline Draft');
    await page.getByRole('button', { name: 'Save Brand' }).click();
    const row = page.locator('tbody tr', { hasText: 'Offline Draft' });
    await row.getByText('Pending create').waitFor();
    await page.getByText(/created on this device, not yet synced/).waitFor();
    await row.getByRole('link', { name: 'Edit' }).click();
    // The form starts from the queued create, read from the device: typed into before that, it would start over.
    await expect.poll(() => page.getByLabel('Name').inputValue()).toBe('Offline Draft');
    await page.getByLabel('Name').fill('Offline Second');
    await page.getByRole('button', { name: 'Update Brand' }).click();
    await page.getByRole('heading', { name: 'Brand Offline Second' }).waitFor();
    const localUrl = page.url();
    expect(localUrl).toMatch(/\/brands\/[0-9a-f-]{36}$/);
    await renameBrand(page, localUrl.split('/').pop()!, 'Offline Final');
    await page.reload();
    await page.getByRole('heading', { name: 'Brand Offline Final' }).waitFor();
    await pendingCount(page, 1);

    await context.setOffline(false);
    await page.waitForURL(/\/brands\/\d+$/);
    await pendingCount(page, 0);
    expect(await countNamed('Offline Final')).toBe(1);
    expect(await countNamed('Offline Draft')).toBe(0);
    expect(await countNamed('Offline Second')).toBe(0);
    const created = (await brand('Offline Final'))!;
    expect(page.url()).toMatch(new RegExp(`/brands/${created.id}$`));
    // The old link still leads to the record.
    await page.goto(localUrl);
    await page.waitForURL(new RegExp(`/brands/${created.id}$`));
    await page.getByRole('heading', { name: 'Brand Offline Final' }).waitFor();
    await context.close();
  });

  it('sends queued edits in order, and a 503 holds back the ones after it until it goes through', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await readyWithBrandsKept(page);
    const [first, second, third] = await Promise.all(['Nestlé', 'Lucky Me!', 'San Miguel'].map(async (name) => (await brand(name))!));

    await context.setOffline(true);
    await renameBrand(page, first.id, 'Nestlé PH');
    await renameBrand(page, second.id, 'Lucky Me! PH');
    await renameBrand(page, third.id, 'San Miguel PH');
    await pendingCount(page, 3);

    const seen: string[] = [];
    let refused = false;
    await answerInBatches(page, (change) => {
      const id = Number(change.path.split('/').pop());
      if (id === second.id && !refused) {
        refused = true;
        seen.push(`${id}:503`);
        return { status: 503, body: { message: 'Service Unavailable' } };
      }
      seen.push(`${id}:sent`);
      return undefined;
    });
    await context.setOffline(false);
    await pendingCount(page, 0);
    expect(seen).toEqual([`${first.id}:sent`, `${second.id}:503`, `${second.id}:sent`, `${third.id}:sent`]);
    for (const [record, name] of [
      [first, 'Nestlé PH'],
      [second, 'Lucky Me! PH'],
      [third, 'San Miguel PH'],
    ] as const) {
      expect(await brandById(record.id)).toMatchObject({ name, version: record.version + 1 });
    }
    await context.close();
  });

  it('parks an edit the server changed meanwhile, overwrites nothing, and sends the rest', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await readyWithBrandsKept(page);
    const contested = (await brand('Del Monte'))!;
    const other = (await brand('Datu Puti'))!;

    await context.setOffline(true);
    await renameBrand(page, contested.id, 'Del Monte (mine)');
    await renameBrand(page, other.id, 'Datu Puti Vinegar');
    await brands(e2e)
      .updateTable('brands')
      .set({ name: 'Del Monte (theirs)', version: contested.version + 1 })
      .where('id', '=', contested.id)
      .execute();

    await context.setOffline(false);
    await pendingCount(page, 1);
    expect(await brandById(other.id)).toMatchObject({ name: 'Datu Puti Vinegar' });
    expect(await brandById(contested.id)).toMatchObject({ name: 'Del Monte (theirs)', version: contested.version + 1 });

    await page.getByRole('link', { name: 'Pending changes: 1' }).click();
    const entry = page.getByRole('article', { name: 'Update Brand Del Monte (mine)' });
    await entry.getByText('Needs attention').waitFor();
    await entry.getByRole('cell', { name: 'Del Monte (theirs)' }).waitFor();
    await entry.getByRole('cell', { name: 'Del Monte (mine)' }).waitFor();
    await entry.getByRole('button', { name: 'Keep mine' }).click();
    await pendingCount(page, 0);
    expect(await brandById(contested.id)).toMatchObject({ name: 'Del Monte (mine)', version: contested.version + 2 });
    await context.close();
  });

  it('keeps the outbox through a lost session and sends it once after signing in again', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await readyWithBrandsKept(page);
    const before = (await brand('Silver Swan'))!;

    await context.setOffline(true);
    await renameBrand(page, before.id, 'Silver Swan Soy');
    await e2e.app.db.deleteFrom('sessions').execute();
    e2e.app.forgetCallers();
    await context.setOffline(false);

    await page.waitForURL(/\/login/);
    expect(await brandById(before.id)).toMatchObject({ name: 'Silver Swan', version: before.version });
    await page.getByLabel('Email').fill('admin@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await pendingCount(page, 0);
    expect(await brandById(before.id)).toMatchObject({ name: 'Silver Swan Soy', version: before.version + 1 });
    await context.close();
  });

  it('delivers a backlog once when two tabs come back online together', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await readyWithBrandsKept(page);
    const second = await context.newPage();
    await second.goto('/pending-changes');
    await second.getByRole('heading', { name: 'Pending changes' }).waitFor();

    await context.setOffline(true);
    const names = ['Two Tabs A', 'Two Tabs B', 'Two Tabs C'];
    for (const name of names) {
      await page.goto('/brands/create');
      await page.getByLabel('Name').fill(name);
      await page.getByRole('button', { name: 'Save Brand' }).click();
      await page.locator('tbody tr', { hasText: name }).waitFor();
    }
    await pendingCount(second, 3);
    const posts: string[] = [];
    context.on('request', (request) => {
      if (request.url().endsWith('/api/batch')) {
        for (const change of request.postDataJSON().changes) if (change.path === '/api/brands') posts.push(change.body.name);
      }
    });

    await context.setOffline(false);
    await pendingCount(page, 0);
    await pendingCount(second, 0);
    for (const name of names) expect(await countNamed(name)).toBe(1);
    expect(posts.sort()).toEqual(names);
    await context.close();
  });
});

describe.skipIf(!chromiumAvailable)('a new build', { timeout: 120_000 }, () => {
  let e2e: E2E;
  let clientDir: string;

  beforeAll(async () => {
    clientDir = mkdtempSync(join(tmpdir(), 'bodega-build-'));
    cpSync(resolve('dist'), clientDir, { recursive: true });
    e2e = await startE2E({ clientDir });
  });
  afterAll(async () => {
    await e2e?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('asks before reloading into it, and the outbox survives the reload', async () => {
    const { context, page } = await signedIn(e2e, 'admin@example.com');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    // The server cannot take changes now: the edit stays queued.
    await page.route('**/api/batch', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Service Unavailable"}' }),
    );
    const { id } = await brands(e2e).selectFrom('brands').select(['id']).where('name', '=', 'Century Tuna').executeTakeFirstOrThrow();
    await page.goto(`/brands/${id}/edit`);
    await page.getByLabel('Name').fill('Century Tuna Corp');
    await page.getByRole('button', { name: 'Update Brand' }).click();
    await page.getByRole('link', { name: 'Pending changes: 1' }).waitFor();

    // The next build: a changed worker, with the compressed copies the server sends beside it.
    const worker = join(clientDir, 'sw.js');
    appendFileSync(worker, '\n// the next build\n');
    writeFileSync(`${worker}.br`, brotliCompressSync(readFileSync(worker)));
    writeFileSync(`${worker}.gz`, gzipSync(readFileSync(worker)));
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    await page.getByText('New version available').waitFor();
    // Waited for before the tap: the reload can be over before the tap's own call returns.
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Reload' }).click()]);
    await page.getByRole('link', { name: 'Pending changes: 1' }).waitFor();

    // The server takes changes again; the connection coming back sends the queue at once.
    await page.unroute('**/api/batch');
    await context.setOffline(true);
    await context.setOffline(false);
    await page.getByRole('link', { name: 'Pending changes: 0' }).waitFor();
    expect((await brands(e2e).selectFrom('brands').select(['name']).where('id', '=', id).executeTakeFirstOrThrow()).name).toBe(
      'Century Tuna Corp',
    );
    await context.close();
  });
});
