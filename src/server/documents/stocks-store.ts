import { z } from 'zod';
import { fromThousandths } from '../../domain/quantity';
import { stocks } from '../../domain/resources/stocks';
import { placeAnswer } from '../resources/answer-shapes';
import { businessTableStore, type ResourceStore } from '../resources/store';

/** Stocks read like any business table, with their location and reorder level named. */
export const stocksStore: ResourceStore = {
  ...businessTableStore(stocks),
  async decorate(db, _scope, records) {
    const ids = (type: string) => [
      ...new Set(records.filter((record) => record.location_type === type).map((record) => Number(record.location_id))),
    ];
    const names = new Map<string, string>();
    for (const [type, table] of [
      ['branch', 'branches'],
      ['warehouse', 'warehouses'],
    ] as const) {
      const wanted = ids(type);
      if (wanted.length === 0) continue;
      for (const row of await db.selectFrom(table).select(['id', 'name']).where('id', 'in', wanted).execute()) {
        names.set(`${type}:${row.id}`, row.name);
      }
    }
    const items = new Map<number, { reorder: number | null; unit: string | null; unitId: number | null }>();
    const itemIds = [...new Set(records.map((record) => Number(record.item_id)))];
    for (const row of await db
      .selectFrom('items')
      .leftJoin('unit_of_measurements', 'unit_of_measurements.id', 'items.unit_of_measurement_id')
      .select(['items.id', 'items.reorder_level', 'items.unit_of_measurement_id', 'unit_of_measurements.abbreviation'])
      .where('items.id', 'in', itemIds)
      .execute()) {
      items.set(row.id, {
        reorder: row.reorder_level === null ? null : fromThousandths(row.reorder_level),
        unit: row.abbreviation,
        unitId: row.unit_of_measurement_id,
      });
    }
    for (const record of records) {
      const item = items.get(Number(record.item_id));
      record.location = {
        id: record.location_id,
        display: names.get(`${String(record.location_type)}:${String(record.location_id)}`) ?? null,
      };
      record.unit = item?.unit ?? null;
      // The balance's unit, for a request or order that restocks it.
      record.unit_of_measurement_id = item?.unitId ?? null;
      record.reorder_level = item?.reorder ?? null;
      // At or under the item's reorder level: time to request or order more.
      record.reorder_level_reached =
        item?.reorder !== null && item?.reorder !== undefined && Number(record.quantity_on_hand) <= item.reorder;
    }
  },
  decorated: {
    location: placeAnswer,
    unit: z.string().nullable().describe("The item's base unit"),
    unit_of_measurement_id: z.number().int().nullable(),
    reorder_level: z.number().nullable(),
    reorder_level_reached: z.boolean(),
  },
};
