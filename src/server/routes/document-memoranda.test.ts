import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_ACTIONS, permissionName } from '../../domain/permissions';
import { getResource } from '../../domain/resources/registry';
import { png } from '../../../tests/support/png';
import { ADMIN_EMAIL, created, databaseKinds, startDemo, userWithPermissions } from '../../../tests/support/test-app';
import type { Session, TestApp } from '../../../tests/support/test-app';
import { sampleBody } from '../../../tests/support/samples';
import { sendFile } from '../../../tests/support/upload';

/**
 * Memos written about a document: each names a live document of the business by its type and
 * id, is read back with that document's number and its writer's name, and a document's memos
 * are listed by filtering on both. A memo follows its document's permission: read by who may
 * view that kind of document (for anyone else it does not exist), changed by who may also update it.
 */

describe.each(databaseKinds)('document memoranda on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let otherBusiness: number;
  let orders: { id: number; number: string }[];
  let me: { id: number; name: string };

  /** A new document of `resource` in the session's business (`overrides`: its place, say). */
  async function newDocument(
    session: Session,
    resource: string,
    overrides: Record<string, unknown> = {},
  ): Promise<{ id: number; number: string }> {
    return created(session, `/api/${resource}`, { ...(await sampleBody(session, getResource(resource))), ...overrides });
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
    ({
      test,
      admin,
      businesses: [, otherBusiness],
    } = await startDemo(kind));
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
    // The type picks where the id is looked for: a new document of whichever kind has the higher
    // ids has one the other kind has not.
    const db = test.app.db as Kysely<any>;
    const highest = async (table: string) =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirstOrThrow()
        ).id,
      );
    const ordersAhead = (await highest('purchase_orders')) >= (await highest('invoices'));
    const right = ordersAhead
      ? { type: 'purchase-order', id: (await newDocument(admin, 'purchase-orders')).id }
      : { type: 'invoice', id: (await newDocument(admin, 'invoices')).id };
    const wrong = ordersAhead ? 'invoice' : 'purchase-order';
    const made = await admin.send('POST', '/api/document-memoranda', memo(right, { document_type: right.type }));
    expect(made.status).toBe(201);
    // Gone again: the suites after list memos by type and id.
    expect((await admin.send('DELETE', `/api/document-memoranda/${made.body.data.id}`)).status).toBe(200);
    const wrongType = await admin.send('POST', '/api/document-memoranda', memo(right, { document_type: wrong }));
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
    // At the branch the cashier works at: a memo is written by someone who operates at its document's place.
    const makati = (await admin.send('GET', '/api/branches?name=Makati&is_strict=1')).body.data[0].id;
    const quotation = await newDocument(admin, 'quotations', { branch_id: makati, warehouse_id: null });
    for (const [email, document] of [
      ['warehouse@example.com', memo(orders[0])],
      ['cashier@example.com', memo(quotation, { document_type: 'quotation' })],
      ['purchasing@example.com', memo(orders[0])],
    ] as const) {
      const user = await test.signIn(email);
      const created = await user.send('POST', '/api/document-memoranda', document);
      expect(created.status, email).toBe(201);
    }
    const viewer = await test.signIn('viewer@example.com');
    expect((await viewer.send('GET', '/api/document-memoranda')).status).toBe(200);
    expect((await viewer.send('POST', '/api/document-memoranda', memo(orders[0]))).status).toBe(403);
  });

  describe("following the document's permission", () => {
    /** A bill of the demo data, the admin's confidential memo about it, and a file attached to that memo. */
    let bill: { id: number; number: string };
    let secret: { id: number; author_id: number };
    let fileId: number;
    const photo = png(20, 10);
    const secretUrl = () => `/api/document-memoranda/${secret.id}`;
    const filesUrl = (memoId = secret.id) => `/api/document-memoranda/${memoId}/files`;
    const onBill = (overrides: Record<string, unknown> = {}) =>
      memo(bill, { document_type: 'bill', subject: 'Confidential', body: 'Supplier rebate: 7% off, not for the branches.', ...overrides });

    const upload = (session: Session, url: string) => sendFile(session, url, 'damage.png', photo);

    /** A download's status and bytes (the session helper reads bodies as text). */
    const download = async (session: Session, url: string) => {
      const response = await test.app.inject({
        method: 'GET',
        url,
        headers: { cookie: session.cookie, 'business-id': String(session.businessId) },
      });
      return { status: response.statusCode, bytes: response.rawPayload };
    };

    /** Every memo permission, and to view and update purchase orders, beside `more`. */
    const memoWriter = (more: string[]) =>
      userWithPermissions(test, admin.businessId as number, [
        ...PERMISSION_ACTIONS.map((action) => permissionName(action, 'document-memoranda')),
        'view-purchase-orders',
        'update-purchase-orders',
        ...more,
      ]);

    /** A memo the admin wrote about the bill, in the trash. */
    async function trashedSecret(): Promise<number> {
      const created = await admin.send('POST', '/api/document-memoranda', onBill({ subject: 'Confidential, trashed' }));
      expect(created.status).toBe(201);
      expect((await admin.send('DELETE', `/api/document-memoranda/${created.body.data.id}`)).status).toBe(200);
      return created.body.data.id;
    }

    beforeAll(async () => {
      bill = (await admin.send('GET', '/api/bills?limit=1')).body.data[0];
      const created = await admin.send('POST', '/api/document-memoranda', onBill());
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      secret = created.body.data;
      const attached = await upload(admin, filesUrl());
      expect(attached.status, JSON.stringify(attached.body)).toBe(201);
      fileId = attached.body.data.id;
    });

    it('keeps a memo on a bill from the branch roles, who cannot view bills: not listed, found, exported or opened', async () => {
      for (const email of ['cashier@example.com', 'branch@example.com']) {
        const user = await test.signIn(email);
        expect((await user.send('GET', `/api/bills/${bill.id}`)).status, email).toBe(403);

        const listed = await user.send('GET', '/api/document-memoranda?per_page=100&with_trashed=1');
        expect(listed.status).toBe(200);
        const ids = listed.body.data.map((row: { id: number }) => row.id);
        expect(ids, email).not.toContain(secret.id);
        expect(
          listed.body.data.every((row: { document_type: string }) => row.document_type !== 'bill'),
          email,
        ).toBe(true);
        // The total is of the memos they may see, not of every memo of the business.
        expect(listed.body.meta.total, email).toBe(ids.length);
        for (const search of ['subject=Confidential', 'body=rebate', `document_type=bill&document_id=${bill.id}`, `id=${secret.id}`]) {
          const found = await user.send('GET', `/api/document-memoranda?${search}&with_trashed=1`);
          expect(found.status, search).toBe(200);
          expect(found.body.data, `${email} ${search}`).toEqual([]);
          expect(found.body.meta.total).toBe(0);
        }
        const csv = await user.send('GET', '/api/document-memoranda/export.csv?with_trashed=1');
        expect(csv.status).toBe(200);
        expect(csv.body).not.toContain('Confidential');
        expect(csv.body).not.toContain(bill.number);

        expect((await user.send('GET', secretUrl())).status, email).toBe(404);
        expect((await user.send('GET', `${secretUrl()}/activity`)).status, email).toBe(404);
        const rewritten = await user.send('PATCH', secretUrl(), { subject: 'Nothing to see', body: 'Rewritten.' });
        expect(rewritten.status, email).toBe(404);
        // Neither branch role may trash memos at all.
        expect((await user.send('DELETE', secretUrl())).status, email).toBe(403);
      }
      const kept = (await admin.send('GET', secretUrl())).body.data;
      expect(kept).toMatchObject({ subject: 'Confidential', version: 1, author_id: me.id });
    });

    it("keeps the memo's files from them too: not listed, downloaded, attached or removed", async () => {
      for (const email of ['cashier@example.com', 'branch@example.com']) {
        const user = await test.signIn(email);
        expect((await user.send('GET', filesUrl())).status, email).toBe(404);
        expect((await download(user, `${filesUrl()}/${fileId}`)).status, email).toBe(404);
        expect((await upload(user, filesUrl())).status, email).toBe(404);
        expect((await user.send('DELETE', `${filesUrl()}/${fileId}`)).status, email).toBe(404);
      }
      const files = (await admin.send('GET', filesUrl())).body;
      expect(files.data.map((file: { id: number; deleted_at: string | null }) => [file.id, file.deleted_at])).toEqual([[fileId, null]]);
      expect(files.meta.total).toBe(1);
    });

    it('refuses them a memo about a bill alike for a bill that exists and for one that does not', async () => {
      const missing = await admin.send('GET', '/api/bills?order_by_field_name=id&order_by=desc&limit=1');
      const unused = missing.body.data[0].id + 1000;
      for (const email of ['cashier@example.com', 'branch@example.com']) {
        const user = await test.signIn(email);
        const existing = await user.send('POST', '/api/document-memoranda', onBill());
        const nowhere = await user.send('POST', '/api/document-memoranda', onBill({ document_id: unused }));
        expect(existing.status, email).toBe(422);
        expect(existing.body.errors).toEqual({ document_id: ['The selected document is invalid.'] });
        expect({ status: existing.status, body: existing.body }).toEqual({ status: nowhere.status, body: nowhere.body });
      }
      const written = await (test.app.db as Kysely<any>)
        .selectFrom('document_memoranda')
        .select('id')
        .where('document_type', '=', 'bill')
        .where('author_id', '!=', me.id)
        .execute();
      expect(written).toEqual([]);
    });

    it('answers every change of a memo they cannot see as missing, whatever memo permissions they hold', async () => {
      const { session: writer } = await memoWriter([]);
      const trashed = await trashedSecret();
      expect((await writer.send('DELETE', secretUrl())).status).toBe(404);
      expect((await writer.send('PATCH', `/api/document-memoranda/${trashed}/restore`)).status).toBe(404);
      expect((await writer.send('DELETE', `/api/document-memoranda/${trashed}/force-delete`)).status).toBe(404);
      expect((await writer.send('PATCH', `${filesUrl()}/${fileId}/restore`)).status).toBe(404);
      expect((await admin.send('GET', `/api/document-memoranda/${trashed}`)).body.data.deleted_at).not.toBeNull();
      expect((await admin.send('GET', secretUrl())).body.data.deleted_at).toBeNull();

      // Their own memo cannot be moved onto the bill: answered as for a bill that does not exist.
      const own = await writer.send('POST', '/api/document-memoranda', memo(orders[0]));
      expect(own.status).toBe(201);
      const moved = await writer.send('PATCH', `/api/document-memoranda/${own.body.data.id}`, {
        document_type: 'bill',
        document_id: bill.id,
      });
      const nowhere = await writer.send('PATCH', `/api/document-memoranda/${own.body.data.id}`, {
        document_type: 'bill',
        document_id: 999_999,
      });
      expect(moved.status).toBe(422);
      expect(moved.body).toEqual(nowhere.body);
    });

    it('lets someone who may view bills but not update them read a memo on a bill and its files, but not change them', async () => {
      const { session: reader } = await memoWriter(['view-bills']);
      const read = await reader.send('GET', secretUrl());
      expect(read.status).toBe(200);
      expect(read.body.data.document).toEqual({ id: bill.id, display: bill.number });
      expect((await reader.send('GET', filesUrl())).body.data.map((file: { id: number }) => file.id)).toEqual([fileId]);
      const fetched = await download(reader, `${filesUrl()}/${fileId}`);
      expect(fetched.status).toBe(200);
      expect(Buffer.compare(fetched.bytes, photo)).toBe(0);

      const refusal = 'This memo is about bills; only someone who may update bills (update-bills) can change it.';
      const edit = await reader.send('PATCH', secretUrl(), { subject: 'Rewritten' });
      expect(edit.status).toBe(403);
      expect(edit.body.message).toBe(refusal);
      expect((await reader.send('DELETE', secretUrl())).status).toBe(403);
      expect((await upload(reader, filesUrl())).status).toBe(403);
      expect((await reader.send('DELETE', `${filesUrl()}/${fileId}`)).status).toBe(403);
      const trashed = await trashedSecret();
      expect((await reader.send('PATCH', `/api/document-memoranda/${trashed}/restore`)).status).toBe(403);
      expect((await reader.send('DELETE', `/api/document-memoranda/${trashed}/force-delete`)).status).toBe(403);
      expect((await admin.send('GET', `/api/document-memoranda/${trashed}`)).status).toBe(200);
      expect((await admin.send('GET', secretUrl())).body.data).toMatchObject({ subject: 'Confidential', deleted_at: null, version: 1 });
      expect((await admin.send('GET', filesUrl())).body.data.map((file: { id: number }) => file.id)).toEqual([fileId]);

      // Viewing is enough to write a memo about a bill; moving one of their own onto a bill is changing the bill's memos.
      expect((await reader.send('POST', '/api/document-memoranda', onBill({ subject: 'Seen on the bill' }))).status).toBe(201);
      const own = (await reader.send('POST', '/api/document-memoranda', memo(orders[0]))).body.data;
      const moved = await reader.send('PATCH', `/api/document-memoranda/${own.id}`, { document_type: 'bill', document_id: bill.id });
      expect(moved.status).toBe(403);
      expect(moved.body.message).toBe(refusal);
    });

    it('keeps the author when someone who may update bills edits the memo, and its history names the editor', async () => {
      const { session: editor, userId } = await memoWriter(['view-bills', 'update-bills']);
      const edited = await editor.send('PATCH', secretUrl(), { body: 'Supplier rebate: 7% off (confirmed).' });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      expect(edited.body.data).toMatchObject({ author_id: me.id, author: { id: me.id, display: me.name }, version: 2 });
      const history = (await admin.send('GET', `${secretUrl()}/activity`)).body.data;
      expect(history[0]).toMatchObject({ action: 'updated', user_id: userId });
      const attached = await upload(editor, filesUrl());
      expect(attached.status).toBe(201);
      expect((await editor.send('DELETE', `${filesUrl()}/${attached.body.data.id}`)).status).toBe(200);
    });
  });
});
