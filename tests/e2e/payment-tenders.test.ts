import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centavosToPesos, formatPesos } from '../../src/domain/money';
import { chromiumAvailable, readyForOffline, signedIn, startE2E, TABLET, type E2E } from './browser';

/**
 * A cashier taking a payment as the customer pays it: part in cash, the rest by Maya, with the
 * network gone — what Maya needs is asked for before it is queued, the queued payment reads with
 * its tenders and amount, and it settles the invoice once the connection returns.
 */
describe.skipIf(!chromiumAvailable)('payment tenders in Chromium', { timeout: 180_000 }, () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E();
  });
  afterAll(() => e2e?.close());

  it('takes a split tender offline, asks for its reference first, and sends it once', async () => {
    // The demo's first unpaid invoice is at a branch the cashier does not work at: the admin takes it.
    const { context, page } = await signedIn(e2e, 'admin@example.com', TABLET);
    await readyForOffline(page);
    const [business] = await e2e.app.db.selectFrom('businesses').select('id').orderBy('id').limit(1).execute();
    const invoice = await e2e.app.db
      .selectFrom('invoices')
      .select(['id', 'balance'])
      .where('business_id', '=', business.id)
      .where('status', '=', 'unpaid')
      .orderBy('id')
      .executeTakeFirstOrThrow();

    // Online, the invoice and its payment form are opened, so the device keeps them.
    await page.goto(`/invoices/${invoice.id}`);
    await page.getByRole('link', { name: 'Record payment' }).click();
    await page.getByRole('heading', { name: 'Create Invoice Payment' }).waitFor();
    const first = page.getByRole('listitem', { name: 'Tender 1' });
    await expect.poll(() => first.getByLabel('Amount').inputValue()).toBe(String(centavosToPesos(invoice.balance)));
    await expect.poll(() => page.getByTestId('tenders-total').textContent()).toBe(formatPesos(centavosToPesos(invoice.balance)));

    await context.setOffline(true);
    const cash = Math.floor(invoice.balance / 200);
    await first.getByLabel('Amount').fill(String(cash));
    await page.getByRole('button', { name: 'Add tender' }).click();
    const second = page.getByRole('listitem', { name: 'Tender 2' });
    // The next tender starts with what is left to pay.
    expect(await second.getByLabel('Amount').inputValue()).toBe(String(centavosToPesos(invoice.balance - cash * 100)));
    await second.getByLabel('Method').selectOption('maya');
    await page.getByRole('button', { name: 'Save Invoice Payment' }).click();
    await second.getByText('The reference number is required for Maya.').waitFor();

    await second.getByLabel('Reference no.').fill('MAYA-7788-9900');
    await page.getByRole('button', { name: 'Save Invoice Payment' }).click();
    await page.getByText('Saved on this device. It will be sent when the connection returns.').first().waitFor();
    await page.goto('/pending-changes');
    const card = page.getByRole('article', { name: /Create Invoice Payment/ });
    await card.getByText(formatPesos(centavosToPesos(invoice.balance)), { exact: false }).waitFor();

    await context.setOffline(false);
    await page.getByText('Nothing is waiting').waitFor({ timeout: 30_000 });
    const paid = await e2e.app.db
      .selectFrom('invoice_payments')
      .select(['id', 'amount', 'payment_method'])
      .where('invoice_id', '=', invoice.id)
      .execute();
    expect(paid).toEqual([{ id: expect.any(Number), amount: invoice.balance, payment_method: 'split' }]);
    const tenders = await e2e.app.db
      .selectFrom('payment_tenders')
      .select(['method', 'amount', 'reference'])
      .where('payment_type', '=', 'invoice-payment')
      .where('payment_id', '=', paid[0].id)
      .orderBy('position')
      .execute();
    expect(tenders).toEqual([
      { method: 'cash', amount: cash * 100, reference: null },
      { method: 'maya', amount: invoice.balance - cash * 100, reference: 'MAYA-7788-9900' },
    ]);
    const settled = await e2e.app.db
      .selectFrom('invoices')
      .select(['status', 'balance'])
      .where('id', '=', invoice.id)
      .executeTakeFirstOrThrow();
    expect(settled).toEqual({ status: 'paid', balance: 0 });

    // Its view lists how it was paid.
    await page.goto(`/invoice-payments/${paid[0].id}`);
    const shown = page.getByRole('list', { name: 'Tenders' });
    await shown.getByText('Ref MAYA-7788-9900').waitFor();
    expect(await shown.getByRole('listitem').count()).toBe(2);
    await context.close();
  });
});
