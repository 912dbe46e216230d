import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contactOfType, databaseKinds, startDemo, type Session, type TestApp } from '../../../tests/support/test-app';
import { auditDatabase } from '../documents/audit';
import { baseUnitLocks } from '../resources/items-store';

const ADVICE = 'Add a conversion to buy, sell or count it in another unit.';

/**
 * An item's base unit and the conversions its lines were counted by are fixed once used: "10 pc"
 * on hand never becomes "10 case", by the item's form, in bulk, or by a conversion changed under
 * the lines.
 */
describe.each(databaseKinds)('fixed base units and conversions on %s', (kind) => {
  let test: TestApp;
  let admin: Session;
  let businesses: [number, number];
  let branch: { id: number; name: string };
  let supplierId: number;
  let pc: number;
  let box: number;
  let pack: number;
  const tag = randomBytes(3).toString('hex');

  beforeAll(async () => {
    ({ test, admin, businesses } = await startDemo(kind));
    branch = (await admin.send('GET', '/api/branches?limit=1&order_by=asc')).body.data[0];
    supplierId = await contactOfType(admin, 'Supplier');
    const unit = async (name: string) => {
      const made = await admin.send('POST', '/api/unit-of-measurements', { name: `${name} ${tag}`, abbreviation: `${name}${tag}` });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return Number(made.body.data.id);
    };
    [pc, box, pack] = [await unit('pc'), await unit('box'), await unit('pack')];
  });
  afterAll(() => test.close());
  afterEach(async () => {
    expect(await auditDatabase(test.app.db)).toEqual([]);
  });

  let made = 0;
  const newItem = async (unitId = pc) => {
    made += 1;
    const item = await admin.send('POST', '/api/items', {
      sku: `BU-${tag}-${made}`,
      name: `Base unit ${tag} ${made}`,
      unit_of_measurement_id: unitId,
    });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    return Number(item.body.data.id);
  };
  const adjust = (itemId: number, quantity: number, unitId = pc) =>
    admin.send('POST', '/api/stock-adjustments', {
      branch_id: branch.id,
      date: '2026-11-20',
      lines: [{ item_id: itemId, unit_of_measurement_id: unitId, quantity, reason: 'found' }],
    });
  const order = (itemId: number, unitId: number, quantity = 2) =>
    admin.send('POST', '/api/purchase-orders', {
      contact_id: supplierId,
      branch_id: branch.id,
      date: '2026-11-20',
      lines: [{ item_id: itemId, unit_of_measurement_id: unitId, quantity, unit_price: 10 }],
    });
  const unitOf = async (itemId: number) => (await admin.send('GET', `/api/items/${itemId}`)).body.data.unit_of_measurement_id;

  describe('an item’s base unit', () => {
    it('changes while nothing counts in it', async () => {
      const item = await newItem();
      const changed = await admin.send('PATCH', `/api/items/${item}`, { unit_of_measurement_id: box });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(await unitOf(item)).toBe(box);
    });

    it('is fixed once stock is held, in words naming the stock and the documents; the rest of the item still changes', async () => {
      const item = await newItem();
      expect((await adjust(item, 10)).status).toBe(201);
      const refused = await admin.send('PATCH', `/api/items/${item}`, { unit_of_measurement_id: box });
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual({
        unit_of_measurement_id: [`Its base unit is fixed: 10 pc${tag} on hand at ${branch.name} and 1 document uses it. ${ADVICE}`],
      });
      expect(await unitOf(item)).toBe(pc);
      // The form sends every field: the unit it already has is no change, and the name still changes.
      const renamed = await admin.send('PATCH', `/api/items/${item}`, { unit_of_measurement_id: pc, name: `Renamed ${tag}` });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      expect(renamed.body.data.name).toBe(`Renamed ${tag}`);
    });

    it('stays fixed once its stock is gone again: the movements and the void document still count in it', async () => {
      const item = await newItem();
      const posted = await adjust(item, 4);
      expect((await admin.send('PATCH', `/api/stock-adjustments/${posted.body.data.id}/void`)).status).toBe(200);
      const refused = await admin.send('PATCH', `/api/items/${item}`, { unit_of_measurement_id: box });
      expect(refused.status).toBe(422);
      expect(refused.body.errors.unit_of_measurement_id).toEqual([
        `Its base unit is fixed: its stock movements at ${branch.name} count in pc${tag} and 1 document uses it. ${ADVICE}`,
      ]);
    });

    it('is fixed by a document’s line alone (an order not yet received)', async () => {
      const item = await newItem();
      expect((await order(item, pc)).status).toBe(201);
      expect((await order(item, pc)).status).toBe(201);
      const refused = await admin.send('PATCH', `/api/items/${item}`, { unit_of_measurement_id: box });
      expect(refused.status).toBe(422);
      expect(refused.body.errors.unit_of_measurement_id).toEqual([`Its base unit is fixed: 2 documents use it. ${ADVICE}`]);
    });

    it('answers many items in one call, only those in use, for the items import', async () => {
      const [held, ordered, free] = [await newItem(), await newItem(), await newItem()];
      expect((await adjust(held, 3)).status).toBe(201);
      expect((await order(ordered, pc)).status).toBe(201);
      const locks = await baseUnitLocks(test.app.db, { businessId: businesses[0], userId: 0, permissions: new Set() }, [
        held,
        ordered,
        free,
        held,
        999_999,
      ]);
      expect([...locks.keys()].sort((a, b) => a - b)).toEqual([held, ordered]);
      expect(locks.get(held)).toBe(`Its base unit is fixed: 3 pc${tag} on hand at ${branch.name} and 1 document uses it. ${ADVICE}`);
      expect(locks.get(ordered)).toBe(`Its base unit is fixed: 1 document uses it. ${ADVICE}`);
      // Another business's items are not this one's: nothing of them is said.
      const elsewhere = await baseUnitLocks(test.app.db, { businessId: businesses[1], userId: 0, permissions: new Set() }, [held]);
      expect(elsewhere.size).toBe(0);
    });

    it('is never changed under a document written in the old unit when the two race', async () => {
      for (let round = 0; round < 4; round += 1) {
        const item = await newItem();
        const [changed, posted] = await Promise.all([
          admin.send('PATCH', `/api/items/${item}`, { unit_of_measurement_id: box }),
          adjust(item, 5),
        ]);
        // Exactly one of them: the adjustment first fixes the unit; the change first leaves pc without a conversion to box.
        expect(['200 422', '422 201'], JSON.stringify([changed.body, posted.body])).toContain(`${changed.status} ${posted.status}`);
        const stock = await test.app.db.selectFrom('stocks').select('quantity_on_hand').where('item_id', '=', item).executeTakeFirst();
        expect(Number(stock?.quantity_on_hand ?? 0)).toBe(posted.status === 201 ? 5000 : 0);
        expect(await unitOf(item)).toBe(posted.status === 201 ? pc : box);
      }
    });
  });

  describe('a conversion', () => {
    const convert = (body: Record<string, unknown>) => admin.send('POST', '/api/conversions', body);

    it('is fixed once a document’s line counts by it: its factor, units and item stay, and it stays out of the trash', async () => {
      const item = await newItem();
      const conversion = await convert({ item_id: item, from_unit_id: box, to_unit_id: pc, factor: 12 });
      expect(conversion.status, JSON.stringify(conversion.body)).toBe(201);
      const id = conversion.body.data.id;
      // Unused, it still changes.
      expect((await admin.send('PATCH', `/api/conversions/${id}`, { factor: 10 })).status).toBe(200);
      expect((await order(item, box)).status).toBe(201);

      const words = `This conversion is fixed: 1 document counts 1 box${tag} as 10 pc${tag} by it. Add a new unit with a conversion of its own instead.`;
      const factor = await admin.send('PATCH', `/api/conversions/${id}`, { factor: 24 });
      expect(factor.status).toBe(422);
      expect(factor.body.errors).toEqual({ factor: [words] });
      const units = await admin.send('PATCH', `/api/conversions/${id}`, { from_unit_id: pack, item_id: null });
      expect(units.body.errors).toEqual({ from_unit_id: [words], item_id: [words] });
      // What the form sends back unchanged is no change.
      expect(
        (await admin.send('PATCH', `/api/conversions/${id}`, { item_id: item, from_unit_id: box, to_unit_id: pc, factor: 10 })).status,
      ).toBe(200);
      const trashed = await admin.send('DELETE', `/api/conversions/${id}`);
      expect(trashed.status).toBe(409);
      expect(trashed.body.message).toBe(`This conversion cannot go to the trash: 1 document counts 1 box${tag} as 10 pc${tag} by it.`);
      expect((await admin.send('GET', `/api/conversions/${id}`)).body.data).toMatchObject({ factor: 10, deleted_at: null });

      // A new unit with its own conversion is the way to count the item otherwise.
      expect((await convert({ item_id: item, from_unit_id: pack, to_unit_id: pc, factor: 24 })).status).toBe(201);
    });

    it('for every item is fixed by the lines of items without their own, and none takes its place for those items', async () => {
      const general = await convert({ from_unit_id: pack, to_unit_id: box, factor: 6 });
      expect(general.status, JSON.stringify(general.body)).toBe(201);
      const [counted, own] = [await newItem(box), await newItem(box)];
      expect((await convert({ item_id: own, from_unit_id: pack, to_unit_id: box, factor: 8 })).status).toBe(201);
      expect((await order(own, pack)).status).toBe(201);
      // Only the item with its own conversion has lines in packs: the general one is not used yet.
      expect((await admin.send('PATCH', `/api/conversions/${general.body.data.id}`, { factor: 5 })).status).toBe(200);

      expect((await order(counted, pack)).status).toBe(201);
      const refused = await admin.send('PATCH', `/api/conversions/${general.body.data.id}`, { factor: 4 });
      expect(refused.body.errors.factor).toEqual([
        `This conversion is fixed: 1 document counts 1 pack${tag} as 5 box${tag} by it. Add a new unit with a conversion of its own instead.`,
      ]);
      const overriding = await convert({ item_id: counted, from_unit_id: pack, to_unit_id: box, factor: 7 });
      expect(overriding.status).toBe(422);
      expect(overriding.body.errors.factor).toEqual([
        `1 document counts 1 pack${tag} as 5 box${tag} for this item, by the conversion for every item: this one would change what they say. Add a new unit with a conversion of its own instead.`,
      ]);
      // One saying what the lines already say changes nothing of them.
      expect((await convert({ item_id: counted, from_unit_id: pack, to_unit_id: box, factor: 5 })).status).toBe(201);
    });

    it('is one per item and pair of units: a second would leave which one holds to chance', async () => {
      const item = await newItem();
      expect((await convert({ item_id: item, from_unit_id: pack, to_unit_id: pc, factor: 3 })).status).toBe(201);
      const twice = await convert({ item_id: item, from_unit_id: pack, to_unit_id: pc, factor: 4 });
      expect(twice.status).toBe(422);
      expect(twice.body.errors.from_unit_id).toEqual([
        `There is already a conversion of these units for this item (1 pack${tag} as 3 pc${tag}): change that one.`,
      ]);
    });
  });
});
