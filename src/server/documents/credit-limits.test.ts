import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditAfterEach } from '../../../tests/support/audited';
import {
  contactTypeId,
  created,
  databaseKinds,
  permissionsOn,
  startSellingDemo,
  userWithPermissions,
  type Session,
  type TestApp,
} from '../../../tests/support/test-app';
import { todayInManila } from '../../domain/documents';
import { OVERRIDE_CREDIT_LIMITS_PERMISSION } from '../../domain/resources/invoices';

/**
 * A customer's credit limit, on each database: an invoice that would leave them owing more than
 * it (every unpaid invoice of theirs, and what this one leaves unpaid) is refused in words, unless
 * its maker may override credit limits and says why — the reason kept on the invoice and in its
 * history. Parallel invoices to one customer never pass the limit together.
 */
describe.each(databaseKinds)('credit limits on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let seller: Session;
  let overrider: Session;
  let businessId: number;
  let branchId: number;
  let item: { id: number; unit_of_measurement_id: number };
  let customerType: number;
  const today = todayInManila();

  beforeAll(async () => {
    ({ test, admin, businessId, branchId, item } = await startSellingDemo(kind, { sku: 'CREDIT-1', name: 'Credit Test Soap' }, 1000));
    await admin.send('PATCH', `/api/items/${item.id}`, { vat_category: 'exempt' }, { 'If-Match': '1' });
    customerType = await contactTypeId(admin, 'Customer');
    const selling = [
      ...permissionsOn(['invoices', 'invoice-payments'], ['view', 'create']),
      ...permissionsOn(['contacts', 'items'], ['view']),
    ];
    seller = (await userWithPermissions(test, businessId, selling)).session;
    overrider = (await userWithPermissions(test, businessId, [...selling, OVERRIDE_CREDIT_LIMITS_PERMISSION])).session;
  });
  afterAll(() => test.close());
  auditAfterEach(() => test);

  const customer = async (creditLimit: number | null) =>
    (
      await created(admin, '/api/contacts', {
        name: `Suki ${Math.random().toString(36).slice(2, 8)}`,
        contact_type_id: customerType,
        credit_limit: creditLimit,
      })
    ).id as number;
  const invoiceBody = (contactId: number, amount: number, extra: Record<string, unknown> = {}) => ({
    contact_id: contactId,
    branch_id: branchId,
    date: today,
    lines: [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 1, unit_price: amount }],
    ...extra,
  });
  const invoiceCount = async (contactId: number) =>
    (await admin.send('GET', `/api/invoices?contact_id=${contactId}&is_strict=1&per_page=100`)).body.meta.total as number;

  it('lets a customer owe up to the limit, and refuses in words the invoice that would take them past it', async () => {
    const suki = await customer(1000);
    expect((await seller.send('POST', '/api/invoices', invoiceBody(suki, 600))).status).toBe(201);
    expect((await seller.send('POST', '/api/invoices', invoiceBody(suki, 400))).status).toBe(201);
    const refused = await seller.send('POST', '/api/invoices', invoiceBody(suki, 0.01));
    expect(refused.status).toBe(422);
    expect(refused.body.errors.contact_id[0]).toMatch(
      /credit limit is ₱1,000\.00: with what they owe already, this invoice would leave ₱1,000\.01 unpaid, ₱0\.01 past it\. Take ₱0\.01 more in payment, or ask someone who may override credit limits\.$/,
    );
    expect(refused.body.errors.credit_override_reason).toBeUndefined();
    expect(await invoiceCount(suki)).toBe(2);
  });

  it('counts what a sale pays at once, and what was paid since', async () => {
    const suki = await customer(500);
    const cash = (amount: number) => ({ payment: { tenders: [{ method: 'cash', amount }] } });
    // ₱800 with ₱300 paid at the counter leaves ₱500 owed: at the limit, not past it.
    expect((await seller.send('POST', '/api/invoices', invoiceBody(suki, 800, cash(300)))).status).toBe(201);
    // Paid in full, a sale owes nothing, so it is never refused.
    expect((await seller.send('POST', '/api/invoices', invoiceBody(suki, 2000, cash(2000)))).status).toBe(201);
    expect((await seller.send('POST', '/api/invoices', invoiceBody(suki, 100))).status).toBe(422);
    const invoices = (await admin.send('GET', `/api/invoices?contact_id=${suki}&is_strict=1&per_page=100`)).body.data;
    const owing = invoices.find((invoice: { balance: number }) => invoice.balance > 0);
    expect(owing.balance).toBe(500);
    await created(admin, '/api/invoice-payments', { invoice_id: owing.id, date: today, amount: 200, payment_method: 'cash' });
    expect((await seller.send('POST', '/api/invoices', invoiceBody(suki, 200))).status).toBe(201);
    expect(await invoiceCount(suki)).toBe(3);
  });

  it('lets whoever may override go past it with a reason, kept on the invoice and in its history; no one else', async () => {
    const suki = await customer(100);
    const withoutReason = await overrider.send('POST', '/api/invoices', invoiceBody(suki, 150));
    expect(withoutReason.status).toBe(422);
    expect(withoutReason.body.errors.contact_id[0]).toMatch(
      /₱50\.00 past it\. Take ₱50\.00 more in payment, or give the reason for going past the limit\.$/,
    );
    expect(withoutReason.body.errors.credit_override_reason).toEqual(["Give the reason for going past the customer's credit limit."]);

    const reason = 'Suki since 2019; pays every Friday.';
    const notTheirs = await seller.send('POST', '/api/invoices', invoiceBody(suki, 150, { credit_override_reason: reason }));
    expect(notTheirs.status).toBe(403);
    expect(notTheirs.body.message).toBe("Going past a customer's credit limit needs permission to override credit limits.");

    const made = await overrider.send('POST', '/api/invoices', invoiceBody(suki, 150, { credit_override_reason: `  ${reason} ` }));
    expect(made.status).toBe(201);
    expect(made.body.data.credit_override_reason).toBe(reason);
    const history = (await admin.send('GET', `/api/invoices/${made.body.data.id}/activity`)).body.data;
    expect(JSON.stringify(history[0])).toContain(reason);

    // Within the limit, a reason is not needed and not kept.
    const within = await overrider.send('POST', '/api/invoices', invoiceBody(await customer(1000), 10, { credit_override_reason: reason }));
    expect(within.status).toBe(201);
    expect(within.body.data.credit_override_reason).toBeNull();
  });

  it('sets no limit on a customer without one', async () => {
    const free = await customer(null);
    expect((await seller.send('POST', '/api/invoices', invoiceBody(free, 99_999))).status).toBe(201);
  });

  it('never lets invoices made at once take a customer past the limit together', async () => {
    const suki = await customer(1000);
    const answers = await Promise.all(Array.from({ length: 8 }, () => seller.send('POST', '/api/invoices', invoiceBody(suki, 300))));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 422, 422, 422, 422, 422]);
    expect(await invoiceCount(suki)).toBe(3);
  });
});
