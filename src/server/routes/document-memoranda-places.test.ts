import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRANCH_NAMES, startTwoBranches, type TwoBranches } from '../../../tests/support/places-fixture';
import { png } from '../../../tests/support/png';
import { sendFile } from '../../../tests/support/upload';
import { created, databaseKinds, userWithPermissions, type Session, type TestApp } from '../../../tests/support/test-app';

/**
 * A memo follows its document's place, on each database: about a document at a place the user
 * does not view it is not there (lists, searches, exports, the memo, its history, its files: 404),
 * and one about such a document is refused as one about a document that does not exist; writing
 * or changing one needs `operate` where the document is changed from (403 otherwise) — a transfer
 * is viewed at both ends but changed from its source.
 */
describe.each(databaseKinds)('document memoranda by place on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let business: number;
  const tag = `places-${kind}-${Date.now().toString(36)}`;
  let branches: TwoBranches<number>;
  let quotations: TwoBranches<{ id: number; number: string }>;
  /** A transfer of the demo data from a warehouse to Makati. */
  let transfer: { id: number; number: string; from_location_id: number };
  /** The admin's memo about each. */
  const memos: Record<'makati' | 'quezonCity' | 'transfer', number> = { makati: 0, quezonCity: 0, transfer: 0 };
  /** A user operating at Makati, and one who views every place and operates at Makati. */
  let makati: Session;
  let everywhere: Session;

  const memo = (type: string, document: { id: number }, overrides: Record<string, unknown> = {}) => ({
    document_type: type,
    document_id: document.id,
    date: '2031-06-01',
    subject: `Memo ${tag}`,
    body: `Notes ${tag}: the customer asked for a second copy.`,
    ...overrides,
  });
  const written = async (body: Record<string, unknown>): Promise<number> => (await created(admin, '/api/document-memoranda', body)).id;
  const upload = (session: Session, url: string) => sendFile(session, url, 'note.png', png(12, 8));
  const memoUrl = (id: number) => `/api/document-memoranda/${id}`;

  beforeAll(async () => {
    ({ test, admin, business, branches, quotations } = await startTwoBranches(kind));
    for (const [key, name] of Object.entries(BRANCH_NAMES) as [keyof typeof BRANCH_NAMES, string][]) {
      memos[key] = await written(memo('quotation', quotations[key], { subject: `Memo ${tag} ${name}` }));
    }
    const transfers = (await admin.send('GET', '/api/stock-transfers?per_page=100')).body.data;
    transfer = transfers.find(
      (row: { from_location_type: string; to_location_type: string; to_location_id: number }) =>
        row.from_location_type === 'warehouse' && row.to_location_type === 'branch' && row.to_location_id === branches.makati,
    );
    expect(transfer).toBeDefined();
    memos.transfer = await written(memo('stock-transfer', transfer, { subject: `Memo ${tag} transfer` }));

    const permissions = [
      ...['view', 'create', 'update', 'delete', 'restore', 'force-delete'].map((action) => `${action}-document-memoranda`),
      ...['view', 'update'].flatMap((action) => [`${action}-quotations`, `${action}-stock-transfers`]),
    ];
    const operatesAtMakati = { type: 'branch' as const, id: branches.makati, level: 'operate' as const };
    makati = (await userWithPermissions(test, business, permissions, { all: null, grants: [operatesAtMakati] })).session;
    everywhere = (await userWithPermissions(test, business, permissions, { all: 'view', grants: [operatesAtMakati] })).session;
  });
  afterAll(() => test.close());

  /** The ids of this suite's memos `session` finds by `query`, after checking the total counts them. */
  const found = async (session: Session, query: string): Promise<number[]> => {
    const answer = await session.send('GET', `/api/document-memoranda?per_page=100&with_trashed=1&${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.meta.total).toBe(answer.body.data.length);
    return answer.body.data.map((row: { id: number }) => row.id).sort((a: number, b: number) => a - b);
  };

  it('keeps a memo about a document at another place out of lists, searches and exports', async () => {
    const ours = [memos.makati, memos.transfer].sort((a, b) => a - b);
    expect(await found(makati, `body=${encodeURIComponent(tag)}`)).toEqual(ours);
    expect(await found(makati, `subject=${encodeURIComponent(tag)}`)).toEqual(ours);
    expect(await found(makati, `document_type=quotation&document_id=${quotations.quezonCity.id}`)).toEqual([]);
    expect(await found(makati, `id=${memos.quezonCity}`)).toEqual([]);
    expect(await found(makati, `document_type=stock-transfer&document_id=${transfer.id}`)).toEqual([memos.transfer]);
    // Who views every place finds every one, as the master does.
    const every = Object.values(memos).sort((a, b) => a - b);
    expect(await found(everywhere, `body=${encodeURIComponent(tag)}`)).toEqual(every);
    expect(await found(admin, `body=${encodeURIComponent(tag)}`)).toEqual(every);

    const csv = await makati.send('GET', `/api/document-memoranda/export.csv?body=${encodeURIComponent(tag)}`);
    expect(csv.status).toBe(200);
    expect(csv.body).toContain(`Memo ${tag} Makati`);
    expect(csv.body).not.toContain(`Memo ${tag} Quezon City`);
    expect(csv.body).not.toContain(quotations.quezonCity.number);
  });

  it('answers the memo, its history and its files 404 there, whatever is asked', async () => {
    const attached = await upload(admin, `${memoUrl(memos.quezonCity)}/files`);
    expect(attached.status).toBe(201);
    const url = memoUrl(memos.quezonCity);
    for (const [method, path, body] of [
      ['GET', url],
      ['GET', `${url}/activity`],
      ['GET', `${url}/files`],
      ['GET', `${url}/files/${attached.body.data.id}`],
      ['PATCH', url, { subject: 'Rewritten' }],
      ['DELETE', url],
      ['PATCH', `${url}/restore`],
      ['DELETE', `${url}/force-delete`],
      ['DELETE', `${url}/files/${attached.body.data.id}`],
    ] as const) {
      expect((await makati.send(method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    expect((await upload(makati, `${url}/files`)).status).toBe(404);
    expect((await admin.send('GET', url)).body.data).toMatchObject({ subject: `Memo ${tag} Quezon City`, version: 1, deleted_at: null });
  });

  it('refuses a memo about a document at a place the user does not view as one about a document that does not exist', async () => {
    const unused = quotations.quezonCity.id + 100_000;
    const there = await makati.send('POST', '/api/document-memoranda', memo('quotation', quotations.quezonCity));
    const nowhere = await makati.send('POST', '/api/document-memoranda', memo('quotation', { id: unused }));
    expect(there.status).toBe(422);
    expect(there.body.errors).toEqual({ document_id: ['The selected document is invalid.'] });
    expect({ status: there.status, body: there.body }).toEqual({ status: nowhere.status, body: nowhere.body });
    // Nor may a memo they hold be moved onto one.
    const moved = await makati.send('PATCH', memoUrl(memos.makati), { document_id: quotations.quezonCity.id });
    expect(moved.status).toBe(422);
    expect(moved.body.errors).toEqual({ document_id: ['The selected document is invalid.'] });
  });

  it('writes and changes memos where the user operates, and refuses them (403) where they only view', async () => {
    // At Makati, where they operate: written, edited, trashed, restored, with files.
    const own = await makati.send('POST', '/api/document-memoranda', memo('quotation', quotations.makati));
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const ownUrl = memoUrl(own.body.data.id);
    expect((await makati.send('PATCH', ownUrl, { subject: `Memo ${tag} edited` })).status).toBe(200);
    expect((await upload(makati, `${ownUrl}/files`)).status).toBe(201);
    expect((await makati.send('DELETE', ownUrl)).status).toBe(200);
    expect((await makati.send('PATCH', `${ownUrl}/restore`)).status).toBe(200);

    // A transfer to Makati is viewed there, but changed from the warehouse that sends it.
    const transferUrl = memoUrl(memos.transfer);
    expect((await makati.send('GET', transferUrl)).status).toBe(200);
    expect((await makati.send('GET', `${transferUrl}/activity`)).status).toBe(200);
    const refused = await makati.send('POST', '/api/document-memoranda', memo('stock-transfer', transfer));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/^You do not operate at .+: memos about a stock transfer there are written and changed only by/);
    expect((await makati.send('PATCH', transferUrl, { subject: 'Rewritten' })).status).toBe(403);
    expect((await makati.send('DELETE', transferUrl)).status).toBe(403);
    expect((await upload(makati, `${transferUrl}/files`)).status).toBe(403);

    // Who views every place reads Quezon City's memo and changes nothing there.
    const theirs = memoUrl(memos.quezonCity);
    expect((await everywhere.send('GET', theirs)).status).toBe(200);
    expect((await everywhere.send('GET', `${theirs}/files`)).status).toBe(200);
    const elsewhere = await everywhere.send('POST', '/api/document-memoranda', memo('quotation', quotations.quezonCity));
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.message).toBe(
      'You do not operate at Quezon City: memos about a quotation there are written and changed only by someone who operates there.',
    );
    expect((await everywhere.send('PATCH', theirs, { subject: 'Rewritten' })).status).toBe(403);
    expect((await everywhere.send('DELETE', theirs)).status).toBe(403);
    expect((await upload(everywhere, `${theirs}/files`)).status).toBe(403);
    // Moving their own memo there is writing about a Quezon City document.
    expect((await everywhere.send('PATCH', ownUrl, { document_id: quotations.quezonCity.id })).status).toBe(403);

    for (const id of [memos.quezonCity, memos.transfer]) {
      expect((await admin.send('GET', memoUrl(id))).body.data).toMatchObject({ version: 1, deleted_at: null });
    }
    expect(test.errorLines).toEqual([]);
  });
});
