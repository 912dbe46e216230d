import type { DatabaseKind } from '../../src/server/db/dialect';
import { firstOf, startDemo } from './test-app';

/** An item as the suites of stock counts read it. */
export interface CountedItem {
  id: number;
  name: string;
  sku: string;
  brand_id: number | null;
  unit_of_measurement_id: number;
}

/** The start of the suites of stock counts: `startDemo(kind)`, the first warehouse, and the first hundred items, the counts' subjects. */
export async function startCounting(kind: DatabaseKind) {
  const demo = await startDemo(kind);
  const warehouseId: number = (await firstOf(demo.admin, 'warehouses')).id;
  const items: CountedItem[] = (await demo.admin.send('GET', '/api/items?per_page=100&order_by=asc')).body.data;
  return { ...demo, warehouseId, items };
}
