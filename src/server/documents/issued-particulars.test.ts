import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactTypeId, databaseKinds, startSellingDemo, userWithPermissions } from '../../../tests/support/test-app';
import type { SellingDemo, Session, TestApp } from '../../../tests/support/test-app';
import { oneLineAtBranch } from '../../../tests/support/one-line';
import { up as keepParticularsOfEarlierDocuments } from '../db/migrations/2026-11-30-03-document-particulars';
import type { Db } from '../db/scope';

/**
 * A document keeps the particulars it was issued with, on each database: a reprint after the
 * buyer's TIN and the business's address changed shows the original ones, to whoever may view it;
 * its prints are counted, the first the original — of several at once, exactly one.
 */
describe.each(databaseKinds)('the particulars a document was issued with, on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let db: Db;
  let businessId: number;
  let branchId: number;
  let customerTypeId: number;
  let item: SellingDemo['item'];

  beforeAll(async () => {
    ({ test, admin, businessId, branchId, item } = await startSellingDemo(kind, { sku: 'KEPT-1', name: 'Kept Particulars Rice' }));
    db = test.app.db;
    customerTypeId = await contactTypeId(admin, 'Customer');
  });
  afterAll(() => test.close());

  const sellTo = async (contactId: number) => {
    const sold = await admin.send('POST', '/api/invoices', oneLineAtBranch(contactId, branchId, '2026-11-27', item, 1, 50));
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    return sold.body.data as { id: number; particulars: unknown; prints: number };
  };

  it('reads an invoice with the particulars it was issued with after the buyer’s TIN and the business’s address change', async () => {
    expect(
      (
        await admin.send('PATCH', `/api/businesses/${businessId}`, {
          registered_name: 'Kept Trading Corporation',
          trade_name: 'Tindahan Kept',
          tin: '123-456-789',
          address: '1 Old Address St, Quezon City',
          vat_registered: true,
        })
      ).status,
    ).toBe(200);
    expect((await admin.send('PATCH', `/api/branches/${branchId}`, { branch_code: '00007', address: 'Old Branch Road' })).status).toBe(200);
    const buyer = (
      await admin.send('POST', '/api/contacts', {
        contact_type_id: customerTypeId,
        name: 'Kept Buyer Store',
        address: '12 Mabini St',
        tin: '222-333-444-000',
      })
    ).body.data;
    const issued = {
      seller: {
        name: 'Kept Trading Corporation',
        trade_name: 'Tindahan Kept',
        address: '1 Old Address St, Quezon City',
        tin: '123-456-789',
        vat_registered: true,
      },
      place: { type: 'branch', address: 'Old Branch Road', branch_code: '00007' },
      party: { name: 'Kept Buyer Store', address: '12 Mabini St', tin: '222-333-444-000' },
    };
    const invoice = await sellTo(buyer.id);
    expect(invoice.particulars).toMatchObject(issued);
    expect(invoice.prints).toBe(0);

    const later = [
      await admin.send('PATCH', `/api/contacts/${buyer.id}`, { tin: '999-888-777-000', address: 'Moved Away' }),
      await admin.send('PATCH', `/api/businesses/${businessId}`, { address: '99 New Address Ave, Makati', vat_registered: false }),
      await admin.send('PATCH', `/api/branches/${branchId}`, { branch_code: '00099', address: 'New Branch Road' }),
    ];
    expect(later.map((answer) => answer.status)).toEqual([200, 200, 200]);

    const reread = await admin.send('GET', `/api/invoices/${invoice.id}`);
    expect(reread.body.data.particulars).toMatchObject(issued);
    // A user who may view invoices but not contacts, the business or branches reads them too.
    const { session: viewer } = await userWithPermissions(test, businessId, ['view-invoices']);
    const seen = await viewer.send('GET', `/api/invoices/${invoice.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.data.particulars).toMatchObject(issued);
    // A sale made now is issued with what holds now.
    expect((await sellTo(buyer.id)).particulars).toMatchObject({
      seller: { address: '99 New Address Ave, Makati', vat_registered: false },
      place: { address: 'New Branch Road', branch_code: '00099' },
      party: { tin: '999-888-777-000', address: 'Moved Away' },
    });
  });

  it('keeps where goods between two places leave, and no party, for a transfer', async () => {
    const transfers = (await admin.send('GET', '/api/stock-transfers?limit=1')).body.data;
    expect(transfers.length).toBeGreaterThan(0);
    const transfer = (await admin.send('GET', `/api/stock-transfers/${transfers[0].id}`)).body.data;
    expect(transfer.particulars.party).toBeNull();
    expect(transfer.particulars.place).toMatchObject({ type: transfer.from_location_type, name: transfer.from_location.display });
  });

  it('counts each print: the first the original, the rest reprints; of prints at once exactly one is the original', async () => {
    const buyer = (await admin.send('POST', '/api/contacts', { contact_type_id: customerTypeId, name: 'Printed Twice Store' })).body.data;
    const invoice = await sellTo(buyer.id);
    const prints = await Promise.all(Array.from({ length: 6 }, () => admin.send('POST', `/api/invoices/${invoice.id}/prints`)));
    expect(prints.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const copies = prints.map((answer) => answer.body.data.copy as number).sort((a, b) => a - b);
    expect(copies).toEqual([1, 2, 3, 4, 5, 6]);
    const original = prints.find((answer) => answer.body.data.copy === 1)!.body.data;
    expect(prints.every((answer) => answer.body.data.first_printed_at === original.first_printed_at)).toBe(true);
    expect((await admin.send('GET', `/api/invoices/${invoice.id}`)).body.data.prints).toBe(6);

    // Sent again under its key (the outbox's replay), a print counts once.
    const headers = { 'idempotency-key': `print-${kind}-${invoice.id}` };
    const once = await admin.send('POST', `/api/invoices/${invoice.id}/prints`, undefined, headers);
    const again = await admin.send('POST', `/api/invoices/${invoice.id}/prints`, undefined, headers);
    expect([once.body.data.copy, again.body.data.copy]).toEqual([7, 7]);
  });

  it('lets whoever views a document print it, and nobody else', async () => {
    const buyer = (await admin.send('POST', '/api/contacts', { contact_type_id: customerTypeId, name: 'Print Rights Store' })).body.data;
    const invoice = await sellTo(buyer.id);
    const { session: viewer } = await userWithPermissions(test, businessId, ['view-invoices']);
    expect((await viewer.send('POST', `/api/invoices/${invoice.id}/prints`)).body.data.copy).toBe(1);
    const { session: stranger } = await userWithPermissions(test, businessId, ['view-quotations']);
    expect((await stranger.send('POST', `/api/invoices/${invoice.id}/prints`)).status).toBe(403);
    const { session: elsewhere } = await userWithPermissions(test, businessId, ['view-invoices'], { all: null, grants: [] });
    expect((await elsewhere.send('POST', `/api/invoices/${invoice.id}/prints`)).status).toBe(404);
    expect((await admin.inBusiness(undefined).send('POST', `/api/invoices/${invoice.id}/prints`)).status).toBeGreaterThanOrEqual(400);
    expect((await admin.send('POST', '/api/invoices/999999/prints')).status).toBe(404);
    expect((await admin.send('POST', '/api/invoices/1.5/prints')).status).toBe(422);
    expect((await admin.send('GET', `/api/invoices/${invoice.id}`)).body.data.prints).toBe(1);
  });

  it('gives the documents made before it what is known of them now: what a create kept, unless it changed since', async () => {
    const rows = () => db.selectFrom('document_particulars').selectAll().orderBy('document_type').orderBy('document_id').execute();
    const unprinted = (row: Awaited<ReturnType<typeof rows>>[number]) => ({
      ...row,
      prints: 0,
      first_printed_at: null,
      last_printed_at: null,
    });
    const all = await rows();
    // As an older Bodega left the database: no particulars kept; then the migration that keeps them runs.
    await sql`drop table document_particulars`.execute(db);
    await keepParticularsOfEarlierDocuments(db);
    const filled = await rows();
    // Of the kinds there were when it ran (its own list): a kind added since (sales returns) is not its to fill.
    const earlierKinds = new Set(filled.map((row) => row.document_type));
    expect(earlierKinds).toContain('invoice');
    const kept = all.filter((row) => earlierKinds.has(row.document_type));
    expect(filled.map((row) => [row.business_id, row.document_type, row.document_id])).toEqual(
      kept.map((row) => [row.business_id, row.document_type, row.document_id]),
    );
    // The other business changed nothing since its documents were made: each is given what its create kept.
    const untouched = (list: typeof kept) => list.filter((row) => row.business_id !== businessId).map(unprinted);
    expect(untouched(kept).length).toBeGreaterThan(0);
    expect(untouched(filled)).toEqual(untouched(kept));
    // This one's first invoice was issued before its address changed: the best known now is today's.
    const first = (list: typeof kept) => list.find((row) => row.document_type === 'invoice' && row.party_name === 'Kept Buyer Store')!;
    expect(first(kept)).toMatchObject({ seller_address: '1 Old Address St, Quezon City', party_tin: '222-333-444-000' });
    expect(first(filled)).toMatchObject({ seller_address: '99 New Address Ave, Makati', party_tin: '999-888-777-000', prints: 0 });
  });
});
