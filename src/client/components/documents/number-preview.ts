import { documentNumber, referenceNumber, todayInManila, type Location, type LocationType } from '../../../domain/documents';
import type { ResourceDefinition } from '../../../domain/resource';

/** What a document's numbers are figured from, as the server will figure them when it is saved. */
export interface NumberingInputs {
  /** `yyyy-MM-dd`: the document's date, today while none is typed. */
  date: string;
  /** Where it is numbered; unknown until picked. */
  location?: Location;
  /** Its contact, for the reference number; unknown until picked. */
  contactId?: number;
}

const positive = (value: unknown) => (Number(value) > 0 ? Number(value) : undefined);
const locationType = (value: unknown): LocationType | undefined => (value === 'branch' || value === 'warehouse' ? value : undefined);

/**
 * Where the server numbers a document: its from-location when goods move between two, else its
 * branch, else its warehouse. Party and place the server takes from the source document (a
 * payment's bill, a receipt's transfer) are read from `source`.
 */
export function numberingInputs(
  definition: ResourceDefinition,
  values: Record<string, unknown>,
  source?: Record<string, unknown>,
): NumberingInputs {
  const read = (name: string) => (definition.fields[name]?.computed ? source?.[name] : values[name]);
  const date = typeof values.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(values.date) ? values.date : todayInManila();
  const contactId = 'contact_id' in definition.fields ? positive(read('contact_id')) : undefined;
  if (definition.document?.twoLocations) {
    // Ends taken from the source are read there: a return's run the other way, its from-location its transfer's to.
    const end = definition.fields.from_location_type?.computed && definition.document.source?.reversed ? 'to' : 'from';
    const type = locationType(read(`${end}_location_type`));
    const id = positive(read(`${end}_location_id`));
    return { date, contactId, location: type && id ? { type, id } : undefined };
  }
  const branch = positive(read('branch_id'));
  const warehouse = positive(read('warehouse_id'));
  const location: Location | undefined = branch
    ? { type: 'branch', id: branch }
    : warehouse
      ? { type: 'warehouse', id: warehouse }
      : undefined;
  return { date, contactId, location };
}

/** The body of `POST /api/documents/get-number-total-count`. */
export const numberCountBody = (type: string, location: Location) => ({
  document_name: type,
  branch_id: location.type === 'branch' ? location.id : null,
  warehouse_id: location.type === 'warehouse' ? location.id : null,
});

/** The body of `POST /api/documents/get-reference-number-total-count`. */
export const referenceCountBody = (type: string, contactId: number) => ({ document_name: type, contact_id: contactId });

/** The numbers the next document of a series gets: the series' total so far, plus one. */
export const nextNumber = (prefix: string, inputs: NumberingInputs & { location: Location }, total: number) =>
  documentNumber(prefix, inputs.date, inputs.location, total + 1);
export const nextReferenceNumber = (inputs: NumberingInputs & { contactId: number }, total: number) =>
  referenceNumber(inputs.contactId, inputs.date, total + 1);
