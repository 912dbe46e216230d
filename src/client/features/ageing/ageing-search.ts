/** The one place the screen is kept to, as the address names it: `?branch_id=3` or `?warehouse_id=2`. */
export interface AgeingSearch {
  branch_id?: number;
  warehouse_id?: number;
}

/** Reads the address leniently: anything but a whole number names no place. */
export function ageingSearch(search: Record<string, unknown>): AgeingSearch {
  const id = (value: unknown) =>
    (typeof value === 'number' || typeof value === 'string') && /^[1-9]\d{0,8}$/.test(String(value)) ? Number(value) : undefined;
  const branch = id(search.branch_id);
  if (branch !== undefined) return { branch_id: branch };
  const warehouse = id(search.warehouse_id);
  return warehouse !== undefined ? { warehouse_id: warehouse } : {};
}
