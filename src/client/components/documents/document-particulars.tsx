import { useQuery } from '@tanstack/react-query';
import { getResource } from '../../../domain/resources/registry';
import type { ResourceDefinition } from '../../../domain/resource';
import { holdsAny } from '../../../domain/permissions';
import { recordQuery, type ApiRecord } from '../../lib/resource-queries';
import { businessesQuery, useActiveBusinessId, usePermissions } from '../../lib/session';

const present = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
const presentOrNull = (value: unknown) => (present(value) ? value : null);

/** A TIN with the place's branch code after it: 123-456-789-00012; the TIN alone when either is missing or it has one already. */
export function tinAt(tin: unknown, branchCode: unknown): string | null {
  if (!present(tin)) return null;
  return present(branchCode) && /^\d{3}-\d{3}-\d{3}$/.test(tin) ? `${tin}-${branchCode}` : tin;
}

/**
 * What a printed document says of who issues it and, when it has one, of its counterparty: the
 * business's registered name, its trade name, the registered address, the TIN with the branch code
 * of the document's place and whether it is VAT-registered; the place; the contact's name, address
 * and TIN. Nothing more: no claim of any accreditation.
 */
export interface Particulars {
  /** Null until the session's businesses are read. */
  seller: {
    name: string;
    tradeName: string | null;
    address: string | null;
    /** "VAT Reg. TIN: 123-456-789-00012" */
    tin: string | null;
    vatRegistered: boolean;
  } | null;
  place: { kind: 'Branch' | 'Warehouse'; name: string; address: string | null } | null;
  /** The customer or supplier. */
  party: { label: string; name: string; address: string | null; tin: string | null } | null;
}

/** The particulars a document was issued with, as the server keeps them with it (`particulars` in its read). */
interface IssuedParticulars {
  seller: { name: string; trade_name: string | null; address: string | null; tin: string | null; vat_registered: boolean };
  place: { type: 'branch' | 'warehouse'; name: string; address: string | null; branch_code: string | null } | null;
  party: { name: string; address: string | null; tin: string | null } | null;
}

/** Who the document's contact is, as its copy labels them: its contact field's kind ("Customer") or label. */
const partyLabel = (definition: ResourceDefinition) =>
  definition.fields.contact_id?.contactType ?? definition.fields.contact_id?.label ?? 'Contact';

/** What the seller's TIN line says: "VAT Reg. TIN: 123-456-789-00012", or "Non-VAT Reg. TIN: …". */
const tinLine = (tin: string | null, vatRegistered: boolean) => (tin ? `${vatRegistered ? 'VAT Reg.' : 'Non-VAT Reg.'} TIN: ${tin}` : null);

/** The particulars a document was issued with, as its copy prints them. */
export function issuedParticulars(definition: ResourceDefinition, issued: IssuedParticulars): Particulars {
  const { seller, place, party } = issued;
  return {
    seller: {
      name: seller.name,
      tradeName: presentOrNull(seller.trade_name),
      address: presentOrNull(seller.address),
      tin: tinLine(tinAt(seller.tin, place?.branch_code), seller.vat_registered),
      vatRegistered: seller.vat_registered,
    },
    place: place && {
      kind: place.type === 'branch' ? 'Branch' : 'Warehouse',
      name: place.name,
      address: presentOrNull(place.address),
    },
    party: party && {
      label: partyLabel(definition),
      name: party.name,
      address: presentOrNull(party.address),
      tin: presentOrNull(party.tin),
    },
  };
}

/**
 * The particulars of a document: those it was issued with, which its read carries whoever reads
 * it. A document still on this device (not synced) has none yet: it is read from what the device
 * holds now — the session's business, and the place and the contact when the user may read them,
 * else named as the document names them — as the server will keep them when it syncs.
 */
export function useParticulars(definition: ResourceDefinition, record: ApiRecord): Particulars {
  const issued = (record.particulars as IssuedParticulars | null | undefined) ?? null;
  const current = useCurrentParticulars(definition, record, issued === null);
  return issued ? issuedParticulars(definition, issued) : current;
}

/** The particulars as the device reads them now (`enabled`: whether to read the place and the contact at all). */
function useCurrentParticulars(definition: ResourceDefinition, record: ApiRecord, enabled: boolean): Particulars {
  const businessId = useActiveBusinessId();
  const held = usePermissions();
  const businesses = useQuery(businessesQuery());
  // The document's branch or warehouse; goods moved between places are issued where they leave.
  const from = record.from_location_type === 'branch' ? 'branches' : record.from_location_type === 'warehouse' ? 'warehouses' : null;
  const placeResource = record.branch_id ? 'branches' : record.warehouse_id ? 'warehouses' : from;
  const placeId = Number(record.branch_id ?? record.warehouse_id ?? record.from_location_id ?? 0);
  const place = useQuery({
    ...recordQuery(businessId, getResource(placeResource ?? 'branches'), placeId),
    enabled: enabled && placeResource !== null && holdsAny(held, [`view-${placeResource}`]),
  });
  const contactId = Number(record.contact_id ?? 0);
  const contact = useQuery({
    ...recordQuery(businessId, getResource('contacts'), contactId),
    enabled: enabled && contactId > 0 && holdsAny(held, ['view-contacts']),
  });
  const business = businesses.data?.find((candidate) => candidate.id === businessId) as Record<string, unknown> | undefined;
  const named = (reference: unknown) => (reference as { display?: string } | null)?.display;
  const tin = business && tinAt(business.tin, place.data?.branch_code);
  const placeName = place.data ? String(place.data.name) : named(record.branch ?? record.warehouse ?? record.from_location);
  const party: Record<string, unknown> | undefined = contact.data ?? (contactId > 0 ? { name: named(record.contact) ?? '' } : undefined);
  return {
    seller: business
      ? {
          name: present(business.registered_name) ? business.registered_name : String(business.name),
          tradeName: presentOrNull(business.trade_name),
          address: presentOrNull(business.address),
          tin: tinLine(tin ?? null, Boolean(business.vat_registered)),
          vatRegistered: Boolean(business.vat_registered),
        }
      : null,
    place:
      placeResource && placeName
        ? { kind: placeResource === 'branches' ? 'Branch' : 'Warehouse', name: placeName, address: presentOrNull(place.data?.address) }
        : null,
    party: party
      ? {
          label: partyLabel(definition),
          name: String(party.name ?? ''),
          address: presentOrNull(party.address),
          tin: presentOrNull(party.tin),
        }
      : null,
  };
}

/** Who issues the document, as its printed copy heads it. */
export function SellerParticulars({ seller, place }: Pick<Particulars, 'seller' | 'place'>) {
  if (!seller) return null;
  return (
    <div className="min-w-0">
      <p className="text-[12pt] font-bold receipt:text-[10pt]">{seller.name}</p>
      {seller.tradeName && <p>Business name: {seller.tradeName}</p>}
      {seller.address && <p>{seller.address}</p>}
      {seller.tin && <p>{seller.tin}</p>}
      {place && (
        <p>
          {place.kind}: {place.name}
          {place.address && `, ${place.address}`}
        </p>
      )}
    </div>
  );
}

/** The customer or supplier, as the printed copy names them. */
export function PartyParticulars({ party }: Pick<Particulars, 'party'>) {
  if (!party) return null;
  return (
    <div className="min-w-0">
      <p>
        {party.label}: <span className="font-bold">{party.name}</span>
      </p>
      {party.address && <p>Address: {party.address}</p>}
      {party.tin && <p>TIN: {party.tin}</p>}
    </div>
  );
}
