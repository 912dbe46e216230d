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
