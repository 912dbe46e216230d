import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Navigate, useNavigate, useParams, useRouter, useSearch } from '@tanstack/react-router';
import type { ResourceDefinition } from '../../../domain/resource';
import { getResource } from '../../../domain/resources/registry';
import { api, describeError } from '../../lib/api';
import { useOnline } from '../../lib/online';
import { usePlaces } from '../../lib/places';
import { recordQuery, resourceKey, type ApiRecord } from '../../lib/resource-queries';
import { useActiveBusinessId, useWorkplace } from '../../lib/session';
import { CreateHeading } from '../crud/create-screen';
import type { FormValues } from '../crud/field-input';
import { RecordForm } from '../crud/record-form';
import { useScreenAccess } from '../crud/screen-access';
import { ProgressBar } from '../ui/progress-bar';
import { HeadedSection } from '../headed-section';
import { nextNumber, nextReferenceNumber, numberCountBody, numberingInputs, referenceCountBody } from './number-preview';
import { atOwnPlace, documentStartingValues, restockDisplays, restocks, restockValues, sourceDisplays, type SourceLink } from './prefill';

/** `/stock-transfers/create/from-stock-request/{id}`: the transfer screen, made from the request. */
export function TransferFromRequestScreen() {
  return <DocumentCreateScreen definition={getResource('stock-transfers')} />;
}

/** `/stock-transfers/create/from-stock-return/{id}`: the transfer carrying a return's goods back. */
export function TransferFromReturnScreen() {
  return (
    <DocumentCreateScreen
      definition={getResource('stock-transfers')}
      sourceLink={{ field: 'stock_return_id', resource: 'stock-returns' }}
    />
  );
}

/**
 * `/x/create` of a document, and `/x/create/{id}` made from its source document (a receive order
 * from its purchase order), or `?restock={stock id}` for a low stock. It shows the numbers the
 * document will probably get. `sourceLink`: what `{id}` names when not the document's usual
 * source (a transfer made from a return rather than a request).
 */
export function DocumentCreateScreen({ definition, sourceLink }: { definition: ResourceDefinition; sourceLink?: SourceLink }) {
  const { from } = useParams({ strict: false }) as { from?: string };
  const { restock } = useSearch({ strict: false }) as { restock?: number };
  const businessId = useActiveBusinessId();
  const allowed = useScreenAccess(definition, 'create');
  const afterCreate = useAfterDocumentSaved(definition);
  const fromId = from && /^\d+$/.test(from) ? Number(from) : undefined;
  const link = sourceLink ?? definition.document?.source;
  const sourceDefinition = link ? getResource(link.resource) : definition;
  const source = useQuery({ ...recordQuery(businessId, sourceDefinition, fromId ?? 0), enabled: fromId !== undefined });
  const restocking = Boolean(restocks(definition) && restock && !fromId);
  const stock = useQuery({ ...recordQuery(businessId, getResource('stocks'), restock ?? 0), enabled: restocking });
  const workplace = useWorkplace();
  const places = usePlaces();

  if (!allowed('create') && fromId === undefined) return <Navigate to="/$resource" params={{ resource: definition.name }} replace />;
  if (!allowed('create') || (fromId && source.error)) {
    // Made from a document the user cannot make it from: say why rather than open a blank form.
    const why = !allowed('create')
      ? `You do not have permission to create ${definition.plural.toLowerCase()}.`
      : describeError(source.error);
    return (
      <div className="max-w-4xl space-y-4">
        <CreateHeading definition={definition} />
        <div role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-4 text-destructive">
          <p className="font-medium">
            No {definition.singular.toLowerCase()} can be made from {sourceDefinition.singular.toLowerCase()} #{fromId} here.
          </p>
          <p className="text-sm">{why}</p>
        </div>
      </div>
    );
  }
  if (fromId && !source.data) return <ProgressBar active />;
  // The form starts at the user's own place, which the list of places says.
  if (places.loading) return <ProgressBar active />;
  if (restocking && !stock.data && !stock.error) return <ProgressBar active />;
  const restocked = restocking ? stock.data : undefined;
  // Each source document, and each low stock, has a draft of its own.
  const madeFrom = fromId ? `/from/${sourceLink ? `${sourceLink.resource}/` : ''}${fromId}` : restocked ? `/restock/${restock}` : '';
  const started = restocked
    ? { values: restockValues(definition, restocked), known: restockDisplays(definition, restocked) }
    : fromId
      ? { values: documentStartingValues(definition, source.data, link), known: sourceDisplays(definition, source.data, link) }
      : atOwnPlace(definition, documentStartingValues(definition), places.places, workplace);

  return (
    <div className="max-w-4xl space-y-4">
      <CreateHeading definition={definition} />
      {fromId && source.data && (
        <p className="text-sm text-muted-foreground">
          From {sourceDefinition.singular} {String(source.data.number ?? `#${fromId}`)}.
        </p>
      )}
      {restocked && (
        <p className="text-sm text-muted-foreground">
          To restock {String((restocked.item as { display?: string } | null)?.display ?? '')} at{' '}
          {String((restocked.location as { display?: string } | null)?.display ?? '')}: {String(restocked.quantity_on_hand)} on hand,
          reorder level {String(restocked.reorder_level)}.
        </p>
      )}
      <RecordForm
        key={fromId ?? (restocked ? `restock-${restock}` : 'new')}
        definition={definition}
        known={started.known}
        initial={started.values}
        draftKey={`${definition.name}/create${madeFrom}`}
        onSaved={afterCreate}
        preface={(values, fill) => (
          <>
            <ProvisionalNumbers definition={definition} values={values} />
            {'due_date' in definition.fields && <DueFromTerms values={values} fill={fill} />}
          </>
        )}
        // Another of the same would start blank, without the document it was made from.
        hide={fromId ? ['return-here'] : undefined}
      />
    </div>
  );
}

/**
 * Where a saved document leads: where `redirect_to` says; a payment back to the invoice or bill it
 * pays, which shows the new balance; any other document to its own screen. The form is replaced
 * in the history, so Back does not reopen it with what it was filled with.
 */
function useAfterDocumentSaved(definition: ResourceDefinition) {
  const { redirect_to: redirectTo } = useSearch({ strict: false }) as { redirect_to?: string };
  const navigate = useNavigate();
  const router = useRouter();
  const queryClient = useQueryClient();
  const businessId = useActiveBusinessId();
  const link = definition.document?.source;
  const settles = link && definition.document?.lines === 'none' ? link : undefined;
  return (saved: { id: number | string }, values: FormValues) => {
    // What the document changed elsewhere (a balance, a status) is read again.
    if (link) void queryClient.invalidateQueries({ queryKey: resourceKey(businessId, getResource(link.resource)) });
    const settled = settles ? Number(values[settles.field]) : NaN;
    if (redirectTo) router.history.replace(redirectTo);
    else if (settles && Number.isInteger(settled) && settled > 0)
      void navigate({ to: '/$resource/$id', params: { resource: settles.resource, id: String(settled) }, replace: true });
    else void navigate({ to: '/$resource/$id', params: { resource: definition.name, id: String(saved.id) }, replace: true });
  };
}

/** The date `days` after an ISO date. */
export function addDays(date: string, days: number): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

/**
 * The due date follows the contact's payment terms (date + terms days) while the user has not
 * typed one of their own: picking the customer, or changing the date, fills it again.
 */
function DueFromTerms({ values, fill }: { values: FormValues; fill: (name: string, value: unknown) => void }) {
  const businessId = useActiveBusinessId();
  const contactId = Number(values.contact_id);
  const contact = useQuery({ ...recordQuery(businessId, getResource('contacts'), contactId), enabled: contactId > 0 });
  const filled = useRef<string | null>(null);
  const terms = contact.data?.payment_terms_days;
  const date = typeof values.date === 'string' ? values.date : '';
  const due = typeof terms === 'number' && /^\d{4}-\d{2}-\d{2}$/.test(date) ? addDays(date, terms) : null;
  const current = values.due_date === null || values.due_date === undefined ? '' : String(values.due_date);
  useEffect(() => {
    if (!due || due === current || (current !== '' && current !== filled.current)) return;
    filled.current = due;
    fill('due_date', due);
  }, [due, current, fill]);
  return null;
}

/**
 * The number and reference number the document will probably get, refreshed as its date, place
 * and contact change: the server assigns them when it saves the document (offline: when it syncs),
 * and another document saved first takes the next one.
 */
function ProvisionalNumbers({ definition, values }: { definition: ResourceDefinition; values: FormValues }) {
  const spec = definition.document;
  const businessId = useActiveBusinessId();
  const online = useOnline();
  // A payment's party and place are its bill's, a receipt's its transfer's: read from the one picked.
  const link = spec?.source;
  const takesFromSource = ['contact_id', 'branch_id', 'from_location_type'].some((name) => definition.fields[name]?.computed);
  const linkedId = link ? Number(values[link.field] ?? 0) : 0;
  const linked = useQuery({
    ...recordQuery(businessId, getResource(link?.resource ?? definition.name), linkedId),
    enabled: Boolean(link && takesFromSource && linkedId > 0),
  });
  const inputs = numberingInputs(definition, values, linked.data as ApiRecord | undefined);
  const { location, contactId } = inputs;
  const numbered = useQuery({
    queryKey: [businessId, definition.name, 'number-total', location],
    queryFn: () =>
      api<{ total: number }>('POST', '/api/documents/get-number-total-count', { body: numberCountBody(spec?.type ?? '', location!) }),
    enabled: Boolean(spec && location && online),
  });
  const referenced = useQuery({
    queryKey: [businessId, definition.name, 'reference-number-total', contactId],
    queryFn: () =>
      api<{ total: number }>('POST', '/api/documents/get-reference-number-total-count', {
        body: referenceCountBody(spec?.type ?? '', contactId!),
      }),
    enabled: Boolean(spec && contactId && online),
  });
  if (!spec) return null;

  const picking = takesFromSource && link ? getResource(link.resource).singular.toLowerCase() : undefined;
  const waiting = (what: string) => (picking ? `Pick the ${picking} to see it.` : `Pick ${what} to see it.`);
  /** A number once its series' total is known; else what it waits for. */
  const shown = (figure: (total: number) => string, answer: typeof numbered, missing: string | undefined) =>
    !online ? (
      'Assigned when it syncs'
    ) : missing ? (
      missing
    ) : answer.data ? (
      <span className="font-mono">{figure(answer.data.total)}</span>
    ) : answer.isError ? (
      'Could not be previewed'
    ) : (
      '…'
    );
  const number = shown(
    (total) => nextNumber(spec.prefix, { ...inputs, location: location! }, total),
    numbered,
    location ? undefined : waiting(spec.twoLocations ? 'the from location' : 'a branch or warehouse'),
  );
  const hasReference = 'contact_id' in definition.fields;
  const reference = shown(
    (total) => nextReferenceNumber({ ...inputs, contactId: contactId! }, total),
    referenced,
    contactId ? undefined : waiting(`the ${(spec.contact ?? 'contact').toLowerCase()}`),
  );

  return (
    <HeadedSection
      headingId="provisional-heading"
      title="Provisional numbers"
      className="rounded-lg border border-dashed bg-muted/40 p-3 text-sm"
      headingClassName="font-medium"
    >
      <dl className="mt-1 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        <dt className="text-muted-foreground">Number</dt>
        <dd className="break-all">{number}</dd>
        {hasReference && (
          <>
            <dt className="text-muted-foreground">Reference number</dt>
            <dd className="break-all">{reference}</dd>
          </>
        )}
      </dl>
      <p className="mt-1 text-muted-foreground">
        {online
          ? 'Probable only: the numbers are assigned when it is saved, and a document saved first takes the next one.'
          : 'Offline: the numbers are assigned when it syncs with the server.'}
      </p>
    </HeadedSection>
  );
}
