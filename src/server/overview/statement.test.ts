import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayInManila } from '../../domain/documents';
import { defaultStatementPeriod, STATEMENT_PERMISSIONS } from '../../domain/statement';
import { placedUser, startAtDemoPlaces, type DemoPlaces } from '../../../tests/support/demo-places';
import { created, databaseKinds, demoBusinessIds, stockUp, userWithPermissions } from '../../../tests/support/test-app';
import type { Session, TestApp } from '../../../tests/support/test-app';
import { addDays } from './calendar';
import type { Statement } from '../../domain/statement';
import { phpAmount, statementPdf } from './statement-pdf';

/**
 * A demo customer's statement of account against what the database holds, worked out here on its
 * own: every invoice (a charge of its total), invoice payment, credit memorandum and sales return
 * (a credit of its amount) of the customer that is neither voided nor trashed, at the places
 * asked; the ones dated before the period make the opening balance, the rest are the rows by date
 * (invoices, then payments, memoranda and returns on a day), each with the balance after it.
 */

type Held = { table: 'invoices' | 'invoice_payments' | 'credit_memoranda' | 'sales_returns'; resource: string; sign: 1 | -1 };
const KINDS: Held[] = [
  { table: 'invoices', resource: 'invoices', sign: 1 },
  { table: 'invoice_payments', resource: 'invoice-payments', sign: -1 },
  { table: 'credit_memoranda', resource: 'credit-memoranda', sign: -1 },
  { table: 'sales_returns', resource: 'sales-returns', sign: -1 },
];

describe.each(databaseKinds)('statements of account on %s', (kind) => {
  const T = todayInManila();
  let test: TestApp;
  let admin: Session;
  let businessId: number;
  let place: DemoPlaces;
  let customer: number;

  /** The customer's documents that count, as the database holds them: date, resource, id, signed amount in centavos, place. */
  async function heldDocuments(places?: { branch: number[]; warehouse: number[] }) {
    const documents: { date: string; order: number; resource: string; id: number; centavos: number }[] = [];
    for (const [order, { table, resource, sign }] of KINDS.entries()) {
      const rows = await test.app.db
        .selectFrom(table)
        .selectAll()
        .where('business_id', '=', businessId)
        .where('contact_id', '=', customer)
        .where('deleted_at', 'is', null)
        .execute();
      for (const row of rows as unknown as Record<string, unknown>[]) {
        if (row.status === 'void') continue;
        if (places && !places.branch.includes(Number(row.branch_id)) && !places.warehouse.includes(Number(row.warehouse_id))) continue;
        const amount = table === 'invoices' ? row.total : row.amount;
        documents.push({ date: String(row.date).slice(0, 10), order, resource, id: Number(row.id), centavos: sign * Number(amount) });
      }
    }
    return documents.sort((a, b) => a.date.localeCompare(b.date) || a.order - b.order || a.id - b.id);
  }

  /** The statement from `from` to `to` worked out by hand from `documents`: the opening balance, each row's resource, id and balance, the closing balance. */
  function byHand(documents: Awaited<ReturnType<typeof heldDocuments>>, from: string, to: string) {
    const opening = documents.filter((document) => document.date < from).reduce((sum, document) => sum + document.centavos, 0);
    let balance = opening;
    const rows = documents
      .filter((document) => document.date >= from && document.date <= to)
      .map((document) => {
        balance += document.centavos;
        return { resource: document.resource, id: document.id, balance: balance / 100 };
      });
    return { opening_balance: opening / 100, rows, closing_balance: balance / 100 };
  }

  const shown = (answer: Statement) => ({
    opening_balance: answer.opening_balance,
    rows: answer.data.map((row) => ({ resource: row.resource, id: row.id, balance: row.balance })),
    closing_balance: answer.closing_balance,
  });

  beforeAll(async () => {
    ({ test, admin, businessId, place } = await startAtDemoPlaces(kind));
    const customers = (await admin.send('GET', '/api/contacts?name=Bayanihan%20Cooperative&is_strict=1')).body.data;
    customer = customers[0].id;
    // Beside the demo's sales at the warehouse: a sale at Makati, partly paid, of which one piece
    // came back and was credited; a credit memo on an older invoice; a payment voided, which no
    // longer counts.
    const item = (await admin.send('GET', '/api/items?order_by=asc&limit=1')).body.data[0];
    await stockUp(admin, place.makati, item, 50, { date: addDays(T, -30) });
    const line = { item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 2, unit_price: 500 };
    // Its limit was set to what it owed: these sales go past it, with the reason.
    const override = { credit_override_reason: 'Statement test' };
    const atMakati = await created(admin, '/api/invoices', {
      contact_id: customer,
      branch_id: place.makati.id,
      date: addDays(T, -12),
      lines: [line],
      ...override,
    });
    await created(admin, '/api/invoice-payments', {
      invoice_id: atMakati.id,
      date: addDays(T, -3),
      tenders: [{ method: 'gcash', amount: 400, reference: '9012399900001' }],
    });
    await created(admin, '/api/sales-returns', {
      invoice_id: atMakati.id,
      date: addDays(T, -2),
      settlement: 'credit',
      lines: [{ source_line_id: atMakati.lines[0].id, quantity: 1, reason: 'damaged', disposition: 'restock' }],
    });
    const unpaid = (await admin.send('GET', `/api/invoices?contact_id=${customer}&is_strict=1&status=unpaid&order_by=asc&limit=1`)).body
      .data[0];
    await created(admin, '/api/credit-memoranda', { invoice_id: unpaid.id, date: addDays(T, -2), amount: 150, reason: 'Two cases dented' });
    const voided = await created(admin, '/api/invoice-payments', {
      invoice_id: unpaid.id,
      date: addDays(T, -1),
      tenders: [{ method: 'cash', amount: 100 }],
    });
    expect((await admin.send('PATCH', `/api/invoice-payments/${voided.id}/void`)).status).toBe(200);
  });
  afterAll(() => test.close());

  it('runs the balance from what was owed before the period, row by row, as the documents add up', async () => {
    const from = addDays(T, -60);
    const answer = await admin.send('GET', `/api/contacts/${customer}/statement?from=${from}&to=${T}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const documents = await heldDocuments();
    expect(shown(answer.body)).toEqual(byHand(documents, from, T));
    // There is something to run: an opening balance, and charges and credits of each kind in the period.
    expect(answer.body.opening_balance).toBeGreaterThan(0);
    expect(new Set(answer.body.data.map((row: { resource: string }) => row.resource))).toEqual(
      new Set(['invoices', 'invoice-payments', 'credit-memoranda', 'sales-returns']),
    );
    // The totals are the rows', and the closing balance what the customer's invoices still owe.
    const sum = (side: 'debit' | 'credit') =>
      Math.round(answer.body.data.reduce((total: number, row: Record<string, number>) => total + row[side] * 100, 0)) / 100;
    expect(answer.body.totals).toEqual({ debit: sum('debit'), credit: sum('credit') });
    expect(answer.body.closing_balance).toBe(
      Math.round(answer.body.opening_balance * 100 + answer.body.totals.debit * 100 - answer.body.totals.credit * 100) / 100,
    );
    const invoices = await test.app.db
      .selectFrom('invoices')
      .select('balance')
      .where('contact_id', '=', customer)
      .where('status', '<>', 'void')
      .where('deleted_at', 'is', null)
      .execute();
    expect(answer.body.closing_balance).toBe(invoices.reduce((sum, row) => sum + Number(row.balance), 0) / 100);

    // Each row says what it is; a credit names the invoice it settles.
    const memo = answer.body.data.find((row: { resource: string }) => row.resource === 'credit-memoranda');
    expect(memo).toMatchObject({ kind: 'Credit Memorandum', debit: 0, credit: 150 });
    expect(memo.description).toMatch(/^Invoice I-.* · Reason: Two cases dented$/);
    const paid = answer.body.data.find(
      (row: { resource: string; credit: number }) => row.resource === 'invoice-payments' && row.credit === 400,
    );
    expect(paid.description).toMatch(/^Invoice I-.* · GCash$/);
    const credited = answer.body.data.find((row: { resource: string }) => row.resource === 'sales-returns');
    expect(credited).toMatchObject({ kind: 'Sales Return', debit: 0 });
    expect(credited.credit).toBeGreaterThan(0);
    expect(credited.description).toMatch(/^Invoice I-.* · Credit to the invoice$/);
    expect(answer.body.customer).toMatchObject({ id: customer, name: 'Bayanihan Cooperative', tin: '456-789-123-000' });
    expect(answer.body.business).toMatchObject({ name: 'Aling Nena Trading Corporation', tin: '123-456-789' });
  });

  it('covers the first of the month three months ago to today unless asked, and an empty period carries the balance over', async () => {
    const answer = await admin.send('GET', `/api/contacts/${customer}/statement`);
    expect(answer.status).toBe(200);
    expect({ from: answer.body.from, to: answer.body.to }).toEqual(defaultStatementPeriod(T));
    expect(shown(answer.body)).toEqual(byHand(await heldDocuments(), answer.body.from, T));

    const quiet = await admin.send('GET', `/api/contacts/${customer}/statement?from=${addDays(T, 1)}&to=${addDays(T, 30)}`);
    expect(quiet.body.data).toEqual([]);
    expect(quiet.body.opening_balance).toBe(quiet.body.closing_balance);
    expect(quiet.body.closing_balance).toBe(answer.body.closing_balance);
  });

  it('holds only the documents of the places the user views', async () => {
    const from = addDays(T, -400);
    const atMakati = await placedUser(test, businessId, [...STATEMENT_PERMISSIONS], { ...place.makati, level: 'view' });
    const mine = await atMakati.send('GET', `/api/contacts/${customer}/statement?from=${from}&to=${T}`);
    expect(mine.status).toBe(200);
    const expected = byHand(await heldDocuments({ branch: [place.makati.id], warehouse: [] }), from, T);
    expect(shown(mine.body)).toEqual(expected);
    expect(expected.rows.map((row) => row.resource)).toEqual(['invoices', 'invoice-payments', 'sales-returns']);
    // It says whose documents it holds.
    expect(mine.body.places).toEqual(['Makati']);

    const atWarehouse = await placedUser(test, businessId, [...STATEMENT_PERMISSIONS], { ...place.valenzuela, level: 'operate' });
    const theirs = await atWarehouse.send('GET', `/api/contacts/${customer}/statement?from=${from}&to=${T}`);
    expect(shown(theirs.body)).toEqual(byHand(await heldDocuments({ branch: [], warehouse: [place.valenzuela.id] }), from, T));
    const everywhere = await admin.send('GET', `/api/contacts/${customer}/statement?from=${from}&to=${T}`);
    expect(theirs.body.data.length + mine.body.data.length).toBe(everywhere.body.data.length);
    expect(everywhere.body.places).toBeNull();
  });

  it('refuses bad dates and ids with 422, another business’s contact with 404, and the statement to whoever lacks a kind of it with 403', async () => {
    for (const [query, field] of [
      ['from=2026-02-30', 'from'],
      ['to=yesterday', 'to'],
      ['from=2026-1-05', 'from'],
      [`from=${T}&to=${addDays(T, -1)}`, 'from'],
    ]) {
      const answer = await admin.send('GET', `/api/contacts/${customer}/statement?${query}`);
      expect(answer.status, query).toBe(422);
      expect(Object.keys(answer.body.errors), query).toEqual([field]);
      expect((await admin.send('GET', `/api/contacts/${customer}/statement.pdf?${query}`)).status, query).toBe(422);
    }
    // The widest period there is answers, on paper too.
    for (const path of ['statement', 'statement.pdf'])
      expect((await admin.send('GET', `/api/contacts/${customer}/${path}?from=0001-01-01&to=9999-12-31`)).status, path).toBe(200);
    for (const id of ['0', '01', '1.5', '-3', 'abc', '1e3']) {
      const answer = await admin.send('GET', `/api/contacts/${id}/statement`);
      expect(answer.status, id).toBe(422);
      expect(Object.keys(answer.body.errors), id).toEqual(['id']);
    }

    const [, second] = await demoBusinessIds(test);
    const theirs = await test.app.db.selectFrom('contacts').select('id').where('business_id', '=', second).executeTakeFirstOrThrow();
    for (const path of [
      `/api/contacts/${theirs.id}/statement`,
      `/api/contacts/${theirs.id}/statement.pdf`,
      '/api/contacts/999999/statement',
    ])
      expect((await admin.send('GET', path)).status, path).toBe(404);

    for (const lacking of STATEMENT_PERMISSIONS) {
      const user = await userWithPermissions(
        test,
        businessId,
        STATEMENT_PERMISSIONS.filter((name) => name !== lacking),
      );
      expect((await user.session.send('GET', `/api/contacts/${customer}/statement?from=bad`)).status, lacking).toBe(403);
      expect((await user.session.send('GET', `/api/contacts/${customer}/statement.pdf`)).status, lacking).toBe(403);
    }
    const signedOut = await test.app.inject({ method: 'GET', url: `/api/contacts/${customer}/statement` });
    expect(signedOut.statusCode).toBe(401);
  });

  it('downloads the statement as a PDF named for the customer and the period', async () => {
    const from = addDays(T, -90);
    const answer = await test.app.inject({
      method: 'GET',
      url: `/api/contacts/${customer}/statement.pdf?from=${from}&to=${T}`,
      headers: { cookie: admin.cookie, 'business-id': String(businessId) },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="statement-bayanihan-cooperative-${from}-${T}.pdf"`);
    expect(answer.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(answer.rawPayload.subarray(-6).toString('latin1')).toMatch(/%%EOF\s*$/);
    expect(test.errorLines).toEqual([]);
  });

  it('runs a long statement onto more A4 pages, and writes pesos the standard fonts can draw', async () => {
    const row = (at: number) => ({
      date: addDays(T, -at),
      resource: 'invoices',
      id: at,
      kind: 'Invoice',
      number: `I-20260101-W00001-${String(at).padStart(8, '0')}`,
      description: 'Due date: Jan 16, 2026',
      debit: 1234.5,
      credit: 0,
      balance: 1234.5 * at,
    });
    const long: Statement = {
      from: addDays(T, -200),
      to: T,
      business: { name: 'Tindahan ni Aling Nena', trade_name: null, address: 'Osmeña Boulevard, Cebu City', tin: '123-456-789' },
      customer: { id: 1, name: 'Sari-sari ₱ Store', company_name: null, address: null, tin: null },
      places: ['Makati'],
      opening_balance: 0,
      data: Array.from({ length: 150 }, (_, at) => row(at + 1)),
      totals: { debit: 185_175, credit: 0 },
      closing_balance: 185_175,
    };
    const pdf = await statementPdf(long);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pages = pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? [];
    expect(pages.length).toBeGreaterThanOrEqual(3);
    // A4: 595.28 × 841.89 points.
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);
    expect([phpAmount(1234.5), phpAmount(-12), phpAmount(0.001), phpAmount(1_000_000)]).toEqual([
      'PHP 1,234.50',
      '-PHP 12.00',
      'PHP 0.00',
      'PHP 1,000,000.00',
    ]);
  });
});
