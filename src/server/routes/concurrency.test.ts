import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { updatableFields, type ResourceDefinition } from '../../domain/resource';
import { getResource, registry } from '../../domain/resources/registry';
import { paidInTenders } from '../../domain/tenders';
import { historyAction, transitionsOpen } from '../../domain/lifecycle';
import { sampleBody, undoBeforeDelete, unique } from '../../../tests/support/samples';
import { databaseKinds, startDemo, type Answer, type Session, type TestApp } from '../../../tests/support/test-app';
import { auditDatabase } from '../documents/audit';
import type { Db } from '../db/scope';

/**
 * Every transition of every resource and document, fired RACERS times at once: exactly one
 * applies, the others are refused (404 / 409 / 412 / 422, never a 5xx), and afterwards the
 * database audits clean — balances, paid amounts, fulfilled quantities, maintained counts and
 * the stock ledger each moved exactly once. On PostgreSQL the document transitions also race
 * through two server instances sharing the database.
 */

const RACERS = 8;

type Send = (index: number) => Promise<Answer>;

async function race(send: Send): Promise<Answer[]> {
  return Promise.all(Array.from({ length: RACERS }, (_, index) => send(index)));
}

/** One answer with `winner`, every other one of `losers`. */
function exactlyOne(answers: Answer[], winner: number, losers: number[]): Answer {
  const seen = JSON.stringify(answers.map((answer) => [answer.status, answer.body?.message]));
  expect(
    answers.filter((answer) => answer.status === winner),
    seen,
  ).toHaveLength(1);
  expect(
    answers.every((answer) => answer.status === winner || losers.includes(answer.status)),
    seen,
  ).toBe(true);
  return answers.find((answer) => answer.status === winner) as Answer;
}

/** How many history entries say `action` of the record: one per transition that took effect. */
async function entries(test: TestApp, resource: string, recordId: number, action: string): Promise<number> {
  const row = await test.app.db
    .selectFrom('activity_log')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('resource', '=', resource)
    .where('record_id', '=', recordId)
    .where('action', '=', action)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Whether the document wrote stock movements, which the ledger keeps, and so the document. */
async function movedStock(test: TestApp, definition: ResourceDefinition, id: number): Promise<boolean> {
  if (!definition.document) return false;
  const row = await (test.app.db as unknown as Db)
    .selectFrom('stock_movements')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('document_type', '=', definition.document.type)
    .where('document_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.count) > 0;
}

/** A changed value for the first field an update under If-Match can take, distinct per racer. */
function updateBody(definition: ResourceDefinition, index: number): Record<string, unknown> {
  const fields = updatableFields(definition);
  const textual = fields.find(([, field]) => field.kind === 'text' || field.kind === 'textarea');
  if (textual) return { [textual[0]]: `Racer ${index} ${unique()}` };
  const numeric = fields.find(([, field]) => ['money', 'quantity', 'factor'].includes(field.kind));
  if (numeric) return { [numeric[0]]: 100 + index };
  throw new Error(`${definition.name} has no field an update could race on; give updateBody one.`);
}

/**
 * The body of a document made from `source` that takes all of it that is open: a payment its
 * whole balance, a receipt every open unit of the order line, an invoice the quotation itself.
 */
async function takingAll(admin: Session, definition: ResourceDefinition): Promise<Record<string, unknown>> {
  const body = await sampleBody(admin, definition);
  const source = definition.document?.source as { field: string; resource: string };
  if (definition.document?.lines === 'none') {
    const owed = (await admin.send('GET', `/api/${source.resource}/${body[source.field] as number}`)).body.data;
    // A payment's amount is what its tenders come to.
    return paidInTenders(definition) ? { ...body, tenders: [{ method: 'cash', amount: owed.balance }] } : { ...body, amount: owed.balance };
  }
  switch (definition.name) {
    case 'receive-orders':
    case 'bills': {
      const order = await admin.send('POST', '/api/purchase-orders', await sampleBody(admin, getResource('purchase-orders')));
      const [line] = order.body.data.lines;
      return {
        ...body,
        purchase_order_id: order.body.data.id,
        contact_id: order.body.data.contact_id,
        lines: [
          { source_line_id: line.id, item_id: line.item_id, unit_of_measurement_id: line.unit_of_measurement_id, quantity: line.quantity },
        ],
      };
    }
    case 'invoices': {
      const quotation = await admin.send('POST', '/api/quotations', await sampleBody(admin, getResource('quotations')));
      return { ...body, quotation_id: quotation.body.data.id };
    }
    case 'stock-transfers': {
      const request = await admin.send('POST', '/api/stock-requests', await sampleBody(admin, getResource('stock-requests')));
      const [line] = request.body.data.lines;
      const ends = ['from_location_type', 'from_location_id', 'to_location_type', 'to_location_id'];
      return {
        ...body,
        ...Object.fromEntries(ends.map((name) => [name, request.body.data[name]])),
        stock_request_id: request.body.data.id,
        lines: [{ source_line_id: line.id, quantity: line.quantity }],
      };
    }
    case 'stock-receives':
      // Already all of its transfer.
      return body;
    case 'stock-returns': {
      // All that arrived of the transfer's line.
      const transfer = (await admin.send('GET', `/api/stock-transfers/${body.stock_transfer_id as number}`)).body.data;
      const [line] = transfer.lines;
      return { ...body, lines: [{ source_line_id: line.id, quantity: line.quantity_done }] };
    }
    case 'sales-returns':
    case 'purchase-returns': {
      // All that was sold or billed on the line.
      const sold = (await admin.send('GET', `/api/${source.resource}/${body[source.field] as number}`)).body.data;
      const [line] = sold.lines;
      return { ...body, lines: [{ ...(body.lines as object[])[0], source_line_id: line.id, quantity: line.quantity }] };
    }
    default:
      throw new Error(`${definition.name} is made from ${source.resource}: say how a document takes all of it.`);
  }
}

describe.each(databaseKinds)('concurrent transitions on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let twin: Awaited<ReturnType<TestApp['secondInstance']>> | undefined;

  beforeAll(async () => {
    ({ test, admin } = await startDemo(kind));
    if (kind === 'postgres') twin = await test.secondInstance();
  });
  afterAll(async () => {
    await twin?.close();
    await test.close();
  });
  afterEach(async () => {
    expect(await auditDatabase(test.app.db as unknown as Db)).toEqual([]);
    expect(test.errorLines).toEqual([]);
  });

  /** Racers alternate between the two instances where there are two. */
  const through = (index: number) => (twin && index % 2 === 1 ? twin.on(admin) : admin);

  const writable = registry.filter((definition) => !definition.readOnly);

  describe.each(writable.map((definition) => [definition.name, definition] as const))('%s', (name, definition) => {
    const base = `/api/${name}`;

    it('trashes, restores and deletes permanently once each', async () => {
      const created = await admin.send('POST', base, await sampleBody(admin, definition));
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.data.id as number;
      await undoBeforeDelete(admin, definition, id);

      exactlyOne(await race((index) => through(index).send('DELETE', `${base}/${id}`)), 200, [409]);
      expect(await entries(test, name, id, 'deleted')).toBe(1);
      exactlyOne(await race((index) => through(index).send('PATCH', `${base}/${id}/restore`)), 200, [409]);
      expect(await entries(test, name, id, 'restored')).toBe(1);

      expect((await admin.send('DELETE', `${base}/${id}`)).status).toBe(200);
      const removals = await race((index) => through(index).send('DELETE', `${base}/${id}/force-delete`));
      if (await movedStock(test, definition, id)) {
        // The stock ledger keeps the movements of a document, and so the document.
        expect(removals.map((answer) => answer.status)).toEqual(Array(RACERS).fill(409));
      } else {
        exactlyOne(removals, 204, [404]);
        expect(await entries(test, name, id, 'force-deleted')).toBe(1);
      }
    });

    if (definition.editable) {
      it('applies one update of a version under If-Match; the rest are 412', async () => {
        const created = await admin.send('POST', base, await sampleBody(admin, definition));
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const id = created.body.data.id as number;
        const bodies = Array.from({ length: RACERS }, (_, index) => updateBody(definition, index));
        const winner = exactlyOne(
          await race((index) => through(index).send('PATCH', `${base}/${id}`, bodies[index], { 'if-match': '"1"' })),
          200,
          [412],
        );
        const stored = (await admin.send('GET', `${base}/${id}`)).body.data;
        expect(stored.version).toBe(2);
        const [field] = Object.keys(bodies[0]);
        expect(stored[field]).toEqual(winner.body.data[field]);
        expect(await entries(test, name, id, 'updated')).toBe(1);
      });

      it('applies one of an update and a trash of the same version under If-Match', async () => {
        const created = await admin.send('POST', base, await sampleBody(admin, definition));
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const id = created.body.data.id as number;
        await undoBeforeDelete(admin, definition, id);
        const version = `"${(await admin.send('GET', `${base}/${id}`)).body.data.version}"`;
        const [field, value] = Object.entries(updateBody(definition, 0))[0];
        const winner = exactlyOne(
          await race((index) =>
            index % 2 === 0
              ? through(index).send('PATCH', `${base}/${id}`, { [field]: value }, { 'if-match': version })
              : through(index).send('DELETE', `${base}/${id}`, undefined, { 'if-match': version }),
          ),
          200,
          [409, 412],
        );
        const stored = (await admin.send('GET', `${base}/${id}`)).body.data;
        expect(stored.deleted_at === null).toBe(winner.body.data.deleted_at === null);
        expect((await entries(test, name, id, 'updated')) + (await entries(test, name, id, 'deleted'))).toBe(1);
      });
    }

    // Closing the rest of a transfer as lost starts from partly received, which a new transfer is
    // not: closed-short.test.ts races it against itself and against a receive. A count's post waits
    // for a blind count's counting to be finished, and a sample count is blind: counts.test.ts races it.
    for (const transition of (definition.document?.lifecycle.transitions ?? []).filter((each) => each.name !== 'close' && !each.blocked)) {
      it(`${transition.name}s once, and what it moved goes back once`, async () => {
        const created = await admin.send('POST', base, await sampleBody(admin, definition));
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const id = created.body.data.id as number;
        // A new document is in a status its transitions start from.
        expect(transitionsOpen(definition.document!.lifecycle, created.body.data)).toContain(transition);
        exactlyOne(await race((index) => through(index).send('PATCH', `${base}/${id}/${transition.name}`)), 200, [409]);
        expect((await admin.send('GET', `${base}/${id}`)).body.data.status).toBe(transition.to);
        expect(await entries(test, name, id, historyAction(transition))).toBe(1);
      });
    }

    if (definition.document?.source) {
      it(`takes what its ${getResource(definition.document.source.resource).singular.toLowerCase()} has open once`, async () => {
        const body = await takingAll(admin, definition);
        exactlyOne(
          await race((index) => through(index).send('POST', base, body, { 'idempotency-key': `${unique()}-${index}` })),
          201,
          [409, 422],
        );
      });
    }
  });
});
