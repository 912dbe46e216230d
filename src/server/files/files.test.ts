import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, demoBusinessIds, rowCount, startDemo, userWithPermissions } from '../../../tests/support/test-app';
import type { Session, TestApp } from '../../../tests/support/test-app';
import { uploadOf } from '../../../tests/support/upload';
import { MAX_FILE_BYTES } from '../../domain/attachments';
import type { Db } from '../db/scope';
import { removeFilesOf } from './file-store';
import { png } from '../../../tests/support/png';

/** A one-page PDF saying `text`, with a correct cross-reference table. */
function pdf(text: string): Buffer {
  const content = `BT /F1 18 Tf 20 50 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = body.length;
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Files attached to records, on each database: round trips with identical bytes and safe
 * download headers, the trash, the limits (413, 415), business walls (404) and permissions (403).
 */
describe.each(databaseKinds)('attachments on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let db: Db;
  let receiveOrderId: number;
  let otherReceiveOrderId: number;
  const photo = png(40, 30);

  beforeAll(async () => {
    ({ test, admin } = await startDemo(kind));
    db = test.app.db;
    const orders = (await admin.send('GET', '/api/receive-orders?limit=2')).body.data;
    [receiveOrderId, otherReceiveOrderId] = orders.map((order: { id: number }) => order.id);
  });
  afterAll(() => test.close());

  const upload = (session: Session, url: string, name: string, content: Buffer, headers: Record<string, string> = {}) => {
    const { body, headers: formHeaders } = uploadOf(name, content);
    return session.send('POST', url, body, { ...formHeaders, ...headers });
  };
  const filesUrl = (recordId = receiveOrderId, resource = 'receive-orders') => `/api/${resource}/${recordId}/files`;

  /** A download's raw bytes (the session helper reads bodies as text). */
  const download = async (session: Session, url: string) => {
    const response = await test.app.inject({
      method: 'GET',
      url,
      headers: { cookie: session.cookie, 'business-id': String(session.businessId) },
    });
    return { status: response.statusCode, bytes: response.rawPayload, headers: response.headers };
  };
  const fileCount = () => rowCount(db, 'files');
  const contentCount = () => rowCount(db, 'file_contents');
  const activityOf = async (recordId: number) =>
    db
      .selectFrom('activity_log')
      .select(['action', 'summary'])
      .where('resource', '=', 'receive-orders')
      .where('record_id', '=', recordId)
      .where('action', 'like', 'file-%')
      .orderBy('id')
      .execute();

  it('stores an image and gives back the same bytes, as an attachment that is never sniffed', async () => {
    const adminId = (await admin.send('GET', '/api/auth/user')).body.id;
    const uploaded = await upload(admin, filesUrl(), 'C:\\scans\\resibo ñ.png', photo);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    expect(uploaded.body.data).toMatchObject({
      record_id: receiveOrderId,
      name: 'resibo ñ.png',
      mime_type: 'image/png',
      size: photo.length,
      uploaded_by: adminId,
      uploaded_by_name: expect.any(String),
      deleted_at: null,
      version: 1,
    });

    const fetched = await download(admin, `${filesUrl()}/${uploaded.body.data.id}`);
    expect(fetched.status).toBe(200);
    expect(sha256(fetched.bytes)).toBe(sha256(photo));
    expect(fetched.headers['content-type']).toBe('image/png');
    expect(fetched.headers['content-length']).toBe(String(photo.length));
    expect(fetched.headers['content-disposition']).toBe(`attachment; filename="resibo _.png"; filename*=UTF-8''resibo%20%C3%B1.png`);
    expect(fetched.headers['x-content-type-options']).toBe('nosniff');
    expect(fetched.headers['cache-control']).toBe('private, no-store');
  });

  it('stores a PDF, takes its type from the content, and names a file without an extension after it', async () => {
    const receipt = pdf('Official receipt 0042');
    const uploaded = await upload(admin, filesUrl(), 'OR 0042', receipt);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    expect(uploaded.body.data).toMatchObject({ name: 'OR 0042.pdf', mime_type: 'application/pdf', size: receipt.length });
    const fetched = await download(admin, `${filesUrl()}/${uploaded.body.data.id}`);
    expect(fetched.bytes.equals(receipt)).toBe(true);
    expect(fetched.headers['content-type']).toBe('application/pdf');
    expect(fetched.headers['content-disposition']).toBe(`attachment; filename="OR 0042.pdf"; filename*=UTF-8''OR%200042.pdf`);
  });

  it('trashes, lists with and only trashed, restores and deletes permanently, each on the record’s history', async () => {
    const first = (await upload(admin, filesUrl(otherReceiveOrderId), 'first.png', photo)).body.data;
    const second = (await upload(admin, filesUrl(otherReceiveOrderId), 'second.pdf', pdf('Second'))).body.data;
    const list = (query = '') => admin.send('GET', `${filesUrl(otherReceiveOrderId)}${query}`);
    const names = async (query = '') => (await list(query)).body.data.map((file: { name: string }) => file.name);

    const listed = await list();
    expect(listed.status).toBe(200);
    expect(listed.body.meta).toMatchObject({ total: 2, per_page: 15, current_page: 1, last_page: 1 });
    expect(await names()).toEqual(['second.pdf', 'first.png']);
    expect(await names('?order_by=asc')).toEqual(['first.png', 'second.pdf']);

    const trashed = await admin.send('DELETE', `${filesUrl(otherReceiveOrderId)}/${first.id}`);
    expect(trashed.status).toBe(200);
    expect(trashed.body.data).toMatchObject({ id: first.id, version: 2, deleted_at: expect.any(String) });
    expect((await admin.send('DELETE', `${filesUrl(otherReceiveOrderId)}/${first.id}`)).status).toBe(409);
    expect(await names()).toEqual(['second.pdf']);
    expect(await names('?with_trashed=1')).toEqual(['second.pdf', 'first.png']);
    expect(await names('?only_trashed=1')).toEqual(['first.png']);
    expect(await names(`?with_trashed=1&id=${first.id}`)).toEqual(['first.png']);
    expect(await names('?with_trashed=1&id=abc')).toEqual([]);
    expect((await download(admin, `${filesUrl(otherReceiveOrderId)}/${first.id}`)).status).toBe(200);

    const restored = await admin.send('PATCH', `${filesUrl(otherReceiveOrderId)}/${first.id}/restore`);
    expect(restored.body.data).toMatchObject({ deleted_at: null, version: 3 });
    expect(await names()).toEqual(['second.pdf', 'first.png']);

    const notTrashed = await admin.send('DELETE', `${filesUrl(otherReceiveOrderId)}/${second.id}/force-delete`);
    expect(notTrashed.status).toBe(409);
    await admin.send('DELETE', `${filesUrl(otherReceiveOrderId)}/${second.id}`);
    const contentsBefore = await contentCount();
    expect((await admin.send('DELETE', `${filesUrl(otherReceiveOrderId)}/${second.id}/force-delete`)).status).toBe(204);
    expect(await contentCount()).toBe(contentsBefore - 1);
    expect(await names('?with_trashed=1')).toEqual(['first.png']);
    expect((await download(admin, `${filesUrl(otherReceiveOrderId)}/${second.id}`)).status).toBe(404);

    expect(await activityOf(otherReceiveOrderId)).toEqual([
      { action: 'file-attached', summary: 'first.png' },
      { action: 'file-attached', summary: 'second.pdf' },
      { action: 'file-deleted', summary: 'first.png' },
      { action: 'file-restored', summary: 'first.png' },
      { action: 'file-deleted', summary: 'second.pdf' },
      { action: 'file-force-deleted', summary: 'second.pdf' },
    ]);
  });

  it('takes a file of exactly 10 MB and refuses one byte more with 413, storing nothing', async () => {
    const padded = (size: number) => Buffer.concat([photo, Buffer.alloc(size - photo.length)]);
    const before = await fileCount();
    const largest = await upload(admin, filesUrl(), 'largest.png', padded(MAX_FILE_BYTES));
    expect(largest.status, JSON.stringify(largest.body)).toBe(201);
    expect(largest.body.data.size).toBe(10_485_760);
    const tooLarge = await upload(admin, filesUrl(), 'too-large.png', padded(MAX_FILE_BYTES + 1));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.message).toBe('The file may not be greater than 10 MB.');
    expect(await fileCount()).toBe(before + 1);
  });

  it('judges a file by its content: scripts, text, SVG and mismatched names are refused with 415', async () => {
    const before = await fileCount();
    const activityBefore = (await activityOf(receiveOrderId)).length;
    const script = Buffer.from('#!/bin/sh\nrm -rf /\n');
    const svg = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const refusals: [string, Buffer, string][] = [
      ['run.sh', script, "The file's content is a script: only images (JPEG, PNG, GIF, WebP, HEIC) and PDF files can be attached."],
      ['notes.txt', Buffer.from('Delivered 10 boxes.\n'), "The file's content is text: only images"],
      ['logo.svg', svg, "The file's content is an SVG image: only images"],
      ['scan.pdf', photo, "The file's content is a PNG image, but its name ends in .pdf: rename it to .png."],
      ['photo.png', script, "The file's content is a script: only images"],
      ['invoice.pdf', pdf('Invoice').subarray(1), "The file's content is text: only images"],
    ];
    for (const [name, content, message] of refusals) {
      const refused = await upload(admin, filesUrl(), name, content);
      expect(refused.status, name).toBe(415);
      expect(refused.body.message, name).toContain(message);
      expect(refused.body.errors.file, name).toEqual([refused.body.message]);
    }
    const notMultipart = await admin.send('POST', filesUrl(), { file: 'aGVsbG8=' });
    expect(notMultipart.status).toBe(415);
    const wrongPart = uploadOf('photo.png', photo, 'photo');
    const missing = await admin.send('POST', filesUrl(), wrongPart.body, wrongPart.headers);
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ file: ['The file field is required.'] });
    expect(await fileCount()).toBe(before);
    expect(await activityOf(receiveOrderId)).toHaveLength(activityBefore);
  });

  it('keeps files inside their business and their record: anything else is a 404', async () => {
    const [, hardware] = await demoBusinessIds(test);
    const file = (await upload(admin, filesUrl(), 'wall.png', photo)).body.data;
    const elsewhere = admin.inBusiness(hardware);
    const before = await fileCount();

    expect((await elsewhere.send('GET', filesUrl())).status).toBe(404);
    expect((await download(elsewhere, `${filesUrl()}/${file.id}`)).status).toBe(404);
    expect((await upload(elsewhere, filesUrl(), 'intruder.png', photo)).status).toBe(404);
    expect((await elsewhere.send('DELETE', `${filesUrl()}/${file.id}`)).status).toBe(404);
    // The hardware business's own receive order does not reach the first business's file either.
    const theirs = (await elsewhere.send('GET', '/api/receive-orders?limit=1')).body.data[0].id;
    expect((await download(elsewhere, `${filesUrl(theirs)}/${file.id}`)).status).toBe(404);
    // Nor does another record, or another resource with the same id, of the same business.
    expect((await download(admin, `${filesUrl(otherReceiveOrderId)}/${file.id}`)).status).toBe(404);
    expect((await download(admin, `${filesUrl(receiveOrderId, 'purchase-orders')}/${file.id}`)).status).toBe(404);
    expect((await admin.send('GET', filesUrl(999_999))).status).toBe(404);
    expect((await download(admin, `${filesUrl()}/abc`)).status).toBe(404);
    expect(await fileCount()).toBe(before);
    // Resources without attachments have no file routes.
    expect((await admin.send('GET', '/api/brands/1/files')).status).toBe(404);
  });

  it('asks for view- of the parent to read files and update- to change them', async () => {
    const [main] = await demoBusinessIds(test);
    const file = (await upload(admin, filesUrl(), 'guarded.png', photo)).body.data;
    const viewer = await userWithPermissions(test, main, ['view-receive-orders']);
    const before = await fileCount();

    expect((await viewer.session.send('GET', filesUrl())).status).toBe(200);
    expect((await download(viewer.session, `${filesUrl()}/${file.id}`)).status).toBe(200);
    expect((await upload(viewer.session, filesUrl(), 'no.png', photo)).status).toBe(403);
    expect((await viewer.session.send('DELETE', `${filesUrl()}/${file.id}`)).status).toBe(403);
    expect((await viewer.session.send('PATCH', `${filesUrl()}/${file.id}/restore`)).status).toBe(403);
    expect((await viewer.session.send('DELETE', `${filesUrl()}/${file.id}/force-delete`)).status).toBe(403);

    await viewer.grant(['view-items', 'update-items']);
    expect((await viewer.session.send('GET', filesUrl())).status).toBe(403);
    expect((await download(viewer.session, `${filesUrl()}/${file.id}`)).status).toBe(403);
    expect(await fileCount()).toBe(before);

    await viewer.grant(['view-receive-orders', 'update-receive-orders']);
    const attached = await upload(viewer.session, filesUrl(), 'yes.png', photo);
    expect(attached.status).toBe(201);
    expect(attached.body.data).toMatchObject({ uploaded_by: viewer.userId });
  });

  it('answers a repeated upload with the same Idempotency-Key once, and refuses files on a trashed record', async () => {
    const before = await fileCount();
    const key = { 'idempotency-key': `upload-${kind}-1` };
    const first = await upload(admin, filesUrl(), 'once.png', photo, key);
    const again = await upload(admin, filesUrl(), 'once.png', photo, key);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await fileCount()).toBe(before + 1);
    const otherFile = await upload(admin, filesUrl(), 'once.pdf', pdf('Other'), key);
    expect(otherFile.status).toBe(422);

    const item = (await admin.send('POST', '/api/items', { sku: `FILES-${kind}`, name: 'Attachment test item', unit_of_measurement_id: 1 }))
      .body.data;
    const itemFile = (await upload(admin, filesUrl(item.id, 'items'), 'label.png', photo)).body.data;
    expect((await admin.send('DELETE', `/api/items/${item.id}`)).status).toBe(200);
    const refused = await upload(admin, filesUrl(item.id, 'items'), 'late.png', photo);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This item is in the trash; restore it before changing its files.');
    expect((await admin.send('GET', filesUrl(item.id, 'items'))).body.data).toHaveLength(1);

    // Deleting the record for good takes its files with it.
    await db
      .transaction()
      .execute((trx) =>
        removeFilesOf(
          trx,
          { businessId: admin.businessId as number, userId: 0, permissions: new Set() },
          { resource: 'items', recordId: item.id },
        ),
      );
    expect(await db.selectFrom('files').select('id').where('id', '=', itemFile.id).execute()).toEqual([]);
    expect(await db.selectFrom('file_contents').select('file_id').where('file_id', '=', itemFile.id).execute()).toEqual([]);
  });

  // Two instances need one shared database: only PostgreSQL in these tests.
  if (kind === 'postgres') {
    it('serves a file uploaded through one instance from another', async () => {
      const twin = await test.secondInstance();
      try {
        const { body, headers } = uploadOf('shared.png', photo);
        const uploaded = await twin.on(admin).send('POST', filesUrl(), body, headers);
        expect(uploaded.status).toBe(201);
        const fetched = await download(admin, `${filesUrl()}/${uploaded.body.data.id}`);
        expect(fetched.bytes.equals(photo)).toBe(true);
      } finally {
        await twin.close();
      }
    });
  }
});
