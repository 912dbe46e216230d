import type { DatabaseKind } from '../../src/server/db/dialect';
import { firstOf, startDemo } from './test-app';

/** The start of the suites of imports: `startDemo(kind)`, and the first unit and warehouse, which the rows name. */
export async function startImporting(kind: DatabaseKind) {
  const demo = await startDemo(kind);
  const unit: { id: number; name: string; abbreviation: string } = await firstOf(demo.admin, 'unit-of-measurements');
  const warehouse: { id: number; name: string } = await firstOf(demo.admin, 'warehouses');
  return { ...demo, unit, warehouse };
}
