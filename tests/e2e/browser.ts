import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { buildApp } from '../../src/server/app';
import type { AppConfig } from '../../src/server/config';
import { seed } from '../../src/server/seed';

/**
 * End-to-end support: the built app served by a fresh server on a free port with demo data,
 * and Debian's Chromium driven by playwright-core (no browser download; each launch gets a
 * fresh profile of its own).
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);
export const PASSWORD = 'e2e-password';

export interface E2E {
  app: FastifyInstance;
  baseUrl: string;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * `clientDir`: the built app to serve (a copy, when a test ships a "new build" of it);
 * `browserArgs`: more Chromium switches (say, `--host-resolver-rules` to reach it by another name);
 * `https`: serve https with this key and certificate.
 */
export async function startE2E({
  clientDir = resolve('dist'),
  browserArgs = [],
  https,
}: { clientDir?: string; browserArgs?: string[]; https?: AppConfig['https'] } = {}): Promise<E2E> {
  const app = await buildApp({
    database: { url: 'file::memory:' },
    loginAttemptsPerMinute: 1000,
    secureCookies: false,
    logger: false,
    clientDir,
    https,
  });
  await seed(app.db, { adminEmail: 'admin@example.com', adminPassword: PASSWORD, demoData: true });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...browserArgs,
    ],
  });
  return {
    app,
    baseUrl: address,
    browser,
    async close() {
      await browser.close();
      await app.close();
    },
  };
}

export const TABLET = { width: 1024, height: 768 };
export const PHONE = { width: 390, height: 844 };

/** A fresh browser context (its own storage) signed in as `email`. */
export async function signedIn(e2e: E2E, email: string, viewport = TABLET): Promise<{ context: BrowserContext; page: Page }> {
  const context = await e2e.browser.newContext({ viewport, baseURL: e2e.baseUrl });
  const page = await context.newPage();
  // A failing step says why: the page's own errors reach the test output.
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
  page.on('requestfailed', (request) => console.error(`[request failed] ${request.url()} ${request.failure()?.errorText ?? ''}`));
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: /^Account of/ }).waitFor();
  return { context, page };
}

/**
 * The answers the server gave one change (`PATCH /api/brands/5`), as the outbox sends it: in a
 * `POST /api/batch`, answered there per change — or the batch's own status when the batch itself
 * was refused (401 once the session ended). Filled as answers arrive.
 */
export function answersTo(page: Page, method: string, path: string): number[] {
  const statuses: number[] = [];
  page.on('response', async (response) => {
    if (!response.url().endsWith('/api/batch')) return;
    const changes: { method: string; path: string }[] = response.request().postDataJSON().changes;
    const at = changes.findIndex((change) => change.method === method && change.path === path);
    if (at === -1) return;
    if (response.status() !== 200) statuses.push(response.status());
    else {
      const answer = (await response.json()).data[at];
      if (answer) statuses.push(answer.status);
    }
  });
  return statuses;
}

/**
 * Signed in and ready to work without a network: the service worker installed and in control
 * (after a reload), and the session kept on the device, which is written a moment after it
 * changes, so an offline start finds it.
 */
export async function readyForOffline(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.getByRole('button', { name: /^Account of/ }).waitFor();
  await page.waitForFunction(() => localStorage.getItem('bodega-session')?.includes('permission_names'));
}

/**
 * Opens a select and picks one of its options. A tap that lands while the screen is still
 * settling (a picker closing, the line re-rendering with the item just chosen) can leave the
 * select shut, as a person would see and tap again; so does this, up to three times.
 */
export async function selectOption(page: Page, trigger: Locator, option: string): Promise<void> {
  const choice = page.getByRole('option', { name: option, exact: true });
  for (let attempt = 1; ; attempt += 1) {
    await trigger.click();
    try {
      await choice.waitFor({ timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
  await choice.click();
}

/** Serious or critical axe violations, as readable lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join('; ')})`);
}
