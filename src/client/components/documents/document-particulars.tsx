import { useQuery } from '@tanstack/react-query';
import { getResource } from '../../../domain/resources/registry';
import type { ResourceDefinition } from '../../../domain/resource';
import { holdsAny } from '../../../domain/permissions';
import { recordQuery, type ApiRecord } from '../../lib/resource-queries';
import { businessesQuery, useActiveBusinessId, usePermissions } from '../../lib/session';

const present = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** A TIN with the place's branch code after it: 123-456-789-00012; the TIN alone when either is missing or it has one already. */
export function tinAt(tin: unknown, branchCode: unknown): string | null {
  if (!present(tin)) return null;
  return present(branchCode) && /^\d{3}-\d{3}-\d{3}$/.test(tin) ? `${tin}-${branchCode}` : tin;
}

/**
 * What a printed document says of who issues it and, when it has one, of its counterparty: the
 * business's registered name, its trade name, the registered address, the TIN with the branch code
 * of the document's place and whether it is VAT-registered; the contact's name, address and TIN.
 * Shown only on paper (the screen has the same facts in its details), and nothing more: no claim
 * of any accreditation. A voided document prints VOID across it, its number kept.
 */
export function DocumentParticulars({ definition, record }: { definition: ResourceDefinition; record: ApiRecord }) {
  const businessId = useActiveBusinessId();
  const held = usePermissions();
  // The user's businesses are the session's, with their particulars; the place and the contact are
  // read when the user may read them, else named as the document names them.
  const businesses = useQuery(businessesQuery());
  const placeResource = record.branch_id ? 'branches' : record.warehouse_id ? 'warehouses' : null;
  const placeId = Number(record.branch_id ?? record.warehouse_id ?? 0);
  const place = useQuery({
    ...recordQuery(businessId, getResource(placeResource ?? 'branches'), placeId),
    enabled: placeResource !== null && holdsAny(held, [`view-${placeResource}`]),
  });
  const contactId = Number(record.contact_id ?? 0);
  const contact = useQuery({
    ...recordQuery(businessId, getResource('contacts'), contactId),
    enabled: contactId > 0 && holdsAny(held, ['view-contacts']),
  });
  const seller = businesses.data?.find((business) => business.id === businessId) as Record<string, unknown> | undefined;
  if (!seller) return null;
  const tin = tinAt(seller.tin, place.data?.branch_code);
  const named = (reference: unknown) => (reference as { display?: string } | null)?.display;
  const placeName = place.data ? String(place.data.name) : named(record.branch ?? record.warehouse);
  const buyer: Record<string, unknown> | undefined = contact.data ?? (contactId > 0 ? { name: named(record.contact) ?? '' } : undefined);
  const partyLabel = definition.fields.contact_id?.contactType ?? 'Contact';
  return (
    <section aria-label="Particulars" className="relative hidden space-y-3 text-sm print:block">
      {record.status === 'void' && (
        <p
          className="pointer-events-none absolute inset-x-0 top-8 text-center text-7xl font-bold tracking-widest text-black/25"
          aria-label="Void"
        >
          VOID
        </p>
      )}
      <div>
        <p className="text-base font-semibold">{present(seller.registered_name) ? seller.registered_name : String(seller.name)}</p>
        {present(seller.trade_name) && <p>Business name: {seller.trade_name}</p>}
        {present(seller.address) && <p>{seller.address}</p>}
        {tin && (
          <p>
            {seller.vat_registered ? 'VAT Reg.' : 'Non-VAT Reg.'} TIN: {tin}
          </p>
        )}
        {placeName && (
          <p>
            {placeResource === 'branches' ? 'Branch' : 'Warehouse'}: {placeName}
            {present(place.data?.address) && `, ${place.data.address}`}
          </p>
        )}
      </div>
      {buyer && (
        <div>
          <p>
            {partyLabel}: <span className="font-semibold">{String(buyer.name)}</span>
          </p>
          {present(buyer.address) && <p>Address: {buyer.address}</p>}
          {present(buyer.tin) && <p>TIN: {buyer.tin}</p>}
        </div>
      )}
    </section>
  );
}
