import { expect } from 'vitest';
import { transitionsFrom, trashableIn } from '../../src/domain/lifecycle';
import { writableFields, type ResourceDefinition } from '../../src/domain/resource';
import { getResource } from '../../src/domain/resources/registry';
import { paidInTenders } from '../../src/domain/tenders';
import type { Session } from './test-app';

/**
 * Valid bodies for any resource of the registry, for suites that run over all of them: every
 * field filled, references pointing at the demo data's records, documents with a priced line
 * (or what they are made from: a payment's bill, a receive's transfer; a payment in cash).
 */

let counter = 0;
export const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** Ids of live records of `resource` in the session's business, to point references at. */
async function existingIds(admin: Session, resource: string, contactType?: string): Promise<number[]> {
  const type = contactType
    ? (await admin.send('GET', `/api/contact-types?name=${contactType}&is_strict=1&limit=1`)).body.data[0]
    : undefined;
  const answer = await admin.send('GET', `/api/${resource}?per_page=15&order_by=asc${type ? `&contact_type_id=${type.id}` : ''}`);
  expect(answer.status, `listing ${resource} for references`).toBe(200);
  return answer.body.data.map((row: { id: number }) => row.id);
}

/** A valid create body: every field filled, references pointing at distinct seeded records. */
export async function sampleBody(admin: Session, definition: ResourceDefinition): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  const usedPerTarget = new Map<string, number>();
  const tag = unique();
  for (const [name, field] of writableFields(definition)) {
    // Given only by some, and kept only where needed (an invoice's reason for passing a credit limit).
    if (field.heldBy) continue;
    switch (field.kind) {
      case 'text':
        body[name] =
          field.format === 'tin' ? '123-456-789-000' : field.format === 'branch-code' ? '00012' : `${field.label.slice(0, 3)} ${tag}`;
        break;
      case 'textarea':
        body[name] = `Notes for ${tag}`;
        break;
      case 'email':
        body[name] = `sample-${tag}@example.com`;
        break;
      case 'integer':
        if (field.referencesBy) {
          // A record of the resource the type field (filled before it) picks; none when it picks none.
          const target = field.referencesBy.resources[String(body[field.referencesBy.field])];
          if (target) body[name] = (await existingIds(admin, target))[0];
        } else body[name] = 7;
        break;
      case 'money':
        body[name] = 1234.5;
        break;
      case 'quantity':
        body[name] = 3.25;
        break;
      case 'factor':
        body[name] = 12;
        break;
      case 'date':
        body[name] = '2026-11-01';
        break;
      case 'boolean':
        body[name] = true;
        break;
      case 'select':
        body[name] = field.options?.[0]?.value;
        break;
      case 'discounts':
        body[name] = [{ quantity: 10, discount_percent: 5 }];
        break;
      case 'password':
        body[name] = 'sample-password';
        break;
      case 'pin':
        body[name] = '4321';
        break;
      case 'reference': {
        const target = field.references as string;
        const index = usedPerTarget.get(target) ?? 0;
        usedPerTarget.set(target, index + 1);
        // A document's contact is of its kind: a customer on an invoice, a supplier on an order.
        const ids = await existingIds(admin, target, field.contactType);
        body[name] = ids[index];
        break;
      }
    }
  }
  if (definition.name === 'conversions') {
    // One conversion per item and pair of units: each sample converts from a unit of its own.
    const unit = await admin.send('POST', '/api/unit-of-measurements', { name: `Unit ${tag}`, abbreviation: tag.slice(-12) });
    expect(unit.status, JSON.stringify(unit.body)).toBe(201);
    body.from_unit_id = unit.body.data.id;
  }
  return definition.document ? documentBody(admin, definition, body) : body;
}

/** A document: one location, no source document, a priced line; a payment pays part of a fresh bill. */
async function documentBody(admin: Session, definition: ResourceDefinition, body: Record<string, unknown>) {
  // One location — the warehouse, where the demo data keeps stock for documents that take it out.
  const { branch_id: _branch, purchase_order_id: _order, quotation_id: _quotation, ...rest } = body;
  const item = (await admin.send('GET', '/api/items?per_page=15&order_by=asc')).body.data[0];
  if (definition.document?.lines === 'priced') {
    rest.lines = [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 2, unit_price: 10 }];
  }
  if (definition.document?.lines === 'adjustments') {
    // Found goods: a line adding stock, which its void takes away again.
    rest.lines = [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 2, reason: 'found' }];
  }
  if (definition.document?.lines === 'quantities' && !definition.document.twoLocations && !definition.document.source) {
    // Goods at the one place, no prices: taken out of the warehouse's stock, or put in.
    rest.lines = [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 2 }];
  }
  if (definition.name === 'stock-counts') {
    // One brand's items: the scope names it, and no other narrowing.
    Object.assign(rest, { scope: 'brand', item_classification_id: null, item_type_id: null });
  }
  if (definition.document?.twoLocations) {
    // From the warehouse, where the demo data keeps stock, to a branch.
    const [warehouse] = await existingIds(admin, 'warehouses');
    const [branch] = await existingIds(admin, 'branches');
    Object.assign(rest, {
      from_location_type: 'warehouse',
      from_location_id: warehouse,
      to_location_type: 'branch',
      to_location_id: branch,
    });
    delete rest.stock_request_id;
    delete rest.stock_return_id;
    rest.lines = [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 2 }];
  }
  if (definition.name === 'stock-returns') {
    // Goods go back from a transfer that arrived.
    const received = await admin.send('POST', '/api/stock-receives', await sampleBody(admin, getResource('stock-receives')));
    expect(received.status, JSON.stringify(received.body)).toBe(201);
    rest.stock_transfer_id = received.body.data.stock_transfer_id;
    rest.lines = [{ source_line_id: received.body.data.lines[0].source_line_id, quantity: 1 }];
    return rest;
  }
  if (definition.document?.lines === 'returns') {
    // Goods back from a fresh sale or bill of the kind it is made from, credited to what it owes, going as its kind usually sends them.
    const source = definition.document.source!;
    const sold = await admin.send('POST', `/api/${source.resource}`, await sampleBody(admin, getResource(source.resource)));
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    rest[source.field] = sold.body.data.id;
    rest.settlement = 'credit';
    rest.lines = [
      {
        source_line_id: sold.body.data.lines[0].id,
        quantity: 1,
        reason: 'damaged',
        disposition: definition.document.returns!.usualDisposition,
      },
    ];
    return rest;
  }
  if (definition.name === 'stock-receives') {
    const transfer = await admin.send('POST', '/api/stock-transfers', await sampleBody(admin, getResource('stock-transfers')));
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(201);
    rest.stock_transfer_id = transfer.body.data.id;
    rest.lines = [{ source_line_id: transfer.body.data.lines[0].id, quantity: 2 }];
  }
  const paid = definition.document?.lines === 'none' ? definition.document.source : undefined;
  if (paid) {
    const owed = await admin.send('POST', `/api/${paid.resource}`, await sampleBody(admin, getResource(paid.resource)));
    expect(owed.status, JSON.stringify(owed.body)).toBe(201);
    rest[paid.field] = owed.body.data.id;
    // A payment is made of tenders (its amount is theirs); a memorandum takes an amount.
    if (paidInTenders(definition)) rest.tenders = [{ method: 'cash', amount: 5 }];
    else rest.amount = 5;
  }
  return rest;
}

/**
 * A document its lifecycle keeps out of the trash in its status (one that moved stock or money)
 * takes the transition that leads to a status it may be trashed in: voided, or cancelled.
 */
export async function undoBeforeDelete(admin: Session, definition: ResourceDefinition, id: number) {
  const lifecycle = definition.document?.lifecycle;
  if (!lifecycle) return;
  const status = String((await admin.send('GET', `/api/${definition.name}/${id}`)).body.data.status);
  if (trashableIn(lifecycle, status)) return;
  const undoing = transitionsFrom(lifecycle, status).find((transition) => trashableIn(lifecycle, transition.to));
  expect(undoing, `a ${definition.name} that is ${status} has a transition to a status it may be trashed in`).toBeDefined();
  expect((await admin.send('PATCH', `/api/${definition.name}/${id}/${undoing!.name}`)).status).toBe(200);
}
