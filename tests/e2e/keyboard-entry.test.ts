import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centavosToPesos, formatPesos } from '../../src/domain/money';
import { chromiumAvailable, signedIn, startE2E, TABLET, type E2E } from './browser';

/** Entering a document at a tablet's keyboard: what purchasing does all day, in as few key presses as can be. */
describe.skipIf(!chromiumAvailable)('keyboard entry in Chromium', { timeout: 120_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  /** The keyboard, counting: a typed character is one press, a key (Enter, Tab, Ctrl+Enter) one. */
  function countingKeyboard(page: Page) {
    let presses = 0;
    return {
      async type(text: string) {
        presses += text.length;
        await page.keyboard.type(text);
      },
      async press(key: string) {
        presses += 1;
        await page.keyboard.press(key);
      },
      get presses() {
        return presses;
      },
    };
  }

  const focused = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
  /** Picks the first result of a search once it is listed (the picker waits for the typing to pause). */
  async function typeAndPick(page: Page, keys: ReturnType<typeof countingKeyboard>, term: string, option: RegExp) {
    await keys.type(term);
    await page.getByRole('option', { name: option }).first().waitFor();
    await keys.press('Enter');
  }

  it('takes a five-line purchase order in at most 60 key presses, and saves all five lines', async () => {
    const { context, page } = await signedIn(e2e, 'purchasing@example.com', TABLET);
    await page.goto('/purchase-orders/create');
    const supplier = page.getByRole('combobox', { name: /^Supplier/ });
    await supplier.waitFor();
    await supplier.focus();
    const keys = countingKeyboard(page);

    await typeAndPick(page, keys, 'juan', /Juan dela Cruz/);
    await expect.poll(() => supplier.inputValue()).toBe('Juan dela Cruz');
    // Tab goes on to the next field, not to the picker's clear button.
    await keys.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('BUTTON');
    // The warehouse is the one place purchasing buys into: shown, never asked.
    await expect.poll(() => page.getByLabel(/^Warehouse/).textContent()).toContain('Valenzuela Central');
    for (let tabs = 0; (await focused(page)) !== 'line-0-item'; tabs += 1) {
      expect(tabs, 'Tabs from the header to the first line').toBeLessThan(12);
      await keys.press('Tab');
    }

    // Juan's own purchase prices are listed for these five: no price is typed.
    const lines: [string, RegExp, string][] = [
      ['oil', /Tuna Flakes in Oil/, '2'],
      ['beef', /Beef Noodles/, '3'],
      ['light', /San Miguel Light/, '4'],
      ['sweet', /Spaghetti Sauce Sweet/, '5'],
      ['evap', /Evaporated Milk/, '6'],
    ];
    for (const [index, [term, option, quantity]] of lines.entries()) {
      await expect.poll(() => focused(page)).toBe(`line-${index}-item`);
      await typeAndPick(page, keys, term, option);
      // Picking an item moves to its quantity, selected, so the digits replace the 1.
      await expect.poll(() => focused(page)).toBe(`line-${index}-quantity`);
      await keys.type(quantity);
      if (index < lines.length - 1) await keys.press('Enter');
    }
    // Every line is priced from the list before saving, and the total shown is the one saved.
    await page.getByText('The total counts the lines priced so far.').waitFor({ state: 'detached' });
    const shown = await page.getByTestId('document-total').textContent();
    await keys.press('Control+Enter');
    await page.waitForURL(/\/purchase-orders\/\d+$/);

    expect(keys.presses).toBeLessThanOrEqual(60);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const saved = await e2e.app.db
      .selectFrom('document_lines')
      .select(['quantity', 'amount'])
      .where('document_type', '=', 'purchase-order')
      .where('document_id', '=', id)
      .orderBy('position')
      .execute();
    expect(saved.map((line) => line.quantity / 1000)).toEqual([2, 3, 4, 5, 6]);
    const order = await e2e.app.db.selectFrom('purchase_orders').select('total').where('id', '=', id).executeTakeFirstOrThrow();
    expect(shown).toBe(formatPesos(centavosToPesos(order.total)));
    expect(order.total).toBeGreaterThan(102725);
    console.log(`five-line purchase order: ${keys.presses} key presses`);
    await context.close();
  });
});
