import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getResource } from '../../domain/resources/registry';
import { ADMIN_EMAIL, databaseKinds, startDemo, type Session, type TestApp } from '../../../tests/support/test-app';
import { sampleBody } from '../../../tests/support/samples';

/**
 * Memos written about a document: each names a live document of the business by its type and
 * id, is read back with that document's number and its writer's name, and a document's memos
 * are listed by filtering on both.
 */

describe.each(databaseKinds)('document memoranda on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let otherBusiness: number;
  let orders: { id: number; number: string }[];
  let me: { id: number; name: string };

  /** A new document of `resource` in the session's business. */
  async function newDocument(session: Session, resource: string): Promise<{ id: number; number: string }> {
    const created = await session.send('POST', `/api/${resource}`, await sampleBody(session, getResource(resource)));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data;
  }

  const memo = (document: { id: number }, overrides: Record<string, unknown> = {}) => ({
    document_type: 'purchase-order',
    document_id: document.id,
    date: '2026-11-20',
    subject: 'Damaged cartons',
    body: 'The supplier promised to replace the 3 damaged cartons on the next delivery.',
    ...overrides,
  });

  beforeAll(async () => {
    const {
      businesses: [, second],
      ...demo
    } = await startDemo(kind);
    ({ test, admin } = demo);
    otherBusiness = second;
    me = await test.app.db.selectFrom('users').select(['id', 'name']).where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow();
    orders = [await newDocument(admin, 'purchase-orders'), await newDocument(admin, 'purchase-orders')];
  });
  afterAll(() => test.close());

  it('writes a memo about a document, naming the document by its number and the writer by name', async () => {
    const created = await admin.send('POST', '/api/document-memoranda', memo(orders[0]));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({
      document_type: 'purchase-order',
      document_id: orders[0].id,
      document: { id: orders[0].id, display: orders[0].number },
      date: '2026-11-20',
      subject: 'Damaged cartons',
      author_id: me.id,
      author: { id: me.id, display: me.name },
    });
    const viewed = await admin.send('GET', `/api/document-memoranda/${created.body.data.id}`);
    expect(viewed.body.data).toEqual(created.body.data);
  });

  it('takes the writer from the session, not from the body', async () => {
    const created = await admin.send('POST', '/api/document-memoranda', memo(orders[0], { author_id: 999_999 }));
    expect(created.status).toBe(201);
    expect(created.body.data.author_id).toBe(me.id);
  });

  it('refuses a memo without its fields, of an unknown type, or about a document that does not exist, with field messages', async () => {
    const empty = await admin.send('POST', '/api/document-memoranda', {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({
      document_type: ['The document type field is required.'],
      document_id: ['The document field is required.'],
      date: ['The date field is required.'],
      subject: ['The subject field is required.'],
      body: ['The body field is required.'],
    });
    const unknownType = await admin.send('POST', '/api/document-memoranda', memo(orders[0], { document_type: 'brand' }));
    expect(unknownType.status).toBe(422);
    expect(unknownType.body.errors).toEqual({ document_type: ['The selected document type is invalid.'] });
    const unknownDocument = await admin.send('POST', '/api/document-memoranda', memo({ id: 999_999 }));
    expect(unknownDocument.status).toBe(422);
    expect(unknownDocument.body.errors).toEqual({ document_id: ['The selected document is invalid.'] });
    // The type picks where the id is looked for: a purchase order's id that no invoice has.
    const db = test.app.db as Kysely<any>;
    const order = await db
      .selectFrom('purchase_orders')
      .select('id')
      .where('business_id', '=', admin.businessId as number)
      .where('id', 'not in', db.selectFrom('invoices').select('id'))
      .executeTakeFirstOrThrow();
    expect((await admin.send('POST', '/api/document-memoranda', memo(order))).status).toBe(201);
    const wrongType = await admin.send('POST', '/api/document-memoranda', memo(order, { document_type: 'invoice' }));
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors).toEqual({ document_id: ['The selected document is invalid.'] });
  });

  it('refuses a document of another business, and a trashed one, as it refuses one that does not exist', async () => {
    const theirs = await newDocument(admin.inBusiness(otherBusiness), 'purchase-orders');
    const across = await admin.send('POST', '/api/document-memoranda', memo(theirs));
    expect(across.status).toBe(422);
    expect(across.body.errors).toEqual({ document_id: ['The selected document is invalid.'] });

    const quotation = await newDocument(admin, 'quotations');
    expect((await admin.send('DELETE', `/api/quotations/${quotation.id}`)).status).toBe(200);
    const trashed = await admin.send('POST', '/api/document-memoranda', memo(quotation, { document_type: 'quotation' }));
    expect(trashed.status).toBe(422);
    expect(trashed.body.errors).toEqual({ document_id: ['The selected document is invalid.'] });
  });

  it('checks the document again when an edit moves the memo to another one', async () => {
    const created = (await admin.send('POST', '/api/document-memoranda', memo(orders[0]))).body.data;
    const moved = await admin.send('PATCH', `/api/document-memoranda/${created.id}`, { document_id: orders[1].id });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data.document).toEqual({ id: orders[1].id, display: orders[1].number });
    const nowhere = await admin.send('PATCH', `/api/document-memoranda/${created.id}`, { document_id: 999_999 });
    expect(nowhere.status).toBe(422);
    expect(nowhere.body.errors).toEqual({ document_id: ['The selected document is invalid.'] });
    const quotation = await newDocument(admin, 'quotations');
    const retyped = await admin.send('PATCH', `/api/document-memoranda/${created.id}`, {
      document_type: 'quotation',
      document_id: quotation.id,
    });
    expect(retyped.status).toBe(200);
    expect(retyped.body.data.document).toEqual({ id: quotation.id, display: quotation.number });
  });

  it("lists a document's memos by its type and id, and finds memos by subject and body", async () => {
    const tag = `${Date.now().toString(36)}`;
    const [order, other] = await Promise.all([newDocument(admin, 'purchase-orders'), newDocument(admin, 'purchase-orders')]);
    const ids = [];
    for (const [document, subject] of [
      [order, `Late delivery ${tag}`],
      [order, `Short by two sacks ${tag}`],
      [other, `Wrong brand delivered ${tag}`],
    ] as const) {
      const created = await admin.send('POST', '/api/document-memoranda', memo(document, { subject }));
      expect(created.status).toBe(201);
      ids.push(created.body.data.id);
    }
    const listed = await admin.send('GET', `/api/document-memoranda?document_type=purchase-order&document_id=${order.id}&order_by=asc`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((row: { id: number }) => row.id)).toEqual(ids.slice(0, 2));
    expect(listed.body.meta.total).toBe(2);
    const otherType = await admin.send('GET', `/api/document-memoranda?document_type=invoice&document_id=${order.id}`);
    expect(otherType.body.data).toEqual([]);

    const bySubject = await admin.send('GET', `/api/document-memoranda?subject=${encodeURIComponent(`SACKS ${tag}`)}`);
    expect(bySubject.body.data.map((row: { id: number }) => row.id)).toEqual([ids[1]]);
    const byBody = await admin.send('GET', `/api/document-memoranda?body=damaged%20cartons&per_page=100`);
    expect(byBody.body.data.map((row: { id: number }) => row.id)).toEqual(expect.arrayContaining(ids));

    const csv = await admin.send('GET', `/api/document-memoranda/export.csv?document_type=purchase-order&document_id=${order.id}`);
    expect(csv.status).toBe(200);
    expect(csv.body).toContain(order.number);
  });

  it('is written by the demo roles that handle documents, and only read by the viewer', async () => {
    for (const email of ['warehouse@example.com', 'cashier@example.com', 'purchasing@example.com']) {
      const user = await test.signIn(email);
      const created = await user.send('POST', '/api/document-memoranda', memo(orders[0]));
      expect(created.status, email).toBe(201);
    }
    const viewer = await test.signIn('viewer@example.com');
    expect((await viewer.send('GET', '/api/document-memoranda')).status).toBe(200);
    expect((await viewer.send('POST', '/api/document-memoranda', memo(orders[0]))).status).toBe(403);
  });
});
