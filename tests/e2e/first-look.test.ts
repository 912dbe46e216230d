import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, PHONE, signedIn, startE2E, TABLET, type E2E } from './browser';

/**
 * The counter's first look (index.html, sent by the server in the page for /counter): drawn before
 * any of the app's code or its stylesheet arrives, with the screen's frame where the screen draws
 * it, and kept by the app until the screen itself is ready.
 */
describe.skipIf(!chromiumAvailable).each([
  ['phone', PHONE],
  ['tablet', TABLET],
] as const)('the counter’s first look on a %s', (_size, viewport) => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('is drawn without the app’s code where the screen then draws, and gives way to it', async () => {
    for (const email of ['cashier@example.com', 'admin@example.com']) {
      const { context, page } = await signedIn(e2e, email, viewport);
      await page.goto('/counter');
      const box = page.getByRole('textbox', { name: 'Scan or search items' });
      await box.waitFor();
      const drawn = { title: await page.getByRole('heading', { name: 'Counter' }).boundingBox(), box: await box.boundingBox() };
      expect(await page.getByRole('progressbar', { name: 'Loading the counter' }).count()).toBe(0);

      // The same page with no script run: what a slow phone shows before the code arrives.
      const still = await e2e.browser.newContext({ viewport, baseURL: e2e.baseUrl, javaScriptEnabled: false });
      await still.addCookies(await context.cookies());
      const first = await still.newPage();
      await first.goto('/counter');
      await first.getByText('Scan a barcode, or type a name').waitFor();
      expect(await first.getByRole('progressbar', { name: 'Loading the counter' }).count()).toBe(1);
      const look = {
        title: await first.getByText('Counter', { exact: true }).boundingBox(),
        box: await first.getByText('Scan a barcode, or type a name').boundingBox(),
      };
      for (const part of ['title', 'box'] as const) {
        for (const side of ['x', 'y', 'width', 'height'] as const) {
          expect(Math.abs(look[part]![side] - drawn[part]![side]), `${email}: the ${part}'s ${side}`).toBeLessThanOrEqual(1);
        }
      }
      // Nothing waits for the app's stylesheet to draw: it comes last in the page, after the look.
      const html = await (await first.request.get('/counter')).text();
      expect(html.indexOf('rel="stylesheet"')).toBeGreaterThan(html.indexOf('Scan a barcode, or type a name'));
      await still.close();
      await context.close();
    }
  });
});
