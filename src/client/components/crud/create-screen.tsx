import { useQuery } from '@tanstack/react-query';
import { Navigate, useNavigate, useParams, useRouter, useSearch } from '@tanstack/react-router';
import { permissionName } from '../../../domain/permissions';
import { findResource, getResource } from '../../../domain/resources/registry';
import { recordQuery } from '../../lib/resource-queries';
import { useActiveBusinessId, useCan } from '../../lib/session';
import { NotFoundScreen } from '../layout/not-found-screen';
import { ProgressBar } from '../ui/progress-bar';
import { documentStartingValues, restockDisplays, restocks, restockValues, sourceDisplays, type SourceLink } from '../documents/prefill';
import { RecordForm, startingValues } from './record-form';
import { ResourceBreadcrumb } from './resource-breadcrumb';

/** `/x/create` and `/x/create/{id}` (a copy of record {id}); without create permission, back to the index. */
/** `/stock-transfers/create/from-stock-request/{id}`: the transfer screen, made from the request. */
export function TransferFromRequestScreen() {
  return <CreateScreen resourceName="stock-transfers" />;
}

/** `/stock-transfers/create/from-stock-return/{id}`: the transfer carrying a return's goods back. */
export function TransferFromReturnScreen() {
  return <CreateScreen resourceName="stock-transfers" sourceLink={{ field: 'stock_return_id', resource: 'stock-returns' }} />;
}

/**
 * `sourceLink`: what `{from}` names when not the document's usual source (a transfer made from a
 * return rather than a request).
 */
export function CreateScreen({ resourceName, sourceLink }: { resourceName?: string; sourceLink?: SourceLink } = {}) {
  const params = useParams({ strict: false }) as { resource?: string; from?: string };
  const resource = resourceName ?? params.resource ?? '';
  const { from } = params;
  const { redirect_to: redirectTo, restock } = useSearch({ strict: false }) as { redirect_to?: string; restock?: number };
  const definition = findResource(resource);
  const navigate = useNavigate();
  const router = useRouter();
  const businessId = useActiveBusinessId();
  const canCreate = useCan(definition ? permissionName('create', definition.permission) : 'never');
  const fromId = from && /^\d+$/.test(from) ? Number(from) : undefined;
  // A document is made from its source document (a receive order from its purchase order);
  // any other record from a copy of one of its own.
  const link = sourceLink ?? definition?.document?.source;
  const sourceDefinition = link ? getResource(link.resource) : definition;
  const source = useQuery({
    ...recordQuery(businessId, sourceDefinition ?? ({ name: '' } as never), fromId ?? 0),
    enabled: Boolean(sourceDefinition && fromId),
  });

  const restocking = Boolean(definition && restocks(definition) && restock && !fromId);
  const stock = useQuery({ ...recordQuery(businessId, getResource('stocks'), restock ?? 0), enabled: restocking });

  if (!definition || definition.readOnly) return <NotFoundScreen what="page" />;
  if (!canCreate) return <Navigate to="/$resource" params={{ resource: definition.name }} replace />;
  if (fromId && !source.data && !source.error) return <ProgressBar active />;
  if (restocking && !stock.data && !stock.error) return <ProgressBar active />;
  const restocked = restocking ? stock.data : undefined;

  return (
    <div className="max-w-4xl space-y-4">
      <ResourceBreadcrumb definition={definition} current={`Create ${definition.singular}`} />
      <h1 className="text-2xl font-semibold tracking-tight">Create {definition.singular}</h1>
      {fromId && source.data && (
        <p className="text-sm text-muted-foreground">
          {definition.document
            ? `From ${sourceDefinition?.singular ?? ''} ${String(source.data.number ?? `#${fromId}`)}.`
            : `Starting from a copy of #${fromId}; unique fields are left blank.`}
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
        known={restocked ? restockDisplays(definition, restocked) : sourceDisplays(definition, source.data, link)}
        initial={
          restocked
            ? restockValues(definition, restocked)
            : definition.document
              ? documentStartingValues(definition, source.data, link)
              : startingValues(definition, source.data, true)
        }
        onSaved={() => {
          // Within the app, so the success toast stays in sight.
          if (redirectTo) router.history.push(redirectTo);
          else void navigate({ to: '/$resource', params: { resource: definition.name } });
        }}
      />
    </div>
  );
}
