import { describe, expect, it } from 'vitest';
import { startedOnce } from '../../../tests/support/started';
import { listParamsSchema } from '../../domain/list-params-schema';
import { viewsRecord, type PlaceAccess } from '../../domain/places';
import { branches } from '../../domain/resources/branches';
import { contacts } from '../../domain/resources/contacts';
import { saleItemPrices } from '../../domain/resources/sale-item-prices';
import { stockAdjustments } from '../../domain/resources/stock-adjustments';
import { stocks } from '../../domain/resources/stocks';
import { databaseKinds, startDemo, userWithPermissions } from '../../../tests/support/test-app';
import { allRecordsInListOrder, listRecords } from './record-service';
import { untyped, type Scope } from '../db/scope';

describe.each(databaseKinds)('CSV export of a list on %s', (kind) => {
  const ids: Record<string, number> = {};
  /** A contact type of the exported contacts alone, and the contacts, their ids by name in `ids`. */
  const world = startedOnce(async () => {
    const demo = await startDemo(kind);
    const typeId: number = (await demo.admin.send('POST', '/api/contact-types', { name: 'Exported' })).body.data.id;
    const people = [
      { name: 'Zeta Exportable, Inc.', company_name: 'Acme', credit_limit: 1500.5, mobile: '0917 555 0101' },
      { name: 'Alpha Exportable "Best" Store', company_name: null, credit_limit: null, mobile: null },
      { name: 'Niño Exportable', company_name: 'Acme', credit_limit: 20, mobile: null },
      { name: 'Exportable Formula', company_name: '=HYPERLINK("http://x")', credit_limit: 0, mobile: '+63 917' },
      { name: 'Mid Exportable\nTwo lines', company_name: null, credit_limit: 7, mobile: null },
    ];
    for (const person of people) {
      const answer = await demo.admin.send('POST', '/api/contacts', { contact_type_id: typeId, ...person });
      expect(answer.status).toBe(201);
      ids[person.name] = answer.body.data.id;
    }
    return { ...demo, typeId };
  }, false);

  it('streams the searched, sorted list with references by name, money as decimals and formulas defused', async () => {
    const answer = await world.test.app.inject({
      method: 'GET',
      url: '/api/contacts/export.csv?name=Exportable&order_by=asc&order_by_field_name=name',
      headers: { cookie: world.admin.cookie, 'business-id': String(world.businesses[0]) },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="contacts-\d{4}-\d{2}-\d{2}\.csv"$/);

    const text = answer.body;
    expect(text.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = text.slice(1).split('\r\n');
    expect(header).toBe(
      'ID,Contact type,Name,Company name,TIN,VAT registered,Email,Phone,Mobile,Address,Payment terms (days),Credit limit,Credit on account,Created,Updated',
    );
    expect(rows.at(-1)).toBe('');
    const cells = (row: string) => row.replace(/,\d{4}-\d\d-\d\dT[^,]+,\d{4}-\d\d-\d\dT[^,]+$/, '');
    expect(rows.slice(0, -1).map(cells)).toEqual([
      `${ids['Alpha Exportable "Best" Store']},Exported,"Alpha Exportable ""Best"" Store",,,No,,,,,,,0.00`,
      `${ids['Exportable Formula']},Exported,Exportable Formula,"'=HYPERLINK(""http://x"")",,No,,,'+63 917,,,0.00,0.00`,
      `${ids['Mid Exportable\nTwo lines']},Exported,"Mid Exportable\nTwo lines",,,No,,,,,,7.00,0.00`,
      `${ids['Niño Exportable']},Exported,Niño Exportable,Acme,,No,,,,,,20.00,0.00`,
      `${ids['Zeta Exportable, Inc.']},Exported,"Zeta Exportable, Inc.",Acme,,No,,,0917 555 0101,,,1500.50,0.00`,
    ]);
  });

  it('walks every batch in the list’s own order, NULLs and ties included', async () => {
    const scope: Scope = { businessId: world.businesses[0], userId: 1, permissions: new Set() };
    for (const order_by of ['asc', 'desc']) {
      const params = listParamsSchema(contacts).parse({
        order_by,
        order_by_field_name: 'company_name',
        contact_type_id: String(world.typeId),
        is_strict: '1',
      });
      const listed = (await listRecords(world.test.app.db, scope, contacts, params)).records.map((record) => record.id);
      const walked: number[] = [];
      for await (const batch of allRecordsInListOrder(world.test.app.db, scope, contacts, params, 2)) {
        expect(batch.length).toBeLessThanOrEqual(2);
        walked.push(...batch.map((record) => Number(record.id)));
      }
      expect(listed).toHaveLength(5);
      expect(walked).toEqual(listed);
      expect(new Set(walked).size).toBe(walked.length);
    }
  });

  it('follows the trash filters, and adds the Deleted column when trashed records are in it', async () => {
    await world.admin.send('DELETE', `/api/contacts/${ids['Niño Exportable']}`);
    const only = await world.admin.send('GET', '/api/contacts/export.csv?only_trashed=1&name=Exportable');
    const lines = only.body.slice(1).trim().split('\r\n');
    expect(lines[0].endsWith(',Created,Updated,Deleted')).toBe(true);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^${ids['Niño Exportable']},Exported,Niño Exportable,.*,\\d{4}-\\d\\d-\\d\\dT[^,]+$`));

    const active = await world.admin.send('GET', '/api/contacts/export.csv?name=Exportable');
    expect(active.body.slice(1).trim().split('\r\n')).toHaveLength(5);
    expect(active.body).not.toContain('Niño');
  });

  it('holds only the records of the places the user views; with every place, what a master’s holds', async () => {
    const place = async (resource: string, name: string) =>
      (await world.admin.send('GET', `/api/${resource}?name=${name}&is_strict=1`)).body.data[0].id;
    const [makati, quezon] = [await place('branches', 'Makati'), await place('branches', 'Quezon City')];
    const item = (
      await world.admin.send('POST', '/api/items', { sku: 'CSV-PLACE', name: 'Kept at Quezon City', unit_of_measurement_id: 1 })
    ).body.data;
    const line = { item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity: 5, reason: 'opening_balance' };
    for (const branch_id of [makati, quezon]) {
      expect((await world.admin.send('POST', '/api/stock-adjustments', { branch_id, date: '2026-11-01', lines: [line] })).status).toBe(201);
    }
    const priced = { item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, price: 10, effective_date: '2026-11-01' };
    for (const branch_id of [makati, quezon, null]) {
      expect((await world.admin.send('POST', '/api/sale-item-prices', { ...priced, branch_id })).status).toBe(201);
    }
    const resources = [stockAdjustments, stocks, branches, saleItemPrices];
    const permissions = resources.map((definition) => `view-${definition.permission}`);
    const access: PlaceAccess = { all: null, grants: [{ type: 'branch', id: makati, level: 'view' }] };
    const { session } = await userWithPermissions(world.test, world.businesses[0], permissions, access);
    const everywhere = await userWithPermissions(world.test, world.businesses[0], permissions, { all: 'view', grants: [] });
    const ids = (csv: string) =>
      csv
        .split('\r\n')
        .map((row) => row.split(',')[0])
        .filter((cell) => /^\d+$/.test(cell))
        .sort();
    for (const definition of resources) {
      const url = `/api/${definition.name}/export.csv?with_trashed=1`;
      const rows = await untyped(world.test.app.db)
        .selectFrom(definition.table)
        .selectAll()
        .where('business_id', '=', world.businesses[0])
        .execute();
      const viewed = rows.filter((row) => viewsRecord(access, definition.places!, row)).map((row) => String(row.id));
      expect(viewed.length, definition.name).toBeLessThan(rows.length);
      expect(ids((await session.send('GET', url)).body), definition.name).toEqual(viewed.sort());
      expect((await everywhere.session.send('GET', url)).body, definition.name).toBe((await world.admin.send('GET', url)).body);
    }
  });

  it('needs view- of the resource, and never shows another business’s records', async () => {
    const clerk = await userWithPermissions(world.test, world.businesses[0], ['view-brands']);
    expect((await clerk.session.send('GET', '/api/contacts/export.csv')).status).toBe(403);
    await clerk.grant(['view-contacts']);
    expect((await clerk.session.send('GET', '/api/contacts/export.csv?name=Exportable')).body).toContain('Zeta Exportable');

    const other = await world.admin.inBusiness(world.businesses[1]).send('GET', '/api/contacts/export.csv?name=Exportable');
    expect(other.status).toBe(200);
    expect(other.body.slice(1).trim().split('\r\n')).toHaveLength(1);
    expect((await world.admin.send('GET', '/api/contacts/export.csv?order_by_field_name=password')).status).toBe(422);
  });
});
