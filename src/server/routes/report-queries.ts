import { z } from 'zod';
import type { PlaceType } from '../../domain/places';

/** What the overview's and the reports' queries share: days, and one place or every place the user views. */

export const day = (name: string) => z.iso.date(`The ${name} field must be a valid date (YYYY-MM-DD).`).optional();

const placeId = (type: PlaceType, what: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,8}$/, `The ${type} id must be a whole number.`)
    .optional()
    .describe(`Only the ${what} of this ${type}`);

interface OnePlace {
  branch_id?: string;
  warehouse_id?: string;
}

/** `shape`, with one branch or one warehouse (`branch_id`, `warehouse_id`), or every place the user views (neither). */
export const withOnePlace = <T extends z.ZodRawShape>(shape: T, what: string) =>
  z.object({ ...shape, branch_id: placeId('branch', what), warehouse_id: placeId('warehouse', what) }).refine(
    (query) => {
      const { branch_id, warehouse_id } = query as OnePlace;
      return branch_id === undefined || warehouse_id === undefined;
    },
    { path: ['warehouse_id'], message: 'Name a branch or a warehouse, not both.' },
  );

/** The place a query names, if it names one. */
export function placeOf({ branch_id, warehouse_id }: OnePlace): { type: PlaceType; id: number } | undefined {
  if (branch_id !== undefined) return { type: 'branch', id: Number(branch_id) };
  if (warehouse_id !== undefined) return { type: 'warehouse', id: Number(warehouse_id) };
  return undefined;
}
