import { useQuery } from '@tanstack/react-query';
import { Navigate, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { permissionName } from '../../../domain/permissions';
import { findResource, getResource } from '../../../domain/resources/registry';
import { recordQuery } from '../../lib/resource-queries';
import { useActiveBusinessId, useCan } from '../../lib/session';
import { NotFoundScreen } from '../layout/not-found-screen';
import { ProgressBar } from '../ui/progress-bar';
import { documentStartingValues, sourceDisplays, type SourceLink } from '../documents/prefill';
import { RecordForm, startingValues } from './record-form';
import { ResourceBreadcrumb } from './resource-breadcrumb';

/** `/x/create` and `/x/create/{id}` (a copy of record {id}); without create permission, back to the index. */
/** `/stock-transfers/create/from-stock-request/{id}` (spec 2.3): the transfer screen, made from the request. */
export function TransferFromRequestScreen() {
  return <CreateScreen resourceName="stock-transfers" />;
}

/** `/stock-transfers/create/from-stock-return/{id}` (spec 2.3): the transfer carrying a return's goods back. */
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
  const { redirect_to: redirectTo } = useSearch({ strict: false }) as { redirect_to?: string };
  const definition = findResource(resource);
  const navigate = useNavigate();
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

  if (!definition || definition.readOnly) return <NotFoundScreen what="page" />;
  if (!canCreate) return <Navigate to="/$resource" params={{ resource: definition.name }} replace />;
  if (fromId && !source.data && !source.error) return <ProgressBar active />;

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
      <RecordForm
        key={fromId ?? 'new'}
        definition={definition}
        known={sourceDisplays(definition, source.data, link)}
        initial={
          definition.document ? documentStartingValues(definition, source.data, link) : startingValues(definition, source.data, true)
        }
        onSaved={() => {
          if (redirectTo) window.location.assign(redirectTo);
          else void navigate({ to: '/$resource', params: { resource: definition.name } });
        }}
      />
    </div>
  );
}
