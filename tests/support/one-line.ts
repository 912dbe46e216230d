/**
 * The body of a document with a contact at a branch (an invoice to a customer, a receipt from a
 * supplier) of one line: `quantity` of `item`, in its own unit, at `unitPrice` each.
 */
export function oneLineAtBranch(
  contactId: number,
  branchId: number,
  date: string,
  item: { id: number; unit_of_measurement_id: number },
  quantity: number,
  unitPrice: number,
) {
  return {
    contact_id: contactId,
    branch_id: branchId,
    date,
    lines: [{ item_id: item.id, unit_of_measurement_id: item.unit_of_measurement_id, quantity, unit_price: unitPrice }],
  };
}

/** A line of `quantity` of the item `itemId` in the first unit (id 1) at `unitPrice` each; `extra` adds fields or overrides them. */
export function pricedLine(itemId: number, quantity: number, unitPrice: number, extra: Record<string, unknown> = {}) {
  return { item_id: itemId, unit_of_measurement_id: 1, quantity, unit_price: unitPrice, ...extra };
}
